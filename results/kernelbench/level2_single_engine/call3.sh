#!/usr/bin/env bash
# call 3: L2/61 searched by the engine with the capture rule, then 85 and 87 into the frozen run.
# frozen single-engine run grown by 79 and 83, their replacements re-measured by the new engine.
set -u
OUT=$1
start=$(date +%s)
t() { echo "[$(( $(date +%s) - start ))s] $*"; }
packall() { tar czf $OUT/runs.tgz.tmp --exclude=inductor-cache --exclude=capture --exclude=work --exclude=remeasure runs/l2single runs/l2_61_fix runs/l2_61_new && mv $OUT/runs.tgz.tmp $OUT/runs.tgz; }
t "61 with the new engine"
timeout -s KILL 230 build/dev/kernelopt_new bench .kb --level 2 --problems 61 -o runs/l2_61_fix \
  --search --budget 100 --timeout 200 --iters 20 --samples 30 --gate-timeout 120 -q > runs/l2_61_fix.log 2>&1
t "rc=$?"; tail -4 runs/l2_61_fix.log; mv runs/l2_61_fix.log runs/l2_61_fix/bench_log.txt
timeout -s KILL 60 build/dev/kernelopt_new remeasure runs/l2_61_fix --samples 30 > runs/l2_61_fix/remeasure_log.txt 2>&1
t "remeasure rc=$?"; cat runs/l2_61_fix/remeasure_log.txt
packall
left=$(( 560 - ($(date +%s) - start) - 60 ))
t "frozen run, $left s"
mkdir -p /tmp/o2; SINGLE_RUN=1 REMEASURE=0 BENCH_PYTHON_DIR=$PWD/build/dev/frozen/python \
  bash scripts/gpu/bench_each.sh $PWD/build/dev/kernelopt /tmp/o2 $left .kb 2 runs/l2single 85 87
left=$(( 570 - ($(date +%s) - start) ))
t "remeasure the new rows, $left s"
timeout -s KILL $left build/dev/kernelopt_new remeasure runs/l2single --samples 30 > runs/l2single/remeasure_log_call3.txt 2>&1
t "rc=$?"; cat runs/l2single/remeasure_log_call3.txt
packall
