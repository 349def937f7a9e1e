#!/usr/bin/env python3
"""Times the GEMMs from linalg that take split-K kernels (few tiles, long
K) two ways against cuBLAS (torch.matmul) in one process: the device time of
their kernels (bench_gemm.time_device, as bench_linalg.py reports it: the
sum of the partial-product kernel and the reduction) and the time between
CUDA events recorded on the stream around one call, which also counts the
gap between the two kernels and the workspace's allocation. L2 flushed
before each call; median of 20 calls, median [min-max] over rounds, cuBLAS
and croq alternating.

Usage:
    bench_split_k.py --artifacts DIR [--rounds N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_gemm import is_library_kernel, time_device, time_events  # noqa: E402
from bench_linalg import checked_f16_product, croq_kernels  # noqa: E402

SHAPES = [(256, 256, 16384), (128, 1024, 8192), (300, 200, 2048),
          (2048, 512, 8192), (128, 8192, 8192), (768, 768, 12288),
          (64, 4096, 8192)]


def spread(values) -> str:
    return (f"{statistics.median(values):.3f} "
            f"[{min(values):.3f}-{max(values):.3f}]")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--artifacts", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    import croq
    mod = croq.load(args.artifacts / "kernels" / "liblinalg_matmul.so")
    print(f"device: {torch.cuda.get_device_name()}; linalg_mm_f16; ratio = "
          "cuBLAS ms / croq ms, median [min-max] over rounds\n")
    print("| shape | device-time ratio | event ratio | croq event ms | "
          "cuBLAS event ms |")
    print("|---|---|---|---|---|")
    for m, n, k in SHAPES:
        checked = checked_f16_product(mod.linalg_mm_f16, m, n, k)
        if checked is None:
            return 1
        a, b, out = checked

        def croq_call():
            mod.linalg_mm_f16(a, b, out)

        def cublas_call():
            torch.matmul(a, b)
        device, events, croq_ev, cublas_ev = [], [], [], []
        for _ in range(args.rounds):
            tc = time_device(cublas_call, is_library_kernel)
            tx = time_device(croq_call, croq_kernels("linalg_mm_f16"))
            ec = time_events(cublas_call)
            ex = time_events(croq_call)
            device.append(tc / tx)
            events.append(ec / ex)
            croq_ev.append(ex)
            cublas_ev.append(ec)
        print(f"| {m}x{n}x{k} | {spread(device)} | {spread(events)} | "
              f"{spread(croq_ev)} | {spread(cublas_ev)} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
