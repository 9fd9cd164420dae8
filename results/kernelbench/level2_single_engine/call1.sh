#!/usr/bin/env bash
# call 1: the new time_pair on the GPU: smoke test, L2/61 re-measured alone, then the whole run.
set -u
OUT=$1
start=$(date +%s)
t() { echo "[$(( $(date +%s) - start ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "import torch,triton;print(torch.__version__,triton.__version__)"
t smoke
timeout 120 python3 tests/python/gpu_gates_smoke.py /tmp/smoke > $OUT/smoke.txt 2>&1; t "smoke rc=$?"
tail -5 $OUT/smoke.txt
d=$(ls -d runs/l2single/search/level2_61_*)
cp -r $d /tmp/r61
t "remeasure 61 alone"
timeout 150 build/dev/kernelopt_new remeasure /tmp/r61 --samples 30 > $OUT/remeasure61.txt 2>&1; t "rc=$?"
cat $OUT/remeasure61.txt; cp /tmp/r61/remeasure.json $OUT/remeasure61.json
pack() { tar czf $OUT/runs.tgz.tmp --exclude=inductor-cache --exclude=capture --exclude=work --exclude=remeasure runs/l2single && mv $OUT/runs.tgz.tmp $OUT/runs.tgz; }
left=$(( 570 - ($(date +%s) - start) ))
t "remeasure all, $left s"
timeout -s KILL $left build/dev/kernelopt_new remeasure runs/l2single --samples 30 > runs/l2single/remeasure_log_all.txt 2>&1; t "rc=$?"
cat runs/l2single/remeasure_log_all.txt
pack
