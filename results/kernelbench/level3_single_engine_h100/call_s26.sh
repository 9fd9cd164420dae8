#!/usr/bin/env bash
# Session 26 device calls: a fresh single-engine L3 run (engine dbd2007, stripped Release binary
# and that commit's worker in build/dev), grown one problem at a time into runs/l3s26.
# Usage, from the repo root: bash build/dev/call_s26.sh OUT CALL_SECONDS N...
set -u
OUT=$1 call_s=$2; shift 2
mkdir -p runs/l3s26
echo "engine dbd2007; problems $*"
PROBLEM_TIMEOUT=400 BENCH_PYTHON_DIR=$PWD/build/dev/frozen/python \
  bash scripts/gpu/bench_call.sh $PWD/build/dev/kernelopt $OUT $call_s .kb 3 runs/l3s26 "$@"
