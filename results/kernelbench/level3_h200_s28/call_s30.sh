#!/usr/bin/env bash
# Session 30: on an H200, grow runs/l3s28b with its own engine and worker (call_s29.sh);
# on any other GPU, optimize the graph-break example with main's engine (call_s29_ex.sh).
set -u
OUT=$1 CALL_S=$2; shift 2
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
if [[ "$gpu" == *H200* ]]; then
  bash build/dev/call_s29.sh "$OUT" "$CALL_S" "$@"
else
  bash build/dev/call_s29_ex.sh "$OUT" 230
fi
