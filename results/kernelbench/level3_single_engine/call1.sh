#!/usr/bin/env bash
# call 1 (session 22): the confirmation step checked on a built-in example, then the single-engine
# L3 run started (engine c28c09a, main's worker), one problem at a time into runs/l3single.
set -u
OUT=$1
start=$(date +%s)
t() { echo "[$(( $(date +%s) - start ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
mkdir -p runs
t "example: optimize examples/l2_norm_rows.py"
timeout -s KILL 150 build/dev/kernelopt optimize examples/l2_norm_rows.py -o runs/confirm_example \
  --budget 25 --samples 30 > runs/confirm_example.log 2>&1
t "rc=$?"; tail -6 runs/confirm_example.log; mv runs/confirm_example.log runs/confirm_example/optimize_log.txt
python3 -c 'import json; d=json.load(open("runs/confirm_example/optimize.json")); print(json.dumps(d.get("confirmation"), indent=1)[:1500])'
tar czf $OUT/example.tgz --exclude=inductor-cache --exclude=capture --exclude=work runs/confirm_example
left=$(( 570 - ($(date +%s) - start) ))
t "single-engine L3 run, $left s"
PROBLEM_TIMEOUT=300 SINGLE_RUN=1 bash scripts/gpu/bench_each.sh $PWD/build/dev/kernelopt $OUT $left .kb 3 runs/l3single "$@"
t "end"
