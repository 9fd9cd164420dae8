#!/usr/bin/env bash
# Session 29: on an H200, runs/l3s28b grown with the engine and worker it started with (a0897cf);
# on any other GPU with VALIDATE=1 (the first call), main's engine (build/main) checks L3/35 and L3/31 into runs/val_s29 instead.
# Usage: call_s29.sh OUT CALL_S TIMEOUT:N,N... [TIMEOUT:N...]
set -u
OUT=$1 CALL_S=$2; shift 2
start=$(date +%s)
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)
echo "$gpu"
python3 -c 'import sys, torch, triton; print("python", sys.version.split()[0], "torch", torch.__version__, "triton", triton.__version__)'
mkdir -p "$OUT"
left() { echo $(( CALL_S - 20 - ($(date +%s) - start) )); }
if [[ "$gpu" == *H200* ]]; then
  export KERNELOPT_PYTHON_DIR=$PWD/build/dev/frozen_a0897cf/python
  bin=$PWD/build/dev/kernelopt_a0897cf run=runs/l3s28b
else
  [[ -n "${VALIDATE:-}" ]] || { echo "not an H200: nothing run"; exit 0; }
  bin=$PWD/build/main/kernelopt run=runs/val_s29
  set -- 300:35,31
fi
"$bin" --version 2>/dev/null || true
echo "engine $bin run $run worker ${KERNELOPT_PYTHON_DIR:-repo python/}"
for group in "$@"; do
  t=${group%%:*} ns=${group#*:}
  PROBLEM_TIMEOUT=$t SINGLE_RUN=1 bash scripts/gpu/bench_each.sh "$bin" "$OUT" "$(left)" .kb 3 "$run" ${ns//,/ }
done
echo "call done at $(( $(date +%s) - start )) s"
