#!/usr/bin/env bash
# What the gates cost a candidate, before and after a change to them: `kernelopt verify` of the
# same candidates on the same problems with two builds (each an engine binary and its worker's
# Python folder), the two taking turns problem by problem on one GPU, then
# scripts/gpu/gate_cost.py sums up each gate's seconds (G1-G4, worker and recomposition included,
# as the store records them) and each verify's wall time.
# Usage: scripts/gpu/gate_cost.sh OUT BEFORE_BINARY BEFORE_PYTHON_DIR AFTER_BINARY AFTER_PYTHON_DIR \
#          PROBLEM.py=CANDIDATE.py [...]
# Writes OUT/gate_cost.md and OUT/gate_cost.json (after every problem), OUT/<side>_<stem>.json and
# .txt (verify's document and output) and OUT/log.txt.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=$1
mkdir -p "$out"
out=$(cd "$out" && pwd)
declare -A bin=([before]=$(realpath "$2") [after]=$(realpath "$4"))
declare -A pydir=([before]=$(realpath "$3") [after]=$(realpath "$5"))
shift 5
py=$(command -v python3)
log() { echo "$*" | tee -a "$out/log.txt"; }
log "gate cost: $# problems, $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | tee -a "$out/log.txt"
for pair in "$@"; do
  problem=${pair%%=*}
  candidate=${pair#*=}
  stem=$(basename "$problem" .py)
  for side in before after; do
    t0=$(date +%s%N)
    KERNELOPT_PYTHON_DIR=${pydir[$side]} timeout -k 10 900 "${bin[$side]}" verify "$problem" \
      --candidate "seg0=$candidate" -o "$(mktemp -d)/run" --json "$out/${side}_$stem.json" \
      --gate-timeout 120 > "$out/${side}_$stem.txt" 2>&1
    rc=$?
    wall=$("$py" -c 'import sys; print(round((int(sys.argv[1]) - int(sys.argv[2])) / 1e9, 3))' "$(date +%s%N)" "$t0")
    echo "{\"side\": \"$side\", \"problem\": \"$stem\", \"rc\": $rc, \"wall_s\": $wall}" >> "$out/walls.jsonl"
    log "$side $stem rc=$rc ${wall}s"
  done
  "$py" "$here/gate_cost.py" "$out" > /dev/null 2>&1
done
"$py" "$here/gate_cost.py" "$out"
