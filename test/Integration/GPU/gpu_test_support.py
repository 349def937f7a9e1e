"""What the GPU test groups share (run_gpu_tests.py runs them): the
results and the suite that runs and records each case (Suite), the known
issues, random and poisoned tensors, the comparisons against torch (exact,
or within a tolerance of the float64 reference), the GEMM tolerances, and
the runtime's tensor-map statistics that tell a TMA copy from its
software fallback."""

from __future__ import annotations

import contextlib
import ctypes
import math
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import torch

import croq


#: Kernels that do not compile or are known to compute wrong results, with
#: the exact error. Their tests are reported as KNOWN, not run. Every kernel
#: of test/Integration/GPU compiles to PTX and assembles with ptxas as of
#: this commit; scripts/gpu-artifacts.sh writes <module>.FAILED.txt for any
#: module that stops compiling, and that is reported as FAIL.
KNOWN_ISSUES: Dict[str, str] = {}


DEVICE = "cuda"


@dataclass
class Result:
    """The outcome of one test case."""

    name: str
    status: str  # PASS, FAIL, KNOWN
    max_error: Optional[float] = None
    detail: str = ""
    seconds: float = 0.0


def random_tensor(shape: Sequence[int], dtype: torch.dtype) -> torch.Tensor:
    """Random data of ``dtype`` with no zeros: normal floats, or integers in
    [-100, 100] without 0 (so that the 0x7F poison is never a legal value)."""
    if dtype.is_floating_point:
        t = torch.randn(*shape, device=DEVICE, dtype=torch.float32)
        t[t == 0] = 1.0
        t = t.to(dtype)
        t[t == 0] = 1.0
        return t
    t = torch.randint(-100, 101, tuple(shape), device=DEVICE, dtype=dtype)
    t[t == 0] = 1
    return t


def poison_(t: torch.Tensor) -> torch.Tensor:
    """Fills ``t`` with a value no kernel writes: NaN, or 0x7F in every
    byte for integers."""
    if t.dtype.is_floating_point:
        return t.fill_(float("nan"))
    pattern = {1: 0x7F, 2: 0x7F7F, 4: 0x7F7F7F7F, 8: 0x7F7F7F7F7F7F7F7F}
    return t.fill_(pattern[t.element_size()])


def poisoned(shape: Sequence[int], dtype: torch.dtype) -> torch.Tensor:
    return poison_(torch.empty(tuple(shape), device=DEVICE, dtype=dtype))


def misaligned(shape: Sequence[int], dtype: torch.dtype, elements: int,
               fill: Callable[[Sequence[int], torch.dtype], torch.Tensor]
               ) -> torch.Tensor:
    """A contiguous tensor of ``shape`` whose data starts ``elements``
    elements into a 16-byte aligned allocation, so that its data pointer is
    not 16-byte aligned and croq's vector paths must fall back to scalars."""
    numel = math.prod(shape)
    storage = fill((numel + elements + 16,), dtype)
    t = storage[elements:elements + numel].view(*shape)
    assert t.data_ptr() % 16 != 0, "the view should be misaligned"
    return t


def compare(out: torch.Tensor, ref: torch.Tensor) -> Tuple[bool, float, str]:
    """Exact comparison; returns (equal, max abs error, what differs)."""
    if out.shape != ref.shape:
        return False, math.inf, f"shape {tuple(out.shape)} != {tuple(ref.shape)}"
    if out.dtype.is_floating_point:
        unwritten = torch.isnan(out) & ~torch.isnan(ref)
        n_unwritten = int(unwritten.sum())
        diff = (out.double() - ref.double()).abs()
        diff = torch.where(torch.isnan(diff), torch.full_like(diff, math.inf),
                           diff)
        max_err = float(diff.max()) if diff.numel() else 0.0
        equal = torch.equal(out, ref) or bool(
            ((out == ref) | (torch.isnan(out) & torch.isnan(ref))).all())
    else:
        diff = (out.long() - ref.long()).abs()
        max_err = float(diff.max()) if diff.numel() else 0.0
        n_unwritten = int((out == poison_(torch.empty_like(out)))
                          .logical_and(out != ref).sum())
        equal = torch.equal(out, ref)
    if equal:
        return True, max_err, ""
    wrong = int((out != ref).sum()) if not out.dtype.is_floating_point else \
        int(((out != ref) & ~(torch.isnan(out) & torch.isnan(ref))).sum())
    first = torch.nonzero(out != ref)[0].tolist() if wrong else []
    detail = f"{wrong} of {ref.numel()} elements differ"
    if n_unwritten:
        detail += f" ({n_unwritten} never written)"
    if first:
        idx = tuple(first)
        detail += f"; first at {idx}: got {out[idx].item()}, want {ref[idx].item()}"
    return False, max_err, detail


class Suite:
    """Loads the kernel modules and collects the results."""

    def __init__(self, artifacts: Path, select: Optional[str],
                 max_gemm: Optional[int] = None) -> None:
        self.kernels = artifacts / "kernels"
        self.select = select
        # GEMMs with more than this many multiply-adds (M N K) are skipped:
        # under compute-sanitizer the large ones take minutes each.
        self.max_gemm = max_gemm
        self.skipped_large = 0
        self.modules: Dict[str, object] = {}
        self.results: List[Result] = []

    def skip_gemm(self, m: int, n: int, k: int) -> bool:
        """Whether an M x N x K GEMM is over --max-gemm (and counted as
        skipped)."""
        if self.max_gemm is not None and m * n * k > self.max_gemm:
            self.skipped_large += 1
            return True
        return False

    def module(self, name: str):
        if name not in self.modules:
            failed = self.kernels / f"{name}.FAILED.txt"
            if failed.exists():
                raise RuntimeError(f"module {name} did not compile: "
                                   f"{failed.read_text().strip()}")
            self.modules[name] = croq.load(self.kernels / f"lib{name}.so")
        return self.modules[name]

    def run(self, name: str, kernel: str, body: Callable[[], Tuple[bool, float, str]]) -> None:
        if self.select and not any(part in name
                                   for part in self.select.split("|")):
            return
        if kernel in KNOWN_ISSUES:
            self.results.append(Result(name, "KNOWN", None, KNOWN_ISSUES[kernel]))
            return
        start = time.perf_counter()
        try:
            ok, err, detail = body()
            torch.cuda.synchronize()
            status = "PASS" if ok else "FAIL"
        except Exception as e:  # a failed test must not stop the others
            ok, err, status = False, None, "FAIL"
            detail = f"{type(e).__name__}: {e}"
            traceback.print_exc()
        self.results.append(Result(name, status, err, detail,
                                   time.perf_counter() - start))
        line = f"{status:5} {name}"
        if err is not None:
            line += f"  max_err={err:g}"
        if detail:
            line += f"  {detail}"
        print(line, flush=True)


def shape_name(shape: Sequence[int]) -> str:
    return "x".join(str(s) for s in shape)


#: One-byte float types: torch cannot compare them, so they are made,
#: poisoned and compared as bytes.
BYTE_FLOATS = (torch.float8_e4m3fn, torch.float8_e5m2)


class TensorMapStats(ctypes.Structure):
    """croqRtTensorMapCacheStats."""
    _fields_ = [("encodes", ctypes.c_uint64), ("hits", ctypes.c_uint64),
                ("entries", ctypes.c_uint64), ("fallbacks", ctypes.c_uint64),
                ("staged", ctypes.c_uint64), ("evictions", ctypes.c_uint64),
                ("capacity", ctypes.c_uint64)]


def runtime(s: Suite) -> ctypes.CDLL:
    """The runtime croq loaded (the same file, so the same library)."""
    s.module("tma_generated")
    lib = ctypes.CDLL(str(s.kernels / "libCroqRuntime.so"))
    lib.croqRtTensorMapStats.argtypes = [ctypes.POINTER(TensorMapStats)]
    lib.croqRtTensorMapStats.restype = None
    lib.croqRtTensorMapFallbackReason.argtypes = []
    lib.croqRtTensorMapFallbackReason.restype = ctypes.c_char_p
    lib.croqRtTensorMapSetStaging.argtypes = [ctypes.c_int]
    lib.croqRtTensorMapSetStaging.restype = ctypes.c_int
    return lib


@contextlib.contextmanager
def staging(s: Suite, enabled: bool):
    """Runs the body with the runtime's staging of misaligned read-only
    tensors on or off."""
    was = runtime(s).croqRtTensorMapSetStaging(int(enabled))
    try:
        yield
    finally:
        runtime(s).croqRtTensorMapSetStaging(was)


def map_stats(s: Suite) -> TensorMapStats:
    stats = TensorMapStats()
    runtime(s).croqRtTensorMapStats(ctypes.byref(stats))
    return stats


def fallback_reason(s: Suite) -> str:
    return runtime(s).croqRtTensorMapFallbackReason().decode()


def random_any(shape: Sequence[int], dtype: torch.dtype) -> torch.Tensor:
    """random_tensor, and for one-byte floats random finite non-zero bytes
    (below 0x78 in magnitude: no NaN or infinity in either format)."""
    if dtype not in BYTE_FLOATS:
        return random_tensor(shape, dtype)
    magnitude = torch.randint(1, 0x78, tuple(shape), device=DEVICE,
                              dtype=torch.uint8)
    sign = torch.randint(0, 2, tuple(shape), device=DEVICE,
                         dtype=torch.uint8) * 0x80
    return (magnitude | sign).view(dtype)


def poisoned_any(shape: Sequence[int], dtype: torch.dtype) -> torch.Tensor:
    if dtype not in BYTE_FLOATS:
        return poisoned(shape, dtype)
    return torch.full(tuple(shape), 0x7F, device=DEVICE,
                      dtype=torch.uint8).view(dtype)


def compare_any(out: torch.Tensor, ref: torch.Tensor) -> Tuple[bool, float, str]:
    if out.dtype in BYTE_FLOATS:
        return compare(out.view(torch.uint8), ref.view(torch.uint8))
    return compare(out, ref)


def expect_fallbacks(s: Suite, before: TensorMapStats, count: int,
                     rule: Optional[str], result: Tuple[bool, float, str],
                     staged: int = 0) -> Tuple[bool, float, str]:
    """`result`, failed unless exactly `count` tensors fell back since
    `before` (the last one for `rule`) and exactly `staged` were staged."""
    ok, err, detail = result
    after = map_stats(s)
    fell = after.fallbacks - before.fallbacks
    if fell != count:
        return False, err, (f"{fell} tensors fell back to the software copy, "
                            f"expected {count} ({fallback_reason(s)!r}); "
                            + detail)
    if after.staged - before.staged != staged:
        return False, err, (f"{after.staged - before.staged} tensors were "
                            f"staged, expected {staged}; " + detail)
    if rule and not fallback_reason(s).startswith(rule + ":"):
        return False, err, (f"fallback reason {fallback_reason(s)!r}, "
                            f"expected rule {rule}; " + detail)
    return ok, err, detail


def copy_window(fn: Callable[..., None], start: int, width: int
                ) -> Tuple[Tuple[bool, Optional[float], str], bool]:
    """Calls ``fn(x, out)`` on 150 x ``width`` windows, at row 5 and column
    ``start``, of a random 200 x 1024 f16 tensor and of another filled with
    123; returns the comparison of the windows (or the failure that
    elements outside the output window changed) and whether the outside
    stayed untouched."""
    big = random_tensor((200, 1024), torch.float16)
    x = big[5:155, start:start + width]
    big_out = torch.full((200, 1024), 123.0, device=DEVICE,
                         dtype=torch.float16)
    out = big_out[5:155, start:start + width]
    poison_(out)
    fn(x, out)
    result = compare(out, x)
    outside = big_out.clone()
    outside[5:155, start:start + width] = 123.0
    if not bool((outside == 123.0).all()):
        return (False, result[1], "elements outside the slice changed"), False
    return result, True


def compare_close(out: torch.Tensor, ref: torch.Tensor,
                  tolerance: float) -> Tuple[bool, float, str]:
    """Relative comparison for GEMM results: max |out - ref| over max |ref|
    (ref in float64) within ``tolerance``, and no element left unwritten."""
    if out.shape != ref.shape:
        return False, math.inf, f"shape {tuple(out.shape)} != {tuple(ref.shape)}"
    unwritten = int(torch.isnan(out).sum())
    diff = (out.double() - ref).abs()
    scale = float(ref.abs().max()) or 1.0
    err = float(torch.nan_to_num(diff, nan=math.inf).max()) / scale
    if unwritten or not err <= tolerance:
        first = torch.nonzero(torch.nan_to_num(diff, nan=math.inf) > tolerance * scale)
        where = ""
        if first.numel():
            idx = tuple(first[0].tolist())
            where = f"; first at {idx}: got {out[idx].item()}, want {ref[idx].item()}"
        return False, err, (f"relative error {err:.3g} > {tolerance}"
                            f" ({unwritten} never written){where}")
    return True, err, ""


#: Relative tolerance of a GEMM result (max |out - ref| / max |ref|) by the
#: result's type.
GEMM_TOLERANCE = {torch.float16: 2e-3, torch.bfloat16: 1e-2,
                  torch.float32: 1e-4}


def fp8_tolerance(k: int) -> float:
    """Relative tolerance of a hand-written 8-bit GEMM over K (matmul.mlir's
    persistent e4m3 and e5m2 kernels), which keeps the sum in wgmma's
    accumulator, which is narrower than f32 for 8-bit
    products, so the error grows with K: 1.2e-3, 2.7e-3, 4.0e-3 of the
    largest element at K = 512, 2048, 4096 on an H100, 2.1e-3 and 2.34e-3
    at K = 1000 on an H200 (seeds 19100 and 7362), where torch._scaled_mm
    (partial sums promoted to f32) stays at 1.5e-4 to 3.4e-4
    (bench/RESULTS.md). A known accuracy gap, not a tolerance for wrong
    results: a K step left out or added costs 1e-2 and more at these K."""
    return 1.5e-3 + 1.5e-6 * k


def fp8_promoted_tolerance(out_dtype: torch.dtype) -> float:
    """Relative tolerance of the 8-bit GEMMs convert-linalg-to-croq makes,
    whose partial sums are promoted into an f32 accumulator every K step:
    1.3e-4 to 1.7e-4 of the largest element up to K = 16384 with an f32
    result, as torch._scaled_mm, and 3.6e-4 to 4.5e-4 with an f16 one
    (its rounding; H200, bench/RESULTS.md). Without promotion the error is
    2e-3 and more from K = 1000 on."""
    return 1e-3 if out_dtype == torch.float16 else 5e-4


def random_operand(shape: Sequence[int], dtype: torch.dtype) -> torch.Tensor:
    """A GEMM operand: random_tensor, and for one-byte floats normal values
    of magnitude at least 1/8 (no zeros) rounded to the type, so that sums
    of products stay inside f16's range."""
    if dtype not in BYTE_FLOATS:
        return random_tensor(shape, dtype)
    t = torch.randn(*shape, device=DEVICE, dtype=torch.float32)
    t = torch.where(t < 0, -1.0, 1.0) * t.abs().clamp(min=0.125)
    return t.to(dtype)
