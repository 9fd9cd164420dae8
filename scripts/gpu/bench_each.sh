#!/usr/bin/env bash
# Bench work within a time budget, one problem at a time: for each problem number, a
# `bench --search` run of that problem alone (RUN_ROOT/L<level>_<n>/), then `remeasure` of its
# accepted replacements in a fresh worker, each under what is left of the budget, so the budget
# cuts the last problem, not the first. After every step the run folders' small
# files (no Inductor caches, captures, work files or re-measure scratch) go back as OUT/runs.tgz.
# Usage: scripts/gpu/bench_each.sh BINARY OUT BUDGET_SECONDS KERNELBENCH_DIR LEVEL RUN_ROOT N...
# SEARCH_BUDGET (default 100) is each problem's `--budget`, PROBLEM_TIMEOUT (default 200) its
# `--timeout` (L3's compiles want more: L3/27 did not finish within 200 s); it holds the baseline,
# and the search gets as much again from its own start, so one problem can take twice it. With SINGLE_RUN=1
# every problem goes into RUN_ROOT itself, one bench run grown a problem at a time (carry it back
# to resume it later: done problems are skipped, remeasure times only the new ones).
# REMEASURE=0 skips the remeasure steps; BENCH_PYTHON_DIR runs the bench steps with the worker
# package in that folder (KERNELOPT_PYTHON_DIR), so a run can keep the worker it started with.
set -u
bin=$1 out=$2 budget=$3 kb=$4 level=$5 root=$6
shift 6
search_budget=${SEARCH_BUDGET:-100}
problem_timeout=${PROBLEM_TIMEOUT:-200}
start=$(date +%s)
left() { echo $(( budget - ($(date +%s) - start) )); }
pack() {
  tar czf "$out/runs.tgz.tmp" --exclude=inductor-cache --exclude=capture --exclude=work \
    --exclude=remeasure "$root" 2>/dev/null && mv "$out/runs.tgz.tmp" "$out/runs.tgz"
}
mkdir -p "$root"
for n in "$@"; do
  if (( $(left) < 120 )); then echo "budget spent; skipped $n"; continue; fi
  run="$root/L${level}_$n"
  [[ -n "${SINGLE_RUN:-}" ]] && run="$root"
  env ${BENCH_PYTHON_DIR:+KERNELOPT_PYTHON_DIR=$BENCH_PYTHON_DIR} \
    timeout -s KILL "$(left)" "$bin" bench "$kb" --level "$level" --problems "$n" -o "$run" \
    --search --budget "$search_budget" --timeout "$problem_timeout" --iters 20 --samples 30 \
    --gate-timeout 120 -q \
    > "$run.bench_log_$n.txt" 2>&1
  echo "bench L$level/$n rc=$? at $(( $(date +%s) - start ))s"; tail -3 "$run.bench_log_$n.txt"
  log=bench_log.txt
  [[ -n "${SINGLE_RUN:-}" ]] && log="bench_log_L${level}_$n.txt"
  mv "$run.bench_log_$n.txt" "$run/$log" 2>/dev/null
  pack
  if [[ "${REMEASURE:-1}" != 0 ]] && (( $(left) > 45 )) && [[ -f "$run/summary.json" ]]; then
    timeout -s KILL "$(left)" "$bin" remeasure "$run" --samples 30 > "$run/remeasure_log_$n.txt" 2>&1
    echo "remeasure L$level/$n rc=$? at $(( $(date +%s) - start ))s"; tail -4 "$run/remeasure_log_$n.txt"
    pack
  fi
done
