#!/usr/bin/env bash
# Installs what kernelopt needs on a Debian 12 machine: the build tools and libraries from
# Debian's packages, and a Python virtual environment (.venv) with torch 2.11.0 and triton 3.6.0,
# the versions of the GPU machine. Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ nlohmann-json3-dev libcli11-dev libfmt-dev libsqlite3-dev
          libgtest-dev libgmock-dev clang-format clang-tidy chromium)
python=${KERNELOPT_SETUP_PYTHON:-python3}
"$python" -c 'import venv, ensurepip' 2>/dev/null || packages+=(python3-venv)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

[ -x .venv/bin/python ] || "$python" -m venv .venv
if ! .venv/bin/python -c 'import torch, triton, pytest, numpy, sys
v = tuple(int(p) for p in numpy.__version__.split(".")[:2])
sys.exit(not (torch.__version__.startswith("2.11.0") and triton.__version__ == "3.6.0" and v < (2, 4)))' 2>/dev/null; then
  echo "setup: installing torch 2.11.0 and triton 3.6.0 into .venv (a few GB)"
  .venv/bin/python -m pip install -q --upgrade pip
  # numpy 2.4 refuses int() of a one-element array, which Triton 3.6's interpreter does for a
  # loop bound that is a kernel argument (the CPU tests of candidates run under the interpreter).
  .venv/bin/python -m pip install -q torch==2.11.0 triton==3.6.0 "numpy<2.4" pytest
fi
echo "setup: done"
