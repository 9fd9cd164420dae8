#!/usr/bin/env bash
# Session 31: optimize the reverse-scan graph-break example with main's engine.
set -u
OUT=$1 CALL_S=$2
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
python3 -c 'import sys, torch, triton; print("python", sys.version.split()[0], "torch", torch.__version__, "triton", triton.__version__)'
mkdir -p "$OUT" runs
timeout -s KILL $(( CALL_S - 15 )) build/main/kernelopt optimize examples/reverse_cumsum_eager_tanh.py \
  -o runs/ex_s31 --budget 90 --samples 30 --gate-timeout 60 --json "$OUT/optimize.json" > "$OUT/optimize_log.txt" 2>&1
echo "optimize rc=$? at $(( $(date +%s) - start )) s"
tail -40 "$OUT/optimize_log.txt"
tar czf "$OUT/run.tgz" --exclude=inductor-cache --exclude=capture --exclude=work runs/ex_s31 2>/dev/null
echo "call done at $(( $(date +%s) - start )) s"
