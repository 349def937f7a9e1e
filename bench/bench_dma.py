#!/usr/bin/env python3
"""croq dma benchmarks: tile copies and the tiled add against torch, side
by side in one run, on prebuilt kernels (bench/kernels/*.mlir, compiled by
scripts/gpu-artifacts.sh into gpu-artifacts/kernels).

What is measured, per kernel (see bench/RESULTS.md for the method):

- each croq kernel is first checked on the benchmark's own data (random
  input, poisoned output, exact comparison with torch); a kernel that fails
  is reported and not timed;
- *call* time: CUDA events around the croq call on torch's stream, median
  of many calls after warm-up (triton.testing.do_bench when triton is
  there). A croq call queues its kernel on torch's stream and returns, as
  a torch operation does; host overhead shows only where the host cannot
  keep the GPU busy;
- *kernel* time: the kernel's own duration on the GPU from the torch
  profiler (CUPTI), median over the profiled calls;
- torch's reference (``dst.copy_(src)``, ``torch.add(a, b, out=c)``) timed
  the same two ways;
- GB/s counts bytes read plus bytes written (copy: 2 x 4 B per element,
  add: 3 x 4 B); ratio = croq GB/s / torch GB/s (1.0 is torch's speed);
- the per-call host time: host wall-clock time of one call on a single
  64x64 tile (the call returns once its kernel is queued), against
  ``torch.add`` of the same tile and a Triton kernel launch when triton is
  there, and the cost of croq's argument checks alone.

Usage:
    bench_dma.py [--artifacts DIR] [--size N] [--md FILE] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence

import torch

import croq

try:
    import triton.testing as triton_testing
except Exception:  # triton is optional
    triton_testing = None


@dataclass
class Row:
    """One benchmark line."""

    name: str
    shape: str
    bytes: int
    status: str = "ok"
    croq_call_ms: Optional[float] = None
    croq_kernel_ms: Optional[float] = None
    torch_call_ms: Optional[float] = None
    torch_kernel_ms: Optional[float] = None

    @staticmethod
    def _gbps(nbytes: int, ms: Optional[float]) -> Optional[float]:
        return None if not ms else nbytes / (ms * 1e-3) / 1e9

    @property
    def croq_call_gbps(self) -> Optional[float]:
        return self._gbps(self.bytes, self.croq_call_ms)

    @property
    def croq_kernel_gbps(self) -> Optional[float]:
        return self._gbps(self.bytes, self.croq_kernel_ms)

    @property
    def torch_call_gbps(self) -> Optional[float]:
        return self._gbps(self.bytes, self.torch_call_ms)

    @property
    def torch_kernel_gbps(self) -> Optional[float]:
        return self._gbps(self.bytes, self.torch_kernel_ms)

    @property
    def call_ratio(self) -> Optional[float]:
        if self.croq_call_ms and self.torch_call_ms:
            return self.torch_call_ms / self.croq_call_ms
        return None

    @property
    def kernel_ratio(self) -> Optional[float]:
        if self.croq_kernel_ms and self.torch_kernel_ms:
            return self.torch_kernel_ms / self.croq_kernel_ms
        return None


def time_events(fn: Callable[[], None], warmup: int = 5, iters: int = 30
                ) -> float:
    """Median milliseconds of ``fn`` between CUDA events on the current
    stream."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def time_call(fn: Callable[[], None]) -> float:
    """Median milliseconds of ``fn``: triton's do_bench (events, L2
    flushed between calls, 25 ms warm-up, 200 ms of repetitions) when
    triton is there, else :func:`time_events`."""
    if triton_testing is not None:
        return float(triton_testing.do_bench(fn, warmup=25, rep=200,
                                             return_mode="median"))
    return time_events(fn)


def time_kernel(fn: Callable[[], None], match: Callable[[str], bool],
                iters: int = 10) -> Optional[float]:
    """Median milliseconds of the GPU kernels whose name ``match`` accepts,
    from the torch profiler, over ``iters`` calls of ``fn``; None when the
    profiler gives nothing."""
    from torch.profiler import ProfilerActivity, profile
    fn()
    torch.cuda.synchronize()
    try:
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(iters):
                fn()
            torch.cuda.synchronize()
    except Exception as e:  # profiler unavailable
        print(f"  (profiler failed: {e})")
        return None
    durations = []
    try:
        for event in prof.events():
            if str(getattr(event, "device_type", "")).endswith("CUDA") and \
                    match(event.name):
                durations.append(event.time_range.elapsed_us() / 1e3)
    except Exception as e:  # an event API this code does not know
        print(f"  (profiler events unreadable: {e})")
        return None
    if not durations:
        return None
    return statistics.median(durations)


def random_tensor(shape: Sequence[int]) -> torch.Tensor:
    t = torch.randn(*shape, device="cuda", dtype=torch.float32)
    t[t == 0] = 1.0
    return t


def poisoned(shape: Sequence[int]) -> torch.Tensor:
    return torch.full(tuple(shape), float("nan"), device="cuda")


def bench_copy(module, kernel: str, src: torch.Tensor, dst: torch.Tensor,
               torch_ref: Dict[str, Optional[float]]) -> Row:
    m, n = src.shape
    row = Row(f"copy {kernel}", f"{m}x{n} f32", 2 * src.numel() * 4)
    fn = getattr(module, kernel)
    dst.fill_(float("nan"))
    fn(src, dst)
    if not torch.equal(dst, src):
        row.status = "WRONG RESULT"
        return row
    row.croq_call_ms = time_call(lambda: fn(src, dst))
    row.croq_kernel_ms = time_kernel(lambda: fn(src, dst),
                                     lambda name: name == f"{kernel}_kernel")
    row.torch_call_ms = torch_ref["call"]
    row.torch_kernel_ms = torch_ref["kernel"]
    return row


def bench_add(module, kernel: str, a: torch.Tensor, b: torch.Tensor,
              c: torch.Tensor, torch_ref: Dict[str, Optional[float]]) -> Row:
    m, n = a.shape
    row = Row(f"add {kernel}", f"{m}x{n} f32", 3 * a.numel() * 4)
    fn = getattr(module, kernel)
    c.fill_(float("nan"))
    fn(a, b, c)
    if not torch.equal(c, a + b):
        row.status = "WRONG RESULT"
        return row
    row.croq_call_ms = time_call(lambda: fn(a, b, c))
    row.croq_kernel_ms = time_kernel(lambda: fn(a, b, c),
                                     lambda name: name == f"{kernel}_kernel")
    row.torch_call_ms = torch_ref["call"]
    row.torch_kernel_ms = torch_ref["kernel"]
    return row


def torch_reference(fn: Callable[[], None]) -> Dict[str, Optional[float]]:
    """torch's call and kernel times for ``fn`` (one kernel or memcpy per
    call: every GPU activity of the profile is torch's)."""
    return {"call": time_call(fn),
            "kernel": time_kernel(fn, lambda name: True)}


def overhead(module) -> Dict[str, float]:
    """Host wall-clock microseconds per call on one 64x64 tile: each call
    queues its kernel and returns; the GPU is waited for only between
    rounds."""
    a = random_tensor((64, 64))
    b = poisoned((64, 64))
    c = poisoned((64, 64))
    fn = module.copy_64x64
    n = 200

    def per_call(step: Callable[[], None]) -> float:
        for _ in range(10):
            step()
        torch.cuda.synchronize()
        samples = []
        for _ in range(7):
            t0 = time.perf_counter()
            for _ in range(n):
                step()
            samples.append((time.perf_counter() - t0) / n * 1e6)
            torch.cuda.synchronize()
        return statistics.median(samples)

    result = {"croq_call_us": per_call(lambda: fn(a, b)),
              "croq_argument_checks_us": per_call(lambda: fn.check(a, b)),
              "torch_add_us": per_call(lambda: torch.add(a, b, out=c))}
    if triton_testing is not None:
        launch = triton_copy_launcher(a, b)
        if launch is not None:
            result["triton_launch_us"] = per_call(launch)
    return result


def triton_copy_launcher(a, b) -> Optional[Callable[[], None]]:
    """A Triton kernel that copies `a` into `b`, compiled, as a launcher;
    None if Triton cannot build it."""
    try:
        import triton
        import triton.language as tl
    except ImportError:
        return None

    @triton.jit
    def copy_kernel(src, dst, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(dst + offs, tl.load(src + offs, mask=mask), mask=mask)

    n = a.numel()
    return lambda: copy_kernel[(triton.cdiv(n, 1024),)](a, b, n, BLOCK=1024)


def fmt(value: Optional[float], digits: int = 1) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def markdown(rows: List[Row], over: Dict[str, float], device: str) -> str:
    lines = [
        f"Device: {device}; torch {torch.__version__}; "
        f"timing: {'triton do_bench' if triton_testing else 'CUDA events'} "
        f"(median), kernel: torch profiler (median)",
        "",
        "| benchmark | shape | croq call GB/s | croq kernel GB/s | "
        "torch GB/s (call / kernel) | ratio call | ratio kernel |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if r.status != "ok":
            lines.append(f"| {r.name} | {r.shape} | {r.status} | | | | |")
            continue
        lines.append(
            f"| {r.name} | {r.shape} | {fmt(r.croq_call_gbps, 0)} | "
            f"{fmt(r.croq_kernel_gbps, 0)} | {fmt(r.torch_call_gbps, 0)} / "
            f"{fmt(r.torch_kernel_gbps, 0)} | {fmt(r.call_ratio, 2)} | "
            f"{fmt(r.kernel_ratio, 2)} |")
    lines += [
        "",
        f"Per-call host time (one 64x64 tile, host wall clock, median of 7 "
        f"rounds of 200 calls, nothing waited for within a round): croq "
        f"call {over['croq_call_us']:.1f} us, of which argument checks "
        f"{over['croq_argument_checks_us']:.1f} us; torch.add "
        f"{over['torch_add_us']:.1f} us"
        + (f"; Triton launch {over['triton_launch_us']:.1f} us"
           if "triton_launch_us" in over else "") + ".",
    ]
    return "\n".join(lines)


def run_copies(module, n: int) -> List[Row]:
    """The copy kernels and torch's copy on one n x n pair of tensors."""
    src = random_tensor((n, n))
    dst = poisoned((n, n))
    reference = torch_reference(lambda: dst.copy_(src))
    print(f"torch copy: {fmt(reference['call'], 3)} ms (call), "
          f"{fmt(reference['kernel'], 3)} ms (kernel)", flush=True)
    rows = []
    for kernel in ["copy_64x64", "copy_64x64_async", "copy_128x128_256t",
                   "copy_128x128_async_256t", "copy_tma_64x64"]:
        rows.append(bench_copy(module, kernel, src, dst, reference))
        print(f"  {rows[-1]}", flush=True)
    return rows


def run_adds(module, n: int) -> List[Row]:
    """The add kernels and torch.add on one n x n triple of tensors."""
    torch.cuda.empty_cache()
    a, b = random_tensor((n, n)), random_tensor((n, n))
    c = poisoned((n, n))
    reference = torch_reference(lambda: torch.add(a, b, out=c))
    print(f"torch add: {fmt(reference['call'], 3)} ms (call), "
          f"{fmt(reference['kernel'], 3)} ms (kernel)", flush=True)
    rows = []
    for kernel in ["add_32x32", "add_64x64", "add_tma_64x64"]:
        rows.append(bench_add(module, kernel, a, b, c, reference))
        print(f"  {rows[-1]}", flush=True)
    return rows


def main(argv: Optional[Sequence[str]] = None) -> int:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--artifacts", type=Path,
                        default=Path(os.environ.get("CROQ_GPU_ARTIFACTS",
                                                    here.parent)),
                        help="the gpu-artifacts directory")
    parser.add_argument("--size", type=int, default=16384,
                        help="M = N of the tensors (default 16384: 1 GiB "
                             "of f32 each)")
    parser.add_argument("--md", type=Path, help="write the table here")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    if not torch.cuda.is_available():
        print("bench_dma: torch sees no CUDA device", file=sys.stderr)
        return 1
    torch.manual_seed(1234)
    kernels = args.artifacts / "kernels"
    copy_mod = croq.load(kernels / "libbench_copy.so")
    add_mod = croq.load(kernels / "libbench_add.so")
    device = torch.cuda.get_device_name()
    print(f"device: {device}", flush=True)

    rows = run_copies(copy_mod, args.size) + run_adds(add_mod, args.size)
    over = overhead(copy_mod)
    table = markdown(rows, over, device)
    print()
    print(table)
    if args.md:
        args.md.write_text(table + "\n")
    if args.json:
        args.json.write_text(json.dumps({
            "device": device, "torch": torch.__version__,
            "rows": [dict(asdict(r), croq_call_gbps=r.croq_call_gbps,
                          croq_kernel_gbps=r.croq_kernel_gbps,
                          torch_call_gbps=r.torch_call_gbps,
                          torch_kernel_gbps=r.torch_kernel_gbps,
                          call_ratio=r.call_ratio,
                          kernel_ratio=r.kernel_ratio) for r in rows],
            "overhead": over}, indent=1))
    return 0 if all(r.status == "ok" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
