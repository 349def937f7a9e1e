#!/usr/bin/env bash
# Builds croq-fuzz (libFuzzer + ASan + UBSan over croq's code) in
# ./build-asan, the build scripts/test-sanitizers.sh makes (configured the
# same, so that after it only croq-fuzz's link is left), and runs it for a
# bounded time on the seed corpus from fuzz-corpus.sh plus the corpus kept
# from earlier runs (build-asan/fuzz/corpus). Prints the executions and the
# crashes, timeouts, leaks and out-of-memory inputs found last; exits
# non-zero if there were any. Each such input is saved in
# build-asan/fuzz/artifacts/ (see docs/robustness.md for turning one into a
# regression test).
#
#   ./scripts/fuzz.sh [seconds]     # default 120
#   CROQ_FUZZ_ARGS="-jobs=2 -workers=2" ./scripts/fuzz.sh 600
#   CROQ_FUZZ_SEEDS=100000 ./scripts/fuzz.sh 600   # every seed
set -uo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-120}
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
cmake --build "$build" --target croq-fuzz || exit 1
echo "fuzz: built croq-fuzz in $(( $(date +%s) - start )) s"

fuzz="$build/fuzz"
mkdir -p "$fuzz/corpus" "$fuzz/artifacts"
./scripts/fuzz-corpus.sh "$fuzz/seed" || exit 1
before=$(ls "$fuzz/artifacts" | wc -l)

# libFuzzer replays every seed before it mutates any, past -max_total_time,
# and a seed takes about 0.12 s under the sanitizers on a 2-core machine
# (the context and the pipeline set up for each input): the 1,398 seeds of
# 2026-11-29 took 208 s of a 120 s run, which then mutated nothing. A run
# of S seconds replays at most CROQ_FUZZ_SEEDS seeds (default 4 S, about
# half the run), the first by name, which is the content's hash: a sample
# of every kind of test. The lit suite runs all of them under the same
# sanitizers anyway.
seeds="$fuzz/seed"
max_seeds=${CROQ_FUZZ_SEEDS:-$((seconds * 4))}
total_seeds=$(ls "$seeds" | wc -l)
if [ "$total_seeds" -gt "$max_seeds" ]; then
  seeds="$fuzz/seed-sample"
  rm -rf "$seeds"
  mkdir -p "$seeds"
  ls "$fuzz/seed" | head -n "$max_seeds" | sed "s|^|$fuzz/seed/|" |
    xargs cp -t "$seeds"
  echo "fuzz: replaying ${max_seeds} of ${total_seeds} seeds (CROQ_FUZZ_SEEDS)"
fi

# Reports abort, so that libFuzzer saves the input; leak reports are checked
# against the suppression file (libMLIR/libLLVM frames only).
# allow_user_poisoning=0: see utils/sanitizers/README.md.
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:allow_user_poisoning=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1:${UBSAN_OPTIONS:-}"
export LSAN_OPTIONS="suppressions=$PWD/utils/sanitizers/lsan.supp:${LSAN_OPTIONS:-}"

log="$fuzz/last-run.log"
run_start=$(date +%s)
# -timeout: the largest seeds (the first 8 KiB of linalg_matmul.mlir: six
# dynamic-shape GEMMs, each with a kernel per block tile, through the whole
# pipeline under ASan and UBSan) take 10 to 12 s on a 2-core machine; 30 s
# leaves room for a loaded one and still catches a hang. Slow units are
# reported (saved as artifacts, which fail the step) past the same bound.
# shellcheck disable=SC2086 # CROQ_FUZZ_ARGS is a list of flags.
"$build/bin/croq-fuzz" \
  -max_total_time="$seconds" -max_len=8192 -timeout=30 -report_slow_units=30 -rss_limit_mb=4096 \
  -only_ascii=1 \
  -dict=tools/croq-fuzz/croq.dict \
  -artifact_prefix="$fuzz/artifacts/" -print_final_stats=1 \
  ${CROQ_FUZZ_ARGS:-} "$fuzz/corpus" "$seeds" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
elapsed=$(( $(date +%s) - run_start ))

executions=$(grep -a "stat::number_of_executed_units" "$log" |
  awk '{ s += $2 } END { print s + 0 }')
found=$(( $(ls "$fuzz/artifacts" | wc -l) - before ))
echo "fuzz: ${executions} executions in ${elapsed} s, ${found} crashes," \
  "timeouts, leaks or out-of-memory inputs (exit status ${status})"
if [ "$found" -ne 0 ]; then
  ls -t "$fuzz/artifacts" | head -n "$found" | sed "s|^|fuzz: found $fuzz/artifacts/|"
fi
if [ "$found" -ne 0 ] || [ "$status" -ne 0 ]; then
  exit 1
fi
