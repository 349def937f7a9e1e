#!/usr/bin/env python3
"""Compares two builds of croq's benchmark kernels in one process: the same
GEMM and copy kernels compiled by a baseline croq (``--baseline``, e.g. the
commit before a refactoring of the lowering) and by the current one
(``--artifacts``), timed side by side with cuBLAS (``torch.matmul``) or a
device-to-device copy (``Tensor.copy_``) as the common reference.

Each (kernel, shape) is checked first (random inputs, poisoned output,
against a float32 reference), then timed in several rounds; each round
times the baseline, the current build and the reference in a rotated
order, each as the median device time of 20 calls with L2 flushed
(bench_gemm.time_device). The table gives, per row, the median and the
spread (min-max over rounds) of current / baseline and of each build's
ratio to the reference.

Usage:
    bench_compare.py --baseline DIR --artifacts DIR [--rounds N] [--md F]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import torch

import croq

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_gemm import is_flush, is_library_kernel, time_device  # noqa: E402

GEMMS = [
    ("gemm_f16_128x256_pt", torch.float16),
    ("gemm_bf16_128x256_pt", torch.bfloat16),
    ("gemm_e4m3_128x256_pt", torch.float8_e4m3fn),
    ("gemm_f16_128x256_p", torch.float16),
    ("gemm_plain_f16", torch.float16),
]
GEMM_SHAPES = [(4096, 4096, 4096), (2048, 2048, 2048), (8192, 8192, 1024),
               (3000, 5000, 2000), (4095, 4097, 4093)]
COPIES = ["copy_tma_64x64", "copy_64x64_async", "copy_128x128_256t"]
COPY_SHAPES = [(8192, 8192), (4096, 4100)]


def gemm_case(kernel: str, dtype: torch.dtype, shape: Tuple[int, int, int]):
    """Inputs, a checker and the reference call of one GEMM case."""
    m, n, k = shape
    is_f8 = dtype == torch.float8_e4m3fn
    a = torch.randn(m, k, device="cuda").to(dtype)
    b = torch.randn(n, k, device="cuda").to(dtype)
    out = torch.empty(m, n, device="cuda",
                      dtype=torch.float16 if is_f8 else dtype)
    ref = a.float() @ b.float().t()
    scale = float(ref.abs().max()) or 1.0

    def check(fn) -> Optional[float]:
        out.fill_(float("nan"))
        fn(a, b, out)
        torch.cuda.synchronize()
        return float(torch.nan_to_num((out.float() - ref).abs(),
                                      nan=float("inf")).max()) / scale
    if is_f8:
        one = torch.ones((), device="cuda", dtype=torch.float32)

        def reference():
            return torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one,
                                    out_dtype=torch.float16)
    else:
        def reference():
            return torch.matmul(a, b.t())
    return (a, b, out), check, reference, 1e-2, is_library_kernel


def copy_case(shape: Tuple[int, int]):
    src = torch.randn(*shape, device="cuda")
    dst = torch.empty_like(src)
    ref_dst = torch.empty_like(src)

    def check(fn) -> Optional[float]:
        dst.fill_(float("nan"))
        fn(src, dst)
        torch.cuda.synchronize()
        return 0.0 if torch.equal(dst, src) else float("inf")

    def reference():
        ref_dst.copy_(src)
    return (src, dst), check, reference, 0.0, lambda name: not is_flush(name)


def time_rounds(calls: Dict[str, Tuple[Callable[[], None],
                                       Callable[[str], bool]]],
                rounds: int) -> Dict[str, List[float]]:
    """Device milliseconds of each call per round, in rotated order."""
    names = list(calls)
    times: Dict[str, List[float]] = {name: [] for name in names}
    for r in range(rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for name in order:
            fn, match = calls[name]
            ms = time_device(fn, match)
            if ms is not None:
                times[name].append(ms)
    return times


def spread(values: List[float]) -> str:
    if not values:
        return "n/a"
    return (f"{statistics.median(values):.3f} "
            f"[{min(values):.3f}-{max(values):.3f}]")


def compare(old, new, kernel: str, args, check, reference, tol: float,
            reference_match: Callable[[str], bool],
            rounds: int) -> Optional[str]:
    for label, module in (("baseline", old), ("current", new)):
        err = check(getattr(module, kernel))
        if err is None or not err <= tol:
            return f"{label} WRONG (error {err})"
    name = kernel + "_kernel"

    def match(event: str) -> bool:
        return event == name or event.startswith("Memcpy")

    def croq_call(module):
        fn = getattr(module, kernel)
        return lambda: fn(*args)
    times = time_rounds({
        "baseline": (croq_call(old), match),
        "current": (croq_call(new), match),
        "reference": (reference, reference_match),
    }, rounds)
    ratio = [o / c for o, c in zip(times["baseline"], times["current"])]
    old_ref = [r / o for o, r in zip(times["baseline"], times["reference"])]
    new_ref = [r / c for c, r in zip(times["current"], times["reference"])]
    return (f"{spread(times['baseline'])} | {spread(times['current'])} | "
            f"{spread(ratio)} | {spread(old_ref)} | {spread(new_ref)}")


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--baseline", type=Path, required=True,
                        help="kernels directory of the baseline build")
    parser.add_argument("--artifacts", type=Path, required=True,
                        help="gpu-artifacts directory of the current build")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--md", type=Path)
    args = parser.parse_args(argv)
    current = args.artifacts / "kernels"
    lines = [
        f"device: {torch.cuda.get_device_name()}; rounds: {args.rounds}; "
        "device ms, median [min-max] over rounds; speedup = baseline ms / "
        "current ms; vs ref = reference ms / croq ms (cuBLAS for GEMMs, "
        "torch copy_ for copies)",
        "",
        "| kernel | shape | baseline ms | current ms | speedup | "
        "baseline vs ref | current vs ref |",
        "|---|---|---|---|---|---|---|",
    ]
    print("\n".join(lines), flush=True)
    # The current build's modules first: their runtime is the one loaded.
    modules = {}
    for name in ("bench_gemm", "bench_copy"):
        new = croq.load(current / f"lib{name}.so")
        modules[name] = (croq.load(args.baseline / f"lib{name}.so"), new)
    rows = []
    for kernel, dtype in GEMMS:
        old, new = modules["bench_gemm"]
        for shape in GEMM_SHAPES:
            if dtype == torch.float8_e4m3fn and any(d % 16 for d in shape):
                continue  # torch._scaled_mm takes multiples of 16 only
            case = gemm_case(kernel, dtype, shape)
            try:
                result = compare(old, new, kernel, *case, args.rounds)
            except Exception as e:  # a refused shape is reported
                result = f"error: {type(e).__name__}: {e}"
            rows.append(f"| {kernel} | {'x'.join(map(str, shape))} "
                        f"{str(dtype).replace('torch.', '')} | {result} |")
            print(rows[-1], flush=True)
    for kernel in COPIES:
        old, new = modules["bench_copy"]
        for shape in COPY_SHAPES:
            case = copy_case(shape)
            try:
                result = compare(old, new, kernel, *case, args.rounds)
            except Exception as e:
                result = f"error: {type(e).__name__}: {e}"
            rows.append(f"| {kernel} | {'x'.join(map(str, shape))} f32 | "
                        f"{result} |")
            print(rows[-1], flush=True)
    if args.md:
        args.md.write_text("\n".join(lines + rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
