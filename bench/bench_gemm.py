#!/usr/bin/env python3
"""croq GEMM benchmarks against torch.matmul (cuBLAS), side by side in one
run, on prebuilt kernels (bench/kernels/bench_gemm.mlir, compiled by
scripts/gpu-artifacts.sh into gpu-artifacts/kernels).

Per shape and element type:

- the croq kernel is first checked on the benchmark's own data (random
  inputs, poisoned output, relative error against a float32 product);
  a kernel that fails is reported and not timed;
- *device* time, the figure the ratios compare: the GPU time of a call's
  kernels from the torch profiler (CUPTI), with L2 flushed before every
  call (a 256 MiB fill, left out of the sum), median over 20 calls; the
  same for croq, for cuBLAS (``torch.matmul(a, b.t())`` with b given as
  [N, K]; ``torch._scaled_mm`` for f8) and for Triton (the persistent
  TMA-descriptor GEMM of triton_gemm.py, the best of its tile
  configurations, chosen by triton_gemm.choose_config once per shape and
  element type). croq's device time includes the device copies that stage
  misaligned inputs (rows of 4093 f16 are not 16-byte aligned, so the
  runtime copies A and B into padded buffers before the launch; zero on
  aligned shapes), reported separately as *staging*;
- *call* time, croq's and cuBLAS's alike: triton.testing.do_bench around
  the Python call (each croq call queues its kernels on torch's stream and
  returns; the time includes the staging and any host overhead the GPU
  waits for); "call vs cuBLAS call" compares the two;
- TFLOP/s = 2 M N K / time; ratio = croq device TFLOP/s / cuBLAS device
  TFLOP/s, and croq / Triton; the call-level ratio the same on call times.

Usage:
    bench_gemm.py [--artifacts DIR] [--md FILE] [--json FILE] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

import torch

import croq

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_dma import time_call  # noqa: E402
from triton_gemm import fastest_triton_matmul  # noqa: E402


@dataclass
class Row:
    name: str
    shape: str
    dtype: str
    status: str = "ok"
    error: Optional[float] = None
    croq_kernel_ms: Optional[float] = None
    staging_ms: float = 0.0
    croq_call_ms: Optional[float] = None
    torch_ms: Optional[float] = None
    torch_kernel_ms: Optional[float] = None
    triton_ms: Optional[float] = None
    triton_note: str = ""
    flops: float = 0.0

    def tflops(self, ms: Optional[float]) -> Optional[float]:
        return self.flops / (ms * 1e9) if ms else None

    @property
    def ratio(self) -> Optional[float]:
        c = self.tflops(self.croq_kernel_ms)
        t = self.tflops(self.torch_kernel_ms)
        return c / t if c and t else None

    @property
    def triton_ratio(self) -> Optional[float]:
        c, t = self.tflops(self.croq_kernel_ms), self.tflops(self.triton_ms)
        return c / t if c and t else None

    @property
    def call_ratio(self) -> Optional[float]:
        """croq's call-level TFLOP/s over cuBLAS's, both timed by
        time_call."""
        c, t = self.tflops(self.croq_call_ms), self.tflops(self.torch_ms)
        return c / t if c and t else None


TRITON_CACHE: dict = {}

#: What flushes L2 between profiled calls (bigger than the H100's and
#: H200's 50 MB L2), and the name its fill kernel has in the profiler.
_FLUSH: List[torch.Tensor] = []
FLUSH_KERNEL = "FillFunctor"


def flush_l2() -> None:
    if not _FLUSH:
        _FLUSH.append(torch.empty(64 << 20, dtype=torch.int32, device="cuda"))
    _FLUSH[0].zero_()


def time_events(fn, iters: int = 20, warmup: bool = False) -> float:
    """Median milliseconds from before a call's first kernel to after its
    last: CUDA events around each call, L2 flushed before each. The gaps
    between a multi-kernel call's launches count, which the profiler's
    kernel times (time_device) leave out. `warmup` makes one untimed call
    first."""
    if warmup:
        fn()
        torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        flush_l2()
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def time_device(fn, match, iters: int = 20) -> Optional[float]:
    """Median milliseconds per call of ``fn`` spent in the GPU kernels and
    copies that ``match`` accepts (by name), L2 flushed before each call;
    from the torch profiler. None when the profiler gives nothing."""
    from torch.profiler import ProfilerActivity, profile
    fn()
    torch.cuda.synchronize()
    try:
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(iters):
                flush_l2()
                fn()
            torch.cuda.synchronize()
        events = [e for e in prof.events()
                  if str(getattr(e, "device_type", "")).endswith("CUDA")]
        events.sort(key=lambda e: e.time_range.start)
    except Exception as e:  # profiler unavailable or unreadable
        print(f"  (profiler failed: {e})")
        return None
    # Each flush starts a call's group of kernels.
    calls: List[float] = []
    for event in events:
        if is_flush(event.name):
            calls.append(0.0)
        elif calls and match(event.name):
            calls[-1] += event.time_range.elapsed_us() / 1e3
    calls = [c for c in calls if c > 0]
    return statistics.median(calls) if calls else None


def time_interleaved(calls, rounds: int, iters: int = 20):
    """Device times of each call (name: (function, kernel match)), per
    round the median of `iters` calls: one profiler session a round, the
    calls interleaved call by call (L2 flushed before each) in an order
    rotated every round. A round whose events do not split into one group
    per call (a call that fills or sets memory itself) is timed call by
    call with time_device instead."""
    from torch.profiler import ProfilerActivity, profile
    names = list(calls)
    for f, _ in calls.values():
        f()
    torch.cuda.synchronize()
    times = {name: [] for name in names}
    for r in range(rounds):
        shift = r % len(names)
        order = names[shift:] + names[:shift]
        sequence = order * iters
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for name in sequence:
                flush_l2()
                calls[name][0]()
            torch.cuda.synchronize()
        events = sorted((e for e in prof.events()
                         if str(getattr(e, "device_type", "")).endswith(
                             "CUDA")), key=lambda e: e.time_range.start)
        # Each flush opens the group of the call after it.
        groups = []
        for event in events:
            if is_flush(event.name):
                groups.append(0.0)
            elif groups and len(groups) <= len(sequence) and \
                    calls[sequence[len(groups) - 1]][1](event.name):
                groups[-1] += event.time_range.elapsed_us() / 1e3
        if len(groups) != len(sequence):
            for name in order:
                t = time_device(*calls[name])
                if t is not None:
                    times[name].append(t)
            continue
        for name in order:
            own = [t for n, t in zip(sequence, groups) if n == name and t > 0]
            if own:
                times[name].append(statistics.median(own))
    return times


def is_flush(name: str) -> bool:
    """The flush's fill, whether torch runs it as a kernel or a memset."""
    return FLUSH_KERNEL in name or "Memset" in name


def is_library_kernel(name: str) -> bool:
    """A kernel of cuBLAS or Triton, not a copy, fill or flush."""
    return not name.startswith("Memcpy") and "Memset" not in name and \
        FLUSH_KERNEL not in name


#: --no-triton: rows get no Triton figure.
SKIP_TRITON = False


def bench_one(module, kernel: str, dtype: torch.dtype,
              shape: Tuple[int, int, int]) -> Row:
    m, n, k = shape
    row = Row(kernel, f"{m}x{n}x{k}", str(dtype).replace("torch.", ""),
              flops=2.0 * m * n * k)
    is_f8 = dtype in (torch.float8_e4m3fn, torch.float8_e5m2)
    out_dtype = torch.float16 if is_f8 else dtype
    a = torch.randn(m, k, device="cuda").to(dtype)
    b = torch.randn(n, k, device="cuda").to(dtype)
    out = torch.full((m, n), float("nan"), device="cuda", dtype=out_dtype)
    fn = getattr(module, kernel)
    try:
        fn(a, b, out)
        torch.cuda.synchronize()
    except Exception as e:  # a refused shape is reported, not timed
        row.status = f"error: {e}"
        return row
    ref = a.float() @ b.float().t()
    scale = float(ref.abs().max()) or 1.0
    err = float(torch.nan_to_num((out.float() - ref).abs(), nan=float("inf"))
                .max()) / scale
    row.error = err
    if not err <= 1e-2:
        row.status = f"WRONG (relative error {err:.3g})"
        return row
    row.croq_kernel_ms = time_device(
        lambda: fn(a, b, out),
        lambda name: name == kernel + "_kernel" or name.startswith("Memcpy"))
    row.staging_ms = time_device(
        lambda: fn(a, b, out), lambda name: name.startswith("Memcpy")) or 0.0
    row.croq_call_ms = time_call(lambda: fn(a, b, out))
    if is_f8:
        # cuBLAS's f8 GEMM: torch._scaled_mm with unit scales (b.t() is
        # column-major, as it requires), f16 out.
        one = torch.ones((), device="cuda", dtype=torch.float32)

        def reference():
            return torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one,
                                    out_dtype=torch.float16)
    else:
        def reference():
            return torch.matmul(a, b.t())
    try:
        row.torch_ms = time_call(reference)
        row.torch_kernel_ms = time_device(reference, is_library_kernel)
    except Exception as e:  # a reference the torch build cannot run
        row.status = f"ok (no torch reference: {type(e).__name__}: {e})"
    if is_f8 or SKIP_TRITON:
        row.triton_note = "not run for f8" if is_f8 else "not run"
        return row
    key = (shape, dtype)
    if key not in TRITON_CACHE:
        # triton_gemm.py chooses the configuration (events, L2 flushed,
        # interleaved rounds); the best one is then timed on the device
        # like croq and cuBLAS.
        call, note = fastest_triton_matmul(a, b)
        device_ms = time_device(call, is_library_kernel) \
            if call is not None else None
        TRITON_CACHE[key] = (device_ms, note)
    row.triton_ms, row.triton_note = TRITON_CACHE[key]
    return row


def bench_epilogue(module, shape: Tuple[int, int, int],
                   rounds: int = 3) -> dict:
    """The fused epilogue (relu(A B^T + bias) computed on the accumulator in
    registers, gemm_f16_128x256_pt_bias_relu) against the plain kernel on
    the same inputs, device time alternating between the two, and against
    torch's matmul followed by the bias add and relu (device time of all its
    kernels)."""
    m, n, k = shape
    a = torch.randn(m, k, device="cuda").to(torch.float16)
    b = torch.randn(n, k, device="cuda").to(torch.float16)
    bias = torch.randn(n, device="cuda")
    out = torch.full((m, n), float("nan"), device="cuda",
                     dtype=torch.float16)
    fused, plain = module.gemm_f16_128x256_pt_bias_relu, \
        module.gemm_f16_128x256_pt
    fused(a, b, bias, out)
    ref = torch.relu(a.float() @ b.float().t() + bias)
    err = float((out.float() - ref).abs().max()) / float(ref.abs().max())
    if not err <= 1e-2:
        raise SystemExit(f"bias_relu {m}x{n}x{k}: relative error {err}")
    times = {"fused": [], "plain": []}
    for _ in range(rounds):
        times["fused"].append(time_device(
            lambda: fused(a, b, bias, out),
            lambda name: name.startswith("gemm_f16_128x256_pt_bias_relu")))
        times["plain"].append(time_device(
            lambda: plain(a, b, out),
            lambda name: name == "gemm_f16_128x256_pt_kernel"))

    def composite():
        return torch.relu(torch.matmul(a, b.t()) + bias)
    torch_ms = time_device(composite, is_library_kernel_or_elementwise)
    fused_ms = statistics.median(times["fused"])
    plain_ms = statistics.median(times["plain"])
    flops = 2.0 * m * n * k
    return {"shape": f"{m}x{n}x{k}", "error": err, "fused_ms": fused_ms,
            "plain_ms": plain_ms, "torch_ms": torch_ms,
            "fused_spread": [min(times["fused"]), max(times["fused"])],
            "plain_spread": [min(times["plain"]), max(times["plain"])],
            "fused_tflops": flops / fused_ms / 1e9,
            "plain_tflops": flops / plain_ms / 1e9,
            "torch_tflops": flops / torch_ms / 1e9 if torch_ms else None,
            "fused_over_plain": fused_ms / plain_ms}


def is_library_kernel_or_elementwise(name: str) -> bool:
    """Every kernel of a torch composite but copies, fills and the flush."""
    return not name.startswith("Memcpy") and "Memset" not in name and \
        FLUSH_KERNEL not in name


def fmt(value: Optional[float], digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def markdown(rows: List[Row], device: str) -> str:
    lines = [f"Device: {device}", "",
             "| kernel | M x N x K | dtype | croq TFLOP/s (device) | "
             "croq TFLOP/s (call) | staging ms | cuBLAS TFLOP/s (device) | "
             "vs cuBLAS | cuBLAS TFLOP/s (call) | call vs cuBLAS call | "
             "Triton TFLOP/s (device) | vs Triton | rel. error | "
             "status | Triton config |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(
            f"| {r.name} | {r.shape} | {r.dtype} | "
            f"{fmt(r.tflops(r.croq_kernel_ms))} | "
            f"{fmt(r.tflops(r.croq_call_ms))} | {fmt(r.staging_ms, 3)} | "
            f"{fmt(r.tflops(r.torch_kernel_ms))} | "
            f"{fmt(r.ratio, 2)} | {fmt(r.tflops(r.torch_ms))} | "
            f"{fmt(r.call_ratio, 2)} | {fmt(r.tflops(r.triton_ms))} | "
            f"{fmt(r.triton_ratio, 2)} | "
            f"{'-' if r.error is None else f'{r.error:.1e}'} | {r.status} | "
            f"{r.triton_note} |")
    return "\n".join(lines) + "\n"


def main(argv: Optional[Sequence[str]] = None) -> int:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--artifacts", type=Path,
                        default=Path(os.environ.get("CROQ_GPU_ARTIFACTS",
                                                    here.parent)))
    parser.add_argument("--module", default="bench_gemm")
    parser.add_argument("--md", type=Path)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--quick", action="store_true",
                        help="4096^3 only")
    parser.add_argument("--epilogue", action="store_true",
                        help="only the fused-epilogue comparison")
    parser.add_argument("--no-triton", action="store_true",
                        help="skip the Triton comparison (its per-shape "
                             "configuration search takes minutes)")
    parser.add_argument("--shapes",
                        help="comma-separated MxNxK shapes instead of the "
                             "default ones")
    parser.add_argument("--kernels",
                        help="comma-separated kernel names to run (all "
                             "by default)")
    args = parser.parse_args(argv)
    global SKIP_TRITON
    SKIP_TRITON = args.no_triton
    module = croq.load(args.artifacts / "kernels" / f"lib{args.module}.so")
    device = torch.cuda.get_device_name()
    shapes = [(4096, 4096, 4096), (8192, 8192, 8192), (8000, 8000, 8000),
              (16384, 16384, 1024), (4095, 4097, 4093)]
    if args.quick:
        shapes = shapes[:1]
    if args.shapes:
        shapes = [tuple(int(d) for d in s.split("x"))
                  for s in args.shapes.split(",")]
    if args.epilogue:
        print("| M x N x K | fused TFLOP/s | plain TFLOP/s | fused / plain "
              "time | torch matmul+bias+relu TFLOP/s | rel. error |")
        print("|---|---|---|---|---|---|")
        results = []
        for shape in shapes:
            r = bench_epilogue(module, shape)
            results.append(r)
            print(f"| {r['shape']} | {r['fused_tflops']:.1f} | "
                  f"{r['plain_tflops']:.1f} | {r['fused_over_plain']:.3f} | "
                  f"{fmt(r['torch_tflops'])} | {r['error']:.1e} |",
                  flush=True)
        if args.json:
            args.json.write_text(json.dumps(results, indent=1))
        return 0
    rows = []
    for kernel, dtype in [("gemm_f16", torch.float16),
                          ("gemm_bf16", torch.bfloat16),
                          ("gemm_f16_128x256", torch.float16),
                          ("gemm_bf16_128x256", torch.bfloat16),
                          ("gemm_f16_128x256_s", torch.float16),
                          ("gemm_f16_128x256_p", torch.float16),
                          ("gemm_bf16_128x256_p", torch.bfloat16),
                          ("gemm_f16_128x256_pt", torch.float16),
                          ("gemm_bf16_128x256_pt", torch.bfloat16),
                          ("gemm_e4m3_128x128_p", torch.float8_e4m3fn),
                          ("gemm_e4m3_128x256_pt", torch.float8_e4m3fn),
                          ("gemm_plain_f16", torch.float16),
                          ("gemm_plain_pt_f16", torch.float16)]:
        if not hasattr(module, kernel):
            continue
        if args.kernels and kernel not in args.kernels.split(","):
            continue
        for shape in shapes:
            row = bench_one(module, kernel, dtype, shape)
            rows.append(row)
            print(markdown([row], device).splitlines()[-1], flush=True)
            # Written as it goes, so that a run cut short keeps its rows.
            if args.md:
                args.md.write_text(markdown(rows, device))
            if args.json:
                args.json.write_text(json.dumps([asdict(r) for r in rows],
                                                indent=1))
    text = markdown(rows, device)
    print(text)
    if args.md:
        args.md.write_text(text)
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=1))
    return 0 if all(r.status.startswith("ok") or r.status.startswith("error")
                    for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
