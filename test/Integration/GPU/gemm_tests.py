"""GPU tests of the hand-written GEMMs, batched and split-K GEMMs from
linalg, the host checks of dynamic extents and the autotuned variants
(run_gpu_tests.py runs them): random inputs, poisoned outputs, against the
float64 product."""

from __future__ import annotations

from typing import Tuple

import torch

import croq

from gpu_test_support import (
    BYTE_FLOATS, GEMM_TOLERANCE, Suite, compare_close, fp8_promoted_tolerance,
    poisoned, random_operand, random_tensor)


def matmul_tests(s: Suite) -> None:
    """GEMMs through events, tma and wgmma: random inputs, poisoned output,
    compared with the float64 product relative to its largest element."""
    tolerance = GEMM_TOLERANCE

    def case(kernel: str, dtype: torch.dtype, out_dtype: torch.dtype,
             shape: Tuple[int, int, int], kn: bool = False) -> None:
        m, n, k = shape
        if s.skip_gemm(m, n, k):
            return

        def body():
            mod = s.module("matmul")
            a = random_operand((m, k), dtype)
            b = random_operand((k, n) if kn else (n, k), dtype)
            out = poisoned((m, n), out_dtype)
            getattr(mod, kernel)(a, b, out)
            ref = a.double() @ (b.double() if kn else b.double().t())
            tol = tolerance[out_dtype]
            if dtype in BYTE_FLOATS:
                # Partial sums promoted to f32 every K step.
                tol = fp8_promoted_tolerance(out_dtype)
            return compare_close(out, ref, tol)
        s.run(f"{kernel} {m}x{n}x{k}", kernel, body)

    shapes = [(128, 128, 64), (256, 384, 512), (1000, 1000, 1000),
              (129, 257, 72), (7, 9, 8), (300, 200, 2048)]
    for shape in shapes:
        case("matmul_ws_f16", torch.float16, torch.float16, shape)
        case("matmul_ws_bf16", torch.bfloat16, torch.bfloat16, shape)
        case("matmul_ws_f16_f32out", torch.float16, torch.float32, shape)
        case("matmul_plain_f16", torch.float16, torch.float16, shape)
        case("matmul_pipelined_f16", torch.float16, torch.float16, shape)
        case("matmul_pipelined_inplace_f16", torch.float16, torch.float16,
             shape)
        case("matmul_pipelined_bf16", torch.bfloat16, torch.bfloat16, shape)
        case("matmul_seeds_bf16", torch.bfloat16, torch.bfloat16, shape)
    for shape in shapes + [(1024, 1024, 4096), (2304, 4352, 256),
                           (4000, 4100, 136), (1000, 1000, 1001)]:
        for kernel, dtype in [("matmul_ws2_f16", torch.float16),
                              ("matmul_ws2_bf16", torch.bfloat16),
                              ("matmul_ws1_pending_f16", torch.float16),
                              ("matmul_seeds_bf16", torch.bfloat16),
                              ("matmul_persistent_f16", torch.float16),
                              ("matmul_persistent_bf16", torch.bfloat16),
                              ("matmul_persistent_tma_store_f16",
                               torch.float16),
                              ("matmul_persistent_tma_store_bf16",
                               torch.bfloat16)]:
            case(kernel, dtype, dtype, shape)
    # f8 operands (wgmma k32), partial sums promoted into f32 every K step,
    # f16 output; K = 8 and 1001 break TMA's 16-byte rule, so the operands
    # are staged into padded rows; K = 16384 would be 1e-2 off unpromoted.
    for shape in [(128, 256, 128), (7, 9, 8), (129, 257, 200),
                  (1000, 1000, 1001), (2304, 4352, 512), (512, 640, 16384)]:
        for kernel, dtype in [("matmul_persistent_e4m3", torch.float8_e4m3fn),
                              ("matmul_persistent_e5m2", torch.float8_e5m2)]:
            case(kernel, dtype, torch.float16, shape)
    for shape in [(128, 64, 64), (1000, 1000, 1000), (129, 264, 72),
                  (300, 200, 2048)]:
        case("matmul_ws_kn_f16", torch.float16, torch.float16, shape,
             kn=True)

    def epilogue(shape: Tuple[int, int, int]) -> None:
        m, n, k = shape

        def body():
            mod = s.module("matmul")
            a = random_operand((m, k), torch.float16)
            b = random_operand((n, k), torch.float16)
            bias = random_tensor((n,), torch.float32)
            out = poisoned((m, n), torch.float16)
            mod.matmul_persistent_epilogue_f16(a, b, bias, out)
            ref = torch.relu(0.5 * (a.double() @ b.double().t()) +
                             bias.double())
            return compare_close(out, ref, tolerance[torch.float16])
        s.run(f"matmul_persistent_epilogue_f16 (bias, scale, relu in "
              f"registers) {m}x{n}x{k}", "matmul_persistent_epilogue_f16",
              body)

    for shape in [(128, 256, 64), (129, 257, 72), (1000, 1000, 1000),
                  (2304, 4352, 256), (7, 9, 8)]:
        epilogue(shape)


def linalg_batch_tests(s: Suite) -> None:
    """Batched GEMMs handed to croq as linalg.batch_matmul
    (linalg_batch_matmul.mlir): random operands of batch x M x K and
    batch x K x N (or transposed), poisoned outputs (a random one
    accumulated into), compared with the float64 products."""
    def case(kernel: str, dtype: torch.dtype, out_dtype: torch.dtype,
             shape: Tuple[int, int, int, int], nt: bool = False,
             tn: bool = False, accumulate: bool = False,
             module: str = "linalg_batch_matmul") -> None:
        nb, m, n, k = shape
        if s.skip_gemm(nb * m, n, k):
            return

        def body():
            a_stored = random_operand((nb, k, m) if tn else (nb, m, k), dtype)
            a = a_stored.transpose(1, 2) if tn else a_stored
            b = random_operand((nb, n, k) if nt else (nb, k, n), dtype)
            if accumulate:
                out = random_tensor((nb, m, n), out_dtype)
                init = out.double().clone()
            else:
                out = poisoned((nb, m, n), out_dtype)
                init = 0.0
            getattr(s.module(module), kernel)(a_stored, b, out)
            bd = b.double().transpose(1, 2) if nt else b.double()
            ref = init + a.double() @ bd
            tol = GEMM_TOLERANCE[out_dtype]
            if dtype in BYTE_FLOATS:
                # Partial sums promoted to f32 (fp8_promoted_tolerance).
                tol = max(tol, fp8_promoted_tolerance(out_dtype))
            return compare_close(out, ref, tol)
        label = "" if module == "linalg_batch_matmul" else f"{module} "
        s.run(f"{label}{kernel} {nb}x{m}x{n}x{k}", kernel, body)

    def fused(shape: Tuple[int, int, int, int]) -> None:
        nb, m, n, k = shape
        if s.skip_gemm(nb * m, n, k):
            return

        def body():
            a = random_operand((nb, m, k), torch.bfloat16)
            b = random_operand((nb, k, n), torch.bfloat16)
            bias = random_tensor((n,), torch.float32)
            res = random_tensor((nb, m, n), torch.bfloat16)
            out = poisoned((nb, m, n), torch.bfloat16)
            s.module("linalg_batch_matmul").linalg_bmm_bias_gelu_residual_bf16(
                a, b, bias, res, out)
            y = a.double() @ b.double() + bias.double()
            gelu = 0.5 * y * (1 + torch.tanh(
                0.7978845608 * (y + 0.044715 * y ** 3)))
            return compare_close(out, gelu + res.double(), 1e-2)
        s.run(f"linalg_bmm_bias_gelu_residual_bf16 {nb}x{m}x{n}x{k}",
              "linalg_bmm_bias_gelu_residual_bf16", body)

    # One matrix; a few small ones with edges in every dimension; many
    # matrices of attention's shapes (more tiles than blocks: the
    # persistent blocks walk them across matrices); a large one.
    for shape in [(1, 128, 128, 64), (3, 129, 264, 72), (5, 200, 328, 136),
                  (48, 256, 256, 64), (16, 512, 384, 512),
                  (2, 1000, 1000, 1000), (4, 1024, 2048, 1024)]:
        case("linalg_bmm_f16", torch.float16, torch.float16, shape)
        case("linalg_bmm_nt_bf16", torch.bfloat16, torch.bfloat16, shape,
             nt=True)
        case("linalg_bmm_tn_acc_f16", torch.float16, torch.float32, shape,
             tn=True, accumulate=True)
        case("linalg_bmm_nt_e4m3", torch.float8_e4m3fn, torch.float16, shape,
             nt=True)
        fused(shape)
    case("linalg_bmm_static_f16", torch.float16, torch.float32,
         (12, 200, 328, 136))
    # The 192x192 tile forced (linalg_tile192): the persistent blocks walk
    # tiles across matrices, edges in every dimension.
    for shape in [(3, 200, 392, 136), (2, 576, 1000, 512)]:
        case("linalg_bmm_f16", torch.float16, torch.float16, shape,
             module="linalg_tile192")
        case("linalg_bmm_nt_bf16", torch.bfloat16, torch.bfloat16, shape,
             nt=True, module="linalg_tile192")


def extent_tests(s: Suite) -> None:
    """GEMMs from linalg called with operands whose extents disagree: the
    host code checks them (croqRtRequireEqualExtents) and the call raises
    croq.RuntimeError naming the extents; nothing is launched, so the
    output keeps its poison."""
    f16 = torch.float16

    def refused(name: str, kernel: str, module: str, shapes, words: str):
        """`shapes`: the f16 operands' shapes, the output's last (an f32
        vector for a 1-D shape)."""
        def body():
            args = [random_tensor(shape, f16 if len(shape) > 1 else
                                  torch.float32) for shape in shapes[:-1]]
            out = poisoned(shapes[-1], f16)
            try:
                getattr(s.module(module), kernel)(*args, out)
                torch.cuda.synchronize()
            except croq.RuntimeError as e:
                if words not in str(e):
                    return False, None, f"unexpected message: {e}"
                if not torch.isnan(out).all():
                    return False, None, "the output was written"
                return True, None, ""
            return False, None, "the call ran"
        s.run(f"{kernel}: {name} refused", kernel, body)

    refused("K of 128 and 130", "linalg_mm_f16", "linalg_matmul",
            [(300, 128), (130, 200), (300, 200)],
            "K extents differ: A has 128 columns, B 130")
    refused("M of 300 and an output of 299 rows", "linalg_mm_f16",
            "linalg_matmul", [(300, 128), (128, 200), (299, 200)],
            "M extents differ: A has 300 rows, the output 299")
    refused("a bias of 199 for 200 columns", "linalg_mm_bias_relu_f16",
            "linalg_matmul", [(300, 128), (128, 200), (199,), (300, 200)],
            "operand 1 of the fused elementwise op has an extent of 199 "
            "where the product has 200")
    refused("a batch of 4 and 3", "linalg_bmm_f16", "linalg_batch_matmul",
            [(4, 64, 128), (3, 128, 64), (4, 64, 64)],
            "batch extents differ: A has 4 matrices, B 3")


def autotune_tests(s: Suite) -> None:
    """croq.load_autotuned on the variants gpu-artifacts.sh compiled
    (kernels/autotune_mm: linalg_mm_f16 and linalg_mm_acc_f16 under ten
    configurations): the first call of a shape times every variant and
    keeps the fastest; the result is right, an accumulating GEMM's output
    is accumulated into once (timing puts written arguments back), the
    choice is reused and read back from choices.json."""
    directory = s.kernels / "autotune_mm"

    def case(m: int, n: int, k: int):
        if s.skip_gemm(m, n, k):
            return

        def body():
            (directory / "choices.json").unlink(missing_ok=True)
            tuned = croq.load_autotuned(directory, iters=3)
            a = random_operand((m, k), torch.float16)
            b = random_operand((k, n), torch.float16)
            out = poisoned((m, n), torch.float16)
            tuned.linalg_mm_f16(a, b, out)
            ok, err, detail = compare_close(out, a.double() @ b.double(),
                                            GEMM_TOLERANCE[torch.float16])
            if not ok:
                return ok, err, "zero-filled: " + detail
            c = random_tensor((m, n), torch.float32)
            ref = c.double() + a.double() @ b.double()
            tuned.linalg_mm_acc_f16(a, b, c)
            ok, err, detail = compare_close(c, ref,
                                            GEMM_TOLERANCE[torch.float32])
            if not ok:
                return ok, err, "accumulating: " + detail
            choices = tuned.choices()
            # The same shape again: no new choice, the same result.
            out.fill_(float("nan"))
            tuned.linalg_mm_f16(a, b, out)
            ok, err, detail = compare_close(out, a.double() @ b.double(),
                                            GEMM_TOLERANCE[torch.float16])
            if not ok or tuned.choices() != choices or len(choices) != 2:
                return False, err, f"second call: {detail}; {choices}"
            again = croq.load_autotuned(directory).choices()
            if again != choices:
                return False, err, f"choices.json holds {again}"
            return True, err, "chose " + ", ".join(sorted(choices.values()))
        s.run(f"autotune linalg_mm_f16 {m}x{n}x{k}", "autotune", body)

    for shape in [(256, 256, 16384), (1024, 1024, 1024)]:
        case(*shape)
