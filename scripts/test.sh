#!/usr/bin/env bash
# Builds and runs every test that needs no GPU: the C++ unit, golden and integration tests (ctest)
# on one build with AddressSanitizer and UndefinedBehaviorSanitizer, the worker's tests (pytest),
# clang-format and clang-tidy; and the wheel a user installs with `pip install .`. Steps, run in
# the order given: build, lint, test (needs .venv), wheel (builds the wheel), wheel-test (installs
# it into a fresh environment and runs it there; needs .venv and the wheel). No argument runs them
# all, the lint and the wheel's build at low priority beside the tests, whose idle moments they
# take.
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

wheel_dir=build/wheel

# `pip wheel .`, the build behind `pip install .`, into build/wheel/dist. Users get a Release
# engine; here it is built at -O0 with precompiled headers (2.5 minutes on 2 cores, against
# 5 for Release): the step checks the packaging, and the tests check the code. pip runs from
# a small environment of its own, since CI fills .venv at the same time. Ninja's folder is kept in
# build/wheel/cmake, so that a second run rebuilds only what changed.
build_wheel() {
  local python=${KERNELOPT_SETUP_PYTHON:-python3}
  [ -x "$wheel_dir/pip/bin/python" ] || "$python" -m venv "$wheel_dir/pip"
  rm -rf "$wheel_dir/dist"
  CMAKE_BUILD_PARALLEL_LEVEL=$jobs "$wheel_dir/pip/bin/python" -m pip wheel . --no-deps -q \
    -w "$wheel_dir/dist" -C build-dir="$wheel_dir/cmake" -C cmake.build-type=Debug \
    -C cmake.define.CMAKE_CXX_FLAGS_DEBUG=-O0 -C cmake.define.KERNELOPT_PCH=ON
  ls "$wheel_dir"/dist/kernelopt-*.whl
}

# The wheel installed into a fresh environment and run from outside the source tree. torch and
# Triton (5 GB with CUDA's libraries) are not installed a second time: a .pth file puts .venv's
# site-packages on the fresh environment's path (the environment and the install below take 5 to
# 15 s; installing them again would unpack 5 GB, after a download when pip's cache does not have
# them, as CI's does not). pip sees them as
# installed, so the install below resolves the wheel's requirements against them; with
# --no-index nothing is downloaded, and a requirement .venv does not meet fails the install.
test_wheel() {
  local venv=$PWD/$wheel_dir/venv repo=$PWD site here
  local graph=$PWD/tests/fixtures/output_code/real/h200_level2_85_Conv2d_GroupNorm_Scale_MaxPool_Clamp_graph_0.py
  .venv/bin/python -m venv --clear "$venv"
  site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  .venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' \
    > "$site/kernelopt-test-torch.pth"
  "$venv/bin/python" -m pip install -q --no-index "$wheel_dir"/dist/kernelopt-*.whl
  "$venv/bin/python" -m pip check
  here=$(mktemp -d)
  (
    cd "$here"
    export PATH=$venv/bin:$PATH KERNELOPT_WHEEL_TESTS=1
    unset PYTHONPATH KERNELOPT_PYTHON KERNELOPT_PYTHON_DIR KERNELOPT_ENGINE
    kernelopt --help > /dev/null
    kernelopt check "$repo/examples/row_sum.py" --device cpu
    kernelopt match "$graph" > match.txt
    grep -q '6 launches (5 Triton), 2 segments' match.txt || { cat match.txt; exit 1; }
    python -m pytest -q -p no:cacheprovider "$repo/tests/wheel"
    # The API's CPU paths on the installed package: argument checks, load's refusals, an
    # optimized folder written and loaded again.
    python -m pytest -q -p no:cacheprovider "$repo/tests/python/test_api.py" \
      -k "package_under_test or refuses or not_found or verified_with_another or runs_its_graphs"
  )
  rm -rf "$here"
}

step() {
  case $1 in
    build) build ;;
    lint) tools/lint.sh ;;
    test) run_tests ;;
    wheel) build_wheel ;;
    wheel-test) test_wheel ;;
    *) echo "test: unknown step '$1' (build, lint, test, wheel, wheel-test)" >&2; exit 2 ;;
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
setsid nice -n 19 bash scripts/test.sh wheel > build/wheel.log 2>&1 &
wheel=$!
run_tests
wait "$lint" || { cat build/lint.log; exit 1; }
cat build/lint.log
wait "$wheel" || { cat build/wheel.log; exit 1; }
cat build/wheel.log
test_wheel
echo "test: all green"
