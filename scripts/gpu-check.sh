#!/usr/bin/env bash
# Runs on the GPU machine (torch, CUDA driver; no MLIR there), from the
# repository root, with gpu-artifacts/ (made by scripts/gpu-artifacts.sh on
# the build machine) carried there:
#
#   bash scripts/gpu-check.sh
#
# 1. records the device and the artifacts' manifest;
# 2. disassembles the copy kernels (cuobjdump --dump-sass, nvdisasm when
#    cuobjdump fails) and gathers the ptxas -v resource reports;
# 3. runs the GPU end-to-end tests (run_gpu_tests.py);
# 4. runs the dma benchmarks against torch (bench_dma.py) and the GEMM
#    benchmarks against cuBLAS and Triton (bench_gemm.py); attention
#    against torch's SDPA (bench_attention.py); grouped GEMMs against a
#    cuBLAS loop and torch._grouped_mm (bench_grouped.py); convolutions
#    from linalg against cuDNN (bench_conv.py);
# 5. prints a summary table last: each test with PASS/FAIL and its max
#    error, each benchmark with its GB/s and its ratio to torch.
#
# Everything goes to ${OUT:-./gpu-out} (10 files): device.txt, sass.txt,
# resources.txt, gpu-check.log, tests.json, bench.md, bench.json,
# bench_gemm.md, bench_gemm.json, bench_conv.json. CROQ_GEMM_QUICK=1 benchmarks the GEMMs
# at 4096^3 only; CROQ_GEMM_KERNELS=a,b only those kernels. On a machine
# whose Triton cache is cold, compiling Triton's configurations takes most
# of the GEMM benchmark's time (seen: 9 minutes for 51 rows, against under
# a minute for 35 rows once compiled); keep a call under the device's
# 10-minute limit by splitting the kernels over two calls.
# Exit status: 0 when every test passed and every benchmark ran.
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
if [ ! -d "$ART/kernels" ]; then
  echo "gpu-check: $ART/kernels is missing: run scripts/gpu-artifacts.sh on" \
       "the build machine and carry gpu-artifacts here" >&2
  exit 2
fi
ART=$(cd "$ART" && pwd)
export PYTHONPATH="$ART/python${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONUNBUFFERED=1 CROQ_GPU_ARTIFACTS="$ART"
LOG="$OUT/gpu-check.log"
: > "$LOG"

echo "== device" | tee -a "$LOG"
{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem \
    --format=csv 2>&1 || echo "nvidia-smi failed"
  "$PY" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name())' 2>&1
  echo "artifacts: $ART"
  head -4 "$ART/MANIFEST.txt"
} > "$OUT/device.txt"
cat "$OUT/device.txt" | tee -a "$LOG"

echo "== disassembly and resources" | tee -a "$LOG"
: > "$OUT/sass.txt"
# scripts/gpu-artifacts.sh keeps the cubins of these kernels only
# (SASS_KERNELS there): a kernel added here goes there too.
for kernel in copy_64x64_kernel copy_64x64_async_kernel copy_f32_kernel \
    gemm_f16_128x256_kernel gemm_f16_128x256_pt_kernel gemm_plain_f16_kernel; do
  cubin="$ART/kernels/cubin/$kernel.cubin"
  [ -f "$cubin" ] || { echo "no $cubin" >> "$OUT/sass.txt"; continue; }
  {
    echo "===== $kernel: cuobjdump --dump-resource-usage"
    cuobjdump --dump-resource-usage "$cubin" 2>&1
    echo "===== $kernel: cuobjdump --dump-sass"
    if ! cuobjdump --dump-sass "$cubin" 2>&1; then
      echo "===== $kernel: nvdisasm -c (cuobjdump failed)"
      nvdisasm -c "$cubin" 2>&1
    fi
  } >> "$OUT/sass.txt"
done
cat "$ART"/kernels/*.ptxas.txt > "$OUT/resources.txt" 2>/dev/null
sass_line=$(awk '/===== copy_64x64_kernel: cuobjdump --dump-sass/{on=1; next} /^=====/{on=0} on' "$OUT/sass.txt" |
  awk '{ if ($0 ~ /LDG\.E\.128/) l++; if ($0 ~ /STS\.128/) s++; if ($0 ~ /LDS\.128/) r++; if ($0 ~ /STG\.E\.128/) w++; if ($0 ~ /LDL|STL/) loc++ }
       END { printf "copy_64x64_kernel SASS: %d LDG.E.128, %d STS.128, %d LDS.128, %d STG.E.128, %d local (LDL/STL)", l, s, r, w, loc }')
echo "$sass_line" | tee -a "$LOG"
grep -A6 "== copy_64x64_kernel" "$OUT/resources.txt" | grep -E "registers|stack" | tee -a "$LOG"
for kernel in gemm_f16_128x256_kernel gemm_f16_128x256_pt_kernel gemm_plain_f16_kernel; do
  awk -v k="===== $kernel: cuobjdump --dump-sass" '$0 == k {on=1; next} /^=====/{on=0} on' "$OUT/sass.txt" |
    awk -v k="$kernel" '{ if ($0 ~ /HGMMA/) g++; if ($0 ~ /UTMALDG/) t++; if ($0 ~ /UTMASTG/) st++; if ($0 ~ /STSM/) sm++; if ($0 ~ /SYNCS/) b++; if ($0 ~ /LDL|STL/) loc++; if ($0 ~ /WARPGROUP.DEPBAR|WARPGROUP.ARRIVE/) w++ }
         END { printf "%s SASS: %d HGMMA, %d UTMALDG, %d UTMASTG, %d STSM, %d SYNCS (mbarrier), %d WARPGROUP arrive/depbar, %d local (LDL/STL)\n", k, g, t, st, sm, b, w, loc }' | tee -a "$LOG"
done

echo "== tests" | tee -a "$LOG"
"$PY" "$ART/tests/run_gpu_tests.py" --artifacts "$ART" --json "$OUT/tests.json" 2>&1 | tee -a "$LOG"
tests_rc=${PIPESTATUS[0]}

echo "== benchmarks" | tee -a "$LOG"
"$PY" "$ART/bench/bench_dma.py" --artifacts "$ART" --md "$OUT/bench.md" --json "$OUT/bench.json" 2>&1 | tee -a "$LOG"
bench_rc=${PIPESTATUS[0]}
"$PY" "$ART/bench/bench_gemm.py" --artifacts "$ART" ${CROQ_GEMM_QUICK:+--quick} \
  ${CROQ_GEMM_KERNELS:+--kernels "$CROQ_GEMM_KERNELS"} \
  --md "$OUT/bench_gemm.md" --json "$OUT/bench_gemm.json" 2>&1 | tee -a "$LOG"
gemm_rc=${PIPESTATUS[0]}
"$PY" "$ART/bench/bench_attention.py" --artifacts "$ART" \
  --json "$OUT/bench_attention.json" 2>&1 | tee -a "$LOG"
attention_rc=${PIPESTATUS[0]}
# Grouped GEMMs (croq.grouped_mm) against a cuBLAS loop and torch._grouped_mm.
"$PY" "$ART/bench/bench_grouped.py" \
  --kernels "$ART/kernels/libgrouped_matmul.so" \
  --md "$OUT/bench_grouped.md" 2>&1 | tee -a "$LOG"
grouped_rc=${PIPESTATUS[0]}
# Convolutions from linalg (implicit GEMMs, im2col loads) against cuDNN.
"$PY" "$ART/bench/bench_conv.py" --artifacts "$ART" \
  --json "$OUT/bench_conv.json" 2>&1 | tee -a "$LOG"
conv_rc=${PIPESTATUS[0]}

echo "== summary" | tee -a "$LOG"
"$PY" - "$OUT/tests.json" "$OUT/bench.json" "$sass_line" <<'PY' 2>&1 | tee -a "$LOG"
"""Prints the summary table of the tests and benchmarks."""
import json
import sys
from pathlib import Path

tests_path, bench_path, sass_line = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]


def num(x, digits=0):
    return "n/a" if x is None else f"{x:.{digits}f}"


if tests_path.exists():
    results = json.loads(tests_path.read_text())["results"]
    width = max(len(r["name"]) for r in results)
    print(f"{'test':<{width}}  result  max error")
    for r in results:
        err = "" if r["max_error"] is None else f"{r['max_error']:g}"
        print(f"{r['name']:<{width}}  {r['status']:<6}  {err}")
    counts = {k: sum(r["status"] == k for r in results) for k in ("PASS", "FAIL", "KNOWN")}
    failures = [r for r in results if r["status"] == "FAIL"]
    for r in failures:
        print(f"FAIL {r['name']}: {r['detail']}")
else:
    counts = None
    print("tests: no results (run_gpu_tests.py failed before writing them)")
print()
if bench_path.exists():
    bench = json.loads(bench_path.read_text())
    rows = bench["rows"]
    width = max(len(r["name"]) for r in rows)
    print(f"{'bench':<{width}}  croq GB/s call/kernel  torch GB/s call/kernel  ratio call/kernel")
    for r in rows:
        if r["status"] != "ok":
            print(f"{r['name']:<{width}}  {r['status']}")
            continue
        print(f"{r['name']:<{width}}  {num(r['croq_call_gbps']):>9} / {num(r['croq_kernel_gbps']):<9}  "
              f"{num(r['torch_call_gbps']):>10} / {num(r['torch_kernel_gbps']):<10}  "
              f"{num(r['call_ratio'], 2):>5} / {num(r['kernel_ratio'], 2)}")
    o = bench["overhead"]
    print(f"per-call overhead (64x64 tile): croq {o['croq_call_us']:.1f} us "
          f"(argument checks {o['croq_argument_checks_us']:.1f} us), "
          f"torch copy+sync {o['torch_copy_and_sync_us']:.1f} us")
else:
    print("bench: no results (bench_dma.py failed before writing them)")
print(sass_line)
if counts is not None:
    print(f"gpu tests: {counts['PASS']} passed, {counts['FAIL']} failed, "
          f"{counts['KNOWN']} skipped")
PY

cat "$OUT/bench_gemm.md" 2>/dev/null | tee -a "$LOG"
echo "gpu-check: tests exit $tests_rc, bench exit $bench_rc, gemm bench exit $gemm_rc, attention bench exit $attention_rc, grouped bench exit $grouped_rc, conv bench exit $conv_rc; outputs in $OUT" | tee -a "$LOG"
[ "$tests_rc" -eq 0 ] && [ "$bench_rc" -eq 0 ] && [ "$gemm_rc" -eq 0 ] && [ "$attention_rc" -eq 0 ] && [ "$grouped_rc" -eq 0 ] && [ "$conv_rc" -eq 0 ]
