#!/usr/bin/env bash
# Builds the croq wheel: the Python package with the compiler (croq-tool:
# croq-opt and croq-translate in one executable, MLIR/LLVM 22 and the C++
# runtime linked in statically) and libCroqRuntime.so, installable offline
# with `pip install` where no LLVM is (the GPU machine).
#
#   ./scripts/build-wheel.sh          # -> build-wheel/dist/croq-<version>-py3-none-manylinux_2_28_x86_64.whl
#   CROQ_WHEEL_BUILD_DIR=dir ./scripts/build-wheel.sh
#
# Its own build directory (Release, CROQ_STATIC_TOOLS=ON), next to ./build,
# which stays the shared build the tests and CI use. Needs what setup.sh
# installs (the static MLIR/LLVM archives come with libmlir-22-dev and
# llvm-22-dev). The binaries link against glibc 2.28 stubs and run on glibc
# 2.28 and newer (cmake/CroqGlibcCompat.cmake). Then scripts/test-wheel.sh
# installs the wheel into a fresh venv and compiles with it alone. Each step prints its time.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=${CROQ_WHEEL_BUILD_DIR:-build-wheel}
LLVM_PREFIX=/usr/lib/llvm-22
PYTHON=${CROQ_PYTHON:-python3}

step() {
  local name=$1
  shift
  local start
  start=$(date +%s)
  "$@"
  echo "build-wheel: ${name}: $(($(date +%s) - start)) s"
}

step configure cmake -S . -B "$BUILD" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release \
  -DMLIR_DIR="${LLVM_PREFIX}/lib/cmake/mlir" \
  -DCMAKE_C_COMPILER=clang-22 \
  -DCMAKE_CXX_COMPILER=clang++-22 \
  -DLLVM_USE_LINKER=lld \
  -DCROQ_STATIC_TOOLS=ON
step build cmake --build "$BUILD" --target croq-opt croq-translate CroqRuntime \
  croq-glibc-compat-check
# What the glibc 2.28 layer stands in for (cmake/CroqGlibcCompat.cmake).
step compat "$BUILD/bin/croq-glibc-compat-check"
step pack "$PYTHON" scripts/make_wheel.py --build-dir "$BUILD" \
  --out-dir "$BUILD/dist"
ls -la "$BUILD"/dist/*.whl
