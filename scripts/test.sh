#!/usr/bin/env bash
# Builds and runs every test that needs no GPU: the C++ unit, golden and integration tests (ctest)
# on one build with AddressSanitizer and UndefinedBehaviorSanitizer, the worker's tests (pytest),
# clang-format and clang-tidy. Steps, run in the order given: build, lint, test (needs .venv).
# No argument runs all three, the lint at low priority beside the tests, whose idle moments it
# takes.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

build() {
  cmake --preset ci >/dev/null
  cmake --build --preset ci -j "$jobs"
}

run_tests() {
  ctest --preset ci -j "$jobs"
  .venv/bin/python -m pytest -q -n "$jobs" --dist loadfile tests/python
}

step() {
  case $1 in
    build) build ;;
    lint) tools/lint.sh ;;
    test) run_tests ;;
    *) echo "test: unknown step '$1' (build, lint, test)" >&2; exit 2 ;;
  esac
}

if (($#)); then
  for s in "$@"; do step "$s"; done
  echo "test: $* green"
  exit 0
fi
trap 'for p in $(jobs -p); do kill -- -"$p" 2>/dev/null || true; done' EXIT
mkdir -p build
build
setsid nice -n 19 tools/lint.sh > build/lint.log 2>&1 &
lint=$!
run_tests
wait "$lint" || { cat build/lint.log; exit 1; }
cat build/lint.log
echo "test: all green"
