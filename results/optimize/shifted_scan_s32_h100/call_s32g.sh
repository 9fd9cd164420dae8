#!/usr/bin/env bash
# Session 32, call G: `optimize` with main's
# engine on the norm examples; everything back as OUT/s32g.tgz (at most 8 files come back).
set -u
OUT=$1 CALL_S=$2; shift 2
start=$(date +%s)
left() { echo $(( CALL_S - 20 - ($(date +%s) - start) )); }
R=runs/s32g
mkdir -p $R
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
  python3 -c 'import sys, torch, triton; print("python", sys.version.split()[0], "torch", torch.__version__, "triton", triton.__version__)'
} > $R/versions.txt
cat $R/versions.txt
pack() { tar czf "$OUT/s32g.tgz.tmp" --exclude=inductor-cache --exclude=work --exclude=candidates $R && mv "$OUT/s32g.tgz.tmp" "$OUT/s32g.tgz"; }
pack
for ex in "$@"; do
  (( $(left) > 60 )) || { echo "no time for $ex"; continue; }
  timeout -s KILL "$(left)" build/main/kernelopt optimize examples/$ex.py -o $R/$ex \
    --budget 60 --samples 30 --gate-timeout 60 --json "$R/$ex.optimize.json" > "$R/$ex.optimize_log.txt" 2>&1
  echo "optimize $ex rc=$? at $(( $(date +%s) - start )) s"; tail -2 "$R/$ex.optimize_log.txt"
  pack
done
echo "call done at $(( $(date +%s) - start )) s"
