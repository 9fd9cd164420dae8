#!/usr/bin/env bash
# Session 28 call B: L3/31 with the twice-the-peak room rule (engine built from the working tree
# of 68888be + the ncu change), then odd L3 problems never run before, into a fresh run folder.
set -u
OUT=$1; shift
mkdir -p runs/l3s28b
PROBLEM_TIMEOUT=300 bash scripts/gpu/bench_call.sh $PWD/build/cur/kernelopt $OUT 575 .kb 3 runs/l3s28b "$@"
