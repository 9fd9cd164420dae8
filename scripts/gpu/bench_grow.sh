#!/usr/bin/env bash
# Grows a single-engine bench run within a time limit: the GPU and the versions first, then RUN
# grown a problem at a time by scripts/gpu/bench_each.sh (SINGLE_RUN=1: one run folder, done
# problems skipped, remeasure in a fresh worker after each), the limit's last 20 s left for the pack.
# Usage, from the repository root on the GPU machine:
#   scripts/gpu/bench_grow.sh BINARY OUT CALL_SECONDS KERNELBENCH_DIR LEVEL RUN N...
# (CALL_SECONDS: the time limit.) Start from RUN as the previous invocation left it (OUT/runs.tgz
# unpacked), or two invocations grow two copies. PROBLEM_TIMEOUT (default 300) holds
# each problem's baseline, and its search gets as much again; SEARCH_BUDGET (default 100) is the
# search's GPU-seconds. OUT/runs.tgz holds RUN's small files after every step.
set -u
if (( $# < 7 )); then
  echo "usage: $0 BINARY OUT CALL_SECONDS KERNELBENCH_DIR LEVEL RUN N..." >&2
  exit 2
fi
bin=$1 out=$2 call_s=$3 kb=$4 level=$5 run=$6
shift 6
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c 'import sys, torch, triton; print("python", sys.version.split()[0], "torch", torch.__version__, "triton", triton.__version__)'
"$bin" --version 2>/dev/null || true
mkdir -p "$out"
PROBLEM_TIMEOUT=${PROBLEM_TIMEOUT:-300} SINGLE_RUN=1 \
  bash "$(dirname "$0")/bench_each.sh" "$bin" "$out" $(( call_s - 20 )) "$kb" "$level" "$run" "$@"
echo "call done at $(( $(date +%s) - start )) s"
