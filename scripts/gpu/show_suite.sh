#!/usr/bin/env bash
# Runs `kernelopt doctor` and `kernelopt show` over problem files on a GPU machine, one fresh
# worker per problem, each under a time limit, stopping before a budget runs out. After every
# problem the results so far are packed into OUT/show.tgz (the device tool returns at most 8
# files, and a command killed at its limit must still leave them), with OUT/graphs.tgz (the
# captured output code, for parser fixtures).
# Usage: scripts/gpu/show_suite.sh BINARY OUT BUDGET_SECONDS PROBLEM.py...
set -u
bin=$1 out=$2 budget=$3
shift 3
work=$(mktemp -d)
mkdir -p "$work/show" "$work/runs"
start=$(date +%s)
"$bin" doctor > "$work/show/doctor.txt" 2>&1
cat "$work/show/doctor.txt"
for p in "$@"; do
  left=$(( budget - ($(date +%s) - start) ))
  if (( left < 30 )); then echo "budget spent; skipped $p" | tee -a "$work/show/skipped.txt"; continue; fi
  lvl=$(basename "$(dirname "$p")")
  name=$(basename "$p" .py)
  t0=$(date +%s)
  timeout -k 5 "$left" "$bin" show "$p" --json "$work/show/${lvl}_${name}.json" \
    -o "$work/runs/${lvl}_${name}" --timeout "$left" -q > "$work/show/${lvl}_${name}.txt" 2>&1
  echo "$lvl/$name rc=$? $(( $(date +%s) - t0 ))s" | tee -a "$work/show/log.txt"
  (cd "$work/show" && tar czf "$out/show.tgz.tmp" . && mv "$out/show.tgz.tmp" "$out/show.tgz")
  (cd "$work/runs" && find . -name 'graph_*.py' ! -name '*.timed.py' | tar czf "$out/graphs.tgz" -T -)
done
