# ===- jit_tests.py - GPU tests of croq.jit (compile on first call) -----===#
#
# Dynamic-shape GEMMs from linalg text compiled where the GPU is, on first
# call: croq.jit compiles the module's classifier once and, for each shape
# class a call meets, the one variant the cost model chooses for it. Shapes
# of several classes (whole tiles of 128x256 and 128x128, a clustered
# 128x192, the split-K and stream-K forms) on random inputs (no zeros) with
# poisoned (NaN) outputs, or random ones accumulated into, compared with the
# float64 product. The module has two functions, so a specialization of one
# leaves the other's product without kernels. Also checked: what was
# compiled (the classifier and one specialization per class, each with its
# variant's kernels only) and the compile times of one class: cold five
# times, each in a fresh cache, and cached (printed as a JSON line "jit
# timings").
#
# Needs croq's tools where the tests run (the wheel installed, or a build:
# CROQ_TOOLS_DIR); without them the group is skipped, saying so.
# run_gpu_tests.py runs it with the other groups; alone:
#   python jit_tests.py
#
# ===----------------------------------------------------------------------===#

import json
import os
import statistics
import tempfile
import time

import torch

import croq
from croq.compiler import find_croq_translate

GEMMS = """
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>)
  return
}

func.func @gemm_acc(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xf32>)
  return
}
"""

#: M x N x K of several shape classes (the cost model's choices on an
#: H200 at this commit, on 132 SMs): 128x128 tiles (2048x1024x4096 and a
#: K a step longer: the same class), 128x256 (4096^3), the stream-K form
#: (576x8192x8192), a 128x192 tile in clusters of 2 (1000x3000x500), split
#: K (128x128x16384), skinny M (77x5000x3000).
SHAPES = [(2048, 1024, 4096), (2048, 1024, 4160), (4096, 4096, 4096),
          (576, 8192, 8192), (1000, 3000, 500), (128, 128, 16384),
          (77, 5000, 3000)]

#: max |out - ref| / max |ref| of an f32 result (run_gpu_tests.py's
#: GEMM_TOLERANCE).
TOLERANCE = 1e-4


#: Cold compiles timed, each in a fresh cache.
COLD_RUNS = 5


def _have_tools() -> bool:
    try:
        find_croq_translate()
    except croq.CompileError:
        return False
    return True


def _kernels(artifact) -> int:
    return sum(1 for line in artifact.ptx.read_text().splitlines()
               if line.startswith("//--- "))


def _timings(shape, random_tensor, poisoned):
    """Cold (empty cache: the classifier and one class compiled, loaded,
    called) and cached (a new module of the same text in the same cache)
    first calls of one shape, in seconds."""
    m, n, k = shape
    a = random_tensor((m, k), torch.float16)
    b = random_tensor((k, n), torch.float16)
    c = poisoned((m, n), torch.float32)
    times = {"cold_runs": []}
    # COLD_RUNS cold first calls, each in a cache of its own (the first one
    # of the process also reads the tools from disk): median and spread,
    # not one sample (1.31 s and 1.82 s were seen in two runs of one).
    for _ in range(COLD_RUNS):
        cache = tempfile.mkdtemp(prefix="croq-jit-cache-")
        module = croq.jit(GEMMS, name="jit_timed", cache=cache)
        start = time.perf_counter()
        module.gemm(a, b, c)
        times["cold_runs"].append(time.perf_counter() - start)
    times["cold"] = statistics.median(times["cold_runs"])
    module = croq.jit(GEMMS, name="jit_timed", cache=cache)
    start = time.perf_counter()
    module.gemm(a, b, c)
    times["cached"] = time.perf_counter() - start
    # Host time per call of a small GEMM, through the jit entry point and
    # through the loaded specialization it forwards to.
    a, b = a[:256, :256].contiguous(), b[:256, :256].contiguous()
    c = poisoned((256, 256), torch.float32)
    direct = module.gemm.entry_for(a, b, c)
    for label, fn in (("call_us_jit", module.gemm), ("call_us_direct", direct),
                      ("call_us_jit_again", module.gemm)):
        fn(a, b, c)
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(1000):
            fn(a, b, c)
        times[label] = (time.perf_counter() - start) / 1000 * 1e6
        torch.cuda.synchronize()
    times["shape"] = list(shape)
    return times


def jit_tests(s, random_tensor, poisoned, compare_close):
    if not _have_tools():
        print("jit tests skipped: croq's tools are not here (install the "
              "wheel, or set CROQ_TOOLS_DIR)", flush=True)
        return
    # A fresh cache: the classes compile here, now.
    module = croq.jit(GEMMS, name="jit_gemm",
                      cache=tempfile.mkdtemp(prefix="croq-jit-cache-"))
    classes = {}

    def case(fn, dtype, shape, accumulate):
        m, n, k = shape
        if s.skip_gemm(m, n, k):
            return

        def body():
            a = random_tensor((m, k), dtype)
            b = random_tensor((k, n), dtype)
            out = random_tensor((m, n), torch.float32) if accumulate else \
                poisoned((m, n), torch.float32)
            init = out.double().clone() if accumulate else 0.0
            entry = getattr(module, fn)
            classes[(fn, shape)] = entry.shape_class(a, b, out)
            entry(a, b, out)
            return compare_close(out, init + a.double() @ b.double(),
                                 TOLERANCE)
        s.run(f"jit {fn} {m}x{n}x{k}", "jit", body)

    for shape in SHAPES:
        case("gemm", torch.float16, shape, accumulate=False)
    for shape in SHAPES[:3] + SHAPES[5:6]:
        case("gemm_acc", torch.bfloat16, shape, accumulate=True)

    def compiled():
        """The classifier and one specialization per class met, each with
        its variant's kernels only (1 to 3; the dispatcher has 31)."""
        want = {"classify"} | set(classes.values())
        got = set(module.compiled)
        detail = []
        if got != want:
            detail.append(f"compiled {sorted(map(str, got))}, expected "
                          f"{sorted(map(str, want))}")
        counts = {str(key): _kernels(art)
                  for key, art in module.compiled.items()}
        if counts.get("classify") != 0 or not all(
                1 <= n <= 3 for key, n in counts.items() if key != "classify"):
            detail.append(f"kernels per artifact {counts}")
        print(f"jit classes: {json.dumps({f'{f} {sh}': c for (f, sh), c in classes.items()})}",
              flush=True)
        return not detail, None, "; ".join(detail)
    s.run("jit compiled only the classes met", "jit", compiled)

    def timed():
        times = _timings((2048, 1024, 4096), random_tensor, poisoned)
        print(f"jit timings: {json.dumps(times)}", flush=True)
        runs = times["cold_runs"]
        return True, None, (f"cold {times['cold']:.3f} s (median of "
                            f"{len(runs)}, {min(runs):.3f}-{max(runs):.3f}, "
                            f"first {runs[0]:.3f}), cached "
                            f"{times['cached'] * 1e3:.1f} ms, call "
                            f"{times['call_us_jit']:.1f} us (loaded "
                            f"module: {times['call_us_direct']:.1f} us)")
    s.run("jit compile times", "jit", timed)


if __name__ == "__main__":
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from run_gpu_tests import (Suite, compare_close, poisoned,  # noqa: E402
                               random_tensor)

    torch.manual_seed(int(os.environ.get("CROQ_SEED", "1")))
    suite = Suite(Path("."), None)
    jit_tests(suite, random_tensor, poisoned, compare_close)
    failed = [r for r in suite.results if r.status == "FAIL"]
    print(f"\njit tests: {len(suite.results) - len(failed)} passed, "
          f"{len(failed)} failed")
    sys.exit(1 if failed or not suite.results else 0)
