#!/usr/bin/env bash
# Builds and runs every test that needs no GPU: C++ unit, golden and integration tests (ctest),
# the worker's tests (pytest), clang-format and clang-tidy, and the unit tests under ASan+UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
cmake --preset ci >/dev/null
cmake --build --preset ci -j "$jobs"
ctest --preset ci -j "$jobs"
.venv/bin/python -m pytest -q tests/python
tools/lint.sh build/ci
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$jobs"
ctest --preset asan -L 'unit|golden' -j "$jobs"
echo "test: all green"
