#!/usr/bin/env bash
# Session 28 call C: runs/l3s28b grown with more odd L3 problems (engine a0897cf, build/cur).
set -u
OUT=$1 CALL_S=$2; shift 2
PROBLEM_TIMEOUT=300 bash scripts/gpu/bench_call.sh $PWD/build/cur/kernelopt $OUT $CALL_S .kb 3 runs/l3s28b "$@"
