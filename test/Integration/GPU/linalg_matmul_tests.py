"""GPU tests of the GEMMs croq makes from linalg (linalg_matmul.mlir and the
modules gpu-artifacts.sh compiles from it with forced tiles, clusters,
stream-K and K split in clusters; run_gpu_tests.py runs them): random
inputs, poisoned or accumulated outputs, against the float64 product;
bit-identical repeats and the cluster stress run."""

from __future__ import annotations

import math
from typing import Optional, Tuple

import torch

from gpu_test_support import (
    BYTE_FLOATS, DEVICE, GEMM_TOLERANCE, Suite, compare_close,
    expect_fallbacks, fp8_promoted_tolerance, map_stats, poison_, poisoned,
    random_operand, random_tensor)


def linalg_matmul_tests(s: Suite) -> None:
    """GEMMs handed to croq as linalg (linalg_matmul.mlir): random inputs,
    poisoned output (or a random one accumulated into), compared with the
    float64 product."""
    tolerance = GEMM_TOLERANCE

    def case(kernel: str, dtype: torch.dtype, out_dtype: torch.dtype,
             shape: Tuple[int, int, int], nt: bool = False,
             accumulate: bool = False, tn: bool = False,
             module: str = "linalg_matmul",
             staged: Optional[int] = None) -> None:
        """`staged`: where given, the operands the runtime must stage
        (and none may fall back to the software copy)."""
        m, n, k = shape
        if s.skip_gemm(m, n, k):
            return

        def body():
            mod = s.module(module)
            before = map_stats(s) if staged is not None else None
            # tn: A stored K x M (indexed (k, m)), passed as such.
            a_stored = random_operand((k, m) if tn else (m, k), dtype)
            a = a_stored.t() if tn else a_stored
            b = random_operand((n, k) if nt else (k, n), dtype)
            if accumulate:
                out = random_tensor((m, n), out_dtype)
                init = out.double().clone()
            else:
                out = poisoned((m, n), out_dtype)
                init = 0.0
            getattr(mod, kernel)(a_stored, b, out)
            ref = init + a.double() @ (b.double().t() if nt else b.double())
            tol = tolerance[out_dtype]
            if dtype in BYTE_FLOATS:
                # Partial sums promoted to f32 (fp8_promoted_tolerance).
                tol = max(tol, fp8_promoted_tolerance(out_dtype))
            result = compare_close(out, ref, tol)
            if staged is None:
                return result
            return expect_fallbacks(s, before, 0, None, result, staged)
        prefix = "" if module == "linalg_matmul" else f"{module} "
        s.run(f"{prefix}{kernel} {m}x{n}x{k}", kernel, body)

    def block_scaled(shape: Tuple[int, int, int]) -> None:
        """linalg_block_scaled_e4m3: random e4m3 operands and random
        positive f32 scales (A per row and 128 of K, B per 128 x 128),
        against the float64 product of the dequantized operands."""
        m, n, k = shape
        if s.skip_gemm(m, n, k):
            return

        def body():
            mod = s.module("linalg_matmul")
            a = random_operand((m, k), torch.float8_e4m3fn)
            b = random_operand((n, k), torch.float8_e4m3fn)
            kb, nb = -(-k // 128), -(-n // 128)
            sa = torch.rand(m, kb, device=DEVICE) * 2 + 0.01
            sb = torch.rand(nb, kb, device=DEVICE) * 2 + 0.01
            out = poisoned((m, n), torch.float32)
            mod.linalg_block_scaled_e4m3(a, sa, b, sb, out)
            sa_k = sa.double().repeat_interleave(128, 1)[:, :k]
            sb_nk = sb.double().repeat_interleave(128, 0)[:n] \
                .repeat_interleave(128, 1)[:, :k]
            ref = (a.double() * sa_k) @ (b.double() * sb_nk).t()
            return compare_close(out, ref,
                                 fp8_promoted_tolerance(torch.float32))
        s.run(f"linalg_block_scaled_e4m3 {m}x{n}x{k}",
              "linalg_block_scaled_e4m3", body)

    def fused(shape: Tuple[int, int, int],
              module: str = "linalg_matmul") -> None:
        """The elementwise linalg.generic after the product, computed in
        the epilogue: relu(A B + bias[n]) in f16, A B * colscale[n] +
        bias[n] with an f16 bias, and silu(A B^T * scale * rowscale[m]) +
        residual in bf16."""
        m, n, k = shape
        if s.skip_gemm(m, n, k):
            return

        def bias_relu():
            a = random_operand((m, k), torch.float16)
            b = random_operand((k, n), torch.float16)
            bias = random_tensor((n,), torch.float32)
            out = poisoned((m, n), torch.float16)
            s.module(module).linalg_mm_bias_relu_f16(a, b, bias, out)
            ref = (a.double() @ b.double() + bias.double()).clamp(min=0)
            return compare_close(out, ref, 2e-3)

        def silu_residual():
            a = random_operand((m, k), torch.bfloat16)
            b = random_operand((n, k), torch.bfloat16)
            scale = 0.125
            rowscale = random_tensor((m,), torch.float32)
            res = random_tensor((m, n), torch.bfloat16)
            out = poisoned((m, n), torch.bfloat16)
            s.module(module).linalg_mm_silu_residual_bf16(
                a, b, rowscale, res, out)
            y = (a.double() @ b.double().t()) * scale * \
                rowscale.double()[:, None]
            ref = y * torch.sigmoid(y) + res.double()
            return compare_close(out, ref, 1e-2)
        def colscale_bias():
            a = random_operand((m, k), torch.float16)
            b = random_operand((k, n), torch.float16)
            colscale = random_tensor((n,), torch.float32)
            bias = random_tensor((n,), torch.float16)
            out = poisoned((m, n), torch.float16)
            s.module(module).linalg_mm_colscale_bias_f16(
                a, b, colscale, bias, out)
            ref = (a.double() @ b.double()) * colscale.double() + \
                bias.double()
            return compare_close(out, ref, 2e-3)
        prefix = "" if module == "linalg_matmul" else f"{module} "
        s.run(f"{prefix}linalg_mm_bias_relu_f16 {m}x{n}x{k}",
              "linalg_mm_bias_relu_f16", bias_relu)
        s.run(f"{prefix}linalg_mm_colscale_bias_f16 {m}x{n}x{k}",
              "linalg_mm_colscale_bias_f16", colscale_bias)
        s.run(f"{prefix}linalg_mm_silu_residual_bf16 {m}x{n}x{k}",
              "linalg_mm_silu_residual_bf16", silu_residual)

    # (300, 200, 2048), (128, 1024, 8192) and (200, 328, 5000) have few
    # tiles and a long K: the host code takes the split-K kernels there.
    # (1000, 3000, 1000) takes the 128x192 tile (128 blocks in one wave),
    # with partial tiles at every edge.
    for shape in [(128, 128, 64), (256, 384, 512), (1000, 1000, 1000),
                  (129, 264, 72), (300, 200, 2048), (1024, 1024, 4096),
                  (128, 1024, 8192), (200, 328, 5000), (1000, 3000, 1000)]:
        case("linalg_mm_f16_f32out", torch.float16, torch.float32, shape)
        case("linalg_mm_f16", torch.float16, torch.float16, shape)
        case("linalg_mm_nt_bf16", torch.bfloat16, torch.bfloat16, shape,
             nt=True)
        case("linalg_mm_acc_f16", torch.float16, torch.float32, shape,
             accumulate=True)
        case("linalg_mm_nt_e4m3", torch.float8_e4m3fn, torch.float16, shape,
             nt=True)
        case("linalg_mm_nt_e5m2", torch.float8_e5m2, torch.float32, shape,
             nt=True)
        case("linalg_mm_tn_f16", torch.float16, torch.float16, shape,
             tn=True)
        case("linalg_mm_tt_bf16", torch.bfloat16, torch.float32, shape,
             tn=True, nt=True)
        fused(shape)
    # Block-scaled e4m3: K not a multiple of 128 (a partial last group; 1000
    # and 72 rows are not 16-byte multiples: the software copies), ragged M
    # and N, split K loops (few tiles, long K), several waves, and a K long
    # enough that unpromoted sums would fail.
    for shape in [(128, 128, 128), (256, 384, 1000), (129, 264, 72),
                  (1000, 3000, 4000), (300, 200, 2048), (128, 1024, 8192),
                  (2000, 3000, 1536), (512, 512, 16384)]:
        block_scaled(shape)
    # Promoted f8 sums at K = 16384, where wgmma's own accumulation is
    # 1e-2 off.
    case("linalg_mm_nt_e4m3", torch.float8_e4m3fn, torch.float16,
         (1024, 1024, 16384), nt=True)
    case("linalg_mm_nt_e5m2", torch.float8_e5m2, torch.float32,
         (1024, 1024, 16384), nt=True)
    # Several waves of 128x256 tiles: an f32 result stored in four column
    # parts (a 128x64 shared tile next to four stages of operands).
    shape = (2048, 4096, 1024)
    case("linalg_mm_f16_f32out", torch.float16, torch.float32, shape)
    case("linalg_mm_acc_f16", torch.float16, torch.float32, shape,
         accumulate=True)
    case("linalg_mm_nt_e5m2", torch.float8_e5m2, torch.float32, shape,
         nt=True)
    case("linalg_mm_tt_bf16", torch.bfloat16, torch.float32, shape, tn=True,
         nt=True)
    split_k_static(s)

    def forced_form(shape, module, both_transposed=False):
        """Each layout of the product and the fused consumers, compiled
        with a form forced (`module`)."""
        case("linalg_mm_f16", torch.float16, torch.float16, shape,
             module=module)
        case("linalg_mm_f16_f32out", torch.float16, torch.float32, shape,
             module=module)
        case("linalg_mm_nt_bf16", torch.bfloat16, torch.bfloat16, shape,
             nt=True, module=module)
        case("linalg_mm_acc_f16", torch.float16, torch.float32, shape,
             accumulate=True, module=module)
        case("linalg_mm_tn_f16", torch.float16, torch.float16, shape,
             tn=True, module=module)
        if both_transposed:
            case("linalg_mm_tt_bf16", torch.bfloat16, torch.float32, shape,
                 tn=True, nt=True, module=module)
        fused(shape, module=module)

    # Grids of part of a wave, where the cost model may take the stream-K
    # form, and the stream-K form forced (linalg_streamk, gemm_stream_k=2)
    # on those and on shapes of whole waves, edges in every dimension and a
    # single tile.
    for shape in [(333, 4096, 4096), (77, 5000, 3000), (1, 4096, 4096),
                  (4000, 4000, 4000)]:
        case("linalg_mm_f16", torch.float16, torch.float16, shape)
        case("linalg_mm_nt_bf16", torch.bfloat16, torch.bfloat16, shape,
             nt=True)
    for shape in [(333, 4096, 4096), (77, 5000, 3000), (1, 4096, 4096),
                  (4000, 4000, 4000), (129, 264, 72), (1000, 3000, 1000),
                  (576, 8192, 1024)]:
        forced_form(shape, "linalg_streamk", both_transposed=True)
    same_bits_repeat(s, "linalg_streamk")
    # The K loop split among the blocks of clusters of 2 and 4 (linalg_
    # clusterk2 and 4, gemm_cluster_k forced), summed in the first block
    # through distributed shared memory: one partial wave, odd and tiny
    # shapes (129x264x72 has two K steps: in clusters of 4, two blocks
    # have none), M of 1, and the fused consumers.
    for shape in [(128, 4096, 4096), (77, 5000, 3000), (1, 8192, 8192),
                  (333, 4096, 4096), (129, 264, 72), (1000, 3000, 1000)]:
        for module in ("linalg_clusterk2", "linalg_clusterk4"):
            forced_form(shape, module)
    same_bits_repeat(s, "linalg_clusterk2")
    # The 192x192 tile of three consumer warpgroups (linalg_tile192, the
    # tile forced): edges in every dimension, one and several waves, M of
    # 1, one K step; and the dynamic module at a shape whose model takes it
    # (576 rows: one wave of 3 x 43 tiles).
    for shape in [(576, 8192, 1024), (129, 264, 72), (1, 4096, 4096),
                  (1000, 3000, 1000), (333, 4096, 4096), (200, 392, 64)]:
        forced_form(shape, "linalg_tile192", both_transposed=True)
    case("linalg_mm_f16", torch.float16, torch.float16, (576, 8192, 2048))
    case("linalg_mm_nt_bf16", torch.bfloat16, torch.bfloat16,
         (576, 8192, 2048), nt=True)
    # Shapes whose model takes each tile of C^T (A and B's roles swapped,
    # the accumulator stored transposed): 64x16 (5 and 7 rows, one K step
    # and a partial one), 64x64, 64x128 (two rows of tiles), 64x160 (one
    # and two rows), 64x176 and 64x208, with C's rows and columns past the
    # tiles' edges.
    for shape in [(5, 8008, 1000), (7, 8008, 72), (40, 7992, 1000),
                  (230, 4104, 8000), (140, 8040, 4000), (300, 4000, 2000),
                  (333, 4104, 4096), (200, 8184, 8192)]:
        case("linalg_mm_f16", torch.float16, torch.float16, shape)
        case("linalg_mm_nt_bf16", torch.bfloat16, torch.bfloat16, shape,
             nt=True)
    # Tiles of C^T with the K loop split between the two blocks of a
    # cluster (croq.mma.cluster_sum, then the sum stored transposed):
    # 64x16 (13 rows, N and K past the tiles' edges; one row), 64x64 (two
    # columns of tiles, the second partly past M's edge; 60 rows), the
    # parts of an odd number of K steps.
    for shape in [(13, 4100, 4000), (1, 4096, 11008), (90, 2000, 8000),
                  (60, 4104, 4100)]:
        case("linalg_mm_f16", torch.float16, torch.float16, shape)
        case("linalg_mm_nt_bf16", torch.bfloat16, torch.bfloat16, shape,
             nt=True)
    # Where the cost model's per-multiprocessor share of the memory rate
    # changed the choice: the K loop split through a workspace (B stored
    # N x K at 90x2000x8000 and A stored K x M at 1, 8 and 64 rows, where
    # it was split in clusters), two waves of 64x16 tiles of C^T (16 rows,
    # 11928 columns) and 64x128 tiles alone for one row of tiles (48 rows).
    for shape in [(16, 11928, 7408), (48, 11008, 4096)]:
        case("linalg_mm_f16", torch.float16, torch.float16, shape)
        case("linalg_mm_nt_bf16", torch.bfloat16, torch.bfloat16, shape,
             nt=True)
    for shape in [(1, 4096, 11008), (8, 4096, 4096), (64, 4104, 4100)]:
        case("linalg_mm_tn_f16", torch.float16, torch.float16, shape,
             tn=True)
    # One row with A stored K x M: the column read as the 1 x K row, not
    # staged, in each variant the model takes for one row (64x16 tiles of
    # C^T whole and split in clusters, 64x128 tiles whole and with the K
    # loop split), with K whose rows are not 16-byte multiples, and with B
    # stored N x K (rows of 1001 bf16: B staged).
    for shape in [(1, 8192, 8192), (1, 4096, 4096), (1, 1000, 8192),
                  (1, 11008, 1024), (1, 4104, 4100), (1, 3000, 1001)]:
        case("linalg_mm_tn_f16", torch.float16, torch.float16, shape,
             tn=True, staged=0)
    case("linalg_mm_tt_bf16", torch.bfloat16, torch.float32,
         (1, 4096, 11008), tn=True, nt=True, staged=0)
    case("linalg_mm_tt_bf16", torch.bfloat16, torch.float32,
         (1, 1000, 1001), tn=True, nt=True, staged=1)
    # Few columns: the narrow tiles 64x16 (8, 13 and 16 columns; whole, and
    # split in clusters where 64-row blocks are too few), 64x32 (24
    # columns) and 64x64 (48 to 64; with six stages, two blocks to a
    # multiprocessor, on the grids of more blocks than multiprocessors at
    # 9000 and 12008 rows), M and K past the tiles' edges, in
    # each layout (B stored K x N and N x K, A stored K x M) and into f32;
    # and 128x64 tiles with their K loop split through a workspace where
    # the rows are too few for the narrow tiles to fill the chip (24 and 40
    # columns, K past the last K step's edge), or the K loop too short to
    # split a narrow tile's in a cluster (3000 and 2000 rows, K of 3000).
    for shape in [(4096, 8, 4096), (8200, 13, 8200), (11008, 16, 4096),
                  (4104, 24, 4104), (8192, 48, 8192), (6000, 64, 3000),
                  (2000, 24, 8200), (1000, 40, 16392), (9000, 48, 3000),
                  (12008, 56, 4104), (3000, 24, 3000), (2000, 40, 3000)]:
        case("linalg_mm_f16", torch.float16, torch.float16, shape)
        case("linalg_mm_nt_bf16", torch.bfloat16, torch.bfloat16, shape,
             nt=True)
        case("linalg_mm_tn_f16", torch.float16, torch.float16, shape,
             tn=True)
    case("linalg_mm_f16_f32out", torch.float16, torch.float32,
         (4096, 16, 4096))
    # One column (N = 1, a matrix-vector product): B's column and C's read
    # as rows and C^T = B^T A^T computed as a product of one row, so that
    # neither is staged: M of thousands (64x16 tiles of C^T) and of a few
    # hundred (64x128 tiles, the K loop split), M and K past the tiles'
    # edges, B stored N x K (its row read through the same cast); A is
    # staged only where its own rows are not 16-byte multiples (K of 4100
    # or 1001 stored M x K, M of 300 stored K x M). (C's row must be whole
    # 16-byte chunks too: at M = 4100 the result falls back to the
    # software copy.)
    for shape, staged_mk, staged_km in [
            ((4096, 1, 4096), 0, 0), ((8192, 1, 8192), 0, 0),
            ((11008, 1, 4096), 0, 0), ((4104, 1, 4100), 1, 0),
            ((300, 1, 8192), 0, 1), ((3000, 1, 1001), 1, 0)]:
        case("linalg_mm_f16", torch.float16, torch.float16, shape,
             staged=staged_mk)
        case("linalg_mm_nt_bf16", torch.bfloat16, torch.bfloat16, shape,
             nt=True, staged=staged_mk)
        case("linalg_mm_tn_f16", torch.float16, torch.float16, shape,
             tn=True, staged=staged_km)
    case("linalg_mm_f16_f32out", torch.float16, torch.float32,
         (4096, 1, 4096), staged=0)
    # Accumulated into C (read through its row), and with consumers fused
    # in the epilogue, which keep the product as written (B and C staged).
    case("linalg_mm_acc_f16", torch.float16, torch.float32, (4096, 1, 4096),
         accumulate=True, staged=0)
    fused((4096, 1, 4104))
    # Tiles of C^T of two and three consumer warpgroups, each storing its
    # 64 rows of C^T as 64 columns of C's tile: 128x160 (290 rows, N and K
    # past the edges), 128x176 (340 rows), 128x208 (199 rows, one column
    # of tiles; N past the edge) and, with B stored N x K, 192x160.
    for shape in [(290, 8200, 4000), (340, 8104, 3000), (199, 16384, 8000),
                  (200, 16400, 8192)]:
        case("linalg_mm_f16", torch.float16, torch.float16, shape)
        case("linalg_mm_nt_bf16", torch.bfloat16, torch.bfloat16, shape,
             nt=True)
    case("linalg_mm_nt_bf16", torch.bfloat16, torch.bfloat16,
         (300, 12296, 4104), nt=True)
    case("linalg_mm_tn_f16", torch.float16, torch.float16, (340, 8104, 3000),
         tn=True)
    # Tiles of C^T of 80, 96 and 112 columns for 70 to 180 rows: 64x80 in
    # clusters of two (160 rows in two columns of tiles, 77 rows; N, M and
    # K past the edges, the cluster's last block past N), 64x112 alone (112
    # rows), 128x96 on two consumers (96 rows, N past the edge), 64x96 and
    # 64x112 in clusters (176 and 200 rows).
    for shape, nt in [((160, 4104, 1000), False), ((160, 4104, 1000), True),
                      ((77, 5000, 1000), True), ((112, 7000, 2048), True),
                      ((96, 12296, 1024), False), ((96, 12296, 1024), True),
                      ((176, 4100, 2000), True), ((200, 3000, 1000), False)]:
        if nt:
            case("linalg_mm_nt_bf16", torch.bfloat16, torch.bfloat16, shape,
                 nt=True)
        else:
            case("linalg_mm_f16", torch.float16, torch.float16, shape)
    # A stored K x M: its tile an N-major operand padded to whole 128-byte
    # spans, the 64x128 and 64x176 tiles (333 rows: A's rows are not
    # 16-byte multiples, staged by a copy).
    for shape in [(256, 4104, 8192), (140, 8040, 4000), (333, 4096, 4096),
                  (170, 7904, 2000)]:
        case("linalg_mm_tn_f16", torch.float16, torch.float16, shape,
             tn=True)

    # The same GEMMs in thread block clusters (linalg_matmul.mlir compiled
    # with gemm_cluster (2, 1): B multicast, and (1, 2): A multicast):
    # grids of an odd number of tile rows or columns (rounded up to whole
    # clusters, the extra blocks past the edge), one wave, persistent
    # 128x256 and 128x192 tiles walking cluster tiles, a split K loop (not
    # clustered), and A stored K x M.
    for module in ("linalg_cluster_m2", "linalg_cluster_n2"):
        for shape in [(129, 264, 72), (1000, 1000, 1000), (1100, 700, 640),
                      (1000, 3000, 1000), (4096, 4096, 512),
                      (300, 200, 2048), (2000, 3000, 1500)]:
            case("linalg_mm_f16", torch.float16, torch.float16, shape,
                 module=module)
            case("linalg_mm_nt_bf16", torch.bfloat16, torch.bfloat16, shape,
                 nt=True, module=module)
            case("linalg_mm_acc_f16", torch.float16, torch.float32, shape,
                 accumulate=True, module=module)
            case("linalg_mm_tn_f16", torch.float16, torch.float16, shape,
                 tn=True, module=module)
            case("linalg_mm_nt_e4m3", torch.float8_e4m3fn, torch.float16,
                 shape, nt=True, module=module)
            fused(shape, module=module)
    cluster_stress(s)


def same_bits_repeat(s: Suite, module: str) -> None:
    """`module`'s f16 GEMM launched 50 times on the same operands at
    333x4096x4096: the forms that sum partials (linalg_streamk: ranges of
    24 K steps over two or three tiles' slots, summed in slot order;
    linalg_clusterk2: the first block of a cluster adds the others' in rank
    order) do it in a fixed order, so every launch's output must be bitwise
    the first's, and the first close to the float64 product. A race between
    a partial's store and its sum would move it."""
    m, n, k = 333, 4096, 4096
    if s.skip_gemm(m, n, k):
        return

    def body():
        mod = s.module(module)
        a = random_operand((m, k), torch.float16)
        b = random_operand((k, n), torch.float16)
        first = poisoned((m, n), torch.float16)
        mod.linalg_mm_f16(a, b, first)
        out = torch.empty_like(first)
        for _ in range(50):
            poison_(out)
            mod.linalg_mm_f16(a, b, out)
            torch.cuda.synchronize()
            if not torch.equal(out, first):
                return False, math.inf, "a launch's output differs from the first's"
        return compare_close(first, a.double() @ b.double(),
                             GEMM_TOLERANCE[torch.float16])
    s.run(f"{module} linalg_mm_f16 {m}x{n}x{k} x50 (same bits)",
          "linalg_mm_f16", body)


def cluster_stress(s: Suite) -> None:
    """The clustered GEMMs launched 400 times in a row at 4096x4096x512
    (persistent 128x256 tiles, two or three per block, 8 K steps): a
    producer warp that only waited on the ring used to fall two phases
    behind now and then and hang its cluster (about once in a few hundred
    launches), until croq-single-warp-producers. Each launch's output is
    poisoned first; the last one is compared with the float64 product."""
    m, n, k = 4096, 4096, 512
    if s.skip_gemm(m, n, k):
        return
    for module in ("linalg_cluster_m2", "linalg_cluster_n2"):
        def body(module=module):
            mod = s.module(module)
            a = random_operand((k, m), torch.float16)
            b = random_operand((k, n), torch.float16)
            out = torch.empty((m, n), device=DEVICE, dtype=torch.float16)
            for _ in range(400):
                poison_(out)
                mod.linalg_mm_tn_f16(a, b, out)
            torch.cuda.synchronize()
            return compare_close(out, a.double().t() @ b.double(),
                                 GEMM_TOLERANCE[torch.float16])
        s.run(f"{module} linalg_mm_tn_f16 {m}x{n}x{k} x400 (cluster ring "
              f"phases)", "linalg_mm_tn_f16", body)


def split_k_static(s: Suite) -> None:
    """The static-shape GEMMs whose K loop convert-linalg-to-croq splits
    (linalg_matmul.mlir's linalg_mm_splitk_*): zero-filled f16, an f32
    output accumulated into, and a fused bias + relu on sizes that are no
    multiple of the tiles."""
    def plain():
        a = random_operand((256, 16384), torch.float16)
        b = random_operand((16384, 256), torch.float16)
        out = poisoned((256, 256), torch.float16)
        s.module("linalg_matmul").linalg_mm_splitk_f16(a, b, out)
        return compare_close(out, a.double() @ b.double(),
                             GEMM_TOLERANCE[torch.float16])

    def accumulate():
        a = random_operand((128, 8192), torch.bfloat16)
        b = random_operand((512, 8192), torch.bfloat16)
        out = random_tensor((128, 512), torch.float32)
        ref = out.double() + a.double() @ b.double().t()
        s.module("linalg_matmul").linalg_mm_splitk_acc_nt_f32(a, b, out)
        return compare_close(out, ref, GEMM_TOLERANCE[torch.float32])

    def bias_relu():
        a = random_operand((192, 6000), torch.float16)
        b = random_operand((6000, 328), torch.float16)
        bias = random_tensor((328,), torch.float32)
        out = poisoned((192, 328), torch.float16)
        s.module("linalg_matmul").linalg_mm_splitk_bias_relu_f16(
            a, b, bias, out)
        ref = (a.double() @ b.double() + bias.double()).clamp(min=0)
        return compare_close(out, ref, 2e-3)
    s.run("linalg_mm_splitk_f16 256x256x16384", "linalg_mm_splitk_f16",
          plain)
    s.run("linalg_mm_splitk_acc_nt_f32 128x512x8192",
          "linalg_mm_splitk_acc_nt_f32", accumulate)
    s.run("linalg_mm_splitk_bias_relu_f16 192x328x6000",
          "linalg_mm_splitk_bias_relu_f16", bias_relu)
