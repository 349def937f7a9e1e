#!/usr/bin/env python3
"""croq's GPU end-to-end tests: runs the prebuilt test kernels on a GPU and
checks every result against torch.

Compiles nothing: the kernels of test/Integration/GPU/*.mlir were compiled
on the build machine by scripts/gpu-artifacts.sh into
``gpu-artifacts/kernels`` (``lib<module>.so`` + ``<module>.json`` each, one
``libCroqRuntime.so``). Needs torch with CUDA and the croq package on
PYTHONPATH (scripts/gpu-check.sh sets it).

Method (see the device notes): inputs are random (torch.randn, or
torch.randint with zeros replaced), never zeros; every output is poisoned
first (NaN for floats, 0x7F bytes for integers) so that an element the kernel
did not write is caught; results are compared with torch on the same inputs
in higher precision: exactly for copies, transposes, pads and integer adds,
and for float adds against the float64 sum rounded to the output type (a
correctly rounded f32/f16/bf16 add gives exactly that). Regions a kernel
must not write (outside a strided slice) are checked to be untouched. Every
croq call checks the runtime's last CUDA error; torch.cuda.synchronize()
after each test surfaces asynchronous faults.

Usage:
    run_gpu_tests.py [--artifacts DIR] [--json FILE] [-k SUBSTRING]

Exit status 0 when every test passed (known issues aside), 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
import traceback
from dataclasses import asdict, dataclass
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


# ---------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------

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
    return poison_(torch.empty(*shape, device=DEVICE, dtype=dtype))


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


# ---------------------------------------------------------------------------
# The tests
# ---------------------------------------------------------------------------

class Suite:
    """Loads the kernel modules and collects the results."""

    def __init__(self, artifacts: Path, select: Optional[str]) -> None:
        self.kernels = artifacts / "kernels"
        self.select = select
        self.modules: Dict[str, object] = {}
        self.results: List[Result] = []

    def module(self, name: str):
        if name not in self.modules:
            failed = self.kernels / f"{name}.FAILED.txt"
            if failed.exists():
                raise RuntimeError(f"module {name} did not compile: "
                                   f"{failed.read_text().strip()}")
            self.modules[name] = croq.load(self.kernels / f"lib{name}.so")
        return self.modules[name]

    def run(self, name: str, kernel: str, body: Callable[[], Tuple[bool, float, str]]) -> None:
        if self.select and self.select not in name:
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


def add_tests(s: Suite) -> None:
    def case(kernel: str, dtype: torch.dtype, shape: Tuple[int, ...]) -> None:
        def body():
            m = s.module("tiled_add")
            a, b = random_tensor(shape, dtype), random_tensor(shape, dtype)
            c = poisoned(shape, dtype)
            getattr(m, kernel)(a, b, c)
            if dtype.is_floating_point:
                ref = (a.double() + b.double()).to(dtype)
            else:
                ref = a + b
            return compare(c, ref)
        s.run(f"{kernel} {shape_name(shape)}", kernel, body)

    case("add_i32_64x128", torch.int32, (64, 128))
    for shape in [(1000, 1000), (64, 128), (1, 1), (33, 65)]:
        case("add_i32", torch.int32, shape)
    for shape in [(1000, 1000), (4096, 4096), (1, 1), (31, 97)]:
        case("add_f32", torch.float32, shape)
    for shape in [(1000, 1000), (17, 33)]:
        case("add_f16", torch.float16, shape)
        case("add_bf16", torch.bfloat16, shape)


def copy_tests(s: Suite) -> None:
    def case(kernel: str, dtype: torch.dtype, shape: Tuple[int, ...],
             src_offset: int = 0, dst_offset: int = 0) -> None:
        label = f"{kernel} {shape_name(shape)}"
        if src_offset or dst_offset:
            label += f" misaligned(src+{src_offset}, dst+{dst_offset})"

        def body():
            m = s.module("copy")
            src = misaligned(shape, dtype, src_offset, random_tensor) \
                if src_offset else random_tensor(shape, dtype)
            dst = misaligned(shape, dtype, dst_offset, poisoned) \
                if dst_offset else poisoned(shape, dtype)
            getattr(m, kernel)(src, dst)
            return compare(dst, src)
        s.run(label, kernel, body)

    ragged = [(1000, 1000), (1, 1), (65, 1), (1, 65), (64, 65), (129, 63),
              (1000, 1001)]
    for shape in ragged + [(4096, 4096)]:
        case("copy_f32", torch.float32, shape)
    # 1000-byte i8 rows are not 16-byte multiples (scalar path); 1024 are.
    for shape in [(1000, 1000), (1, 1), (63, 129), (1000, 1001), (1000, 1024)]:
        case("copy_f16", torch.float16, shape)
        case("copy_i8", torch.int8, shape)
    for shape in [(1000, 1000), (1, 1), (64, 65), (1000, 1001)]:
        case("copy_f32_async", torch.float32, shape)
    for shape in [(1000, 1000), (1, 3), (63, 129), (1000, 1024)]:
        case("copy_f16_async", torch.float16, shape)
        case("copy_i8_async", torch.int8, shape)
    for shape in [(1025,), (1,), (1024 * 1024 + 1,)]:
        case("copy_1d_f32", torch.float32, shape)
    for shape in [(5, 9, 33), (4, 8, 32), (1, 1, 1)]:
        case("copy_3d_f32", torch.float32, shape)

    # Misaligned data pointers: the run-time alignment check must fail and
    # the scalar path (scalar cp.async, or plain loads for 1- and 2-byte
    # elements) must run.
    case("copy_f32", torch.float32, (1000, 1000), src_offset=1)
    case("copy_f32", torch.float32, (64, 64), dst_offset=3)
    case("copy_f16", torch.float16, (1000, 1000), src_offset=1, dst_offset=5)
    case("copy_i8", torch.int8, (1000, 1000), src_offset=3, dst_offset=7)
    case("copy_f32_async", torch.float32, (1000, 1000), src_offset=1)
    case("copy_f16_async", torch.float16, (1000, 1000), src_offset=1)
    case("copy_i8_async", torch.int8, (1000, 1000), src_offset=5)

    # Strided memrefs: slices of larger tensors (row stride and offset not
    # those of a dense tensor); the parts around the output slice must stay
    # untouched.
    def strided(kernel: str, rows: int, cols: int) -> None:
        def body():
            m = s.module("copy")
            big_src = random_tensor((rows + 7, cols + 13), torch.float32)
            src = big_src[3:3 + rows, 5:5 + cols]
            big_dst = poisoned((rows + 9, cols + 11), torch.float32)
            sentinel = torch.full_like(big_dst, 123.0)
            big_dst.copy_(sentinel)
            dst = big_dst[2:2 + rows, 1:1 + cols]
            poison_(dst)
            getattr(m, kernel)(src, dst)
            ok, err, detail = compare(dst, src)
            outside = big_dst.clone()
            outside[2:2 + rows, 1:1 + cols] = 123.0
            if not torch.equal(outside, sentinel):
                n = int((outside != sentinel).sum())
                return False, err, f"{n} elements outside the slice changed"
            return ok, err, detail
        s.run(f"{kernel} {rows}x{cols} slice", kernel, body)

    strided("copy_f32_strided", 1000, 1000)
    strided("copy_f32_strided", 1, 1)
    strided("copy_f32_async_strided", 1000, 999)


def zfill_tests(s: Suite) -> None:
    def case(kernel: str, rows: int) -> None:
        def body():
            m = s.module("zfill")
            x = random_tensor((rows, 16), torch.float32)
            blocks = -(-rows // 64)
            out = poisoned((blocks * 64, 16), torch.float32)
            getattr(m, kernel)(x, out)
            padded = torch.zeros(blocks * 64, 16, device=DEVICE)
            padded[:rows] = x
            ref = torch.zeros_like(out)
            for b in range(blocks):
                r = slice(64 * b, 64 * b + 64)
                if kernel.startswith("zfill_rows"):
                    ref[64 * b:64 * b + 40] = padded[64 * b:64 * b + 40]
                else:
                    ref[r, :10] = padded[r, :10]
            return compare(out, ref)
        s.run(f"{kernel} {rows}x16", kernel, body)

    for kernel in ["zfill_rows", "zfill_cols", "zfill_rows_async",
                   "zfill_cols_async"]:
        for rows in [128, 100, 1, 1000]:
            case(kernel, rows)


def transpose_tests(s: Suite) -> None:
    def case(kernel: str, dtype: torch.dtype, shape: Tuple[int, int]) -> None:
        def body():
            m = s.module("transpose")
            x = random_tensor(shape, dtype)
            out = poisoned((shape[1], shape[0]), dtype)
            getattr(m, kernel)(x, out)
            return compare(out, x.t().contiguous())
        s.run(f"{kernel} {shape_name(shape)}", kernel, body)

    for shape in [(1000, 777), (32, 32), (1, 1), (1, 100), (100, 1)]:
        case("transpose_f32", torch.float32, shape)
    for shape in [(1000, 777), (16, 64), (3, 200)]:
        case("transpose_f16", torch.float16, shape)

    def three_d():
        m = s.module("transpose")
        a = random_tensor((32, 16, 8), torch.float32)
        o = poisoned((16, 32, 8), torch.float32)
        m.transpose_3d_f32(a, o)
        return compare(o, a.permute(1, 0, 2).contiguous())
    s.run("transpose_3d_f32 32x16x8 [1,0,2]", "transpose_3d_f32", three_d)


def swizzle_tests(s: Suite) -> None:
    def case(kernel: str, shape: Tuple[int, int]) -> None:
        def body():
            m = s.module("swizzle")
            x = random_tensor(shape, torch.float16)
            out = poisoned((shape[1], shape[0]), torch.float16)
            getattr(m, kernel)(x, out)
            return compare(out, x.t().contiguous())
        s.run(f"{kernel} {shape_name(shape)}", kernel, body)

    for kernel in ["swizzle_128", "swizzle_64", "swizzle_32", "swizzle_auto"]:
        for shape in [(1000, 777), (64, 64), (1, 8)]:
            case(kernel, shape)


def tma_tests(s: Suite) -> None:
    def case(kernel: str, dtype: torch.dtype, shape: Tuple[int, int],
             transposed: bool) -> None:
        def body():
            m = s.module("tma")
            x = random_tensor(shape, dtype)
            out_shape = (shape[1], shape[0]) if transposed else shape
            out = poisoned(out_shape, dtype)
            getattr(m, kernel)(x, out)
            ref = x.t().contiguous() if transposed else x
            return compare(out, ref)
        s.run(f"{kernel} {shape_name(shape)}", kernel, body)

    def odd_rows():
        # 1001 f16 per row: rows 2002 bytes apart, which a tensor map cannot
        # describe. The call must fail with the rule, launch nothing, and
        # leave the device usable.
        m = s.module("tma")
        x = random_tensor((64, 1001), torch.float16)
        out = poisoned((64, 1001), torch.float16)
        try:
            m.tma_copy_f16_swizzle128(x, out)
        except croq.RuntimeError as e:
            if "globalStrides" not in str(e) or "not launched" not in str(e):
                return False, None, f"message lacks the rule: {e}"
            y = random_tensor((64, 64), torch.float16)
            out2 = poisoned((64, 64), torch.float16)
            m.tma_copy_f16_swizzle128(y, out2)
            return compare(out2, y)
        return False, None, "no croq.RuntimeError raised"
    s.run("tma_copy_f16_swizzle128 64x1001 (odd rows: refused)",
          "tma_copy_f16_swizzle128", odd_rows)

    for shape in [(1000, 64), (513, 32), (512, 40)]:
        case("tma_copy_tall_f32", torch.float32, shape, False)
    for shape in [(1000, 1000), (64, 64), (65, 72)]:
        case("tma_copy_bf16_swizzle128", torch.bfloat16, shape, False)
        case("tma_copy_i32", torch.int32, shape, False)

    def other_rank(kernel: str, shape: Tuple[int, ...]) -> None:
        def body():
            m = s.module("tma")
            x = random_tensor(shape, torch.float32)
            out = poisoned(shape, torch.float32)
            getattr(m, kernel)(x, out)
            return compare(out, x)
        s.run(f"{kernel} {shape_name(shape)}", kernel, body)

    for shape in [(1000,), (256,), (4100,)]:
        other_rank("tma_copy_1d_f32", shape)
    for shape in [(5, 33, 40), (4, 16, 32), (9, 17, 100)]:
        other_rank("tma_copy_3d_f32", shape)

    shapes = [(1000, 1000), (64, 64), (65, 72), (130, 16)]
    for shape in shapes:
        case("tma_copy_f32", torch.float32, shape, False)
        case("tma_copy_f16_swizzle128", torch.float16, shape, False)
        case("tma_load_f32_noswizzle", torch.float32, shape, True)
        for kernel in ["tma_load_f16_swizzle128", "tma_load_f16_swizzle64",
                       "tma_load_f16_swizzle32"]:
            case(kernel, torch.float16, shape, True)
        for kernel in ["dma_in_tma_out_f16_swizzle128",
                       "dma_in_tma_out_f16_swizzle64",
                       "dma_in_tma_out_f16_swizzle32"]:
            case(kernel, torch.float16, shape, False)


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


def matmul_tests(s: Suite) -> None:
    """GEMMs through events, tma and wgmma: random inputs, poisoned output,
    compared with the float64 product relative to its largest element."""
    tolerance = {torch.float16: 2e-3, torch.bfloat16: 1e-2,
                 torch.float32: 1e-4}

    def case(kernel: str, dtype: torch.dtype, out_dtype: torch.dtype,
             shape: Tuple[int, int, int], kn: bool = False) -> None:
        m, n, k = shape

        def body():
            mod = s.module("matmul")
            a = random_tensor((m, k), dtype)
            b = random_tensor((k, n) if kn else (n, k), dtype)
            out = poisoned((m, n), out_dtype)
            getattr(mod, kernel)(a, b, out)
            ref = a.double() @ (b.double() if kn else b.double().t())
            return compare_close(out, ref, tolerance[out_dtype])
        s.run(f"{kernel} {m}x{n}x{k}", kernel, body)

    shapes = [(128, 128, 64), (256, 384, 512), (1000, 1000, 1000),
              (129, 257, 72), (7, 9, 8), (300, 200, 2048)]
    for shape in shapes:
        case("matmul_ws_f16", torch.float16, torch.float16, shape)
        case("matmul_ws_bf16", torch.bfloat16, torch.bfloat16, shape)
        case("matmul_ws_f16_f32out", torch.float16, torch.float32, shape)
        case("matmul_plain_f16", torch.float16, torch.float16, shape)
        case("matmul_pipelined_f16", torch.float16, torch.float16, shape)
        case("matmul_pipelined_inplace_f16", torch.float16, torch.float16,
             shape)
        case("matmul_pipelined_bf16", torch.bfloat16, torch.bfloat16, shape)
    for shape in shapes + [(1024, 1024, 4096), (2304, 4352, 256),
                           (4000, 4100, 136)]:
        for kernel, dtype in [("matmul_ws2_f16", torch.float16),
                              ("matmul_ws2_bf16", torch.bfloat16),
                              ("matmul_ws1_pending_f16", torch.float16),
                              ("matmul_persistent_f16", torch.float16),
                              ("matmul_persistent_bf16", torch.bfloat16)]:
            case(kernel, dtype, dtype, shape)
    for shape in [(128, 64, 64), (1000, 1000, 1000), (129, 264, 72),
                  (300, 200, 2048)]:
        case("matmul_ws_kn_f16", torch.float16, torch.float16, shape,
             kn=True)


def pad_tests(s: Suite) -> None:
    def simple(kernel: str) -> None:
        def body():
            m = s.module("pad")
            x = random_tensor((8, 8), torch.float32)
            out = poisoned((11, 13), torch.float32)
            getattr(m, kernel)(x, out)
            ref = torch.full((11, 13), -7.5, device=DEVICE)
            ref[2:10, 3:11] = x
            return compare(out, ref)
        s.run(f"{kernel} 8x8 low[2,3] high[1,2] fill -7.5", kernel, body)

    simple("pad_f32")
    simple("pad_async_f32")

    def interior():
        m = s.module("pad")
        x = random_tensor((8, 8), torch.float32)
        out = poisoned((18, 23), torch.float32)
        m.pad_interior_f32(x, out)
        ref = torch.full((18, 23), 3.25, device=DEVICE)
        ref[1:16:2, 0:22:3] = x
        return compare(out, ref)
    s.run("pad_interior_f32 8x8 low[1,0] high[2,1] interior[1,2] fill 3.25",
          "pad_interior_f32", interior)

    def rows(m_rows: int) -> None:
        def body():
            m = s.module("pad")
            x = random_tensor((m_rows, 8), torch.int32)
            blocks = m_rows // 8
            out = poisoned((blocks * 11, 13), torch.int32)
            m.pad_rows_i32(x, out)
            ref = torch.full((blocks * 11, 13), 77, device=DEVICE,
                             dtype=torch.int32)
            for b in range(blocks):
                ref[11 * b + 1:11 * b + 9, 2:10] = x[8 * b:8 * b + 8]
            return compare(out, ref)
        s.run(f"pad_rows_i32 {m_rows}x8 fill 77", "pad_rows_i32", body)

    for m_rows in [8, 24, 800]:
        rows(m_rows)


def local_tests(s: Suite) -> None:
    def case(kernel: str, shape: Tuple[int, int]) -> None:
        def body():
            m = s.module("local")
            x = random_tensor(shape, torch.float32)
            if kernel == "local_transpose_f32":
                out = poisoned((shape[1], shape[0]), torch.float32)
                ref = x.t().contiguous()
            else:
                out = poisoned(shape, torch.float32)
                ref = x if kernel == "local_copy_f32" else \
                    (2.0 * x.double() + 1.0).float()
            getattr(m, kernel)(x, out)
            return compare(out, ref)
        s.run(f"{kernel} {shape_name(shape)}", kernel, body)

    for shape in [(1000, 1000), (1, 1), (63, 129)]:
        case("local_copy_f32", shape)
    for shape in [(1000, 777), (4, 8), (5, 9)]:
        case("local_transpose_f32", shape)
    for shape in [(1000, 1000), (3, 5)]:
        case("local_foreach_f32", shape)


def api_tests(s: Suite) -> None:
    """The argument checks, with real tensors: each call must raise
    croq.ArgumentError and launch nothing."""
    def expect_error(name: str, call: Callable[[], None], words: str) -> None:
        def body():
            try:
                call()
            except croq.ArgumentError as e:
                if words in str(e):
                    return True, None, ""
                return False, None, f"message lacks {words!r}: {e}"
            return False, None, "no croq.ArgumentError raised"
        s.run(f"api: {name}", "api", body)

    def m():
        return s.module("copy")
    x = random_tensor((64, 64), torch.float32)
    y = poisoned((64, 64), torch.float32)
    expect_error("cpu tensor", lambda: m().copy_f32(x.cpu(), y), "CUDA")
    expect_error("wrong dtype", lambda: m().copy_f32(x.half(), y), "float32")
    expect_error("not contiguous", lambda: m().copy_f32(x.t(), y),
                 "not contiguous")
    expect_error("wrong rank", lambda: m().copy_f32(x.view(-1), y), "rank")
    expect_error("argument count", lambda: m().copy_f32(x), "missing")
    expect_error("static shape", lambda: s.module("pad").pad_f32(x, y),
                 "needs 8")


def main(argv: Optional[Sequence[str]] = None) -> int:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--artifacts", type=Path,
                        default=Path(os.environ.get("CROQ_GPU_ARTIFACTS",
                                                    here.parent)),
                        help="the gpu-artifacts directory (default: the one "
                             "this script is in, or $CROQ_GPU_ARTIFACTS)")
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("-k", dest="select", help="run tests whose name "
                        "contains this")
    parser.add_argument("--seed", type=int, default=None,
                        help="random seed (default: fresh each run)")
    args = parser.parse_args(argv)

    if not torch.cuda.is_available():
        print("run_gpu_tests: torch sees no CUDA device", file=sys.stderr)
        return 1
    seed = args.seed if args.seed is not None else int(time.time()) % 100000
    torch.manual_seed(seed)
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"seed {seed}", flush=True)

    suite = Suite(args.artifacts, args.select)
    for group in [add_tests, copy_tests, zfill_tests, transpose_tests,
                  swizzle_tests, tma_tests, matmul_tests,
                  pad_tests, local_tests, api_tests]:
        group(suite)

    counts = {k: sum(r.status == k for r in suite.results)
              for k in ("PASS", "FAIL", "KNOWN")}
    if args.json:
        args.json.write_text(json.dumps(
            {"device": torch.cuda.get_device_name(), "seed": seed,
             "results": [asdict(r) for r in suite.results]}, indent=1))
    print(f"\ngpu tests: {counts['PASS']} passed, {counts['FAIL']} failed, "
          f"{counts['KNOWN']} skipped (known issues)")
    return 0 if counts["FAIL"] == 0 and counts["PASS"] > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
