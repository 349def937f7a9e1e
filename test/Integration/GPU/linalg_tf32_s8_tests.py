# ===- linalg_tf32_s8_tests.py - GPU tests of tf32 and s8 GEMMs from linalg -===#
#
# The kernels of linalg_matmul_tf32_s8.mlir: linalg.matmul of f32 operands
# (tf32 wgmma, f32 accumulation) and of i8 operands into i32 (s8 wgmma,
# exact), B stored N x K, on random inputs (no zeros) with poisoned
# outputs or random ones accumulated into, compared with the float64
# product: within a TF32 tolerance for f32, exactly for i32.
# run_gpu_tests.py runs them with the other groups.
#
# ===----------------------------------------------------------------------===#

import torch

MODULE = "linalg_matmul_tf32_s8"

# max |out - ref| / max |ref| of a tf32 product. wgmma reads an f32 operand
# in shared memory as tf32 by ignoring the low 13 bits of its mantissa
# (truncation, up to 2^-10 of each operand, biased towards zero), and sums
# in f32: 7.6e-4 to 8.3e-4 at 128x128x64 to 4095x4097x4096 on an H200
# (seed 1234). A K step left out or a wrong element costs 1e-2 and more.
TF32_TOLERANCE = 2e-3


def linalg_tf32_s8_tests(s, random_tensor, poisoned, compare_close, compare):
    def call(kernel, *args):
        getattr(s.module(MODULE), kernel)(*args)

    def tf32(kernel, shape, out_dtype=torch.float32, accumulate=False):
        m, n, k = shape
        if s.skip_gemm(m, n, k):
            return

        def body():
            a = random_tensor((m, k), torch.float32)
            b = random_tensor((n, k), torch.float32)
            if accumulate:
                out = random_tensor((m, n), out_dtype)
                init = out.double().clone()
            else:
                out = poisoned((m, n), out_dtype)
                init = 0.0
            call(kernel, a, b, out)
            ref = init + a.double() @ b.double().t()
            tolerance = TF32_TOLERANCE if out_dtype == torch.float32 else 1e-2
            return compare_close(out, ref, tolerance)
        s.run(f"{MODULE} {kernel} {m}x{n}x{k}", kernel, body)

    def s8(kernel, shape, accumulate=False, bias=False):
        m, n, k = shape
        if s.skip_gemm(m, n, k):
            return

        def body():
            a = random_tensor((m, k), torch.int8)
            b = random_tensor((n, k), torch.int8)
            # The float64 product of integers below 2^53 is exact.
            product = a.double() @ b.double().t()
            if accumulate:
                out = random_tensor((m, n), torch.int32)
                ref = out.double() + product
            else:
                out = poisoned((m, n), torch.int32)
                ref = product
            if bias:
                vector = random_tensor((n,), torch.int32)
                call(kernel, a, b, vector, out)
                ref = (ref + vector.double()).clamp(min=0)
            else:
                call(kernel, a, b, out)
            return compare(out, ref.to(torch.int32))
        s.run(f"{MODULE} {kernel} {m}x{n}x{k}", kernel, body)

    # Whole tiles, edges in every dimension, one wave of 128x192 tiles
    # (1000x3000), split K loops (300x200x2048, 128x1024x8192), a K whose
    # rows are not 16-byte multiples (f32: K = 1001, i8: K = 1001 and 72,
    # which TMA cannot read in place), the sizes the benchmark times, and
    # several waves of 128x256 tiles whose 4-byte result is stored in four
    # column parts (2048x4096x1024).
    for shape in [(128, 128, 64), (256, 384, 512), (1000, 1000, 1000),
                  (129, 264, 72), (300, 200, 2048), (1000, 3000, 1000),
                  (128, 1024, 8192), (257, 129, 1001), (7, 9, 4),
                  (4095, 4097, 4096), (2048, 4096, 1024)]:
        tf32("linalg_mm_nt_tf32", shape)
        tf32("linalg_mm_nt_tf32_acc", shape, accumulate=True)
    for shape in [(1000, 1000, 1000), (129, 264, 72), (300, 200, 2048)]:
        tf32("linalg_mm_nt_tf32_bf16out", shape, out_dtype=torch.bfloat16)
    for shape in [(128, 128, 128), (256, 384, 512), (1000, 1000, 1024),
                  (129, 264, 80), (300, 200, 2048), (1000, 3000, 1008),
                  (128, 1024, 8192), (257, 129, 1001), (100, 100, 72),
                  (7, 9, 16), (4095, 4097, 4096)]:
        s8("linalg_mm_nt_s8", shape)
        s8("linalg_mm_nt_s8_acc", shape, accumulate=True)
    for shape in [(1000, 1000, 1024), (129, 264, 80), (300, 200, 2048),
                  (2048, 4096, 1024)]:
        s8("linalg_mm_nt_s8_bias_relu", shape, bias=True)
    s8("linalg_mm_splitk_nt_s8", (256, 256, 16384), accumulate=True)
    tf32("linalg_mm_splitk_nt_tf32", (256, 256, 8192))
