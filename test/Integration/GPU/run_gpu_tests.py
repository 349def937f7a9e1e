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
croq call checks the status its entry point returns (the call queues its
kernels on torch's current stream and returns at once);
torch.cuda.synchronize() after each test surfaces asynchronous faults.

The test groups live beside this driver, one module each:
gpu_test_support.py (the suite, tensors, comparisons, tolerances),
copy_tests.py, tma_tests.py, gemm_tests.py, linalg_matmul_tests.py,
runtime_api_tests.py, and the groups of the later features
(linalg_ops_tests.py, attention_bwd_tests.py, ..., variant_tuning_tests.py);
this file runs them in order and keeps the small groups (attention tiles,
pads, local memory, clusters, slices).

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
from dataclasses import asdict
from pathlib import Path
from typing import Optional, Sequence, Tuple

import torch

import croq

from gpu_test_support import (
    DEVICE, GEMM_TOLERANCE, Suite, compare, compare_close, copy_window,
    misaligned, poisoned, random_tensor, shape_name)
from copy_tests import (
    add_tests, copy_tests, swizzle_tests, transpose_tests, zfill_tests)
from tma_tests import (
    mma_store_transpose_tests, tma_fallback_tests, tma_generated_tests,
    tma_slab_mma_tests, tma_tests)
from gemm_tests import (
    autotune_tests, extent_tests, linalg_batch_tests, matmul_tests)
from linalg_matmul_tests import linalg_matmul_tests
from runtime_api_tests import api_tests, stream_tests, torch_op_tests


def attention_tests(s: Suite) -> None:
    """attention.mlir: computation on accumulators in registers. The
    one-warpgroup attention kernel (online softmax with row reductions, P as
    an A operand in registers) against softmax(q k^T / 8) v in float64, and
    column sums and row minima of an mma product broadcast back."""
    tolerance = {torch.float16: 4e-3, torch.bfloat16: 2e-2}

    def attention(kernel: str, dtype: torch.dtype, rows: int, keys: int,
                  dim: int) -> None:
        def body():
            mod = s.module("attention")
            q = random_tensor((rows, dim), dtype)
            k = random_tensor((keys, dim), dtype)
            v = random_tensor((keys, dim), dtype)
            out = poisoned((rows, dim), dtype)
            getattr(mod, kernel)(q, k, v, out)
            scores = (q.double() @ k.double().t()) / math.sqrt(dim)
            ref = torch.softmax(scores, dim=-1) @ v.double()
            return compare_close(out, ref, tolerance[dtype])
        s.run(f"{kernel} {rows}x{keys}x{dim}", kernel, body)

    for kernel, dtype, dim in [("attention_tile_f16", torch.float16, 64),
                               ("attention_tile_bf16", torch.bfloat16, 64),
                               ("attention_tile_d128_f16", torch.float16,
                                128)]:
        for rows, keys in [(64, 64), (128, 512), (100, 70), (1000, 1000),
                           (7, 3)]:
            attention(kernel, dtype, rows, keys, dim)

    def sdpa(kernel: str, batch: int, heads: int, seq: int, keys: int,
             scale: Optional[float] = None,
             kv_heads: Optional[int] = None) -> None:
        """examples/flash_attention.mlir on [B, H, S, D] tensors, as SDPA
        (scale None: SDPA's default, 1 / sqrt(D)); K and V with `kv_heads`
        heads (grouped-query attention: SDPA's enable_gqa) where given."""
        kv = heads if kv_heads is None else kv_heads
        dim = 64 if "d64" in kernel else 128
        dtype = torch.bfloat16 if "bf16" in kernel else torch.float16
        softmax_scale = 1 / math.sqrt(dim) if scale is None else scale

        def body():
            mod = s.module("flash_attention")
            q = random_tensor((batch, heads, seq, dim), dtype)
            k = random_tensor((batch, kv, keys, dim), dtype)
            v = random_tensor((batch, kv, keys, dim), dtype)
            out = poisoned((batch, heads, seq, dim), dtype)
            getattr(mod, kernel)(*(t.view(-1, t.shape[2], dim)
                                   for t in (q, k, v, out)), softmax_scale)
            group = heads // kv
            k64 = k.double().repeat_interleave(group, dim=1)
            v64 = v.double().repeat_interleave(group, dim=1)
            scores = (q.double() @ k64.transpose(-1, -2)) * softmax_scale
            if "causal" in kernel:
                hidden = torch.ones(seq, keys, dtype=torch.bool,
                                    device=q.device).triu(1)
                scores = scores.masked_fill(hidden, -math.inf)
            ref = torch.softmax(scores, dim=-1) @ v64
            return compare_close(out, ref, tolerance[dtype])
        s.run(f"{kernel} (examples/flash_attention.mlir) "
              f"{batch}x{heads}x{seq}x{keys}x{dim}"
              + ("" if scale is None else f" scale {scale}")
              + ("" if kv_heads is None else f" GQA {kv_heads} K/V heads"),
              kernel, body)

    # (2, 16, 1000, 1000) and (4, 16, 512, 512) have more work items (128
    # query rows of a head) than the persistent kernels' 132 blocks, so
    # blocks run several items on one K/V ring; (1, 2, 300, 100) has more
    # queries than keys.
    for shape in [(1, 1, 128, 128), (2, 3, 200, 200), (1, 2, 100, 300),
                  (1, 2, 300, 100), (2, 4, 1000, 1000), (1, 1, 64, 7),
                  (4, 16, 512, 512), (2, 16, 1000, 1000)]:
        for kernel in ("attention_f16", "attention_bf16",
                       "attention_d64_f16", "attention_d64_bf16",
                       "attention_causal_f16", "attention_causal_bf16",
                       "attention_causal_d64_f16",
                       "attention_causal_d64_bf16"):
            sdpa(kernel, *shape)
    # The causal kernels' two walks: pairs of items where they fill 90% of
    # their waves of 132 blocks (4x16x512, 2x16x1000 above, 4x32x1100
    # here; 131 blocks for an odd number of query blocks: 8x16x384, 256
    # pairs) or the keys and values of all heads take more than 64 MiB
    # (2x70x1024 at D = 128: 560 pairs in 5 waves, 70 MiB), single items in
    # snake order otherwise (the other shapes above, 2x12x1536, 1x3x3000,
    # 2x36x1024 and 4x16x1152 at 36 MiB, 2x50x1024 at 50 MiB); other
    # softmax scales.
    for kernel in ("attention_causal_f16", "attention_causal_bf16",
                   "attention_causal_d64_f16", "attention_f16"):
        sdpa(kernel, 2, 12, 1536, 1536)
        sdpa(kernel, 1, 3, 3000, 3000, scale=0.3)
        sdpa(kernel, 2, 36, 1024, 1024)
        sdpa(kernel, 2, 50, 1024, 1024)
        sdpa(kernel, 2, 70, 1024, 1024)
    sdpa("attention_causal_d64_bf16", 4, 32, 1100, 1100)  # 640 pairs
    for kernel in ("attention_causal_f16", "attention_causal_d64_bf16"):
        sdpa(kernel, 8, 16, 384, 384)
    sdpa("attention_causal_bf16", 4, 16, 1152, 1152)
    for kernel in ("attention_bf16", "attention_d64_f16"):
        sdpa(kernel, 1, 3, 700, 900, scale=0.02)
    # Grouped-query attention: 32 query heads on 8 K/V heads, 4 on 1
    # (multi-query), 6 on 3; both walks of the causal kernels.
    for kernel in ("attention_f16", "attention_causal_bf16",
                   "attention_d64_bf16", "attention_causal_d64_f16"):
        sdpa(kernel, 2, 32, 1000, 1000, kv_heads=8)
        sdpa(kernel, 3, 4, 300, 500, kv_heads=1)
        sdpa(kernel, 1, 6, 2048, 2048, kv_heads=3)
    sdpa("attention_causal_f16", 2, 64, 1024, 1024, kv_heads=8)

    def refused(what: str, q_heads: int, kv_heads: int, v_keys: int,
                out_rows: int, expect: str) -> None:
        def body():
            mod = s.module("flash_attention")
            q = random_tensor((q_heads, 256, 128), torch.float16)
            k = random_tensor((kv_heads, 256, 128), torch.float16)
            v = random_tensor((kv_heads, v_keys, 128), torch.float16)
            out = poisoned((q_heads, out_rows, 128), torch.float16)
            try:
                mod.attention_f16(q, k, v, out, 0.1)
                torch.cuda.synchronize()
            except croq.RuntimeError as e:
                untouched = bool(torch.isnan(out).all())
                return (expect in str(e) and untouched), None, \
                    str(e)[:160] + ("" if untouched else " (out written)")
            return False, None, "no croq.RuntimeError"
        s.run(f"flash attention refuses {what}", "attention_f16", body)
    refused("query heads not a multiple of the K/V heads", 12, 5, 256, 256,
            "the query heads (12, batch included) are not a multiple of the "
            "key and value heads (5)")
    refused("V with other keys than K", 4, 4, 200, 256,
            "V of the attention has an extent of 200 where 256 is expected")
    refused("an output of other rows than Q", 4, 2, 256, 255,
            "the output of the attention has an extent of 255 where 256 is "
            "expected")

    def columns(rows: int) -> None:
        def body():
            mod = s.module("attention")
            a = random_tensor((rows, 64), torch.float16)
            b = random_tensor((128, 64), torch.float16)
            out = poisoned((rows, 128), torch.float32)
            mod.reduce_columns_f16(a, b, out)
            prod = a.double() @ b.double().t()
            blocks = -(-rows // 64)
            padded = torch.zeros(blocks * 64, 128, dtype=torch.float64,
                                 device=prod.device)
            padded[:rows] = prod
            sums = padded.view(blocks, 64, 128).sum(dim=1)
            ref = (sums.repeat_interleave(64, dim=0)[:rows] +
                   prod.min(dim=1, keepdim=True).values)
            return compare_close(out, ref, 1e-5)
        s.run(f"reduce_columns_f16 (column sums, row minima) {rows}x128x64",
              "reduce_columns_f16", body)

    for rows in [64, 256, 130, 5]:
        columns(rows)


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


def cluster_tests(s: Suite) -> None:
    """cluster.mlir: blocks launched in thread block clusters write their
    rank in the cluster after a cluster barrier; a grid that is not made
    of whole clusters is refused at the launch."""
    def ranks(kernel: str, rows: int) -> None:
        def body():
            m = s.module("cluster")
            out = poisoned((rows, 4), torch.int32)
            getattr(m, kernel)(out)
            i = torch.arange(rows, device=DEVICE).view(-1, 1).expand(rows, 4)
            j = torch.arange(4, device=DEVICE).view(1, -1).expand(rows, 4)
            ref = (j % 2 if kernel == "cluster_ranks" else i % 2)
            return compare(out, ref.to(torch.int32))
        s.run(f"{kernel} {rows}x4", kernel, body)

    for rows in (1, 6, 1000):
        ranks("cluster_ranks", rows)
    for rows in (2, 1000):
        ranks("cluster_rows", rows)

    def odd_grid():
        m = s.module("cluster")
        out = poisoned((7, 4), torch.int32)
        try:
            m.cluster_rows(out)
            torch.cuda.synchronize()
        except croq.RuntimeError as e:
            if "multiple of cluster" not in str(e):
                return False, None, f"unexpected message: {e}"
            return True, None, ""
        return False, None, "a grid of 7 x 4 blocks in clusters of 2 x 1 ran"
    s.run("cluster_rows: a grid of 7 rows is refused", "cluster_rows",
          odd_grid)


def slice_tests(s: Suite) -> None:
    """examples/copy_slices.mlir: a kernel whose strided memref arguments
    take slices of larger tensors, aligned (TMA both ways) or not (input
    staged, output through the software copy); a transposed view is
    refused."""
    def case(start: int, width: int, label: str) -> None:
        def body():
            return copy_window(s.module("copy_slices").copy_slices, start,
                               width)[0]
        s.run(f"copy_slices 150x{width} slice at column {start} ({label})",
              "copy_slices", body)
    case(64, 504, "aligned: TMA both ways")
    case(3, 500, "misaligned: input staged, output software copy")

    def transposed():
        m = s.module("copy_slices")
        x = random_tensor((300, 200), torch.float16).t()
        out = poisoned((200, 300), torch.float16)
        try:
            m.copy_slices(x, out)
        except croq.ArgumentError as e:
            return ("stride" in str(e)), None, str(e)[:120]
        return False, None, "no croq.ArgumentError for a transposed view"
    s.run("copy_slices refuses a transposed view", "copy_slices", transposed)


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
                        "contains this (or one of several separated by "
                        "'|')")
    parser.add_argument("--max-gemm", type=int, default=None,
                        help="skip GEMM tests with more than this many "
                        "multiply-adds (M*N*K), for sanitizer runs")
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

    suite = Suite(args.artifacts, args.select, args.max_gemm)
    for group in [add_tests, copy_tests, zfill_tests, transpose_tests,
                  swizzle_tests, tma_tests, tma_generated_tests,
                  tma_fallback_tests, tma_slab_mma_tests,
                  mma_store_transpose_tests, matmul_tests,
                  linalg_matmul_tests, linalg_batch_tests, extent_tests,
                  autotune_tests, attention_tests,
                  pad_tests, local_tests, cluster_tests, api_tests,
                  stream_tests,
                  slice_tests, torch_op_tests]:
        group(suite)
    # Elementwise ops and reductions from linalg (linalg_ops_tests.py).
    sys.path.insert(0, str(here))
    from linalg_ops_tests import linalg_ops_tests
    linalg_ops_tests(suite, random_tensor, poisoned, compare_close, misaligned)
    # tf32 and s8 GEMMs from linalg (linalg_tf32_s8_tests.py).
    from linalg_tf32_s8_tests import linalg_tf32_s8_tests
    linalg_tf32_s8_tests(suite, random_tensor, poisoned, compare_close, compare)
    # The attention backward (attention_bwd_tests.py).
    from attention_bwd_tests import attention_bwd_tests
    attention_bwd_tests(suite, random_tensor, poisoned)
    # TMA loads in im2col mode against torch's unfold (im2col_tests.py).
    from im2col_tests import im2col_tests
    im2col_tests(suite, random_tensor, poisoned, compare, compare_close,
                 GEMM_TOLERANCE[torch.float16])
    # linalg convolutions as implicit GEMMs against torch's conv2d
    # (conv_tests.py).
    from conv_tests import conv_tests
    conv_tests(suite, random_tensor, poisoned, compare_close, GEMM_TOLERANCE)
    # Grouped GEMMs through croq.grouped_mm (grouped_tests.py).
    from grouped_tests import grouped_tests
    grouped_tests(suite, random_tensor, poisoned)
    # Decoding attention through croq.decode.flash_decode (decode_tests.py).
    from decode_tests import decode_tests
    decode_tests(suite, random_tensor, poisoned)
    # Attention on packed sequences of different lengths through
    # croq.flash_attn_varlen (varlen_tests.py).
    from varlen_tests import varlen_tests
    varlen_tests(suite, random_tensor, poisoned)
    # Attention written in linalg, fused into the flash kernel
    # (linalg_attention_tests.py).
    from linalg_attention_tests import linalg_attention_tests
    linalg_attention_tests(suite, random_tensor, poisoned, compare_close)
    # Whole programs from MLIR's TOSA pipelines (frontend_tests.py).
    from frontend_tests import frontend_tests
    frontend_tests(suite, random_tensor, poisoned, compare_close)
    # Compile on first call, where croq's tools are (jit_tests.py).
    from jit_tests import jit_tests
    jit_tests(suite, random_tensor, poisoned, compare_close)
    # Requested GEMM variants and croq.autotune_variants
    # (variant_tuning_tests.py).
    from variant_tuning_tests import variant_tuning_tests
    variant_tuning_tests(suite, random_tensor, poisoned, compare_close,
                         GEMM_TOLERANCE)

    counts = {k: sum(r.status == k for r in suite.results)
              for k in ("PASS", "FAIL", "KNOWN")}
    if args.json:
        args.json.write_text(json.dumps(
            {"device": torch.cuda.get_device_name(), "seed": seed,
             "results": [asdict(r) for r in suite.results]}, indent=1))
    print(f"\ngpu tests: {counts['PASS']} passed, {counts['FAIL']} failed, "
          f"{counts['KNOWN']} skipped (known issues)"
          + (f", {suite.skipped_large} GEMMs larger than --max-gemm skipped"
             if suite.skipped_large else ""))
    return 0 if counts["FAIL"] == 0 and counts["PASS"] > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
