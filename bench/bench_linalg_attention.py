#!/usr/bin/env python3
"""Attention from linalg (test/Integration/GPU/linalg_attention.mlir, fused
by croq-fuse-linalg-attention) against the hand-generated kernel of the same
configuration (examples/flash_attention.mlir) and SDPA, on the same tensors.

Each case is checked first (random inputs, poisoned outputs, float32
reference), then timed by bench_gemm.time_interleaved: per round one
profiler session, the calls interleaved call by call with L2 flushed before
each, the order rotated every round; the table gives the median and spread
(min-max over rounds) of the device time and of linalg / example.

Usage:
    bench_linalg_attention.py --artifacts DIR [--rounds N] [--md FILE]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

import croq

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_gemm import time_interleaved  # noqa: E402

# (linalg function, example kernel, [B, H, S]) with the same element type,
# head dimension and causality; softcap, bias and alibi add their score op
# to the plain kernel's work.
CASES = [
    ("plain_f16_d128", "attention_f16", (4, 16, 4096)),
    ("plain_f16_d128", "attention_f16", (2, 16, 1000)),
    ("plain_bf16_d64", "attention_d64_bf16", (4, 16, 2048)),
    ("causal_f16_d128", "attention_causal_f16", (4, 16, 4096)),
    ("causal_bf16_d64", "attention_causal_d64_bf16", (2, 12, 1536)),
    ("softcap_f16_d128", "attention_f16", (4, 16, 4096)),
    ("alibi_f16_d128", "attention_f16", (4, 16, 4096)),
    ("bias_f16_d64", "attention_d64_f16", (4, 16, 2048)),
]


def spread(values):
    if not values:
        return "n/a"
    return (f"{statistics.median(values):.3f} "
            f"[{min(values):.3f}-{max(values):.3f}]")


def run_case(linalg, example, fn, kernel, shape, rounds):
    b, h, s = shape
    op, t, d = fn.split("_")
    dim = int(d[1:])
    dtype = torch.float16 if t == "f16" else torch.bfloat16
    q, k, v = (torch.randn(b * h, s, dim, device="cuda", dtype=dtype)
               for _ in range(3))
    out_l = torch.empty_like(q)
    out_e = torch.empty_like(q)
    scale = 1 / math.sqrt(dim)
    extra = []
    if op == "bias":
        extra = [torch.randn(s, s, device="cuda")]
    call_l = getattr(linalg, fn)
    call_e = getattr(example, kernel)
    causal = op == "causal"

    def linalg_call():
        call_l(q, k, v, *extra, out_l)

    def example_call():
        call_e(q, k, v, out_e, scale)

    q4, k4, v4 = (x.view(b, h, s, dim) for x in (q, k, v))

    def sdpa_call():
        F.scaled_dot_product_attention(q4, k4, v4, is_causal=causal)

    # Correctness of both on these tensors (plain and causal only: the
    # other ops are checked by linalg_attention_tests.py).
    out_l.fill_(float("nan"))
    out_e.fill_(float("nan"))
    linalg_call()
    example_call()
    ref = F.scaled_dot_product_attention(q4.float(), k4.float(), v4.float(),
                                         is_causal=causal).reshape(q.shape)
    err_e = float((out_e.float() - ref).abs().max())
    err_l = float((out_l.float() - ref).abs().max()) \
        if op in ("plain", "causal") else float("nan")
    times = time_interleaved({
        "linalg": (linalg_call, lambda n: n.startswith(fn + "_kernel")),
        "example": (example_call, lambda n: n.startswith(kernel + "_kernel")),
        "sdpa": (sdpa_call, lambda n: "flash" in n.lower()
                 or "fmha" in n.lower() or "attention" in n.lower()),
    }, rounds)
    ratio = [e / l for l, e in zip(times["linalg"], times["example"])]
    flops = 4 * b * h * s * s * dim * (0.5 if causal else 1.0)
    tflops = flops / (statistics.median(times["linalg"]) * 1e-3) / 1e12 \
        if times["linalg"] else float("nan")
    return (f"| {fn} | {kernel} | {b}x{h}x{s} | {spread(times['linalg'])} | "
            f"{spread(times['example'])} | {spread(times['sdpa'])} | "
            f"{spread(ratio)} | {tflops:.0f} | {err_l:.2g} / {err_e:.2g} |")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--artifacts", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--md", type=Path)
    args = parser.parse_args()
    kernels = args.artifacts / "kernels"
    linalg = croq.load(kernels / "liblinalg_attention.so")
    example = croq.load(kernels / "libflash_attention.so")
    torch.manual_seed(0)
    lines = [f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}",
             "", "| linalg | example | BxHxS | linalg ms | example ms | "
             "SDPA ms | example / linalg | linalg TFLOP/s | max err (linalg / "
             "example) |", "|---|---|---|---|---|---|---|---|---|"]
    print("\n".join(lines), flush=True)
    for fn, kernel, shape in CASES:
        line = run_case(linalg, example, fn, kernel, shape, args.rounds)
        print(line, flush=True)
        lines.append(line)
    if args.md:
        args.md.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
