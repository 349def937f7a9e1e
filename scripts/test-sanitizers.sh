#!/usr/bin/env bash
# Builds croq with AddressSanitizer and UndefinedBehaviorSanitizer in
# ./build-asan (-DCROQ_ENABLE_SANITIZERS=ON: croq's code instrumented,
# Debian's libMLIR/libLLVM not) and runs the whole lit suite with it. Every
# sanitizer report aborts the tool and so fails its test; LeakSanitizer is on,
# with utils/sanitizers/lsan.supp. Prints test.sh's summary line last.
#
#   ./scripts/test-sanitizers.sh
set -uo pipefail
cd "$(dirname "$0")/.."

build=build-asan
LLVM_PREFIX=/usr/lib/llvm-22

start=$(date +%s)
cmake -S . -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release \
  -DMLIR_DIR="${LLVM_PREFIX}/lib/cmake/mlir" \
  -DLLVM_EXTERNAL_LIT="${LLVM_PREFIX}/bin/lit" \
  -DCMAKE_C_COMPILER=clang-22 \
  -DCMAKE_CXX_COMPILER=clang++-22 \
  -DLLVM_USE_LINKER=lld \
  -DCROQ_ENABLE_SANITIZERS=ON >/dev/null || exit 1
cmake --build "$build" || exit 1
echo "sanitizers: built in $(( $(date +%s) - start )) s"
start=$(date +%s)
CROQ_BUILD_DIR="$build" ./scripts/test.sh
status=$?
echo "sanitizers: lit suite ran in $(( $(date +%s) - start )) s"
exit $status
