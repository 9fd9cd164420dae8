#!/usr/bin/env bash
# Installs what kernelopt needs on a Debian 12 machine: the build tools and libraries from
# Debian's packages, and a Python virtual environment (.venv) with torch 2.11.0 and triton 3.6.0,
# the versions of the GPU machine, and Ray (`bench --executor ray`; its tests run a local cluster). Safe to run again: it installs only what is missing.
# `setup.sh system` does the Debian packages and creates .venv, `setup.sh python` fills .venv (the
# long download, which CI runs while it builds); no argument does both.
set -euo pipefail
cd "$(dirname "$0")/.."
step=${1:-all}
case $step in
  all | system | python) ;;
  *) echo "setup: unknown step '$step' (system, python)" >&2; exit 2 ;;
esac

packages=(cmake ninja-build g++ nlohmann-json3-dev libcli11-dev libfmt-dev libsqlite3-dev
          libgtest-dev libgmock-dev clang-format clang-tidy chromium)
python=${KERNELOPT_SETUP_PYTHON:-python3}
"$python" -c 'import venv, ensurepip' 2>/dev/null || packages+=(python3-venv)

# Runs a download command up to five times: a dropped connection is the usual failure of a fresh
# setup. Wheels that did arrive stay in pip's cache, so a new attempt fetches only the rest.
retrying() {
  local attempt
  for attempt in 1 2 3 4 5; do
    "$@" && return 0
    ((attempt < 5)) || break
    echo "setup: '$1 ${2:-}' failed (attempt $attempt of 5); trying again in $((attempt * 20)) s" >&2
    sleep $((attempt * 20))
  done
  echo "setup: '$*' failed five times; check the network and run scripts/setup.sh again" >&2
  return 1
}

install_system() {
  local missing=() p sudo=""
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}"
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    retrying $sudo apt-get update -qq
    retrying $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  [ -x .venv/bin/python ] || "$python" -m venv .venv
}

install_python() {
  [ -x .venv/bin/python ] || "$python" -m venv .venv
  .venv/bin/python -c 'import torch, triton, pytest, xdist, numpy, ray, tokenizers, sys
v = tuple(int(p) for p in numpy.__version__.split(".")[:2])
sys.exit(not (torch.__version__.startswith("2.11.0") and triton.__version__ == "3.6.0" and v < (2, 4)))' \
    2>/dev/null && return 0
  echo "setup: installing torch 2.11.0, triton 3.6.0 and ray into .venv (a few GB)"
  retrying .venv/bin/python -m pip install -q --upgrade pip
  # pip resumes a broken download from where it stopped; a connection that keeps breaking at the
  # same byte (seen on CUDA wheels of several hundred MB) needs a whole new attempt instead.
  local resume=()
  .venv/bin/python -m pip install --help | grep -q -- --resume-retries && resume=(--resume-retries 3)
  # numpy 2.4 refuses int() of a one-element array, which Triton 3.6's interpreter does for a
  # loop bound that is a kernel argument (the CPU tests of candidates run under the interpreter).
  # pytest-xdist runs the worker's tests on every core. Ray is optional for users (only
  # `bench --executor ray` imports it); the tests start a local Ray cluster with it. tokenizers
  # counts the tokens of recorded language-model requests (scripts/llm_tokens.py).
  retrying .venv/bin/python -m pip install -q "${resume[@]}" torch==2.11.0 triton==3.6.0 \
    "numpy<2.4" pytest pytest-xdist ray==2.60.0 tokenizers==0.22.1
}

[ "$step" = python ] || install_system
[ "$step" = system ] || install_python
echo "setup: $step done"
