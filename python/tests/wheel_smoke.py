"""Run by scripts/test-wheel.sh inside a fresh virtual environment with the
wheel installed, from a directory outside the repository, where neither
MLIR/LLVM nor clang is reachable: compiles a static GEMM from linalg text,
a dynamic-shape one on first call (croq.jit: its classifier, run here, and
the one shape class it names), and a croq IR kernel with the installed
package alone, checks the artifacts, loads one, and prints the timings as
JSON.

    python wheel_smoke.py TILED_ADD_MLIR
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

STATIC_GEMM = """
func.func @gemm(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>,
                %c: memref<4096x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4096x4096xf32>)
  linalg.matmul ins(%a, %b : memref<4096x4096xf16>, memref<4096x4096xf16>)
                outs(%c : memref<4096x4096xf32>)
  return
}
"""

DYNAMIC_GEMM = """
func.func @gemm_dyn(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                    %c: memref<?x?xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<?x?xf16>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>)
                outs(%c : memref<?x?xf16>)
  return
}
"""


def fail(message: str) -> None:
    print(f"wheel_smoke: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def check(condition: bool, message: str) -> None:
    if not condition:
        fail(message)


def check_environment(croq) -> Path:
    """The package is the installed one, and no LLVM is reachable."""
    package = Path(croq.__file__).resolve().parent
    check(Path(sys.prefix).resolve() in package.parents,
          f"croq imported from {package}, not from the venv {sys.prefix}")
    check(not os.environ.get("PYTHONPATH"), "PYTHONPATH is set")
    # (Debian's clang-14, which clang-format-14 brings, may stay: croq
    # links with clang 22 or the system cc, never another clang.)
    for name in ("clang-22", "clang++-22", "mlir-opt", "mlir-opt-22",
                 "llvm-config-22"):
        check(shutil.which(name) is None, f"{name} is on PATH")
    check(not Path("/usr/lib/llvm-22/bin/clang").exists(),
          "/usr/lib/llvm-22 is reachable")
    tool = package / "bin" / "croq-tool"
    ldd = subprocess.run(["ldd", str(tool)], stdout=subprocess.PIPE,
                         text=True).stdout
    for bad in ("libMLIR", "libLLVM", "libstdc++", "not found"):
        check(bad not in ldd, f"ldd {tool}: {bad}\n{ldd}")
    print("ldd croq-tool:\n" + ldd.rstrip(), file=sys.stderr)
    return package


def compile_timed(croq, source, out: Path, name: str):
    start = time.perf_counter()
    art = croq.compile(source, out, name=name)
    return art, time.perf_counter() - start


def check_artifact(art, kernels_at_least: int = 1) -> dict:
    check(art.library.is_file(), f"{art.library} missing")
    cubins = sorted((art.directory / "cubin").glob("*.cubin"))
    check(len(cubins) >= kernels_at_least, f"no cubins in {art.directory}")
    for c in cubins:
        check(c.read_bytes()[:4] == b"\x7fELF", f"{c} is not ELF")
    info = json.loads((art.directory / f"{art.name}.build.json").read_text())
    check(info["ptxas"] is not None, "build.json names no ptxas")
    check("clang" not in Path(info["linker"]).name,
          f"linked by {info['linker']}, not the system cc")
    # The dynamic loader takes the library and its runtime ($ORIGIN).
    runtime = ctypes.CDLL(str(art.runtime))
    ctypes.CDLL(str(art.library))
    # Its constructors failed to load the cubins without a driver: forget
    # that, as croq.load does before it loads a library.
    runtime.croqRtClearLastError()
    return info


def jit_dynamic_gemm(croq, directory: Path) -> dict:
    """The dynamic GEMM compiled on first call (croq.jit): its classifier
    runs here (host code only, no driver needed) and gives the shape
    class of a 2048x1024x4096 call (its products' variants); that class
    alone is compiled. Without
    a GPU its library does not load (the driver is missing), so the
    specialization is compiled through croq.compile as croq.jit does."""
    from croq.arguments import Buffer
    module = croq.jit(DYNAMIC_GEMM, name="gemm_dyn", directory=directory)
    args = [Buffer(0x7F0000000000, (2048, 4096), dtype="f16"),
            Buffer(0x7E0000000000, (4096, 1024), dtype="f16"),
            Buffer(0x7D0000000000, (2048, 1024), dtype="f16")]
    start = time.perf_counter()
    variants = module.gemm_dyn.shape_class(*args)
    classified = time.perf_counter() - start
    # Two products: the one-row form of N = 1 (not this call's: -1) and
    # the product as stored.
    check(len(variants) == 2 and variants[0] == -1 and variants[1] >= 0,
          f"the classifier reported {variants}")
    start = time.perf_counter()
    art = croq.compile(DYNAMIC_GEMM, directory / "one", name="gemm_dyn",
                       gemm_variants=list(variants))
    one_class = time.perf_counter() - start
    check_artifact(art)
    kernels = len(list((art.directory / "cubin").glob("*.cubin")))
    check(1 <= kernels <= 3, f"one class compiled {kernels} kernels")
    return {"jit_classifier_cold_s": classified,
            "jit_one_class_cold_s": one_class,
            "jit_cold_total_s": classified + one_class,
            "jit_class": list(variants)}


def main() -> None:
    tiled_add = Path(sys.argv[1]).read_text()
    import croq
    package = check_environment(croq)
    work = Path.cwd()
    times = {}

    art, times["static_gemm_cold_s"] = compile_timed(
        croq, STATIC_GEMM, work / "static", "gemm")
    check(not art.cached, "the first compile hit the cache")
    info = check_artifact(art)
    art2, times["static_gemm_cache_hit_s"] = compile_timed(
        croq, STATIC_GEMM, work / "static-again", "gemm")
    check(art2.cached, "the second compile missed the cache")
    times.update(jit_dynamic_gemm(croq, work / "jit"))
    art4, times["croq_ir_tiled_add_cold_s"] = compile_timed(
        croq, tiled_add, work / "tiled_add", "tiled_add")
    check_artifact(art4, 2)

    # Bad input: the tool's diagnostic, named as croq-translate.
    try:
        croq.compile("func.func @broken() {\n", work / "broken",
                     name="broken")
        fail("broken IR compiled")
    except croq.CompileError as e:
        check(e.tool == "croq-translate" and "error" in str(e),
              f"broken IR: {e.tool}: {e}")

    # Loading runs the library's constructors, which load the cubins
    # through the runtime: without a GPU the runtime's driver error, not a
    # loader error, is the expected end.
    # (A copy the checks above have not dlopened: a library already loaded
    # does not run its constructors again.)
    fresh = croq.compile(tiled_add, work / "tiled_add_load", name="tiled_add")
    check(fresh.cached, "the copy to load missed the cache")
    try:
        croq.load(fresh.directory)
        loaded = "loaded (GPU present)"
    except croq.LoadError as e:
        fail(f"croq.load: {e}")
    except croq.RuntimeError as e:
        loaded = f"runtime error as expected without a GPU: {e}"

    for command in (["croq-translate", "--version"],
                    ["croq-opt", "--version"]):
        proc = subprocess.run(command, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        check(proc.returncode == 0, f"{command}: {proc.stdout}")

    print(json.dumps({"package": str(package), "times": times,
                      "ptxas": info["ptxas"],
                      "ptxas_origin": info["ptxas_origin"],
                      "ptxas_version": info["ptxas_version"],
                      "linker": info["linker"], "load": loaded}, indent=2))


if __name__ == "__main__":
    main()
