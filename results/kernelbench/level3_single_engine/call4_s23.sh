#!/usr/bin/env bash
# Session 23 device calls: the single-engine runs resumed, each with its own frozen engine and
# worker; main's engine (build/dev/kernelopt_new) re-measures the new replacements afterwards.
# Usage: bash call4_s23.sh OUT LEVEL CALL_SECONDS N... (run from the repo root, as runs/s23call.sh)
# build/dev holds kernelopt2 + frozen2/python (49073fd, the L2 run), kernelopt3 + frozen3/python
# (c28c09a, the L3 run) and kernelopt_new (main's a103dcf), each stripped Release binaries.
set -u
OUT=$1 level=$2 call_s=$3; shift 3
start=$(date +%s)
t() { echo "[$(( $(date +%s) - start ))s] $*"; }
if [[ $level == 2 ]]; then bin=kernelopt2 py=frozen2 run=runs/l2single pt=200; else
  bin=kernelopt3 py=frozen3 run=runs/l3single pt=300; fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c 'import torch, triton; print(torch.__version__, triton.__version__)'
mkdir -p $OUT/bench
t "frozen run L$level: $*"
PROBLEM_TIMEOUT=$pt SINGLE_RUN=1 REMEASURE=0 BENCH_PYTHON_DIR=$PWD/build/dev/$py/python \
  bash scripts/gpu/bench_each.sh $PWD/build/dev/$bin $OUT/bench $(( call_s - 75 )) .kb $level $run "$@"
left=$(( call_s - ($(date +%s) - start) ))
t "remeasure the new rows with main's engine, $left s"
timeout -s KILL $left build/dev/kernelopt_new remeasure $run --samples 30 > $run/remeasure_log_s23_$1.txt 2>&1
t "rc=$?"; tail -8 $run/remeasure_log_s23_$1.txt
tar czf $OUT/runs.tgz.tmp --exclude=inductor-cache --exclude=capture --exclude=work --exclude=remeasure $run && mv $OUT/runs.tgz.tmp $OUT/runs.tgz
t done
