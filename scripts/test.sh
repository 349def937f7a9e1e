#!/usr/bin/env bash
# Runs the whole croq test suite: builds what is stale, then runs every lit
# test (dialect, passes, conversions, examples, docs). GPU tests report
# UNSUPPORTED on machines without a GPU. Prints one summary line last.
# CROQ_BUILD_DIR picks another build directory (default build).
set -uo pipefail
cd "$(dirname "$0")/.."
build=${CROQ_BUILD_DIR:-build}

cmake --build "$build" || exit 1
log=$(mktemp)
cmake --build "$build" --target check-croq 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

# lit prints e.g. "  Passed: 6 (100.00%)": take the number after the colon.
count() { grep -E "^\s*$1\s*:" "$log" | tail -1 | sed -E 's/^[^:]*:[[:space:]]*([0-9]+).*/\1/'; }
passed=$(( $(count Passed || echo 0) + 0 ))
failed=$(( $(count Failed || echo 0) + $(count "Unexpectedly Passed" || echo 0) + 0 ))
skipped=$(( $(count Unsupported || echo 0) + 0 ))
rm -f "$log"
echo "lit: ${passed} passed, ${failed} failed, ${skipped} skipped"
if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then
  exit 1
fi
