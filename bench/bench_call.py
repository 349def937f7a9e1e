#!/usr/bin/env python3
"""croq per-call host time: what one Python call of a croq kernel costs the
host, against torch.add and a Triton launch, side by side in one process.

Each candidate is called back to back on one small tile (64x64 f32; the
call returns once the kernel is queued); the host wall clock over a round
of calls, divided by the calls, is one sample. The GPU is waited for only
between rounds. Rounds of all candidates are interleaved (candidate order
rotated every round), and the median and the spread (min-max) over the
rounds are reported. Before timing, every croq kernel is checked on random
input with a poisoned output against torch.

Candidates: croq's three-tensor add with dma copies (add_64x64) and with
TMA (add_tma_64x64: tensor maps looked up per call), the two-tensor
copy_64x64, each through croq's native call path and through ctypes
(croq.call_path() says which a process uses); torch.add(a, b, out=c); a
Triton kernel launch of the same add where Triton is there.

Call level against device level (--gemm): for GEMM kernels of
bench/kernels/bench_gemm.mlir on shapes of 2048^3 and above, the time per
call of back-to-back Python calls (CUDA events around the batch) against
the same calls replayed from a CUDA graph (no host work at all: the device
level), and torch.matmul the same two ways; rounds interleaved, median and
spread. Call level within 5% of device level means a ratio >= 0.95.

Usage:
    bench_call.py [--artifacts DIR] [--rounds N] [--calls N] [--json FILE]
                  [--gemm] [--gemm-kernels K1,K2] [--gemm-shapes MxNxK,...]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence

import torch

import croq
from croq import _native


def random_tensor(shape: Sequence[int]) -> torch.Tensor:
    t = torch.randn(*shape, device="cuda", dtype=torch.float32)
    t[t == 0] = 1.0
    return t


def triton_add(a, b, c) -> Optional[Callable[[], None]]:
    """A Triton kernel that adds `a` and `b` into `c`, as a launcher; None
    where Triton cannot build it."""
    try:
        import triton
        import triton.language as tl
    except ImportError:
        return None

    @triton.jit
    def add_kernel(x, y, z, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(z + offs, tl.load(x + offs, mask=mask) +
                 tl.load(y + offs, mask=mask), mask=mask)

    n = a.numel()
    grid = (triton.cdiv(n, 1024),)
    return lambda: add_kernel[grid](a, b, c, n, BLOCK=1024)


def check(name: str, call: Callable[[], None], out: torch.Tensor,
          expected: torch.Tensor) -> None:
    out.fill_(float("nan"))
    call()
    torch.cuda.synchronize()
    if not torch.equal(out, expected):
        raise SystemExit(f"{name}: wrong result")


def candidates(artifacts: Path) -> Dict[str, Callable[[], None]]:
    a, b = random_tensor((64, 64)), random_tensor((64, 64))
    c = torch.empty_like(a)
    found: Dict[str, Callable[[], None]] = {}
    paths = {}
    for path in ("native", "ctypes"):
        if path == "ctypes":
            # Modules loaded from here on call through ctypes.
            _native._loaded = (None, "ctypes (bench_call.py)")
        paths[path] = croq.call_path()
        add = croq.load(artifacts / "kernels" / "libbench_add.so")
        copy = croq.load(artifacts / "kernels" / "libbench_copy.so")
        for kernel in ("add_64x64", "add_tma_64x64"):
            fn = getattr(add, kernel)
            check(kernel, lambda: fn(a, b, c), c, a + b)
            found[f"croq {kernel} ({path})"] = lambda fn=fn: fn(a, b, c)
        fn = copy.copy_64x64
        check("copy_64x64", lambda: fn(a, c), c, a)
        found[f"croq copy_64x64 ({path})"] = lambda fn=fn: fn(a, c)
    print("call paths:", json.dumps(paths))
    if not paths["native"].startswith("native"):
        print("warning: the native call path is not in use:",
              paths["native"], file=sys.stderr)
    found["torch.add"] = lambda: torch.add(a, b, out=c)
    launch = triton_add(a, b, c)
    if launch is not None:
        check("triton add", launch, c, a + b)
        found["triton add launch"] = launch
    return found


def time_batch(fn: Callable[[], None], calls: int) -> float:
    """Milliseconds per call of `calls` back-to-back calls, CUDA events
    around the batch."""
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    start.record()
    for _ in range(calls):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / calls


def as_graph(fn: Callable[[], None], calls: int) -> Callable[[], None]:
    """`calls` calls of `fn` captured in a CUDA graph; the replay."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        fn()  # warm-up outside the capture
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(calls):
            fn()
    return graph.replay


def gemm_levels(artifacts: Path, kernels: Sequence[str],
                shapes: Sequence[Sequence[int]], rounds: int) -> List[dict]:
    """Call level against device level for GEMM calls (see the module
    docstring)."""
    module = croq.load(artifacts / "kernels" / "libbench_gemm.so")
    dtypes = {"f16": torch.float16, "bf16": torch.bfloat16}
    rows = []
    for kernel in kernels:
        dtype = dtypes[kernel.split("_")[1]]
        fn = getattr(module, kernel)
        for m, n, k in shapes:
            a = torch.randn(m, k, device="cuda").to(dtype)
            b = torch.randn(n, k, device="cuda").to(dtype)
            out = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
            ref_out = torch.empty_like(out)
            fn(a, b, out)
            ref = a.float() @ b.float().t()
            err = float((out.float() - ref).abs().max()) / float(
                ref.abs().max())
            if not err <= 1e-2:
                raise SystemExit(f"{kernel} {m}x{n}x{k}: relative error {err}")
            calls = max(3, min(50, int(2e12 / (2.0 * m * n * k))))
            croq_call = lambda: fn(a, b, out)  # noqa: E731
            torch_call = lambda: torch.matmul(a, b.t(), out=ref_out)  # noqa
            timed = {"croq call": croq_call,
                     "croq graph": as_graph(croq_call, calls),
                     "torch call": torch_call,
                     "torch graph": as_graph(torch_call, calls)}
            samples: Dict[str, List[float]] = {t: [] for t in timed}
            names = list(timed)
            for r in range(rounds):
                for name in names[r % 4:] + names[:r % 4]:
                    run = timed[name]
                    per = calls if "call" in name else 1
                    samples[name].append(time_batch(run, per) /
                                         (1 if "call" in name else calls))
            med = {t: statistics.median(v) for t, v in samples.items()}
            row = {"kernel": kernel, "shape": f"{m}x{n}x{k}", "calls": calls,
                   "error": err,
                   **{f"{t} ms": med[t] for t in med},
                   **{f"{t} spread": [min(v), max(v)]
                      for t, v in samples.items()},
                   "croq call/device": med["croq graph"] / med["croq call"],
                   "torch call/device": med["torch graph"] / med["torch call"],
                   "croq call vs torch call": med["torch call"] /
                   med["croq call"]}
            flops = 2.0 * m * n * k
            print(f"| {kernel} | {m}x{n}x{k} | "
                  f"{flops / med['croq call'] / 1e9:.0f} | "
                  f"{flops / med['croq graph'] / 1e9:.0f} | "
                  f"{row['croq call/device']:.3f} | "
                  f"{flops / med['torch call'] / 1e9:.0f} | "
                  f"{flops / med['torch graph'] / 1e9:.0f} | "
                  f"{row['torch call/device']:.3f} | "
                  f"{row['croq call vs torch call']:.2f} |", flush=True)
            rows.append(row)
    return rows


def main(argv: Optional[Sequence[str]] = None) -> int:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--artifacts", type=Path,
                        default=Path(os.environ.get("CROQ_GPU_ARTIFACTS",
                                                    here.parent)))
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--gemm", action="store_true",
                        help="also measure GEMM calls against the device "
                             "level")
    parser.add_argument("--gemm-kernels",
                        default="gemm_f16_128x256_pt,gemm_bf16_128x256_pt")
    parser.add_argument("--gemm-shapes",
                        default="2048x2048x2048,4096x4096x4096,"
                                "8000x8000x8000,16384x16384x1024,"
                                "4095x4097x4093")
    args = parser.parse_args(argv)

    found = candidates(args.artifacts)
    names = list(found)
    for fn in found.values():  # warm-up
        for _ in range(20):
            fn()
    torch.cuda.synchronize()
    samples: Dict[str, List[float]] = {n: [] for n in names}
    for r in range(args.rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for name in order:
            fn = found[name]
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            for _ in range(args.calls):
                fn()
            samples[name].append((time.perf_counter() - t0) / args.calls *
                                 1e6)
    torch.cuda.synchronize()

    print(f"\n{torch.cuda.get_device_name()}: per-call host time, us "
          f"({args.rounds} rounds of {args.calls} calls)\n")
    print("| call | median | min | max |")
    print("|---|---|---|---|")
    result = {}
    for name in names:
        s = samples[name]
        result[name] = {"median_us": statistics.median(s), "min_us": min(s),
                        "max_us": max(s)}
        print(f"| {name} | {statistics.median(s):.2f} | {min(s):.2f} | "
              f"{max(s):.2f} |")
    if args.gemm:
        print("\nGEMM, call level against device level (graph replay); "
              "TFLOP/s, medians of rounds\n")
        print("| kernel | M x N x K | croq call | croq device | ratio | "
              "torch call | torch device | ratio | croq call vs torch call |")
        print("|---|---|---|---|---|---|---|---|---|")
        shapes = [[int(d) for d in s.split("x")]
                  for s in args.gemm_shapes.split(",")]
        # Calls through the native path (ctypes was forced above for the
        # loads after the host-time candidates).
        _native._loaded = None
        result["gemm"] = gemm_levels(args.artifacts,
                                     args.gemm_kernels.split(","), shapes,
                                     max(5, args.rounds // 2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
