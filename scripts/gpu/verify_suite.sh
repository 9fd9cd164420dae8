#!/usr/bin/env bash
# `kernelopt verify` on hand-written candidates for problem files, one verify (fresh worker) per
# pair, each under a time limit, stopping before a budget runs out. After every pair the results
# so far are packed into OUT/verify_runs.tgz (per pair: <stem>.json, the verify document;
# <stem>.txt, what verify printed; log.txt) and the optimized/ folders of accepted candidates
# into OUT/optimized.tgz, so a command killed at its limit still leaves them.
# Usage: scripts/gpu/verify_suite.sh BINARY OUT BUDGET_SECONDS PROBLEM.py CANDIDATE.py [...]
#   The candidate replaces seg0 of the problem; write SEGMENT=CANDIDATE.py for another segment.
set -u
bin=$1 out=$2 budget=$3
shift 3
if (( $# % 2 != 0 )); then echo "verify_suite.sh: PROBLEM CANDIDATE pairs expected" >&2; exit 2; fi
mkdir -p "$out"
work=$(mktemp -d)
mkdir -p "$work/docs" "$work/runs"
start=$(date +%s)
while (( $# > 0 )); do
  problem=$1 candidate=$2
  shift 2
  [[ $candidate == *=* ]] || candidate="seg0=$candidate"
  stem=$(basename "$(dirname "$problem")")_$(basename "$problem" .py)
  left=$(( budget - ($(date +%s) - start) ))
  if (( left < 60 )); then echo "$stem: skipped (budget spent)" | tee -a "$work/docs/log.txt"; continue; fi
  t0=$(date +%s)
  timeout -k 10 "$left" "$bin" verify "$problem" --candidate "$candidate" -o "$work/runs/$stem" \
    --json "$work/docs/$stem.json" --gate-timeout 120 --samples 30 > "$work/docs/$stem.txt" 2>&1
  echo "$stem rc=$? $(( $(date +%s) - t0 ))s" | tee -a "$work/docs/log.txt"
  tail -n 25 "$work/docs/$stem.txt"
  (cd "$work/docs" && tar czf "$out/verify_runs.tgz.tmp" . && mv "$out/verify_runs.tgz.tmp" "$out/verify_runs.tgz")
  (cd "$work/runs" && find . -path '*/optimized/*' -type f | tar czf "$out/optimized.tgz" -T -)
done
