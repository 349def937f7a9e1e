#!/usr/bin/env bash
# Runs on the GPU machine, like scripts/gpu-check.sh (gpu-artifacts/ carried
# there): every GPU end-to-end test under compute-sanitizer's memcheck,
# racecheck and synccheck tools, one tool per pass over the tests, and a
# summary last. Exit status 0 when every tool reports 0 errors and every
# test passes.
#
#   bash scripts/gpu-sanitize.sh [tool...]     # default: memcheck racecheck synccheck
#
# GEMM tests larger than CROQ_SANITIZE_MAX_GEMM multiply-adds (M*N*K,
# default 60000000: up to 256x384x512) are skipped; the sanitizers make
# the large ones take minutes each. The smaller shapes still cover edge
# tiles, several K tiles, the fallback and every GEMM kernel.
#
# CROQ_SANITIZE_SELECT=pattern runs only the tests whose name contains it.
#
# Logs go to ${OUT:-./gpu-out}/sanitize-<tool>.log.
set -uo pipefail
cd "$(dirname "$0")/.."

ART=${CROQ_GPU_ARTIFACTS:-$PWD/gpu-artifacts}
# gpu-artifacts.tar.gz (what scripts/gpu-artifacts.sh packs to carry) is
# unpacked where the directory is missing.
if [ ! -d "$ART/kernels" ] && [ -f "$ART.tar.gz" ]; then
  tar -xzf "$ART.tar.gz" -C "$(dirname "$ART")"
fi
OUT=${OUT:-$PWD/gpu-out}
PY=${CROQ_PYTHON:-python3}
mkdir -p "$OUT"
ART=$(cd "$ART" && pwd)
export PYTHONPATH="$ART/python${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONUNBUFFERED=1 CROQ_GPU_ARTIFACTS="$ART"
SANITIZER=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)

tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(memcheck racecheck synccheck)
status=0
summary=()
for tool in "${tools[@]}"; do
  log="$OUT/sanitize-$tool.log"
  # No --leak-check: torch's caching allocators hold their device and
  # pinned host blocks until the process exits, which leak-check reports
  # (seen on an H100: 24 such reports, all with torch allocator frames).
  "$SANITIZER" --tool "$tool" --target-processes all \
    "$PY" "$ART/tests/run_gpu_tests.py" --artifacts "$ART" \
    --max-gemm "${CROQ_SANITIZE_MAX_GEMM:-60000000}" \
    ${CROQ_SANITIZE_SELECT:+-k "$CROQ_SANITIZE_SELECT"} > "$log" 2>&1
  rc=$?
  # memcheck and synccheck print "ERROR SUMMARY: N errors", racecheck
  # "RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)".
  errors=$(grep -E "ERROR SUMMARY: [0-9]+ error|\([0-9]+ errors" "$log" |
           tail -1 | sed -E 's/.*(SUMMARY: |\()([0-9]+) error.*/\2/')
  tests=$(grep -E "^gpu tests:" "$log" | tail -1)
  summary+=("$tool: ${errors:-?} errors; ${tests:-no test summary}; exit $rc")
  if [ "$rc" -ne 0 ] || [ "${errors:-1}" != 0 ]; then status=1; fi
done
printf '%s\n' "${summary[@]}"
exit $status
