#!/usr/bin/env bash
# The planted-candidate suite on a GPU machine: `kernelopt verify examples/row_sum.py` once per
# candidate of tests/planted/ (each in a fresh run directory, --gate-timeout 60, --samples 30; a
# candidate whose expected.json entry names its own "problem" is verified on that one),
# then scripts/gpu/check_planted.py compares the verdicts with tests/planted/expected.json.
#
# By default (PLANTED_EACH=1) one `verify --each` per problem checks each of its candidates alone
# with one shared capture; PLANTED_EACH=0 runs one verify per candidate instead.
# Usage: scripts/gpu/planted_suite.sh BINARY OUT [BUDGET_SECONDS] [CANDIDATE.py...]
#   BUDGET_SECONDS: stop starting candidates when less than 90 s of it is left (0 or absent: no
#   budget). Where one command may run only so long, a full suite may need several calls, each
#   naming the candidates still to run. CANDIDATE.py: names in tests/planted/ (default: all
#   of expected.json, in its order).
# Writes, after every candidate (a command killed at its limit still leaves them): OUT/planted.md,
# OUT/planted.json (the comparison), OUT/planted_runs.tgz (per candidate: <name>.json, the verify
# document; <name>.txt, verify's output; log.txt) and OUT/suite.txt (this script's log). Compare
# several calls' results together with
#   python3 scripts/gpu/check_planted.py --out DIR A/planted_runs.tgz B/planted_runs.tgz
# Exit status: check_planted.py's (0 all OK, 1 a mismatch, 2 some not run).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mkdir -p "$2"
out=$(cd "$2" && pwd)
py=$(command -v python3 || echo "$root/.venv/bin/python")
budget=0
shift 2
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then budget=$1; shift; fi
if [[ $# -gt 0 ]]; then
  names=("$@")
else
  mapfile -t names < <("$py" -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))["candidates"]))' \
    "$root/tests/planted/expected.json")
fi
work=$(mktemp -d)
mkdir -p "$work/json" "$work/runs"
start=$(date +%s)
cd "$root"
log() { echo "$*" | tee -a "$out/suite.txt"; }
log "planted suite: ${#names[@]} candidates, budget ${budget}s, $(date -u +%FT%TZ), commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | tee -a "$out/suite.txt"
pack() {
  (cd "$work/json" && tar czf "$out/planted_runs.tgz.tmp" . && mv "$out/planted_runs.tgz.tmp" "$out/planted_runs.tgz")
  "$py" "$here/check_planted.py" --expected "$root/tests/planted/expected.json" --out "$out" "$work/json" \
    > "$work/table.txt" 2>&1
  echo $?
}
problem_of() {  # the problem a planted file is verified on: its entry's "problem", else the suite's,
  # and after a "|" the compute-sanitizer tool its entry asks G2 to run ("" for none)
  "$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); e=d["candidates"].get(sys.argv[2], {}); print(e.get("problem", d["problem"]) + "|" + e.get("sanitize", ""))' \
    "$root/tests/planted/expected.json" "$(basename "$1")"
}
sanitize_args() {  # verify's --sanitize for a group key "PROBLEM|TOOL"
  [[ -n ${1#*|} ]] && echo "--sanitize ${1#*|}"
}
if [[ ${PLANTED_EACH:-1} == 1 ]]; then
  # One verify per problem for all its candidates (--each: every candidate through G1-G4 alone,
  # one capture shared), then its document split into one file per candidate for check_planted.py.
  declare -A group=()
  problems=()  # in the order of first appearance (expected.json lists the good candidates first)
  for f in "${names[@]}"; do
    p=$(problem_of "$f")
    [[ -n ${group[$p]+x} ]] || problems+=("$p")
    group[$p]+="$(basename "$f") "
  done
  for p in "${problems[@]}"; do
    read -r -a members <<< "${group[$p]}"
    args=()
    for f in "${members[@]}"; do args+=(--candidate "seg0=tests/planted/$f"); done
    limit=3600
    if (( budget > 0 )); then limit=$(( budget - ($(date +%s) - start) )); fi
    if (( limit < 90 )); then log "$p: skipped (budget spent)"; continue; fi
    stem=$(basename "${p%%|*}" .py)${p#*|}
    t0=$(date +%s)
    # shellcheck disable=SC2046
    timeout -k 10 "$limit" "$bin" verify "${p%%|*}" --each "${args[@]}" $(sanitize_args "$p") -o "$work/runs/each_$stem" \
      --json "$work/each_$stem.json" --gate-timeout 60 --samples 30 > "$work/json/each_$stem.txt" 2>&1
    log "verify --each $p rc=$? $(( $(date +%s) - t0 ))s"
    "$py" - "$work/each_$stem.json" "$work/json" "${members[@]}" <<'PY'
import json, os, sys
doc_path, folder, names = sys.argv[1], sys.argv[2], sys.argv[3:]
if os.path.exists(doc_path):
    doc = json.load(open(doc_path))
    for name, one in zip(names, doc.get("each", [])):
        one["problem"] = doc.get("problem")
        json.dump(one, open(os.path.join(folder, os.path.basename(name)[:-3] + ".json"), "w"), indent=1)
PY
    pack > /dev/null
  done
  names=()
fi
for f in "${names[@]}"; do
  f=$(basename "$f")
  name=${f%.py}
  if [[ ! -f tests/planted/$f ]]; then log "$f: no such file in tests/planted"; continue; fi
  limit=900
  if (( budget > 0 )); then
    left=$(( budget - ($(date +%s) - start) ))
    if (( left < 90 )); then log "$name: skipped (budget spent)"; continue; fi
    (( left < limit )) && limit=$left
  fi
  t0=$(date +%s)
  key=$(problem_of "$f")
  # shellcheck disable=SC2046
  timeout -k 10 "$limit" "$bin" verify "${key%%|*}" --candidate "seg0=tests/planted/$f" $(sanitize_args "$key") \
    -o "$work/runs/$name" --json "$work/json/$name.json" --gate-timeout 60 --samples 30 \
    > "$work/json/$name.txt" 2>&1
  rc=$?
  log "$name rc=$rc $(( $(date +%s) - t0 ))s"
  echo "$name rc=$rc $(( $(date +%s) - t0 ))s" >> "$work/json/log.txt"
  pack > /dev/null
done
status=$(pack)
cat "$work/table.txt" | tee -a "$out/suite.txt"
exit "$status"
