#!/usr/bin/env bash
# Installs croq's system dependencies on a fresh Debian 12 machine by package
# name, then configures and builds everything in ./build.
#
#   ./scripts/setup.sh            # install (needs root or sudo) and build
#   CROQ_SKIP_APT=1 ./scripts/setup.sh   # build only
set -euo pipefail
cd "$(dirname "$0")/.."

LLVM_VERSION=22
PACKAGES=(
  "llvm-${LLVM_VERSION}-dev" "llvm-${LLVM_VERSION}-tools"
  "libmlir-${LLVM_VERSION}-dev" "mlir-${LLVM_VERSION}-tools"
  "clang-${LLVM_VERSION}" "lld-${LLVM_VERSION}"
  cmake ninja-build python3 python3-pip python3-venv
  # scripts/test.sh runs the Python package's tests with Debian's python3.
  python3-pytest
  # The sanitizer and fuzzer runtimes of scripts/test-sanitizers.sh and
  # scripts/fuzz.sh.
  "libclang-rt-${LLVM_VERSION}-dev"
)

if [ -z "${CROQ_SKIP_APT:-}" ]; then
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
  missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}"
  fi
fi

LLVM_PREFIX=/usr/lib/llvm-${LLVM_VERSION}
cmake -S . -B build -G Ninja \
  -DCMAKE_BUILD_TYPE="${CROQ_BUILD_TYPE:-Release}" \
  -DMLIR_DIR="${LLVM_PREFIX}/lib/cmake/mlir" \
  -DLLVM_EXTERNAL_LIT="${LLVM_PREFIX}/bin/lit" \
  -DCMAKE_C_COMPILER="clang-${LLVM_VERSION}" \
  -DCMAKE_CXX_COMPILER="clang++-${LLVM_VERSION}" \
  -DLLVM_USE_LINKER=lld \
  ${CROQ_CMAKE_ARGS:-}
cmake --build build
