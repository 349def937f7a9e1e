# ===- linalg_ops_tests.py - GPU tests of linalg elementwise ops and reductions -===#
#
# The kernels of linalg_ops.mlir (elementwise generics with broadcasts,
# named ops, transposes, fills and copies, row and column reductions, a
# softmax of five linalg ops) on random inputs with poisoned outputs,
# compared with torch in float64. run_gpu_tests.py runs them with the
# other groups.
#
# ===----------------------------------------------------------------------===#

import math

import torch


def linalg_ops_tests(s, random_tensor, poisoned, compare_close, misaligned):
    def call(kernel, *args):
        return getattr(s.module("linalg_ops"), kernel)(*args)

    def gelu(shape, aligned=True):
        def body():
            m, n = shape
            x = random_tensor(shape, torch.float16) if aligned else \
                misaligned(shape, torch.float16, 1, random_tensor)
            bias = random_tensor((1, n), torch.float16)
            out = poisoned(shape, torch.float16)
            call("bias_gelu_f16", x, bias, out)
            v = (x.float() + bias.float()).half().double()
            ref = 0.5 * v * (1 + torch.tanh(0.7978845608 * (v + 0.044715 * v ** 3)))
            return compare_close(out, ref, 4e-3)
        s.run(f"linalg_ops bias_gelu_f16 {shape[0]}x{shape[1]}"
              + ("" if aligned else " misaligned"), "linalg_ops", body)

    # Rows of whole chunks (the aligned form) and odd rows, rows of 1 to 7
    # elements, and misaligned inputs (each row peeled to its output's
    # first aligned chunk).
    for shape in [(1, 1), (7, 13), (128, 256), (1000, 1000), (4096, 4104),
                  (3000, 5001), (33, 2047), (5, 1), (9, 2), (4, 3), (6, 7),
                  (3, 9), (2, 15), (17, 17)]:
        gelu(shape)
    for shape in [(33, 96), (3000, 5001), (33, 2047), (4, 7)]:
        gelu(shape, aligned=False)

    def bias_relu(shape, aligned=True):
        def body():
            m, n = shape
            x = random_tensor(shape, torch.float32) if aligned else \
                misaligned(shape, torch.float32, 1, random_tensor)
            bias = random_tensor((n,), torch.float32)
            out = poisoned(shape, torch.float32)
            call("bias_relu_f32", x, bias, out)
            ref = torch.relu(x.double() + bias.double())
            return compare_close(out, ref, 1e-6)
        s.run(f"linalg_ops bias_relu_f32 {shape[0]}x{shape[1]}"
              + ("" if aligned else " misaligned"), "linalg_ops", body)

    for shape in [(1, 1), (3, 5), (10, 2), (64, 256), (3000, 5001),
                  (33, 2047), (7, 3)]:
        bias_relu(shape)
    for shape in [(64, 256), (33, 2047), (5, 6)]:
        bias_relu(shape, aligned=False)

    def add_view(shape, first):
        def body():
            m, n = shape
            wide = random_tensor((m, n + 5), torch.float16)
            x = wide[:, first:first + n]
            y = random_tensor(shape, torch.float16)
            out = poisoned(shape, torch.float16)
            call("add_view_f16", x, y, out)
            return compare_close(out, (x.double() + y.double()).half().double(), 0.0)
        s.run(f"linalg_ops add_view_f16 {shape[0]}x{shape[1]} from column {first}",
              "linalg_ops", body)

    for shape, first in [((3000, 5001), 1), ((33, 2047), 3), ((128, 256), 0),
                         ((128, 256), 2), ((7, 5), 4), ((5, 1), 1), ((9, 16), 5)]:
        add_view(shape, first)

    def add(shape):
        def body():
            a, b = random_tensor(shape, torch.float32), random_tensor(shape, torch.float32)
            out = poisoned(shape, torch.float32)
            call("add_f32", a, b, out)
            return compare_close(out, a.double() + b.double(), 1e-6)
        s.run(f"linalg_ops add_f32 {'x'.join(map(str, shape))}", "linalg_ops", body)

    for shape in [(1, 1, 1), (3, 5, 7), (8, 128, 1024), (2, 1000, 1001)]:
        add(shape)

    def add16(shape):
        def body():
            a, b = random_tensor(shape, torch.float16), random_tensor(shape, torch.float16)
            out = poisoned(shape, torch.float16)
            call("add_f16", a, b, out)
            return compare_close(out, (a.double() + b.double()).half().double(), 0.0)
        s.run(f"linalg_ops add_f16 {'x'.join(map(str, shape))}", "linalg_ops", body)

    for shape in [(1, 7), (3000, 5001), (64, 64)]:
        add16(shape)

    def add16_misaligned(shape):
        def body():
            a = misaligned(shape, torch.float16, 3, random_tensor)
            b = random_tensor(shape, torch.float16)
            out = poisoned(shape, torch.float16)
            call("add_f16", a, b, out)
            return compare_close(out, (a.double() + b.double()).half().double(), 0.0)
        s.run(f"linalg_ops add_f16 {'x'.join(map(str, shape))} (a misaligned)",
              "linalg_ops", body)

    for shape in [(3000, 5001), (2, 3), (64, 64)]:
        add16_misaligned(shape)

    def transpose(shape):
        def body():
            x = random_tensor(shape, torch.float16)
            out = poisoned((shape[1], shape[0]), torch.float16)
            call("transpose_f16", x, out)
            return compare_close(out, x.t().double(), 0.0)
        s.run(f"linalg_ops transpose_f16 {shape[0]}x{shape[1]}", "linalg_ops", body)

    for shape in [(1, 9), (64, 32), (1000, 333)]:
        transpose(shape)

    def fill_copy(shape):
        def body():
            out = poisoned(shape, torch.float32)
            copy = poisoned(shape, torch.float32)
            call("fill_copy_f32", out, copy, 2.5)
            ref = torch.full(shape, 2.5, dtype=torch.float64, device=out.device)
            ok1, e1, d1 = compare_close(out, ref, 0.0)
            ok2, e2, d2 = compare_close(copy, ref, 0.0)
            return ok1 and ok2, max(e1, e2), d1 or d2
        s.run(f"linalg_ops fill_copy_f32 {shape[0]}x{shape[1]}", "linalg_ops", body)

    for shape in [(1, 3), (100, 257)]:
        fill_copy(shape)

    def row_sum(shape):
        def body():
            x = random_tensor(shape, torch.float32)
            out = poisoned((shape[0],), torch.float32)
            call("row_sum_f32", x, out)
            ref = x.double().sum(1)
            tol = 1e-5 * math.sqrt(shape[1])
            return compare_close(out, ref, tol)
        s.run(f"linalg_ops row_sum_f32 {shape[0]}x{shape[1]}", "linalg_ops", body)

    for shape in [(1, 1), (3, 31), (100, 1000), (4096, 4096)]:
        row_sum(shape)

    def column_max(shape):
        def body():
            x = random_tensor(shape, torch.float16)
            out = poisoned((shape[1],), torch.float16)
            call("column_max_f16", x, out)
            return compare_close(out, x.double().amax(0), 0.0)
        s.run(f"linalg_ops column_max_f16 {shape[0]}x{shape[1]}", "linalg_ops", body)

    for shape in [(1, 1), (77, 300), (1024, 4096)]:
        column_max(shape)

    def softmax(shape, aligned=True):
        def body():
            x = random_tensor(shape, torch.float16) if aligned else \
                misaligned(shape, torch.float16, 3, random_tensor)
            out = poisoned(shape, torch.float16)
            call("softmax_f16", x, out)
            ref = torch.softmax(x.double(), dim=1)
            return compare_close(out, ref, 2e-3)
        s.run(f"linalg_ops softmax_f16 {shape[0]}x{shape[1]}"
              f"{'' if aligned else ' (input misaligned)'}", "linalg_ops", body)

    # Rows held in registers by groups of 32 to 256 threads (up to 8192
    # columns), odd rows peeled to their aligned chunks, and longer rows
    # streamed.
    for shape in [(1, 1), (5, 77), (256, 1000), (2048, 4096), (1000, 1024),
                  (300, 5001), (33, 2047), (9, 8192), (20, 9001)]:
        softmax(shape)
    for shape in [(7, 1024), (30, 5001)]:
        softmax(shape, aligned=False)

    def norms(shape):
        def rms():
            x = random_tensor(shape, torch.float16)
            w = random_tensor((shape[1],), torch.float16)
            out = poisoned(shape, torch.float16)
            call("rms_norm_f16", x, w, out)
            xd = x.double()
            ref = xd * torch.rsqrt((xd * xd).mean(1, keepdim=True) + 1e-6) * w.double()
            return compare_close(out, ref, 4e-3)
        s.run(f"linalg_ops rms_norm_f16 {shape[0]}x{shape[1]}", "linalg_ops", rms)

        def layer():
            x = random_tensor(shape, torch.float16)
            g = random_tensor((shape[1],), torch.float16)
            b = random_tensor((shape[1],), torch.float16)
            out = poisoned(shape, torch.float16)
            call("layer_norm_f16", x, g, b, out)
            ref = torch.nn.functional.layer_norm(x.double(), (shape[1],), g.double(),
                                                 b.double(), 1e-5)
            return compare_close(out, ref, 4e-3)
        s.run(f"linalg_ops layer_norm_f16 {shape[0]}x{shape[1]}", "linalg_ops", layer)

    for shape in [(1, 1), (3, 100), (512, 4096), (1000, 1023), (1000, 1024),
                  (300, 5001), (20, 9001)]:
        norms(shape)

    def tensor_result():
        a = random_tensor((256, 512), torch.float16)
        b = random_tensor((256, 512), torch.float16)
        out = call("scale_add_tensor", a, b)
        ref = (a.double() * 2 + b.double()).half().double()
        return compare_close(out, ref, 0.0)
    s.run("linalg_ops scale_add_tensor (tensors in, a new tensor returned)",
          "linalg_ops", tensor_result)

    # Element types beyond f16 and f32.
    def bf16(shape):
        def body():
            a = random_tensor(shape, torch.bfloat16)
            b = random_tensor(shape, torch.bfloat16)
            out = poisoned(shape, torch.bfloat16)
            call("mul_relu_bf16", a, b, out)
            ref = torch.relu((a.float() * b.float()).bfloat16().float()).double()
            return compare_close(out, ref, 0.0)
        s.run(f"linalg_ops mul_relu_bf16 {shape[0]}x{shape[1]}", "linalg_ops",
              body)

    def int8(shape):
        def body():
            a = random_tensor(shape, torch.int8)
            b = random_tensor(shape, torch.int8)
            out = poisoned(shape, torch.int8)
            call("max_add_i8", a, b, out)
            ref = (torch.maximum(a, b).int() + a.int()).to(torch.int8)
            return compare_close(out, ref.double(), 0.0)
        s.run(f"linalg_ops max_add_i8 {shape[0]}x{shape[1]}", "linalg_ops", body)

        def dequant():
            q = random_tensor(shape, torch.int8)
            scale = random_tensor((shape[1],), torch.float32)
            out = poisoned(shape, torch.float32)
            call("dequant_i8", q, scale, out)
            return compare_close(out, q.double() * scale.double(), 1e-7)
        s.run(f"linalg_ops dequant_i8 {shape[0]}x{shape[1]}", "linalg_ops",
              dequant)

        def row_sum():
            x = random_tensor(shape, torch.int32)
            out = poisoned((shape[0],), torch.int32)
            call("row_sum_i32", x, out)
            return compare_close(out, x.long().sum(1).double(), 0.0)
        s.run(f"linalg_ops row_sum_i32 {shape[0]}x{shape[1]}", "linalg_ops",
              row_sum)

    for shape in [(1, 1), (7, 13), (256, 1024), (3000, 5001), (33, 2047)]:
        bf16(shape)
        int8(shape)
