#!/usr/bin/env python3
"""Times GEMMs that croq compiles from linalg (test/Integration/GPU/
linalg_matmul.mlir: linalg.fill + linalg.matmul, made a croq kernel by
convert-linalg-to-croq and pipelined by croq-pipeline-loops) against
cuBLAS (torch.matmul on the same operands) and the Triton GEMM of
triton_gemm.py in one process.

The main table: each shape is checked first (random inputs, poisoned
output, against a float32 product; a shape croq declines or gets wrong is
listed and the table goes on). The Triton GEMM (TMA descriptors,
persistent or one program per tile) reads the operands as croq does (B
stored K x N or N x K, A stored K x M) and runs at the configuration
triton_gemm.choose_config picks for the shape (17 configurations timed
with L2 flushed, interleaved, best median), the peer to beat; an operand
TMA cannot describe as stored is copied in Triton's call, and timed, as
croq's staging copies are. Then each round is one profiler session in
which croq, cuBLAS and Triton are called in turn, call by call, with L2
flushed before each call, 20 calls each, the order rotated every round;
each time is the median of the round's calls (device time of the call's
kernels and copies). Rows give cuBLAS's ms and the speed ratios per round
(cuBLAS ms / croq ms, cuBLAS ms / Triton ms, Triton ms / croq ms), median
[min-max] over rounds, then geomeans, and the rows below 0.9 of cuBLAS or
behind Triton. --no-triton leaves Triton out; --shapes times a subset.
The sweep covers squares, model layers, decode-like M of 1 to 64 and
partial or single waves of 128x256 tiles on 132 multiprocessors
(333x4096x4096, 576x8192x8192, 320x12288x4096, ...).

Other tables: "triton" checks triton_gemm.choose_config against
triton.autotune over the same configurations. A fused-epilogue table
(linalg_mm_bias_relu_f16: relu(A B + bias) in the kernel's epilogue)
against the same GEMM without it and against torch's matmul followed by
the bias and relu. An f8 table times linalg_mm_nt_e4m3 against cuBLAS's
f8 GEMM (torch._scaled_mm, tensor-wise unit scales with an f16 out, and
row-wise scales with a bf16 out) on the sweep's shapes whose extents are
multiples of 16, with both results' errors against the float64 product.
A block_scaled table (not in the default set) times
linalg_block_scaled_e4m3 (A scaled per row and 128 of K, B per 128 x 128
block, f32 out) against torch._scaled_mm with row-wise scales. With --autotune a further table times
linalg_mm_f16 autotuned (croq.load_autotuned: the fastest of eleven forced
configurations per shape) against the cost model's choice and cuBLAS.
A batch table times linalg.batch_matmul (test/Integration/GPU/
linalg_batch_matmul.mlir) against torch.matmul on the batched tensors.
The tf32 and s8 tables (not in the default set) time linalg.matmul of f32
operands (tf32 wgmma) and of i8 operands into i32 (s8 wgmma), B stored
N x K (test/Integration/GPU/linalg_matmul_tf32_s8.mlir), against
torch.matmul with TF32 allowed and torch._int_mm (B passed as the K x N
view of the N x K tensor).
A waves table (not in the default set) times grids of part of a wave
(WAVE_SHAPES) by CUDA events around each call, with and without the
stream-K form (kernels/linalg_matmul_nosk compiled with gemm_stream_k=1).
--tables picks among main, f8, block_scaled, epilogue, batch, tf32, s8,
triton, waves and variants (default main, f8, epilogue and batch).
The variants table (not in the default set) times linalg_mm_f16 and
linalg_mm_nt_bf16 tuned by croq.autotune_variants (the fastest of every
variant the module holds, per shape) against the cost model's choice and
cuBLAS: what the model leaves on each shape.

Usage:
    bench_linalg.py --artifacts DIR [--rounds N] [--md FILE] [--no-triton]
                    [--shapes MxNxK,...]
                    [--tables main,f8,block_scaled,epilogue,batch,tf32,s8,triton,waves,variants]
                    [--autotune]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_gemm import (is_library_kernel,  # noqa: E402
                        is_library_kernel_or_elementwise, time_device,
                        time_events, time_interleaved)

SHAPES = [(512, 512, 512), (1024, 1024, 1024), (2048, 2048, 2048),
          (4096, 4096, 4096), (6144, 6144, 6144), (8192, 8192, 8192),
          (16384, 16384, 4096), (8192, 8192, 1024), (3000, 5000, 2000),
          (4095, 4097, 4093), (512, 4096, 4096), (128, 8192, 8192),
          (256, 16384, 4096), (256, 256, 16384), (1000, 3000, 7000),
          (16384, 16384, 16384), (1536, 1536, 1536), (64, 4096, 8192),
          (2048, 512, 8192), (768, 768, 12288),
          # Partial and single waves of 128x256 (or 128x128) tiles on 132
          # multiprocessors, decode-like M of 1 to 64, and model layers.
          (333, 4096, 4096), (576, 8192, 8192), (320, 12288, 4096),
          (128, 4096, 4096), (1, 8192, 8192), (16, 8192, 8192),
          (64, 14336, 4096), (256, 4096, 8192), (512, 11008, 4096),
          (2560, 2560, 2560), (4000, 4000, 4000), (4096, 11008, 4096),
          (2048, 14336, 4096)]
# Grids that fill part of a wave (or a wave and a part) of 132 SMs, where
# the stream-K form spreads the last wave's K steps: the shapes of issue 43
# and others not tuned for (M of 1-640 with large N and K, one-wave and
# many-wave shapes).
WAVE_SHAPES = [(333, 4096, 4096), (576, 8192, 8192), (320, 12288, 4096),
               (128, 4096, 4096), (2560, 2560, 2560), (4000, 4000, 4000),
               (200, 8192, 8192), (640, 5120, 5120), (1000, 7168, 2048),
               (64, 14336, 4096), (16, 8192, 8192), (1, 8192, 8192),
               (77, 5000, 3000), (1536, 1536, 1536), (1000, 3000, 7000)]
# (kernel, type, B stored N x K, A stored K x M)
KERNELS = [("linalg_mm_f16", torch.float16, False, False),
           ("linalg_mm_nt_bf16", torch.bfloat16, True, False),
           ("linalg_mm_tn_f16", torch.float16, False, True)]


def spread(values):
    return (f"{statistics.median(values):.3f} "
            f"[{min(values):.3f}-{max(values):.3f}]")


def parse_shapes(text: str):
    """Comma-separated MxNxK shapes, as the benchmarks' --shapes take
    them."""
    return [tuple(int(d) for d in s.lower().split("x"))
            for s in text.split(",")]


def croq_kernels(function: str):
    """The profiler events of a croq GEMM call: its kernels (all named
    <function>_kernel, the split-K reduction too) and the staging copies of
    operands TMA cannot take."""
    name = function + "_kernel"
    return lambda event: event == name or event.startswith("Memcpy")


def relative_error(out, ref) -> float:
    """max |out - ref| / max |ref|."""
    return float((out.float() - ref).abs().max() / ref.abs().max())


def checked_f16_product(fn, m: int, n: int, k: int):
    """Random f16 A (M x K) and B (K x N) and an output poisoned with NaN,
    after fn(a, b, out) is checked against a float32 product; None (after
    printing a WRONG row) when it is not within 2e-2."""
    a = torch.randn(m, k, device="cuda").half()
    b = torch.randn(k, n, device="cuda").half()
    out = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
    fn(a, b, out)
    torch.cuda.synchronize()
    err = relative_error(out, a.float() @ b.float())
    if not err < 2e-2:
        print(f"| {m}x{n}x{k} | WRONG (rel err {err:.3g}) |")
        return None
    return a, b, out


def rotate(calls, rounds: int):
    """Device times of each call (name: (function, kernel match)), one of
    each per round in an order rotated every round."""
    times = {name: [] for name in calls}
    order = list(calls)
    for r in range(rounds):
        shift = r % len(order)
        for name in order[shift:] + order[:shift]:
            f, match = calls[name]
            t = time_device(f, match)
            if t is not None:
                times[name].append(t)
    return times


def croq_vs_library(croq_call, library_call, rounds: int):
    """Times croq's call and the library's ((function, kernel match) each)
    in rotation: the table cells `croq ms | library ms | ratio` and the
    median ratio (library ms / croq ms)."""
    times = rotate({"croq": croq_call, "library": library_call}, rounds)
    ratio = [c / x for x, c in zip(times["croq"], times["library"])]
    cells = (f"{spread(times['croq'])} | {spread(times['library'])} | "
             f"{spread(ratio)}")
    return cells, statistics.median(ratio)


def geomean_line(label: str, ratios) -> str:
    """The summary line of a table's ratios."""
    return (f"{label} geomean over {len(ratios)} rows: "
            f"{statistics.geometric_mean(ratios):.3f}; lowest "
            f"{min(ratios):.3f}")


def autotune_rows(kernels: Path, shapes, rounds: int):
    """linalg_mm_f16 autotuned (kernels/autotune_mm, croq.load_autotuned:
    the fastest of eleven forced configurations per shape, timed on the first
    call) against the cost model's choice and cuBLAS."""
    import croq
    directory = kernels / "autotune_mm"
    if not (directory / "variants.json").exists():
        return []
    (directory / "choices.json").unlink(missing_ok=True)
    tuned = croq.load_autotuned(directory)
    mod = croq.load(kernels / "liblinalg_matmul.so")
    head = ["", "| shape | tuned ms | model ms | cuBLAS ms | cuBLAS / tuned | "
            "model / tuned | chosen |", "|---|---|---|---|---|---|---|"]
    print("\n".join(head), flush=True)
    rows = []
    for m, n, k in shapes:
        checked = checked_f16_product(tuned.linalg_mm_f16, m, n, k)
        if checked is None:
            continue
        a, b, out = checked
        chosen = tuned.choices()[tuned.linalg_mm_f16.key(a, b, out)]
        match = croq_kernels("linalg_mm_f16")
        calls = {"tuned": (lambda: tuned.linalg_mm_f16(a, b, out), match),
                 "model": (lambda: mod.linalg_mm_f16(a, b, out), match),
                 "cublas": (lambda: torch.matmul(a, b), is_library_kernel)}
        times = rotate(calls, rounds)
        ratio = [c / t for t, c in zip(times["tuned"], times["cublas"])]
        gain = [m_ / t for t, m_ in zip(times["tuned"], times["model"])]
        row = (f"| {m}x{n}x{k} | {spread(times['tuned'])} | "
               f"{spread(times['model'])} | {spread(times['cublas'])} | "
               f"{spread(ratio)} | {spread(gain)} | {chosen} |")
        print(row, flush=True)
        rows.append(row)
    return head + rows


def variants_rows(mod, shapes, rounds: int):
    """linalg_mm_f16 (B K x N) and linalg_mm_nt_bf16 (B N x K) tuned by
    croq.autotune_variants (every variant the module holds, timed on the
    first call of a shape with the L2 flushed) against the cost model's
    choice and cuBLAS, interleaved; ratios are speeds."""
    import croq
    tuned = croq.autotune_variants(mod, iters=10)
    head = ["", "| kernel | shape | cuBLAS ms | model vs cuBLAS | "
            "tuned vs cuBLAS | tuned vs model | variants (model -> tuned) | "
            "tuning s |", "|---|---|---|---|---|---|---|---|"]
    print("\n".join(head), flush=True)
    rows, summary = [], {"model": [], "tuned": []}
    for kernel, dtype, nt, tn in KERNELS:
        if tn:
            continue
        fn, tuned_fn = getattr(mod, kernel), getattr(tuned, kernel)
        for m, n, k in shapes:
            a = torch.randn(m, k, device="cuda").to(dtype)
            b = torch.randn(n, k, device="cuda").to(dtype) if nt else \
                torch.randn(k, n, device="cuda").to(dtype)
            b_view = b.t() if nt else b
            ref = a.float() @ b_view.float()
            out = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
            started = time.time()
            tuned_fn(a, b, out)
            torch.cuda.synchronize()
            seconds = time.time() - started
            errors = [relative_error(out, ref)]
            out.fill_(float("nan"))
            fn(a, b, out)
            torch.cuda.synchronize()
            errors.append(relative_error(out, ref))
            if not max(errors) < 2e-2:
                rows.append(f"| {kernel} | {m}x{n}x{k} | WRONG (rel err "
                            f"tuned {errors[0]:.3g}, model {errors[1]:.3g}) |")
                print(rows[-1], flush=True)
                continue
            entry = tuned.choices()[tuned_fn.key(a, b, out)]
            match = croq_kernels(kernel)
            calls = {"model": (lambda: fn(a, b, out), match),
                     "tuned": (lambda: tuned_fn(a, b, out), match),
                     "cublas": (lambda: torch.matmul(a, b_view),
                                is_library_kernel)}
            times = rotate(calls, rounds)
            ratios = {name: per_round(times["cublas"], times[name])
                      for name in ("model", "tuned")}
            gain = per_round(times["model"], times["tuned"])
            for name in summary:
                summary[name].append(statistics.median(ratios[name]))
            rows.append(f"| {kernel} | {m}x{n}x{k} | "
                        f"{spread(times['cublas'])} | "
                        f"{spread(ratios['model'])} | "
                        f"{spread(ratios['tuned'])} | {spread(gain)} | "
                        f"{entry['model']} -> {entry['variants']} | "
                        f"{seconds:.2f} |")
            print(rows[-1], flush=True)
    tail = [""] + [geomean_line(f"{name} vs cuBLAS:", ratios)
                   for name, ratios in summary.items() if ratios]
    print("\n".join(tail), flush=True)
    return head + rows + tail


def epilogue_rows(mod, rounds: int):
    """The fused bias+relu GEMM against the plain one and torch's."""
    head = ["", "| shape | fused ms | plain ms | torch ms | fused / plain | "
            "torch / fused |", "|---|---|---|---|---|---|"]
    print("\n".join(head), flush=True)
    rows = []
    for m, n, k in [(4096, 4096, 4096), (8192, 8192, 1024), (3000, 5000, 2000),
                    (512, 4096, 4096)]:
        a = torch.randn(m, k, device="cuda").half()
        b = torch.randn(k, n, device="cuda").half()
        bias = torch.randn(n, device="cuda")
        out = torch.empty(m, n, device="cuda", dtype=torch.float16)
        mod.linalg_mm_bias_relu_f16(a, b, bias, out)
        ref = torch.relu(a.float() @ b.float() + bias)
        err = relative_error(out, ref)
        if not err < 2e-2:
            print(f"| {m}x{n}x{k} | WRONG (rel err {err:.3g}) |")
            continue
        calls = {
            "fused": (lambda: mod.linalg_mm_bias_relu_f16(a, b, bias, out),
                      croq_kernels("linalg_mm_bias_relu_f16")),
            "plain": (lambda: mod.linalg_mm_f16(a, b, out),
                      croq_kernels("linalg_mm_f16")),
            "torch": (lambda: torch.relu(torch.matmul(a, b) + bias).half(),
                      is_library_kernel_or_elementwise),
        }
        times = rotate(calls, rounds)
        over = [f / p for f, p in zip(times["fused"], times["plain"])]
        ahead = [t / f for f, t in zip(times["fused"], times["torch"])]
        row = (f"| {m}x{n}x{k} | {spread(times['fused'])} | "
               f"{spread(times['plain'])} | {spread(times['torch'])} | "
               f"{spread(over)} | {spread(ahead)} |")
        print(row, flush=True)
        rows.append(row)
    return head + rows


def f8_errors(out, ref):
    """max |out - ref| / max |ref| and the relative Frobenius error."""
    d = out.double() - ref
    return (float(d.abs().max() / ref.abs().max()),
            float(d.norm() / ref.norm()))


def f8_rows(mod, shapes, rounds: int):
    """linalg_mm_nt_e4m3 (e4m3 A [M, K] and B [N, K], f16 out; partial sums
    promoted into f32 every K step) against cuBLAS's f8 GEMM,
    torch._scaled_mm, with tensor-wise unit scales (f16 out) and row-wise
    scales (bf16 out), on the shapes whose extents are multiples of 16
    (which it needs); the errors of croq's and _scaled_mm's f16 results
    against the float64 product of the same operands."""
    head = ["", "f8 (e4m3, B stored N x K, f16 out) against torch._scaled_mm "
            "(tensor-wise scales, f16 out; row-wise, bf16 out); errors: max "
            "abs err / max |ref|, relative Frobenius, vs float64:",
            "", "| shape | croq err | _scaled_mm err | croq ms | "
            "_scaled_mm ms | ratio | row-wise ms | ratio |",
            "|---|---|---|---|---|---|---|---|"]
    print("\n".join(head), flush=True)
    rows, ratios = [], []
    one = torch.ones((), device="cuda", dtype=torch.float32)
    f8 = torch.float8_e4m3fn
    for m, n, k in shapes:
        if m % 16 or n % 16 or k % 16:
            continue
        a = torch.randn(m, k, device="cuda").clamp(-4, 4).to(f8)
        b = torch.randn(n, k, device="cuda").clamp(-4, 4).to(f8)
        out = torch.full((m, n), float("nan"), device="cuda",
                         dtype=torch.float16)
        mod.linalg_mm_nt_e4m3(a, b, out)
        ref = a.double() @ b.double().t()
        err = f8_errors(out, ref)
        ours = torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one,
                                out_dtype=torch.float16)
        theirs = f8_errors(ours, ref)
        if not err[0] < 2e-3:
            print(f"| {m}x{n}x{k} | WRONG (rel err {err[0]:.3g}) |")
            continue
        ra = torch.ones(m, 1, device="cuda")
        rb = torch.ones(1, n, device="cuda")
        times = rotate({
            "croq": (lambda: mod.linalg_mm_nt_e4m3(a, b, out),
                     croq_kernels("linalg_mm_nt_e4m3")),
            "tensor": (lambda: torch._scaled_mm(
                a, b.t(), scale_a=one, scale_b=one, out_dtype=torch.float16),
                is_library_kernel),
            "row": (lambda: torch._scaled_mm(
                a, b.t(), scale_a=ra, scale_b=rb, out_dtype=torch.bfloat16),
                is_library_kernel)}, rounds)
        ratio = [x / c for c, x in zip(times["croq"], times["tensor"])]
        row_ratio = [x / c for c, x in zip(times["croq"], times["row"])]
        ratios.append(statistics.median(ratio))
        rows.append(f"| {m}x{n}x{k} | {err[0]:.2e} / {err[1]:.2e} | "
                    f"{theirs[0]:.2e} / {theirs[1]:.2e} | "
                    f"{spread(times['croq'])} | {spread(times['tensor'])} | "
                    f"{spread(ratio)} | {spread(times['row'])} | "
                    f"{spread(row_ratio)} |")
        print(rows[-1], flush=True)
    if ratios:
        rows += ["", geomean_line("f8", ratios)]
        print(rows[-1], flush=True)
    return head + rows


BLOCK_SCALED_SHAPES = [(4096, 4096, 4096), (2048, 7168, 4096),
                       (4096, 2048, 7168), (8192, 8192, 8192),
                       (1000, 3000, 4000)]


def block_scaled_rows(mod, rounds: int):
    """linalg_block_scaled_e4m3 (DeepSeek-V3's block scales: A per row and
    128 of K, B per 128 x 128 block; f32 out) against torch._scaled_mm with
    the finest scales it takes, row-wise (bf16 out): TFLOP/s, and the error
    against the float64 product of the dequantized operands."""
    head = ["", "block-scaled e4m3 (f32 out) against torch._scaled_mm with "
            "row-wise scales (bf16 out):", "",
            "| shape | err (max / Frobenius) | croq ms | croq TFLOP/s | "
            "_scaled_mm ms | _scaled_mm TFLOP/s | ratio |",
            "|---|---|---|---|---|---|---|"]
    print("\n".join(head), flush=True)
    rows = []
    f8 = torch.float8_e4m3fn
    for m, n, k in BLOCK_SCALED_SHAPES:
        a = torch.randn(m, k, device="cuda").clamp(-4, 4).to(f8)
        b = torch.randn(n, k, device="cuda").clamp(-4, 4).to(f8)
        kb, nb = -(-k // 128), -(-n // 128)
        sa = torch.rand(m, kb, device="cuda") * 2 + 0.01
        sb = torch.rand(nb, kb, device="cuda") * 2 + 0.01
        out = torch.full((m, n), float("nan"), device="cuda")
        mod.linalg_block_scaled_e4m3(a, sa, b, sb, out)
        sa_k = sa.double().repeat_interleave(128, 1)[:, :k]
        sb_nk = sb.double().repeat_interleave(128, 0)[:n] \
            .repeat_interleave(128, 1)[:, :k]
        err = f8_errors(out, (a.double() * sa_k) @ (b.double() * sb_nk).t())
        if not err[0] < 1e-3:
            print(f"| {m}x{n}x{k} | WRONG (rel err {err[0]:.3g}) |")
            continue
        row = "| {}x{}x{} | {:.2e} / {:.2e} | ".format(m, n, k, *err)
        if k % 16 or n % 16:
            rows.append(row + "- | - | - | - | - |")
            continue
        ra = torch.rand(m, 1, device="cuda") + 0.5
        rb = torch.rand(1, n, device="cuda") + 0.5
        times = rotate({
            "croq": (lambda: mod.linalg_block_scaled_e4m3(a, sa, b, sb, out),
                     croq_kernels("linalg_block_scaled_e4m3")),
            "row": (lambda: torch._scaled_mm(
                a, b.t(), scale_a=ra, scale_b=rb, out_dtype=torch.bfloat16),
                is_library_kernel)}, rounds)
        flop = 2.0 * m * n * k
        ratio = [x / c for c, x in zip(times["croq"], times["row"])]
        rows.append(row + f"{spread(times['croq'])} | "
                    f"{flop / statistics.median(times['croq']) / 1e9:.0f} | "
                    f"{spread(times['row'])} | "
                    f"{flop / statistics.median(times['row']) / 1e9:.0f} | "
                    f"{spread(ratio)} |")
        print(rows[-1], flush=True)
    return head + rows


BATCH_SHAPES = [(64, 1024, 1024, 64), (64, 1024, 64, 1024),
                (32, 2048, 2048, 128), (16, 512, 512, 512),
                (8, 4096, 4096, 512), (4, 2048, 2048, 2048),
                (96, 384, 384, 64), (12, 200, 328, 136),
                (128, 128, 128, 4096), (3, 1000, 3000, 1000)]


def batch_rows(kernels: Path, rounds: int):
    """linalg.batch_matmul (linalg_batch_matmul.mlir: linalg_bmm_f16, and
    linalg_bmm_nt_bf16 with B stored N x K per matrix) against cuBLAS's
    batched GEMM (torch.matmul on the batched tensors), on batch x M x N x K
    shapes: attention's Q K^T and P V (K or N = 64), squares, many small
    matrices, a long K and edges in every dimension."""
    import croq
    path = kernels / "liblinalg_batch_matmul.so"
    if not path.exists():
        return []
    mod = croq.load(path)
    head = ["", "Batched (linalg.batch_matmul) against torch.matmul on the "
            "batched tensors:", "",
            "| kernel | batch x M x N x K | croq ms | cuBLAS ms | ratio |",
            "|---|---|---|---|---|"]
    print("\n".join(head), flush=True)
    rows, ratios = [], []
    for kernel, dtype, nt in (("linalg_bmm_f16", torch.float16, False),
                              ("linalg_bmm_nt_bf16", torch.bfloat16, True)):
        fn = getattr(mod, kernel)
        for nb, m, n, k in BATCH_SHAPES:
            a = torch.randn(nb, m, k, device="cuda").to(dtype)
            b = torch.randn(nb, n, k, device="cuda").to(dtype) if nt else \
                torch.randn(nb, k, n, device="cuda").to(dtype)
            out = torch.full((nb, m, n), float("nan"), device="cuda",
                             dtype=dtype)
            fn(a, b, out)
            torch.cuda.synchronize()
            bt = b.transpose(1, 2) if nt else b
            err = relative_error(out, a.float() @ bt.float())
            shape = f"{nb}x{m}x{n}x{k}"
            if not err < 2e-2:
                rows.append(f"| {kernel} | {shape} | WRONG (rel err "
                            f"{err:.3g}) |")
                print(rows[-1], flush=True)
                continue
            cells, ratio = croq_vs_library(
                (lambda: fn(a, b, out), croq_kernels(kernel)),
                (lambda: torch.matmul(a, bt), is_library_kernel), rounds)
            ratios.append(ratio)
            rows.append(f"| {kernel} | {shape} | {cells} |")
            print(rows[-1], flush=True)
    if ratios:
        rows += ["", geomean_line("batched", ratios)]
        print(rows[-1], flush=True)
    return head + rows


TF32_S8_SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (2048, 2048, 2048),
                  (6144, 6144, 6144), (3000, 5000, 2000), (1000, 3000, 7000),
                  (512, 4096, 4096), (8192, 8192, 1024), (4095, 4097, 4096),
                  (16384, 16384, 4096), (256, 256, 16384)]


def tf32_s8_rows(kernels: Path, kind: str, shapes, rounds: int):
    """linalg_mm_nt_tf32 (f32 A [M, K] and B [N, K], f32 out) against
    torch.matmul with TF32 allowed, or linalg_mm_nt_s8 (i8 A and B, i32
    out) against torch._int_mm, which takes M > 16 and K and N multiples
    of 8 (other shapes get croq's time alone)."""
    import croq
    path = kernels / "liblinalg_matmul_tf32_s8.so"
    if not path.exists():
        return []
    mod = croq.load(path)
    tf32 = kind == "tf32"
    kernel = "linalg_mm_nt_tf32" if tf32 else "linalg_mm_nt_s8"
    library = "torch.matmul (TF32)" if tf32 else "torch._int_mm"
    head = ["", f"{kernel} (B stored N x K) against {library}:", "",
            f"| shape | croq ms | {library} ms | ratio | croq TFLOP/s or "
            "TOP/s |", "|---|---|---|---|---|"]
    print("\n".join(head), flush=True)
    torch.backends.cuda.matmul.allow_tf32 = True
    fn = getattr(mod, kernel)
    rows, ratios = [], []
    for m, n, k in shapes:
        if tf32:
            a = torch.randn(m, k, device="cuda")
            b = torch.randn(n, k, device="cuda")
            out = torch.full((m, n), float("nan"), device="cuda")
        else:
            a = torch.randint(-128, 128, (m, k), device="cuda",
                              dtype=torch.int8)
            b = torch.randint(-128, 128, (n, k), device="cuda",
                              dtype=torch.int8)
            out = torch.full((m, n), -1, device="cuda", dtype=torch.int32)
        fn(a, b, out)
        torch.cuda.synchronize()
        ref = a.double() @ b.double().t()
        err = float((out.double() - ref).abs().max() / ref.abs().max())
        if not err < (2e-3 if tf32 else 1e-12):
            rows.append(f"| {m}x{n}x{k} | WRONG (rel err {err:.3g}) |")
            print(rows[-1], flush=True)
            continue
        croq_call = (lambda: fn(a, b, out), croq_kernels(kernel))
        bt = b.t()
        if tf32:
            lib_call = (lambda: torch.matmul(a, bt), is_library_kernel)
        elif m > 16 and k % 8 == 0 and n % 8 == 0:
            lib_call = (lambda: torch._int_mm(a, bt), is_library_kernel)
        else:
            lib_call = None
        calls = {"croq": croq_call}
        if lib_call is not None:
            calls["library"] = lib_call
        times = rotate(calls, rounds)
        cells = f"{spread(times['croq'])} | - | -"
        if lib_call is not None:
            ratio = [x / c for c, x in zip(times["croq"], times["library"])]
            ratios.append(statistics.median(ratio))
            cells = (f"{spread(times['croq'])} | {spread(times['library'])} "
                     f"| {spread(ratio)}")
        rate = 2.0 * m * n * k / statistics.median(times["croq"]) / 1e9
        rows.append(f"| {m}x{n}x{k} | {cells} | {rate:.0f} |")
        print(rows[-1], flush=True)
    if ratios:
        rows += ["", geomean_line(kind, ratios)]
        print(rows[-1], flush=True)
    return head + rows


def per_round(num, den):
    """Per round: num ms / den ms."""
    return [x / y for x, y in zip(num, den)]


def main_rows(mod, shapes, rounds: int, with_triton: bool):
    """The main table: croq's GEMMs (KERNELS) against cuBLAS and the Triton
    GEMM at its best (triton_gemm.best_call on the operands as croq reads
    them), interleaved; ratios are speeds (other ms / this ms)."""
    from triton_gemm import best_call
    head = ["", "| kernel | shape | cuBLAS ms | croq vs cuBLAS | "
            "Triton vs cuBLAS | croq vs Triton | croq ms | Triton config |",
            "|---|---|---|---|---|---|---|---|"]
    print("\n".join(head), flush=True)
    rows, summary = [], {"croq": [], "triton": [], "peer": []}
    # The rows whose operands TMA reads as stored (Triton copies none, and
    # croq stages none): the rows to compare runs by.
    aligned = {"croq": [], "triton": [], "peer": []}
    below = []
    for kernel, dtype, nt, tn in KERNELS:
        fn = getattr(mod, kernel)
        for m, n, k in shapes:
            shape = f"{m}x{n}x{k}"
            started = time.time()
            # A stored K x M is passed as stored; a is its M x K view, which
            # cuBLAS takes as a transposed operand (and Triton reads in
            # place); b_view is B as K x N.
            a_stored = torch.randn(k, m, device="cuda").to(dtype) if tn \
                else torch.randn(m, k, device="cuda").to(dtype)
            a = a_stored.t() if tn else a_stored
            b = torch.randn(n, k, device="cuda").to(dtype) if nt else \
                torch.randn(k, n, device="cuda").to(dtype)
            b_view = b.t() if nt else b
            out = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
            ref = a.float() @ b_view.float()
            why = None
            try:
                fn(a_stored, b, out)
                torch.cuda.synchronize()
                err = relative_error(out, ref)
                if not err < 2e-2:
                    why = f"WRONG (rel err {err:.3g})"
            except Exception as e:  # a shape croq declines
                why = f"declined: {str(e).splitlines()[0][:80]}"
            if why is not None:
                rows.append(f"| {kernel} | {shape} | {why} |")
                below.append(f"{kernel} {shape}: {why}")
                print(rows[-1], flush=True)
                continue
            calls = {"croq": (lambda: fn(a_stored, b, out),
                              croq_kernels(kernel)),
                     "cublas": (lambda: torch.matmul(a, b_view),
                                is_library_kernel)}
            config = "not run"
            if with_triton:
                t_out = torch.empty_like(out)
                call, config = best_call(a, b_view, t_out, ref=ref)
                if call is not None:
                    # Its kernel and, where TMA cannot describe an operand
                    # as stored, the copy that stages it (as croq's time
                    # has its staging copies).
                    calls["triton"] = (call, is_library_kernel)
                else:
                    config = "none ran: " + \
                        config.split("; ")[0].split(": ", 1)[-1][:60]
            del ref
            times = rotate_checked(calls, rounds)
            if times is None:
                rows.append(f"| {kernel} | {shape} | no profile |")
                print(rows[-1], flush=True)
                continue
            croq_ratio = per_round(times["cublas"], times["croq"])
            summary["croq"].append(statistics.median(croq_ratio))
            cells = ["- ", "- "]
            if times.get("triton"):
                tri = per_round(times["cublas"], times["triton"])
                peer = per_round(times["triton"], times["croq"])
                summary["triton"].append(statistics.median(tri))
                summary["peer"].append(statistics.median(peer))
                cells = [spread(tri) + " ", spread(peer) + " "]
                if "copied" not in config:
                    for key, values in (("croq", croq_ratio),
                                        ("triton", tri), ("peer", peer)):
                        aligned[key].append(statistics.median(values))
                if statistics.median(peer) < 0.97:
                    below.append(f"{kernel} {shape}: behind Triton "
                                 f"({statistics.median(peer):.3f})")
            if statistics.median(croq_ratio) < 0.9:
                below.append(f"{kernel} {shape}: "
                             f"{statistics.median(croq_ratio):.3f} of cuBLAS")
            rows.append(f"| {kernel} | {shape} | {spread(times['cublas'])} | "
                        f"{spread(croq_ratio)} | {cells[0]}| {cells[1]}| "
                        f"{spread(times['croq'])} | {config} |")
            print(rows[-1], flush=True)
            print(f"  ({time.time() - started:.1f} s)", file=sys.stderr,
                  flush=True)
    tail = [""]
    for key, label in (("croq", "croq vs cuBLAS"),
                       ("triton", "Triton vs cuBLAS"),
                       ("peer", "croq vs Triton")):
        if summary[key]:
            tail.append(geomean_line(label, summary[key]))
    if aligned["croq"]:
        tail += ["", "On the rows whose operands TMA reads as stored (no "
                 "copy for Triton):"]
        for key, label in (("croq", "croq vs cuBLAS"),
                           ("triton", "Triton vs cuBLAS"),
                           ("peer", "croq vs Triton")):
            tail.append(geomean_line(label, aligned[key]))
    tail += ["", "Rows below 0.9 of cuBLAS, behind Triton by more than 3%, "
             "or not run:", ""] + [f"- {line}" for line in below or ["none"]]
    print("\n".join(tail), flush=True)
    return head + rows + tail


def rotate_checked(calls, rounds: int):
    """time_interleaved's times, or None when a call got no time."""
    times = time_interleaved(calls, rounds)
    if not times["croq"] or not times["cublas"]:
        return None
    if "triton" in times and len(times["triton"]) != len(times["croq"]):
        times.pop("triton")
    n = min(len(times["croq"]), len(times["cublas"]))
    return {name: t[:n] for name, t in times.items()}


TRITON_CHECK_SHAPES = [(333, 4096, 4096), (1024, 1024, 1024),
                       (4096, 4096, 4096), (64, 14336, 4096)]


def triton_check_rows(shapes, rounds: int):
    """triton_gemm.choose_config against triton.autotune over the same
    configurations (f16, B stored K x N as linalg_mm_f16 reads it): each
    chooses, then both choices are timed interleaved on the device."""
    from triton_gemm import autotuned_matmul, choose_config, make_call, \
        operands
    head = ["", "triton_gemm.choose_config against triton.autotune (same "
            "configurations, f16, B stored K x N):", "",
            "| shape | chosen | autotune's | chosen ms | autotune's ms | "
            "autotune's ms / chosen ms | choose s | autotune s |",
            "|---|---|---|---|---|---|---|---|"]
    print("\n".join(head), flush=True)
    rows = []
    for m, n, k in shapes:
        a = torch.randn(m, k, device="cuda").half()
        b = torch.randn(k, n, device="cuda").half()
        out = torch.empty(m, n, device="cuda", dtype=torch.float16)
        t0 = time.time()
        config, note = choose_config(a, b, out)
        t1 = time.time()
        tuned_out = torch.full_like(out, float("nan"))
        tuned, chosen = autotuned_matmul(a, b, tuned_out)
        tuned()
        torch.cuda.synchronize()
        t2 = time.time()
        err = relative_error(tuned_out, a.float() @ b.float())
        theirs = chosen()
        if config is None or theirs is None or not err < 2e-2:
            rows.append(f"| {m}x{n}x{k} | {note} | {theirs} (err {err:.3g}) "
                        "|")
            print(rows[-1], flush=True)
            continue
        a_stored, a_km, b_stored, b_kn, _ = operands(a, b)
        match = lambda e: "tma_matmul" in e  # noqa: E731
        calls = {"chosen": (make_call(a_stored, a_km, b_stored, b_kn, out,
                                      config), match),
                 "autotune": (make_call(a_stored, a_km, b_stored, b_kn, out,
                                        theirs), match)}
        times = time_interleaved(calls, rounds)
        rel = per_round(times["autotune"], times["chosen"])
        rows.append(f"| {m}x{n}x{k} | {config} | {theirs} | "
                    f"{spread(times['chosen'])} | {spread(times['autotune'])} "
                    f"| {spread(rel)} | {t1 - t0:.1f} | {t2 - t1:.1f} |")
        print(rows[-1], flush=True)
    return head + rows


def waves_rows(kernels: Path, rounds: int, shapes):
    """linalg_mm_f16 and linalg_mm_nt_bf16 on grids of part of a wave:
    the cost model's choice (with the stream-K form) and the same module
    compiled without it (kernels/linalg_matmul_nosk, gemm_stream_k=1) and
    with it forced (linalg_streamk, gemm_stream_k=2) against cuBLAS, interleaved, each call timed by CUDA events around it
    (the launch gaps of the stream-K form's kernels counted)."""
    import croq
    mod = croq.load(kernels / "liblinalg_matmul.so")
    nosk_path = kernels / "linalg_matmul_nosk" / "liblinalg_matmul.so"
    nosk = croq.load(nosk_path) if nosk_path.exists() else None
    sk_path = kernels / "liblinalg_streamk.so"
    forced = croq.load(sk_path) if sk_path.exists() else None
    lines = ["", "Waves (event-timed ms, median [min-max] over rounds; ratio "
             "= cuBLAS ms / croq ms):", "",
             "| kernel | shape | cuBLAS ms | croq ms | ratio | "
             "without stream-K | ratio | stream-K forced | ratio |",
             "|---|---|---|---|---|---|---|---|---|"]
    print("\n".join(lines), flush=True)
    ratios = []
    for kernel, dtype, nt in (("linalg_mm_f16", torch.float16, False),
                              ("linalg_mm_nt_bf16", torch.bfloat16, True)):
        for m, n, k in shapes:
            a = torch.randn(m, k, device="cuda").to(dtype)
            b = torch.randn(n, k, device="cuda").to(dtype) if nt else \
                torch.randn(k, n, device="cuda").to(dtype)
            ref = a.float() @ (b.float().t() if nt else b.float())
            calls = {"cublas": (lambda a=a, b=b: torch.matmul(
                a, b.t() if nt else b))}
            for label, module in (("croq", mod), ("nosk", nosk),
                                  ("forced", forced)):
                if module is None:
                    continue
                fn = getattr(module, kernel)
                out = torch.full((m, n), float("nan"), device="cuda",
                                 dtype=dtype)
                fn(a, b, out)
                torch.cuda.synchronize()
                err = relative_error(out, ref)
                if not err < 2e-2:
                    print(f"| {kernel} | {m}x{n}x{k} | {label} WRONG (rel "
                          f"err {err:.3g}) |", flush=True)
                    return lines
                calls[label] = (lambda fn=fn, o=out: fn(a, b, o))
            times = {name: [] for name in calls}
            order = list(calls)
            for r in range(rounds):
                shift = r % len(order)
                for name in order[shift:] + order[:shift]:
                    times[name].append(time_events(calls[name], warmup=True))
            cells = [spread(times["cublas"])]
            for label in ("croq", "nosk", "forced"):
                if label not in times:
                    cells += ["-", "-"]
                    continue
                ratio = [c / x for x, c in zip(times[label], times["cublas"])]
                if label == "croq":
                    ratios.append(statistics.median(ratio))
                cells += [spread(times[label]), spread(ratio)]
            row = f"| {kernel} | {m}x{n}x{k} | " + " | ".join(cells) + " |"
            lines.append(row)
            print(row, flush=True)
    if ratios:
        lines += ["", geomean_line("waves (model's choice)", ratios)]
        print(lines[-1], flush=True)
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--artifacts", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--md", type=Path)
    parser.add_argument("--no-triton", action="store_true")
    parser.add_argument("--autotune", action="store_true",
                        help="also time linalg_mm_f16 autotuned "
                             "(kernels/autotune_mm) on the shapes")
    parser.add_argument("--shapes",
                        help="comma-separated MxNxK shapes instead of the "
                             "sweep")
    parser.add_argument("--tables", default="main,f8,epilogue,batch",
                        help="which tables to time (comma-separated: main, "
                             "f8, block_scaled, epilogue, batch, tf32, s8, "
                             "triton, waves, variants; default main, f8, "
                             "epilogue, "
                             "batch)")
    args = parser.parse_args()
    tables = set(args.tables.split(","))
    shapes = parse_shapes(args.shapes) if args.shapes else SHAPES
    import croq
    # linalg_matmul.mlir's kernels, for the tables that time them.
    mod = None
    if tables & {"main", "f8", "epilogue", "block_scaled", "variants"}:
        mod = croq.load(args.artifacts / "kernels" / "liblinalg_matmul.so")
    lines = [f"device: {torch.cuda.get_device_name()}; rounds: {args.rounds}; "
             "device ms, median [min-max] over rounds; ratios are speeds "
             "(cuBLAS ms / croq ms and so on), per round"]
    print("\n".join(lines), flush=True)
    if "main" in tables:
        lines += main_rows(mod, shapes, args.rounds, not args.no_triton)
    if "triton" in tables:
        lines += triton_check_rows(parse_shapes(args.shapes) if args.shapes
                                   else TRITON_CHECK_SHAPES, args.rounds)
    if "f8" in tables:
        lines += f8_rows(mod, shapes, args.rounds)
    if "variants" in tables:
        lines += variants_rows(mod, shapes, args.rounds)
    if "block_scaled" in tables:
        lines += block_scaled_rows(mod, args.rounds)
    if "epilogue" in tables:
        lines += epilogue_rows(mod, args.rounds)
    if "batch" in tables:
        lines += batch_rows(args.artifacts / "kernels", args.rounds)
    if "waves" in tables:
        lines += waves_rows(args.artifacts / "kernels", args.rounds,
                            parse_shapes(args.shapes) if args.shapes
                            else WAVE_SHAPES)
    for kind in ("tf32", "s8"):
        if kind in tables:
            lines += tf32_s8_rows(args.artifacts / "kernels", kind,
                                  parse_shapes(args.shapes) if args.shapes
                                  else TF32_S8_SHAPES, args.rounds)
    if args.autotune:
        lines += autotune_rows(args.artifacts / "kernels", shapes, args.rounds)
    if args.md:
        args.md.write_text("\n".join(lines) + "\n")
    return 1 if any("WRONG" in line for line in lines) else 0


if __name__ == "__main__":
    sys.exit(main())
