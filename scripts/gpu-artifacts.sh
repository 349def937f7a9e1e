#!/usr/bin/env bash
# Compiles, on this machine (no GPU needed), every GPU test kernel
# (test/Integration/GPU/*.mlir), benchmark kernel (bench/kernels/*.mlir),
# examples/copy_slices.mlir, examples/flash_attention.mlir and
# examples/flash_decode.mlir, and the
# frontend programs of test/Conversion/LinalgToCroq/Inputs/frontend that
# test/Integration/GPU/frontend_tests.py runs, with
# croq.compile, and gathers what the GPU machine needs into gpu-artifacts/:
#
#   kernels/   lib<module>.so, <module>.json and <module>.ptxas.txt (ptxas -v:
#              registers, spills) of each module, one libCroqRuntime.so,
#              cubin/<kernel>.cubin of the kernels scripts/gpu-check.sh
#              disassembles (SASS_KERNELS below), the autotune variant
#              directories autotune_mm/ and tiles_mm/ (lib*.so, *.json,
#              variants.json, and libCroqRuntime.so as a link to the
#              one in kernels/), and
#              <module>.FAILED.txt for a module that did not compile (the GPU
#              tests report it)
#   python/    the croq package
#   tests/     run_gpu_tests.py and the test modules beside it
#   bench/     bench/*.py (bench_dma.py, bench_gemm.py, triton_gemm.py, ...)
#   MANIFEST.txt  commit, date, tools, files
#
# The GPU machine takes 64 MiB: the working tree (tracked files and untracked
# ones git does not ignore) and what is carried together. The script also
# packs the directory into gpu-artifacts.tar.gz (a quarter of its size: the
# libraries' cubins compress well), which is what travels; gpu-check.sh and
# gpu-sanitize.sh unpack it there. The script fails when the packed
# artifacts are larger than 64 MiB less the working tree less HEADROOM_MIB
# (48 MiB where git cannot list the tree). The debug
# files croq.compile also writes (<module>.ptx, <module>.mlir, the cubin of
# every kernel, and the ptxas reports of the variants) are left out: with
# them the directory is well over the limit. To keep them, for reading PTX
# or SASS here or carrying parts of them by hand:
#
#   CROQ_GPU_DEBUG_FILES=1 ./scripts/gpu-artifacts.sh   # no size limit then
#
# Then run scripts/gpu-check.sh on the GPU machine with gpu-artifacts.tar.gz
# (or the directory) carried there (README, "Running on a GPU").
#
#   ./scripts/gpu-artifacts.sh
#
# On the GPU machine itself, with the wheel installed (no MLIR, no build
# tree; gcc links the host code, the CUDA toolkit's ptxas assembles):
#
#   CROQ_TOOLS_FROM=wheel CROQ_PYTHON=venv/bin/python ./scripts/gpu-artifacts.sh
#
# compiles the same artifacts with the installed package's tools, CROQ_JOBS
# modules at a time (default: the machine's cores), neither packs them nor
# checks their size (they need not travel), and leaves gpu-artifacts/python
# empty: scripts/gpu-check.sh, run with CROQ_PYTHON=venv/bin/python, then
# imports the installed package (jit_tests.py compiles with it there).
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${CROQ_PYTHON:-/usr/bin/python3}
TOOLS_FROM=${CROQ_TOOLS_FROM:-build}
case "$TOOLS_FROM" in
  build) JOBS=${CROQ_JOBS:-1} ;;
  wheel) JOBS=${CROQ_JOBS:-$(nproc)} ;;
  *) echo "gpu-artifacts: CROQ_TOOLS_FROM is build or wheel, got" \
          "'$TOOLS_FROM'" >&2
     exit 1 ;;
esac
ART=gpu-artifacts
MIB=$((1024 * 1024))
DEVICE_MIB=64
HEADROOM_MIB=2
DEBUG_FILES=${CROQ_GPU_DEBUG_FILES:-0}
# The kernels whose cubins scripts/gpu-check.sh disassembles (its "for kernel
# in ..." list); their cubins are kept without the debug files too.
SASS_KERNELS=(copy_64x64_kernel copy_64x64_async_kernel copy_f32_kernel
  gemm_f16_128x256_kernel gemm_f16_128x256_pt_kernel gemm_plain_f16_kernel)

if [ "$TOOLS_FROM" = wheel ]; then
  # The installed package, not the tree's python/: its croq/bin/croq-tool
  # and croq/lib/libCroqRuntime.so.
  runtime=$(cd / && "$PYTHON" -c 'import croq.compiler as c; print(c.find_runtime(translate=c.find_croq_translate()))') || {
    echo "gpu-artifacts: $PYTHON has no croq wheel installed (pip install" \
         "croq-*.whl)" >&2
    exit 1
  }
  echo "gpu-artifacts: the wheel's tools ($runtime), $JOBS jobs"
  PACKAGE_PATH=
else
  if [ -f build/build.ninja ]; then
    cmake --build build
  else
    CROQ_SKIP_APT=1 ./scripts/setup.sh
  fi
  if [ ! -f build/lib/libCroqRuntime.so ]; then
    echo "gpu-artifacts: build/lib/libCroqRuntime.so is missing; the" \
         "runtime (target CroqRuntime, lib/Runtime) must be built first" >&2
    exit 1
  fi
  runtime=build/lib/libCroqRuntime.so
  PACKAGE_PATH=python
fi
# ptxas assembles the cubins; croq.compile also looks in /usr/local/cuda/bin.
export PATH="$PATH:/usr/local/cuda/bin"

rm -rf "$ART"
mkdir -p "$ART/kernels" "$ART/python" "$ART/tests" "$ART/bench"
# Every module links against this one copy (runtime_dir below), so that
# modules compiled at once never copy it over one another.
cp "$runtime" "$ART/kernels/libCroqRuntime.so"

# examples/copy_slices.mlir, flash_attention.mlir, flash_attention_bwd.mlir,
# flash_attention_varlen.mlir, flash_decode.mlir and grouped_matmul.mlir
# too: the GPU tests and benchmarks call them.
PYTHONPATH=$PACKAGE_PATH CROQ_GPU_JOBS=$JOBS CROQ_GPU_TOOLS_FROM=$TOOLS_FROM \
    "$PYTHON" - "$ART/kernels" test/Integration/GPU/*.mlir \
    bench/kernels/*.mlir examples/copy_slices.mlir examples/flash_attention.mlir \
    examples/flash_attention_bwd.mlir examples/flash_attention_varlen.mlir \
    examples/flash_decode.mlir examples/grouped_matmul.mlir <<'PY'
"""Compiles each kernel file into the artifact directory; a failure is
written to <module>.FAILED.txt and the others go on. CROQ_GPU_JOBS
modules at a time (each croq.compile runs its tools as processes)."""
import ast
import os
import shutil
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import croq

out = Path(sys.argv[1])
# The tools: the build tree's, or the installed wheel's (croq.compile finds
# them); the runtime: the one copy in the output.
TOOLS = dict(runtime_dir=out)
if os.environ["CROQ_GPU_TOOLS_FROM"] == "build":
    TOOLS["tools_dir"] = "build/bin"
failed = []


def attempt(label, compile_it):
    """Runs `compile_it`; a CompileError is written to <label>.FAILED.txt
    (and a success removes an old one)."""
    try:
        compile_it()
    except croq.CompileError as e:
        failed.append(label)
        (out / f"{label}.FAILED.txt").write_text(str(e) + "\n")
        print(f"gpu-artifacts: FAILED {label}:\n{e}", file=sys.stderr)
        return False
    # A module that failed in an earlier build of this directory and
    # compiles now has no failure left on record.
    (out / f"{label}.FAILED.txt").unlink(missing_ok=True)
    return True


def compile_file(path):
    def main():
        art = croq.compile(path, out, **TOOLS)
        print(f"compiled {path}: {', '.join(art.functions())}")
    if not attempt(path.stem, main):
        return
    if path.stem == "tma":
        # The tma copies without their software copy (tma-fallback=never):
        # the GPU tests check that a tensor TMA cannot take fails the call.
        croq.compile(path, out, name="tma_nofallback", **TOOLS,
                     tma_fallback="never")
        print(f"compiled {path} as tma_nofallback")
    if path.stem == "linalg_matmul":
        # The GEMMs from linalg in thread block clusters that share B (2, 1)
        # or A (1, 2) by TMA multicast.
        for cluster in ((2, 1), (1, 2)):
            label = "m2" if cluster == (2, 1) else "n2"
            croq.compile(path, out, name=f"linalg_cluster_{label}", **TOOLS,
                         gemm_cluster=cluster)
            print(f"compiled {path} as linalg_cluster_{label}")
        # The stream-K form wherever a tile has it (the GPU tests), and
        # the cost model's choice without it (bench_linalg.py's waves
        # table).
        croq.compile(path, out, name="linalg_streamk", **TOOLS,
                     gemm_stream_k=2)
        print(f"compiled {path} as linalg_streamk")
        croq.compile(path, out / "linalg_matmul_nosk", **TOOLS,
                     gemm_stream_k=1)
        print(f"compiled {path} into linalg_matmul_nosk")
        # The K loop split among the blocks of clusters of 2 and 4, summed
        # through distributed shared memory (the GPU tests).
        for blocks in (2, 4):
            croq.compile(path, out, name=f"linalg_clusterk{blocks}", **TOOLS,
                         gemm_cluster_k=blocks)
            print(f"compiled {path} as linalg_clusterk{blocks}")


jobs = [lambda path=path: compile_file(path) for path in map(Path, sys.argv[2:])]
# The autotune variants of two GEMMs from linalg (zero-filled f16 and
# accumulating f32): the GPU tests tune them per shape.
linalg = Path("test/Integration/GPU/linalg_matmul.mlir").read_text()


def function_text(source, fname):
    """The text of func.func @fname in `source`, to its closing brace."""
    text = source[source.index(f"func.func @{fname}("):]
    return text[:text.index("\n}\n") + 3]


functions = [function_text(linalg, fname)
             for fname in ("linalg_mm_f16", "linalg_mm_acc_f16")]
# bench_tiles.py times every configuration of linalg_mm_f16 alone.
# tiles_mm has every tile alone and in thread block clusters of two along
# M (B multicast) and along N (A multicast), and the model's choice.
clustered = [{"gemm_tile": tile, "gemm_split_k": 1, "gemm_cluster": cluster}
             for tile in ((128, 256), (128, 192), (128, 128), (64, 128))
             for cluster in ((1, 1), (2, 1), (1, 2))]
# The widths between 128 and 256, alone.
clustered += [{"gemm_tile": (128, width), "gemm_split_k": 1,
               "gemm_cluster": (1, 1)} for width in (144, 160, 176, 224)]
# The splittable tiles split in 2, 3, 4 and 6.
clustered += [{"gemm_tile": tile, "gemm_split_k": splits}
              for tile in ((128, 128), (64, 128)) for splits in (2, 3, 4, 6)]
# The forced-form GPU tests' products and fused consumers, and two batched
# products, with the 192x192 tile of three consumer warpgroups forced
# (linalg_tile192): the 8-bit float products of linalg_matmul.mlir do not
# take it.
batched = Path("test/Integration/GPU/linalg_batch_matmul.mlir").read_text()
tile192 = [function_text(linalg, fname) for fname in (
    "linalg_mm_f16", "linalg_mm_f16_f32out", "linalg_mm_nt_bf16",
    "linalg_mm_acc_f16", "linalg_mm_tn_f16", "linalg_mm_tt_bf16",
    "linalg_mm_bias_relu_f16", "linalg_mm_silu_residual_bf16",
    "linalg_mm_colscale_bias_f16")]
tile192 += [function_text(batched, fname)
            for fname in ("linalg_bmm_f16", "linalg_bmm_nt_bf16")]


def tile192_module():
    croq.compile("\n".join(tile192), out, name="linalg_tile192", **TOOLS,
                 gemm_tile=(192, 192), gemm_split_k=1, gemm_stream_k=1)
    print("compiled linalg_tile192")


jobs.append(lambda: attempt("linalg_tile192", tile192_module))
for label, source, configs in (
        ("autotune_mm", "\n".join(functions), croq.DEFAULT_CONFIGS),
        ("tiles_mm", functions[0], [{}, *clustered])):
    def variants(label=label, source=source, configs=configs):
        croq.compile_variants(source, out / label, configs, name=label,
                              **TOOLS)
        print(f"compiled the variants of {label}")
    jobs.append(lambda label=label, variants=variants:
                attempt(label, variants))
# The frontend programs frontend_tests.py runs (the keys of its PROGRAMS),
# in every variant the corpus compiles (Inputs/frontend/expected.txt), as
# modules frontend_<program>_<variant>.
tests = ast.parse(Path("test/Integration/GPU/frontend_tests.py").read_text())
programs = set()
for node in tests.body:
    if isinstance(node, ast.Assign) and \
            getattr(node.targets[0], "id", None) == "PROGRAMS":
        programs = {key.value for key in node.value.keys}
corpus = Path("test/Conversion/LinalgToCroq/Inputs/frontend")
for line in (corpus / "expected.txt").read_text().splitlines():
    stem = line.split(":")[0][:-len(".mlir")]
    if not line.endswith(": compiles") or stem.split(".")[0] not in programs:
        continue
    name = "frontend_" + stem.replace(".", "_").replace("-", "_")

    def program(stem=stem, name=name):
        # The variants of one program share its kernels' names, and
        # croq-translate writes each kernel's cubin as cubin/<kernel>.cubin
        # in the output before embedding it: two variants compiled at once
        # into one directory ran ptxas on one file from two processes
        # (ptxas failed with status 255, or a library embedded the other
        # variant's cubin and its launch failed; H200, 16 jobs). So each
        # compiles in a directory of its own, and only its uniquely named
        # files move into the output.
        stage = out / ".stage" / name
        shutil.rmtree(stage, ignore_errors=True)
        try:
            croq.compile(corpus / f"{stem}.mlir", stage, name=name, **TOOLS)
            for file in (f"lib{name}.so", f"{name}.json", f"{name}.ptx",
                         f"{name}.mlir", f"{name}.ptxas.txt",
                         f"{name}.build.json"):
                if (stage / file).is_file():
                    os.replace(stage / file, out / file)
        finally:
            shutil.rmtree(stage, ignore_errors=True)
        print(f"compiled {stem} as {name}")
    jobs.append(lambda name=name, program=program: attempt(name, program))
with ThreadPoolExecutor(max_workers=int(os.environ["CROQ_GPU_JOBS"])) as pool:
    for job in [pool.submit(job) for job in jobs]:
        job.result()
shutil.rmtree(out / ".stage", ignore_errors=True)
if failed:
    print(f"gpu-artifacts: {len(failed)} module(s) did not compile: "
          f"{', '.join(map(str, failed))}", file=sys.stderr)
PY

# Every variant directory holds a copy of libCroqRuntime.so beside its
# library; croq.load loads the runtime once per process, so one file does:
# the copies become relative links to kernels/libCroqRuntime.so (links
# travel to the GPU machine as links).
find "$ART/kernels" -mindepth 2 -name libCroqRuntime.so -type f -print0 |
  while IFS= read -r -d '' copy; do
    if cmp -s "$copy" "$ART/kernels/libCroqRuntime.so"; then
      ln -sfr "$ART/kernels/libCroqRuntime.so" "$copy"
    fi
  done

# Leave out the debug files (header): what the GPU tests and benchmarks load
# is lib*.so, *.json and libCroqRuntime.so; gpu-check.sh also reads the
# top-level *.ptxas.txt and the cubins of SASS_KERNELS.
if [ "$DEBUG_FILES" != 1 ]; then
  find "$ART/kernels" -type f \( -name '*.ptx' -o -name '*.mlir' \) -delete
  # The variants' reports and cubins (kernels/<set>/<variant>/...).
  find "$ART/kernels" -mindepth 2 -type f -name '*.ptxas.txt' -delete
  find "$ART/kernels" -mindepth 2 -type d -name cubin -prune -exec rm -rf {} +
  for cubin in "$ART"/kernels/cubin/*.cubin; do
    [ -e "$cubin" ] || continue
    case " ${SASS_KERNELS[*]} " in
      *" $(basename "$cubin" .cubin) "*) ;;
      *) rm -f "$cubin" ;;
    esac
  done
fi

# The package the GPU scripts import (PYTHONPATH=gpu-artifacts/python); with
# the wheel's tools none, so that they import the installed package, whose
# compiler croq.jit's tests compile with there.
if [ "$TOOLS_FROM" = build ]; then
  cp -r python/croq "$ART/python/"
  find "$ART/python" -name __pycache__ -prune -exec rm -rf {} +
fi
# The GPU tests' driver with the modules it imports (linalg_ops_tests.py),
# and every benchmark script.
cp test/Integration/GPU/*.py "$ART/tests/"
# Which frontend programs compile (frontend_tests.py reads it beside it).
cp test/Conversion/LinalgToCroq/Inputs/frontend/expected.txt \
  "$ART/tests/frontend_expected.txt"
cp bench/*.py "$ART/bench/"

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  commit="$commit (with uncommitted changes)"
fi
{
  echo "croq GPU artifacts"
  echo "commit: $commit"
  echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n)"
  echo "ptxas: $(ptxas --version 2>/dev/null | tail -1)"
  echo "debug files: $([ "$DEBUG_FILES" = 1 ] && echo kept || echo "left out (CROQ_GPU_DEBUG_FILES=1 keeps them)")"
  echo "files:"
  (cd "$ART" && find . -type f ! -name MANIFEST.txt -printf '  %p %s\n' | sort)
} > "$ART/MANIFEST.txt"

if [ "$TOOLS_FROM" = wheel ]; then
  # Compiled where they run: nothing to pack or to fit.
  echo "gpu-artifacts: $(( $(du -sb "$ART" | cut -f1) / 1024 )) KiB in $ART" \
       "($(find "$ART" -type f | wc -l) files), compiled with the wheel"
  exit 0
fi

# What travels besides gpu-artifacts: the working tree.
# (A tracked file deleted in the tree has no size: stat skips it.)
tree=$({ git ls-files -z --cached --others --exclude-standard 2>/dev/null |
           xargs -0 -r stat -c %s 2>/dev/null || true; } |
         awk '{s += $1} END {print s + 0}')
if [ "$tree" -gt 0 ]; then
  limit=$(( DEVICE_MIB * MIB - tree - HEADROOM_MIB * MIB ))
  why="the GPU machine takes $DEVICE_MIB MiB with the working tree"
  why="$why ($(( tree / 1024 )) KiB here)"
else
  limit=$(( 48 * MIB ))
  why="48 MiB: the GPU machine takes $DEVICE_MIB MiB with the working tree"
fi
tar -czf "$ART.tar.gz" "$ART"
size=$(stat -c %s "$ART.tar.gz")
echo "gpu-artifacts: $(( $(du -sb "$ART" | cut -f1) / 1024 )) KiB in $ART" \
     "($(find "$ART" -type f | wc -l) files), packed into $ART.tar.gz:" \
     "$(( size / 1024 )) KiB (limit $(( limit / 1024 )) KiB)"
if [ "$size" -gt "$limit" ]; then
  if [ "$DEBUG_FILES" = 1 ]; then
    echo "gpu-artifacts: larger than $(( limit / 1024 )) KiB with the debug" \
         "files (CROQ_GPU_DEBUG_FILES=1): too large to carry whole;" \
         "$why" >&2
  else
    echo "gpu-artifacts: larger than $(( limit / 1024 )) KiB; $why" >&2
    exit 1
  fi
fi
