#!/usr/bin/env python3
"""croq convolutions from linalg (implicit GEMMs with TMA im2col loads;
1x1 as plain GEMMs) against torch's conv2d (cuDNN, channels_last, f16), on
ResNet-50 and U-Net layer shapes (bench/kernels/conv.mlir, written by
test/Integration/GPU/gen_linalg_conv.py bench).

Per layer: the croq function is first checked on the benchmark's data
(random inputs, poisoned output, against torch's conv2d in float32); then
device time, croq and cuDNN interleaved call by call with L2 flushed
before each (bench_gemm.time_interleaved: torch profiler, the order
rotated every round), median of 20 calls a round; the table gives the
median over rounds and its [min-max]. TFLOP/s = 2 N P Q F R S C / time;
ratio = croq TFLOP/s / cuDNN TFLOP/s. The croq time includes every kernel
of the call (the padding is folded into the im2col map: no copy).

With --also MODULE... the same functions compiled otherwise (a forced
tile: croq.compile(..., name=MODULE, gemm_tile=...)) are timed in the same
interleaved rounds, each row then giving their medians too.

Usage:
    bench_conv.py [--artifacts DIR] [--rounds N] [--json FILE]
                  [--also MODULE ...]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path

import torch

import croq

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_gemm import time_interleaved  # noqa: E402

for tests in (HERE.parent / "test" / "Integration" / "GPU", HERE.parent / "tests"):
    if tests.is_dir():
        sys.path.insert(0, str(tests))
from gen_linalg_conv import BENCH  # noqa: E402


def flops(k) -> float:
    p, q = k.output()
    return 2.0 * k.n * p * q * k.f * k.r * k.s * k.c


def layer(module, k, rounds: int, others=()):
    x = torch.randn(k.n, k.h, k.w, k.c, device="cuda", dtype=torch.float16)
    w = torch.randn(k.f, k.r, k.s, k.c, device="cuda",
                    dtype=torch.float16) / math.sqrt(k.r * k.s * k.c)
    p, q = k.output()
    out = torch.full((k.n, p, q, k.f), float("nan"), device="cuda",
                     dtype=torch.float16)
    bias = torch.randn(k.f, device="cuda", dtype=torch.float16)
    fn = getattr(module, k.name)
    args = [x, w] + ([bias] if k.bias_relu else []) + [out]
    # cuDNN on the same memory: NCHW views of NHWC tensors (channels_last).
    xc = x.permute(0, 3, 1, 2)
    wc = w.permute(0, 3, 1, 2)
    padding = (k.pad[0], k.pad[2])

    def cudnn():
        y = torch.nn.functional.conv2d(xc, wc, bias if k.bias_relu else None,
                                       stride=k.stride, padding=padding,
                                       dilation=k.dilation)
        return torch.relu_(y) if k.bias_relu else y

    fn(*args)
    torch.cuda.synchronize()
    ref = cudnn().float().permute(0, 2, 3, 1)
    err = float((out.float() - ref).abs().max() / ref.abs().max())
    ok = not bool(torch.isnan(out).any()) and err < 1e-2
    row = {"layer": k.name, "shape": f"{k.n}x{k.c}x{k.h}x{k.w}->{k.f} "
           f"{k.r}x{k.s} s{k.stride[0]} p{k.pad[0]}", "ok": ok, "err": err}
    if not ok:
        return row
    calls = {
        "croq": (lambda: fn(*args), lambda name: True),
        "cudnn": (cudnn, lambda name: True),
    }
    for other_name, other in others:
        other_fn = getattr(other, k.name)
        calls[other_name] = (lambda f=other_fn: f(*args), lambda name: True)
    times = time_interleaved(calls, rounds)
    for name in calls:
        t = times[name]
        row[name] = {"median_ms": statistics.median(t), "min_ms": min(t),
                     "max_ms": max(t),
                     "tflops": flops(k) / statistics.median(t) / 1e9}
    row["ratio"] = row["croq"]["tflops"] / row["cudnn"]["tflops"]
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--artifacts", type=Path, default=HERE.parent)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--also", nargs="*", default=[],
                        help="further modules of the same functions to time")
    args = parser.parse_args()
    torch.backends.cudnn.benchmark = True
    module = croq.load(args.artifacts / "kernels" / "libconv.so")
    others = [(name, croq.load(args.artifacts / "kernels" / f"lib{name}.so"))
              for name in args.also]
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"cuDNN {torch.backends.cudnn.version()}")
    print("| layer | N C H W -> F, filter | croq TFLOP/s | croq ms median "
          "[min-max] | cuDNN TFLOP/s | cuDNN ms median [min-max] | ratio |")
    print("|---|---|---|---|---|---|---|")
    rows, ratios = [], []
    # The functions of bench/kernels/conv.mlir, named as they are there.
    names = ("r50_64_56_3x3", "r50_256_28_3x3", "r50_512_14_3x3",
             "r50_128_112_1x1", "issue_64_58_3x3", "unet_320_64_3x3",
             "unet_640_32_3x3", "r50_128_56_3x3_s2",
             "r50_256_28_3x3_bias_relu")
    specs = {k.name: k for k in BENCH}
    assert set(names) == set(specs), "conv.mlir is not gen_linalg_conv.py's"
    for k in (specs[name] for name in names):
        row = layer(module, k, args.rounds, others)
        rows.append(row)
        if not row["ok"]:
            print(f"| {k.name} | {row['shape']} | WRONG (err {row['err']:.3g})"
                  " | | | | |", flush=True)
            continue
        c, d = row["croq"], row["cudnn"]
        ratios.append(row["ratio"])
        print(f"| {k.name} | {row['shape']} | {c['tflops']:.0f} | "
              f"{c['median_ms']:.4f} [{c['min_ms']:.4f}-{c['max_ms']:.4f}] | "
              f"{d['tflops']:.0f} | {d['median_ms']:.4f} "
              f"[{d['min_ms']:.4f}-{d['max_ms']:.4f}] | {row['ratio']:.2f} |"
              + "".join(f" {name}: {row[name]['tflops']:.0f} TFLOP/s "
                        f"{row[name]['median_ms']:.4f} ms |"
                        for name, _ in others),
              flush=True)
    if ratios:
        geomean = math.exp(sum(map(math.log, ratios)) / len(ratios))
        print(f"geomean ratio croq / cuDNN: {geomean:.3f} over {len(ratios)}"
              f" layers, min {min(ratios):.2f}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
