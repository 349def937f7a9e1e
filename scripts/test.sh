#!/usr/bin/env bash
# Runs the whole croq test suite: builds what is stale, then runs every lit
# test (dialect, passes, conversions, examples, docs, GPU kernels assembled
# by ptxas), then the Python package's tests (python/tests, with pytest).
# Nothing here needs a GPU: the GPU end-to-end run is scripts/gpu-check.sh
# on the GPU machine. Prints the lit and pytest summaries, and a total line
# last.
set -uo pipefail
cd "$(dirname "$0")/.."

# One Python for the package tests: Debian's (where setup.sh installs
# python3-pytest), not whatever python3 comes first on PATH.
PYTHON=${CROQ_PYTHON:-/usr/bin/python3}

cmake --build build || exit 1
log=$(mktemp)
cmake --build build --target check-croq 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

# lit prints e.g. "  Passed: 6 (100.00%)": take the number after the colon.
count() { grep -E "^\s*$1\s*:" "$log" | tail -1 | sed -E 's/^[^:]*:[[:space:]]*([0-9]+).*/\1/'; }
passed=$(( $(count Passed || echo 0) + 0 ))
failed=$(( $(count Failed || echo 0) + $(count "Unexpectedly Passed" || echo 0) + 0 ))
skipped=$(( $(count Unsupported || echo 0) + 0 ))
rm -f "$log"
lit_ok=1
if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then
  lit_ok=0
fi

# The croq Python package: compile, load and argument checks, on a stub
# runtime (no GPU).
pylog=$(mktemp)
if "$PYTHON" -c 'import pytest' 2>/dev/null; then
  "$PYTHON" -m pytest -q -p no:cacheprovider python/tests 2>&1 | tee "$pylog"
  pystatus=${PIPESTATUS[0]}
else
  echo "test.sh: $PYTHON has no pytest (apt-get install python3-pytest," \
       "as scripts/setup.sh does)" | tee "$pylog"
  pystatus=1
fi
pysummary=$(grep -E '^=*[[:space:]]*[0-9]+ (passed|failed|skipped|errors?)|no tests ran' "$pylog" | tail -1 | sed -E 's/^=+ //; s/ =+$//')
pycount() { echo "$pysummary" | grep -oE "[0-9]+ $1\b" | head -1 | cut -d' ' -f1; }
py_passed=$(( $(pycount passed) + 0 ))
py_failed=$(( $(pycount failed) + $(pycount 'errors?') + 0 ))
py_skipped=$(( $(pycount skipped) + 0 ))
rm -f "$pylog"

echo "lit: ${passed} passed, ${failed} failed, ${skipped} skipped"
echo "pytest: ${pysummary:-no summary}"
echo "total: $(( passed + py_passed )) passed, $(( failed + py_failed )) failed, $(( skipped + py_skipped )) skipped"
if [ "$lit_ok" -ne 1 ] || [ "$pystatus" -ne 0 ] || [ "$py_passed" -eq 0 ]; then
  exit 1
fi
