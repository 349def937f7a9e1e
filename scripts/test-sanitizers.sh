#!/usr/bin/env bash
# Builds croq with AddressSanitizer and UndefinedBehaviorSanitizer in
# ./build-asan (-DCROQ_ENABLE_FUZZER=ON, which implies
# -DCROQ_ENABLE_SANITIZERS=ON: croq's code instrumented, Debian's
# libMLIR/libLLVM not; the fuzzer's coverage instrumentation too, so that
# scripts/fuzz.sh reuses this build instead of making its own) and runs the
# whole lit suite with it. Every sanitizer report aborts the tool and so
# fails its test; LeakSanitizer is on, with utils/sanitizers/lsan.supp.
# Prints a summary line last.
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
  -DCROQ_ENABLE_FUZZER=ON >/dev/null || exit 1
cmake --build "$build" || exit 1
echo "sanitizers: built in $(( $(date +%s) - start )) s"
start=$(date +%s)
log=$(mktemp)
cmake --build "$build" --target check-croq 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
echo "sanitizers: lit suite ran in $(( $(date +%s) - start )) s"

# lit prints e.g. "  Passed: 6 (100.00%)": take the number after the colon.
count() { grep -E "^\s*$1\s*:" "$log" | tail -1 | sed -E 's/^[^:]*:[[:space:]]*([0-9]+).*/\1/'; }
passed=$(( $(count Passed || echo 0) + 0 ))
failed=$(( $(count Failed || echo 0) + $(count "Unexpectedly Passed" || echo 0) + 0 ))
skipped=$(( $(count Unsupported || echo 0) + 0 ))
reports=$(grep -cE "ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:" "$log")
rm -f "$log"
echo "lit (ASan+UBSan): ${passed} passed, ${failed} failed, ${skipped} skipped," \
  "${reports} sanitizer reports"
if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ] ||
   [ "$reports" -ne 0 ]; then
  exit 1
fi
