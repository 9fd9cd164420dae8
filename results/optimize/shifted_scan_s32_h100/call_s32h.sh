#!/usr/bin/env bash
# Session 32, call H: the neutral-first scan's candidates (written by `kernelopt match --write`
# from the capture) through the gates with `verify --each`; back as OUT/s32h.tgz.
set -u
OUT=$1
R=runs/s32h
mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1 | tee $R/versions.txt
timeout 400 build/main/kernelopt verify examples/cumsum_prepend_zero.py --candidate seg0=build/dev/mw/prepend_b2048.py \
  --candidate seg0=build/dev/mw/prepend_r4_b1024.py --each -o $R/verify --samples 30 --gate-timeout 60 \
  --json $R/verify.json > $R/verify_log.txt 2>&1
echo "verify rc=$?"; tail -12 $R/verify_log.txt
cp build/dev/mw/*.py $R/
tar czf "$OUT/s32h.tgz" --exclude=inductor-cache --exclude=work $R
