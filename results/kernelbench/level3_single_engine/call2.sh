#!/usr/bin/env bash
set -u
OUT=$1
start=$(date +%s)
t() { echo "[$(( $(date +%s) - start ))s] $*"; }
t "diag l2_norm_rows"
timeout -s KILL 200 python3 build/dev/diag_reload.py examples/l2_norm_rows.py /tmp/diag1 2>&1 | grep -v Warning | tail -20
t "diag layernorm_gelu_residual"
timeout -s KILL 150 python3 build/dev/diag_reload.py examples/layernorm_gelu_residual.py /tmp/diag2 2>&1 | grep -v Warning | tail -12
t "end"
