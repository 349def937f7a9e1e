#!/usr/bin/env python3
"""Attention forward: croq's examples/flash_attention.mlir against torch's
scaled_dot_product_attention on the same GPU, in one run (with --backward,
the backward of examples/flash_attention_bwd.mlir against SDPA's).

Device time per call with L2 flushed before each call (torch profiler), the
two candidates interleaved over several rounds; reported as medians with
the spread of the rounds, in TFLOP/s (4 * B * H * S * S * D flops) and as
the ratio croq / SDPA of the times. Every shape is checked against SDPA
before it is timed. Kernels whose name says causal are compared with
SDPA's is_causal=True and counted at half the flops. A shape BxHxS/G has G
key/value heads (grouped-query attention, SDPA's enable_gqa=True).

    python3 bench/bench_attention.py --artifacts gpu-artifacts \
        [--shapes 4x16x4096,1x16x8192,4x32x4096/8] [--rounds 5] [--json out.json]
    python3 bench/bench_attention.py --artifacts gpu-artifacts --backward \
        --module flash_attention_bwd --kernels f16,causal_f16,d64_bf16 [--fused]

With --decode, decoding attention instead: examples/flash_decode.mlir
through croq.decode.flash_decode against SDPA on the same tensors (q
[B, Hq, nq, D], the cache [B, Hkv, S, D], enable_gqa), reported as the
bandwidth on the cache (the bytes of K and V over the device time, in
TB/s) and the ratio croq / SDPA. A shape BxHq/HkvxS[xnq][:d64][:bf16]
[:pN][:sN] (pN: the cache in pages of N keys for croq, the same keys
contiguous for SDPA; sN: at most N splits of the keys, to measure the
split rule):

    python3 bench/bench_attention.py --artifacts gpu-artifacts --decode \
        --shapes 8x32/8x8192,64x32/8x2048:p256

With --varlen, sequences of different lengths packed together:
examples/flash_attention_varlen.mlir through croq.flash_attn_varlen
against SDPA run once per sequence and on the padded batch with a mask
(bench_varlen.py says how).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path
from typing import List, Optional, Sequence

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_gemm import time_device  # noqa: E402

import croq  # noqa: E402



def is_sdpa_kernel(name: str) -> bool:
    """A kernel of torch's attention (flash or cuDNN), not a flush."""
    return "FillFunctor" not in name and "Memset" not in name and \
        not name.startswith("Memcpy")


def interleaved(run_croq, croq_match, run_sdpa, rounds: int):
    """Device times (ms) of croq's and SDPA's calls, one of each per round,
    the order alternating between rounds."""
    croq_ms: List[float] = []
    sdpa_ms: List[float] = []
    for r in range(rounds):
        order = [(run_croq, croq_ms, croq_match),
                 (run_sdpa, sdpa_ms, is_sdpa_kernel)]
        if r % 2:
            order.reverse()
        for fn, sink, match in order:
            ms = time_device(fn, match)
            if ms is not None:
                sink.append(ms)
    return croq_ms, sdpa_ms


def ratios_of(croq_ms, sdpa_ms) -> dict:
    """SDPA ms / croq ms per round: the median and the spread."""
    ratios = [s / c for c, s in zip(croq_ms, sdpa_ms)]
    return dict(ratio=statistics.median(ratios), ratio_min=min(ratios),
                ratio_max=max(ratios))


def with_tflops(result: dict, croq_ms, sdpa_ms, flops: float) -> dict:
    """`result` with status ok, the median times, TFLOP/s and ratios."""
    result.update(
        status="ok",
        croq_ms=statistics.median(croq_ms),
        sdpa_ms=statistics.median(sdpa_ms),
        croq_tflops=flops / statistics.median(croq_ms) / 1e9,
        sdpa_tflops=flops / statistics.median(sdpa_ms) / 1e9,
        **ratios_of(croq_ms, sdpa_ms))
    return result


def bench_shape(module, kernel: str, batch: int, heads: int, seq: int,
                rounds: int, kv_heads: Optional[int] = None):
    dim = 64 if "d64" in kernel else 128
    dtype = torch.bfloat16 if "bf16" in kernel else torch.float16
    kv = heads if kv_heads is None else kv_heads
    shape = (batch, heads, seq, dim)
    q = torch.randn(*shape, device="cuda", dtype=dtype)
    k, v = (torch.randn(batch, kv, seq, dim, device="cuda", dtype=dtype)
            for _ in range(2))
    out = torch.full(shape, float("nan"), device="cuda", dtype=dtype)
    flat = [t.view(-1, seq, dim) for t in (q, k, v, out)]
    scale = 1.0 / math.sqrt(dim)  # SDPA's default

    def run_croq():
        getattr(module, kernel)(*flat, scale)

    causal = "causal" in kernel
    # The causal entry points walk pairs of items (their second kernel),
    # or single items in snake order (the first) where the pairs fill less
    # than 90% of their waves of blocks (132, or 131 for an odd number of
    # query blocks) and the keys and values of all heads take 64 MiB or
    # less (examples/gen/flash_attention.py).
    grid_q = -(-seq // 128)
    pairs = batch * heads * ((grid_q + 1) // 2)
    pair_blocks = 131 if grid_q % 2 else 132
    slots = -(-pairs // pair_blocks) * pair_blocks
    snake = 10 * pairs < 9 * slots and \
        batch * kv * seq * dim * 4 <= 64 << 20
    walk = ("snake" if snake else "pairs") if causal else "items"

    def run_sdpa():
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal,
                                              enable_gqa=kv != heads)

    run_croq()
    ref = run_sdpa()
    torch.cuda.synchronize()
    err = float((out.float() - ref.float()).abs().max())
    name = f"{batch}x{heads}x{seq}x{dim}" + \
        ("" if kv == heads else f" kv{kv}")
    result = {"kernel": kernel, "shape": name,
              "walk": walk, "max_abs_error": err}
    if not err <= (6e-2 if dtype == torch.bfloat16 else 2e-2):
        result["status"] = f"WRONG (max abs error {err:.3g})"
        return result
    croq_ms, sdpa_ms = interleaved(
        run_croq, lambda n: n.startswith(kernel + "_kernel"), run_sdpa,
        rounds)
    # Causal attention computes half the scores (the convention of
    # FlashAttention's and torch's figures).
    flops = 4.0 * batch * heads * seq * seq * dim / (2 if causal else 1)
    return with_tflops(result, croq_ms, sdpa_ms, flops)


def bench_backward(module, config: str, batch: int, heads: int, seq: int,
                   rounds: int, kv_heads: Optional[int] = None,
                   fused: bool = False):
    """The backward of examples/flash_attention_bwd.mlir through
    croq.attention (fused: the delta kernel, the dK/dV/dQ kernel and dQ's
    conversion to q's type; else the dQ kernel, then the dK/dV kernel),
    from the training forward's output and log-sum-exp, against SDPA's
    backward (torch.autograd.grad of its output) on the same tensors,
    counted at 2.5 times the forward's flops. Every kernel of a call counts
    on both sides (croq's conversion of dQ included) but fills, memsets
    and memcpys (the L2 flush is a fill). `config` is an entry point
    suffix: f16, causal_d64_bf16, ..."""
    dim = 64 if "d64" in config else 128
    dtype = torch.bfloat16 if "bf16" in config else torch.float16
    causal = "causal" in config
    kv = heads if kv_heads is None else kv_heads
    q = torch.randn(batch, heads, seq, dim, device="cuda", dtype=dtype)
    k, v = (torch.randn(batch, kv, seq, dim, device="cuda", dtype=dtype)
            for _ in range(2))
    dout = torch.randn_like(q)
    scale = 1.0 / math.sqrt(dim)
    flat = [t.reshape(-1, seq, dim) for t in (q, k, v, dout)]
    out = torch.empty_like(flat[0])
    lse = torch.empty(batch * heads, seq, device="cuda", dtype=torch.float32)
    getattr(module, "attention_lse_" + config)(*flat[:3], out, lse, scale)
    fa = croq.attention.Attention(module, fused=fused)
    grads = []

    def run_croq():
        grads[:] = fa.backward(q, k, v, out.view_as(q), lse, dout, causal,
                               scale)

    qr, kr, vr = (t.detach().requires_grad_() for t in (q, k, v))
    ref_out = F.scaled_dot_product_attention(qr, kr, vr, is_causal=causal,
                                             enable_gqa=kv != heads)

    def run_sdpa():
        return torch.autograd.grad(ref_out, (qr, kr, vr), dout,
                                   retain_graph=True)

    run_croq()
    ref = run_sdpa()
    torch.cuda.synchronize()

    def rel(a, b):
        return float((a.float() - b.float()).norm() / b.float().norm())
    err = max(rel(grads[0], ref[0]), rel(grads[1], ref[1]),
              rel(grads[2], ref[2]))
    name = f"{batch}x{heads}x{seq}x{dim}" + \
        ("" if kv == heads else f" kv{kv}")
    result = {"kernel": ("bwd_fused_" if fused else "bwd_") + config,
              "shape": name, "walk": "bwd",
              "max_abs_error": err}
    if not err <= (4e-2 if dtype == torch.bfloat16 else 1e-2):
        result["status"] = f"WRONG (relative error {err:.3g})"
        return result
    croq_ms, sdpa_ms = interleaved(run_croq, is_sdpa_kernel, run_sdpa,
                                   rounds)
    flops = 2.5 * 4.0 * batch * heads * seq * seq * dim / \
        (2 if causal else 1)
    return with_tflops(result, croq_ms, sdpa_ms, flops)


DECODE_SHAPES = ("8x32/8x8192,64x32/8x2048,8x32/8x8192:p256,"
                 "64x32/8x2048:p128,1x32/8x32768,16x32/8x4096:bf16,"
                 "32x64/8x1500,4x32/4x16384:d64,8x28/4x3000x4,"
                 "128x32/8x1024:p256,2x16/16x8192")


def bench_decode_shape(module, text: str, rounds: int):
    """One decode shape of --decode (see the docstring)."""
    from croq.decode import flash_decode
    parts = text.split(":")
    head, opts = parts[0], parts[1:]
    batch_heads, kv_keys = head.split("/")
    batch, heads = (int(x) for x in batch_heads.split("x"))
    kv_fields = [int(x) for x in kv_keys.split("x")]
    kv, seq = kv_fields[0], kv_fields[1]
    queries = kv_fields[2] if len(kv_fields) > 2 else 1
    dim = 64 if "d64" in opts else 128
    dtype = torch.bfloat16 if "bf16" in opts else torch.float16
    page = next((int(o[1:]) for o in opts if o.startswith("p")), None)
    max_splits = next((int(o[1:]) for o in opts if o.startswith("s")), None)
    q = torch.randn(batch, heads, queries, dim, device="cuda", dtype=dtype)
    k, v = (torch.randn(batch, kv, seq, dim, device="cuda", dtype=dtype)
            for _ in range(2))
    out = torch.full_like(q, float("nan"))
    lens = torch.full((batch,), seq, dtype=torch.int32, device="cuda")
    args = dict(cache_seqlens=lens, out=out, module=module,
                max_splits=max_splits)
    if page is not None:
        per = -(-seq // page)
        pad = per * page - seq
        kp, vp = (torch.nn.functional.pad(t, (0, 0, 0, pad)) for t in (k, v))
        order = torch.randperm(batch * per, device="cuda")
        table = order.view(batch, per).to(torch.int32)

        def pages(t):
            blocks = t.view(batch, kv, per, page, dim).permute(
                0, 2, 3, 1, 4).reshape(batch * per, page, kv, dim)
            paged = torch.empty_like(blocks)
            paged[order] = blocks
            return paged
        ck, cv = pages(kp), pages(vp)
        args["block_table"] = table
    else:
        ck, cv = k, v

    def run_croq():
        flash_decode(q, ck, cv, **args)

    def run_sdpa():
        return F.scaled_dot_product_attention(q, k, v, enable_gqa=kv != heads)

    run_croq()
    ref = run_sdpa()
    torch.cuda.synchronize()
    err = float((out.float() - ref.float()).abs().max())
    result = {"shape": text, "max_abs_error": err}
    if not err <= (3e-2 if dtype == torch.bfloat16 else 5e-3):
        result["status"] = f"WRONG (max abs error {err:.3g})"
        return result
    croq_ms, sdpa_ms = interleaved(
        run_croq, lambda n: n.startswith("decode_"), run_sdpa, rounds)
    cache_bytes = 2 * batch * kv * seq * dim * q.element_size()
    result.update(
        status="ok", croq_us=1e3 * statistics.median(croq_ms),
        sdpa_us=1e3 * statistics.median(sdpa_ms),
        croq_tbs=cache_bytes / statistics.median(croq_ms) / 1e9,
        sdpa_tbs=cache_bytes / statistics.median(sdpa_ms) / 1e9,
        **ratios_of(croq_ms, sdpa_ms))
    return result


def main_decode(args) -> int:
    module = croq.load(args.artifacts / "kernels" / "libflash_decode.so")
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}")
    results = []
    for text in (args.shapes or DECODE_SHAPES).split(","):
        r = bench_decode_shape(module, text, args.rounds)
        results.append(r)
        if r["status"] != "ok":
            print(f"{text:>22}  {r['status']}")
            continue
        print(f"{text:>22}  croq {r['croq_us']:8.1f} us {r['croq_tbs']:5.2f} "
              f"TB/s  SDPA {r['sdpa_us']:8.1f} us {r['sdpa_tbs']:5.2f} TB/s  "
              f"croq/SDPA {r['ratio']:.3f} ({r['ratio_min']:.3f}-"
              f"{r['ratio_max']:.3f})  err {r['max_abs_error']:.2g}",
              flush=True)
    ratios = [r["ratio"] for r in results if r["status"] == "ok"]
    if ratios:
        geomean = math.exp(sum(map(math.log, ratios)) / len(ratios))
        print(f"croq/SDPA geomean {geomean:.3f} over {len(ratios)} rows, "
              f"lowest {min(ratios):.3f}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0 if all(r["status"] == "ok" for r in results) else 1


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--artifacts", type=Path, required=True)
    parser.add_argument("--shapes", default=None,
                        help="default: 4x16x4096,1x16x8192,8x16x2048,"
                        "16x16x1024,4x16x3000 (--decode: DECODE_SHAPES)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--module", default="flash_attention",
                        help="the kernel module in <artifacts>/kernels")
    parser.add_argument("--kernels",
                        default="attention_f16,attention_causal_f16,"
                        "attention_bf16,attention_causal_bf16,"
                        "attention_d64_f16,attention_causal_d64_f16",
                        help="entry points of examples/flash_attention.mlir")
    parser.add_argument("--backward", action="store_true",
                        help="time the backward of flash_attention_bwd "
                        "(--module flash_attention_bwd; --kernels are "
                        "configurations: f16,causal_f16,d64_bf16,...)")
    parser.add_argument("--fused", action="store_true",
                        help="--backward: the fused backward (delta, then "
                        "dK/dV/dQ in one kernel) instead of the dQ kernel "
                        "and the dK/dV kernel")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--decode", action="store_true",
                        help="decoding attention (examples/flash_decode.mlir)")
    parser.add_argument("--varlen", action="store_true",
                        help="packed sequences of different lengths "
                        "(examples/flash_attention_varlen.mlir; "
                        "bench_varlen.py)")
    args = parser.parse_args(argv)
    if args.decode:
        return main_decode(args)
    if args.varlen:
        from bench_varlen import main_varlen
        return main_varlen(args)
    module = croq.load(args.artifacts / "kernels" / f"lib{args.module}.so")
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}")
    results = []
    for text in (args.shapes or "4x16x4096,1x16x8192,8x16x2048,16x16x1024,"
                 "4x16x3000").split(","):
        text, _, groups = text.partition("/")
        batch, heads, seq = (int(x) for x in text.split("x"))
        kv_heads = int(groups) if groups else None
        for kernel in args.kernels.split(","):
            if args.backward:
                r = bench_backward(module, kernel, batch, heads, seq,
                                   args.rounds, kv_heads,
                                   fused=args.fused)
            else:
                r = bench_shape(module, kernel, batch, heads, seq,
                                args.rounds, kv_heads)
            results.append(r)
            if r["status"] != "ok":
                print(f"{kernel} {r['shape']:>18}  {r['status']}")
                continue
            print(f"{kernel:>20} {r['shape']:>14} {r['walk']:>5}  croq "
                  f"{r['croq_tflops']:6.1f} TFLOP/s  SDPA "
                  f"{r['sdpa_tflops']:6.1f}  croq/SDPA {r['ratio']:.3f} "
                  f"({r['ratio_min']:.3f}-{r['ratio_max']:.3f})  "
                  f"err {r['max_abs_error']:.2g}")
    ratios = [r["ratio"] for r in results if r["status"] == "ok"]
    if ratios:
        geomean = math.exp(sum(map(math.log, ratios)) / len(ratios))
        print(f"croq/SDPA geomean {geomean:.3f} over {len(ratios)} rows, "
              f"lowest {min(ratios):.3f}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0 if all(r["status"] == "ok" for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
