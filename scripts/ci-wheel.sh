#!/usr/bin/env bash
# CI's wheel: the wheel built from ./build's own objects, installed into a
# fresh virtual environment, and the Python package's tests run against the
# installed package.
#
#   1. ./build gets CROQ_WHEEL_TOOL=ON: croq-tool, the wheel's compiler
#      (croq-opt and croq-translate in one executable, MLIR/LLVM 22 and the
#      C++ runtime linked in statically), is linked from the objects
#      ./build already compiled, next to its shared tools, instead of
#      compiling everything again in a static build tree
#      (scripts/build-wheel.sh: the same executable, 15 minutes on this
#      2-core machine); the runtime gets the static C++ runtime too;
#   2. scripts/make_wheel.py packs it into build/dist (the platform tag
#      from what the binaries need, checked; every glibc import checked
#      against glibc 2.28's, scripts/glibc_check.py), after
#      croq-glibc-compat-check ran what the glibc 2.28 layer replaces
#      (cmake/CroqGlibcCompat.cmake);
#   3. a fresh venv installs it offline, and python/tests run from outside
#      the tree against the installed package (CROQ_TEST_WHEEL=1: the
#      wheel's croq-tool and runtime, not python/ and build/bin);
#   4. scripts/test-wheel.sh compiles with it alone, /usr/lib/llvm-22
#      hidden.
#
# Each step prints its time. Measured on the 2-core build machine while
# other sessions loaded it (load average 7 to 10), croq-tool already
# linked: configure 15 s, pack 14 s, venv and install 9 s, the Python tests
# against the wheel 165 s (the same tests scripts/test.sh runs against the
# tree, the bulk of the step), test-wheel.sh 12 s; linking croq-tool the
# first time took about 3 minutes of wall time there (three tool sources
# and one static link, mostly waiting for the CPU and reading the archives).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
PYTHON=${CROQ_PYTHON:-/usr/bin/python3}

step() {
  local name=$1
  shift
  local start
  start=$(date +%s)
  "$@"
  echo "ci-wheel: ${name}: $(($(date +%s) - start)) s"
}

step configure cmake -S . -B build -DCROQ_WHEEL_TOOL=ON >/dev/null
step link cmake --build build --target croq-tool CroqRuntime \
  croq-glibc-compat-check
# What lib/GlibcCompat stands in for (glibc 2.28 compatibility), run here.
step compat ./build/bin/croq-glibc-compat-check
rm -rf build/dist
step pack "$PYTHON" scripts/make_wheel.py --build-dir build --out-dir build/dist
wheel=$(ls build/dist/croq-*.whl)
echo "ci-wheel: $wheel ($(du -h "$wheel" | cut -f1))"

work=$(mktemp -d /tmp/croq-ci-wheel.XXXXXX)
trap 'rm -rf "$work"' EXIT
# The system site packages give pytest (python3-pytest), not croq.
step venv "$PYTHON" -m venv --system-site-packages "$work/venv"
step install "$work/venv/bin/python" -m pip install -q --no-index --no-deps \
  "$wheel"
cd "$work"
step pytest env CROQ_TEST_WHEEL=1 CROQ_BUILD_DIR="$repo/build" \
  "$work/venv/bin/python" -m pytest -q -p no:cacheprovider \
  "$repo/python/tests"
cd "$repo"
step smoke ./scripts/test-wheel.sh "$wheel"
