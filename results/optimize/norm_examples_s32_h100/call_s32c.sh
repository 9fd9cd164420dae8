#!/usr/bin/env bash
# Session 32, call C: norm_dim on the GPU (correctness in three dtypes), then `optimize` with main's
# engine on the three norm examples, each under what is left of the call.
set -u
OUT=$1 CALL_S=$2; shift 2
start=$(date +%s)
left() { echo $(( CALL_S - 15 - ($(date +%s) - start) )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
python3 -c 'import sys, torch, triton; print("python", sys.version.split()[0], "torch", torch.__version__, "triton", triton.__version__)'
mkdir -p "$OUT/check" runs
PYTHONPATH=python timeout 150 python3 scripts/gpu/norm_dim_check.py "$OUT/check/norm_dim_check.jsonl" > "$OUT/check/log.txt" 2>&1
echo "check rc=$? at $(( $(date +%s) - start )) s"; tail -1 "$OUT/check/log.txt"
for ex in "$@"; do
  (( $(left) > 60 )) || { echo "no time for $ex"; continue; }
  mkdir -p "$OUT/$ex"
  timeout -s KILL "$(left)" build/main/kernelopt optimize examples/$ex.py -o runs/opt_s32/$ex \
    --budget 60 --samples 30 --gate-timeout 60 --json "$OUT/$ex/optimize.json" > "$OUT/$ex/optimize_log.txt" 2>&1
  echo "optimize $ex rc=$? at $(( $(date +%s) - start )) s"; tail -4 "$OUT/$ex/optimize_log.txt"
  tar czf "$OUT/$ex/run.tgz" --exclude=inductor-cache --exclude=work runs/opt_s32/$ex 2>/dev/null
done
echo "call done at $(( $(date +%s) - start )) s"
