#!/usr/bin/env bash
# Session 31, on an H100 with main's final engine (391a614): the reverse-scan graph-break example
# again (runs/ex_s31c), then L1/91, 93 and 89 (the scan recipe's problems) benched one at a time.
set -u
OUT=$1 CALL_S=$2
start=$(date +%s)
left() { echo $(( CALL_S - 20 - ($(date +%s) - start) )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
python3 -c 'import sys, torch, triton; print("python", sys.version.split()[0], "torch", torch.__version__, "triton", triton.__version__)'
mkdir -p "$OUT/ex" runs
timeout -s KILL "$(left)" build/main/kernelopt optimize examples/reverse_cumsum_eager_tanh.py \
  -o runs/ex_s31c --budget 90 --samples 30 --gate-timeout 60 --json "$OUT/ex/optimize.json" > "$OUT/ex/optimize_log.txt" 2>&1
echo "optimize rc=$? at $(( $(date +%s) - start )) s"
tail -3 "$OUT/ex/optimize_log.txt"
tar czf "$OUT/ex/run.tgz" --exclude=inductor-cache --exclude=capture --exclude=work runs/ex_s31c 2>/dev/null
PROBLEM_TIMEOUT=300 SINGLE_RUN=1 bash scripts/gpu/bench_each.sh "$PWD/build/main/kernelopt" "$OUT" "$(left)" .kb 1 runs/l1scan_s31 91 93 89
echo "call done at $(( $(date +%s) - start )) s"
