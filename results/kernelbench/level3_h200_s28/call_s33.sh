#!/usr/bin/env bash
# Session 33: on an H200, grow runs/l3s28b (the H200 run of sessions 28 and 30) with its own
# engine and worker (a0897cf), one problem at a time: bench, then remeasure of that problem alone
# in a side folder (runs/rm_N: its problem document, its search folder and the run's Inductor
# cache; the committed copy of the run has no optimized/ folders for the earlier problems, which
# remeasure of the whole run would need); then, time left, `show` of L1/7, 11, 9 with main's
# engine (build/main; the a0897cf worker is still exported there, so it states no float32 rate).
# On any other GPU: only that `show`, with main's engine and worker, for H100_S seconds.
# Usage: call_s33.sh OUT CALL_S TIMEOUT N...
set -u
OUT=$1 CALL_S=$2 T=$3; shift 3
start=$(date +%s)
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)
echo "$gpu"
show_l1() {  # main's engine and worker: the compute floors of L1's full-float32 matrix templates
  local until=$(( $(date +%s) + $1 ))
  for n in 7 11 9; do
    local t=$(( until - $(date +%s) ))
    (( t > 60 )) || break
    timeout -s KILL "$t" build/main/kernelopt show .kb/level1/${n}_*.py --json "$OUT/show_l1_$n.json" \
      > "$OUT/show_l1_$n.txt" 2>&1
    echo "show L1/$n rc=$?"; grep -E "seg0|^class|on NVIDIA|triton_tem" "$OUT/show_l1_$n.txt"
  done
}
if [[ "$gpu" != *H200* ]]; then
  echo "not an H200: no L3 problem run"
  show_l1 "${H100_S:-200}"
  exit 0
fi
python3 -c 'import sys, torch, triton; print("python", sys.version.split()[0], "torch", torch.__version__, "triton", triton.__version__)'
export KERNELOPT_PYTHON_DIR=$PWD/build/dev/frozen_a0897cf/python
bin=$PWD/build/dev/kernelopt_a0897cf run=runs/l3s28b
left() { echo $(( CALL_S - 15 - ($(date +%s) - start) )); }
pack() {
  tar czf "$OUT/runs.tgz.tmp" --exclude=inductor-cache --exclude=capture --exclude=work \
    --exclude=remeasure runs 2>/dev/null && mv "$OUT/runs.tgz.tmp" "$OUT/runs.tgz"
}
for n in "$@"; do
  (( $(left) > 200 )) || { echo "time spent; skipped $n"; continue; }
  PROBLEM_TIMEOUT=$T SINGLE_RUN=1 REMEASURE=0 bash scripts/gpu/bench_each.sh "$bin" "$OUT" \
    "$(left)" .kb 3 "$run" "$n"
  doc=$(ls $run/problems/level3_${n}_*.json 2>/dev/null | head -1)
  [[ -n "$doc" ]] || { pack; continue; }
  name=$(basename "$doc" .json)
  cls=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("outcome", {}).get("class", ""))' "$doc")
  echo "L3/$n outcome: $cls"
  if [[ "$cls" == optimized || "$cls" == "matched (optimized)" ]] && [[ -d "$run/search/$name/optimized" ]] && (( $(left) > 45 )); then
    rm_dir=runs/rm_$n
    mkdir -p "$rm_dir/problems" "$rm_dir/search"
    cp "$doc" "$rm_dir/problems/"
    ln -sfn "$PWD/$run/search/$name" "$rm_dir/search/$name"
    ln -sfn "$PWD/$run/inductor-cache" "$rm_dir/inductor-cache"
    timeout -s KILL "$(left)" "$bin" remeasure "$rm_dir" --samples 30 > "$rm_dir/remeasure_log_$n.txt" 2>&1
    echo "remeasure L3/$n rc=$? at $(( $(date +%s) - start ))s"; tail -4 "$rm_dir/remeasure_log_$n.txt"
  fi
  pack
done
(( $(left) > 150 )) && show_l1 $(( $(left) - 10 ))
echo "call done at $(( $(date +%s) - start )) s"
