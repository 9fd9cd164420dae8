#!/usr/bin/env bash
# Search work within a time budget: resume a bench --search run, then re-measure its accepted
# replacements in a separate run, then `optimize` (the beam) on further problems (into
# RUN_DIR/optimize_runs/NAME/, with its printout and JSON), each step under what is left of the
# budget. The run directory's small files (problems, store, logs, candidates, optimize
# documents; not the Inductor caches, captures or probed tensors) go back as OUT/run.tgz, one
# file refreshed after every step, so a run killed at its time limit still leaves them.
# Usage: scripts/gpu/search_resume.sh BINARY OUT BUDGET_SECONDS KERNELBENCH_DIR LEVEL RUN_DIR [PROBLEM.py...]
set -u
bin=$1 out=$2 budget=$3 kb=$4 level=$5 run=$6
shift 6
start=$(date +%s)
left() { echo $(( budget - ($(date +%s) - start) )); }
pack() {
  tar czf "$out/run.tgz.tmp" --exclude=inductor-cache --exclude=capture --exclude=work \
    --exclude=remeasure "$run" 2>/dev/null && mv "$out/run.tgz.tmp" "$out/run.tgz"
}
mkdir -p "$run/optimize_runs"
n=$(ls "$run"/bench_log_*.txt 2>/dev/null | wc -l)
timeout -s KILL "$(left)" "$bin" bench "$kb" --level "$level" --problems odd -o "$run" --search \
  --timeout 300 --iters 20 --samples 30 --gate-timeout 120 -q > "$run/bench_log_$((n + 1)).txt" 2>&1
echo "bench rc=$? at $(( $(date +%s) - start ))s"; tail -5 "$run/bench_log_$((n + 1)).txt"
pack
if (( $(left) > 60 )); then
  timeout -s KILL "$(left)" "$bin" remeasure "$run" --samples 30 > "$run/remeasure_log.txt" 2>&1
  echo "remeasure rc=$? at $(( $(date +%s) - start ))s"; cat "$run/remeasure_log.txt"
  pack
fi
for p in "$@"; do
  if (( $(left) < 90 )); then echo "budget spent; skipped $p"; continue; fi
  name=$(basename "$p" .py)
  o="$run/optimize_runs/$name"
  mkdir -p "$o"
  timeout -s KILL "$(left)" "$bin" optimize "$p" -o "$o" --gate-timeout 60 --samples 30 \
    > "$o/printout.txt" 2>&1
  echo "optimize $name rc=$? at $(( $(date +%s) - start ))s"
  grep -E "search:|outcome" "$o/printout.txt" | tail -3
  pack
done
