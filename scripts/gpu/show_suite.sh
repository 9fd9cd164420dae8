#!/usr/bin/env bash
# Runs `kernelopt doctor` and `kernelopt show` over problem files on a GPU machine, one fresh
# worker per problem, stopping before a time budget runs out. Results: OUT/show/*.json, logs,
# and OUT/graphs.tgz (the captured output code, for parser fixtures).
# Usage: scripts/gpu/show_suite.sh BINARY OUT BUDGET_SECONDS PROBLEM.py...
set -u
bin=$1 out=$2 budget=$3
shift 3
mkdir -p "$out/show"
runs=$(mktemp -d)
start=$(date +%s)
"$bin" doctor > "$out/doctor.txt" 2>&1
cat "$out/doctor.txt"
for p in "$@"; do
  now=$(date +%s)
  if (( now - start > budget )); then echo "budget spent; skipped $p" | tee -a "$out/skipped.txt"; continue; fi
  lvl=$(basename "$(dirname "$p")")
  name=$(basename "$p" .py)
  t0=$(date +%s)
  "$bin" show "$p" --json "$out/show/${lvl}_${name}.json" -o "$runs/${lvl}_${name}" --timeout 400 -q \
    > "$out/show/${lvl}_${name}.txt" 2>&1
  echo "$lvl/$name rc=$? $(( $(date +%s) - t0 ))s"
done
(cd "$runs" && find . -name 'graph_*.py' ! -name '*.timed.py' | tar czf "$out/graphs.tgz" -T -)
(cd "$out/show" && tar czf "$out/show.tgz" .)
rm -rf "$out/show"
