#!/usr/bin/env bash
# `optimize` on each problem twice with one cache of verified segments: the first run searches and
# records what it verified, the second finds it in the cache and only re-checks it with the gates.
# Each run's printout, progress, optimize.json and time go to RUN_DIR/report/, packed into
# OUT/optimize_twice.tgz after every run (so a call stopped at its limit returns what ran).
# Usage: [BUDGET=S] scripts/gpu/optimize_twice.sh BINARY OUT RUN_DIR PROBLEM.py...
# (BUDGET: the search's --budget in seconds, default optimize's own.)
set -u
bin=$1 out=$2 run=$3
shift 3
rep="$run/report"
mkdir -p "$run/cache" "$rep"
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  python3 -c 'import sys, torch, triton; print("python", sys.version.split()[0], "torch",
    torch.__version__, "triton", triton.__version__)'
} > "$rep/environment.txt" 2>&1
for p in "$@"; do
  name=$(basename "$p" .py)
  for pass in first second; do
    o="$run/$pass/$name"
    mkdir -p "$o"
    start=$(date +%s%N)
    "$bin" optimize "$p" -o "$o" --cache "$run/cache" --gate-timeout 120 --samples 30 ${BUDGET:+--budget "$BUDGET"} \
      --json "$rep/$name.$pass.json" > "$rep/$name.$pass.txt" 2> "$rep/$name.$pass.progress.txt"
    rc=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    echo "$name $pass rc=$rc wall_ms=$ms" | tee -a "$rep/times.txt"
    tail -3 "$rep/$name.$pass.txt"
    tar czf "$out/optimize_twice.tgz" -C "$run" report
  done
done
