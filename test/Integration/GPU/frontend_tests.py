# ===- frontend_tests.py - whole frontend programs on the GPU -------------===#
#
# The programs of test/Conversion/LinalgToCroq/Inputs/frontend (TOSA
# functions lowered by MLIR 22's own tosa-to-linalg and bufferization
# pipelines, in several variants: fused, unit dims folded, specialized,
# generalized, ...), compiled by croq as they are and run from Python on
# random inputs with a poisoned output, against torch in float32.
# scripts/gpu-artifacts.sh compiles every variant that the corpus expects to
# compile (Inputs/frontend/expected.txt) as module frontend_<program>_<variant>.
#
# ===----------------------------------------------------------------------===#

from pathlib import Path

import torch

# Beside this file in gpu-artifacts/tests, in the corpus in the repository.
HERE = Path(__file__).resolve().parent
EXPECTED = HERE / "frontend_expected.txt"
if not EXPECTED.exists():
    EXPECTED = HERE.parents[1] / "Conversion" / "LinalgToCroq" / "Inputs" / \
        "frontend" / "expected.txt"


def _ln(v, g, b, eps=1e-5):
    m = v.mean(-1, keepdim=True)
    c = v - m
    var = (c * c).mean(-1, keepdim=True)
    return c * torch.rsqrt(var + eps) * g + b


def _gelu(u):
    return 0.5 * u * (1 + torch.tanh(0.7978845608 * (u + 0.044715 * u ** 3)))


def transformer_block(x, g1, b1, wqkv, bqkv, wo, bo, g2, b2, w1, bb1, w2, bb2):
    ln1 = _ln(x, g1, b1)
    qkv = ln1 @ wqkv + bqkv
    seq = x.shape[1]
    q, k, v = (qkv[..., i * 256:(i + 1) * 256].reshape(seq, 4, 64).transpose(0, 1)
               for i in range(3))
    p = torch.softmax(q @ k.transpose(1, 2) * 0.125, dim=-1)
    ctx = (p @ v).transpose(0, 1).reshape(1, seq, 256)
    r1 = x + ctx @ wo + bo
    u = _ln(r1, g2, b2) @ w1 + bb1
    return r1 + _gelu(u) @ w2 + bb2


def attention(q, k, v):
    return torch.softmax(q @ k.transpose(1, 2) * 0.125, dim=-1) @ v


def _causal(s):
    rows, keys = s.shape[-2:]
    hidden = torch.ones(rows, keys, dtype=torch.bool, device=s.device).triu(1)
    return s.masked_fill(hidden, float("-inf"))


def _alibi(s):
    heads, rows, keys = s.shape
    h = torch.arange(heads, device=s.device).view(-1, 1, 1)
    i = torch.arange(rows, device=s.device).view(1, -1, 1)
    j = torch.arange(keys, device=s.device).view(1, 1, -1)
    return s - torch.exp2(-(h + 1.0)) * (i - j)


def conv3x3_nhwc(x, w, b):
    """tosa.conv2d of NHWC `x` with FHWC `w`, padding 1, plus `b`: NHWC."""
    y = torch.nn.functional.conv2d(x.permute(0, 3, 1, 2),
                                   w.permute(0, 3, 1, 2), b, padding=1)
    return y.permute(0, 2, 3, 1)


def mlp(x, w1, b1, w2, b2):
    return _gelu(x @ w1 + b1) @ w2 + b2


#: program -> (argument shapes, dtype, the scale of each argument (weights
#: scaled by 1/sqrt(fan-in)), reference on float32 arguments, tolerance
#: relative to max |ref|).
H = torch.float16
PROGRAMS = {
    "transformer_block": (
        [(1, 128, 256), (1, 1, 256), (1, 1, 256), (1, 256, 768), (1, 1, 768),
         (1, 256, 256), (1, 1, 256), (1, 1, 256), (1, 1, 256), (1, 256, 1024),
         (1, 1, 1024), (1, 1024, 256), (1, 1, 256)], H,
        [1, 1, 0.1, 1 / 16, 0.1, 1 / 16, 0.1, 1, 0.1, 1 / 16, 0.1, 1 / 32, 0.1],
        transformer_block, 2e-2),
    "transformer_block_s2048": (
        [(1, 2048, 256), (1, 1, 256), (1, 1, 256), (1, 256, 768), (1, 1, 768),
         (1, 256, 256), (1, 1, 256), (1, 1, 256), (1, 1, 256), (1, 256, 1024),
         (1, 1, 1024), (1, 1024, 256), (1, 1, 256)], H,
        [1, 1, 0.1, 1 / 16, 0.1, 1 / 16, 0.1, 1, 0.1, 1 / 16, 0.1, 1 / 32, 0.1],
        transformer_block, 2e-2),
    "attention": ([(1, 128, 64)] * 3, H, [1, 1, 1], attention, 1e-2),
    # The attention programs croq-fuse-linalg-attention makes the flash
    # kernel (in the variants it takes; the others run op by op).
    "attention_heads_mask": (
        [(8, 256, 64)] * 3 + [(1, 256, 256)], H, [1, 1, 1, 1],
        lambda q, k, v, m: torch.softmax(q @ k.transpose(1, 2) * 0.125 + m,
                                         dim=-1) @ v, 1e-2),
    "attention_softcap": (
        [(4, 256, 128)] * 3, torch.bfloat16, [1, 1, 1],
        lambda q, k, v: torch.softmax(
            50 * torch.tanh((q * 0.08838834764) @ k.transpose(1, 2) * 0.02),
            dim=-1) @ v, 3e-2),
    "attention_bhsd_causal": (
        [(2, 4, 256, 64)] * 3, H, [1, 1, 1],
        lambda q, k, v: torch.softmax(_causal(q @ k.transpose(-1, -2) / 8),
                                      dim=-1) @ v, 1e-2),
    "attention_alibi": (
        [(8, 256, 128)] * 3, H, [1, 1, 1],
        lambda q, k, v: torch.softmax(
            _alibi(q @ k.transpose(1, 2) * 0.08838834764), dim=-1) @ v, 1e-2),
    "mlp": ([(1, 128, 256), (1, 256, 512), (1, 1, 512), (1, 512, 256),
             (1, 1, 256)], H, [1, 1 / 16, 0.1, 1 / 22.6, 0.1], mlp, 2e-2),
    # A convolution with the bias as the f32 accumulator's initial value:
    # an implicit GEMM (im2col loads, the padding folded, 32 channels).
    "conv3x3_nhwc": ([(1, 16, 16, 32), (64, 3, 3, 32), (64,)], H,
                     [1, 1 / 17, 0.1], conv3x3_nhwc, 2e-3),
    "layernorm": ([(2, 64, 256), (1, 1, 256), (1, 1, 256)], H, [1, 1, 0.1],
                  _ln, 1e-2),
    "rmsnorm": ([(64, 256), (256,)], H, [1, 1],
                lambda x, w: x * torch.rsqrt((x * x).mean(-1, keepdim=True)
                                             + 1e-6) * w, 1e-2),
    "softmax_f16": ([(64, 256)], H, [1], lambda x: torch.softmax(x, -1), 2e-3),
    "softmax_f32": ([(64, 256)], torch.float32, [1],
                    lambda x: torch.softmax(x, -1), 1e-5),
    "ew_chain": ([(64, 128)] * 3, H, [1, 1, 1],
                 lambda a, b, c: torch.sigmoid(torch.tanh(a * b + c)), 4e-3),
    "bias_add_3d": ([(2, 32, 128), (128,)], H, [1, 1], lambda x, b: x + b, 2e-3),
    "reduce_sum_d0": ([(8, 32, 128)], torch.float32, [1],
                      lambda x: x.sum(0, keepdim=True), 1e-5),
    "reduce_max_d2": ([(8, 32, 128)], H, [1],
                      lambda x: x.amax(2, keepdim=True), 0.0),
    # x + a constant row of 8 values (a non-splat global, copied to the
    # device by the call).
    "const_table": ([(64, 8)], H, [1],
                    lambda x: x + torch.arange(8, device=x.device) * 0.5,
                    2e-3),
    "linalg_softmax": ([(64, 256)], torch.float32, [1],
                       lambda x: torch.softmax(x, -1), 1e-5),
    # A given K x M (transposed by tosa.transpose) with one row. Base: the
    # transpose kernel, then the product. Generalized, M static: a
    # contraction with no row loop of extent above 1 is not a product for
    # croq-specialize-contractions, so the reduction kernel computes it as
    # its body says, summing f16 in f16 (1.4e-2 to 2.04e-2 off the float32
    # reference over K = 4096 with the inputs of different seeds, where the
    # products' f32 accumulators are 3e-4 off: hence 3e-2); with M dynamic,
    # the product reads the column as its row (the one-row branch).
    "matmul_tn_row": ([(1, 4096, 1), (1, 4096, 1024)], H, [1, 1 / 64],
                      lambda at, b: at.transpose(1, 2) @ b, 3e-2),
    "matmul_tn_dyn": ([(1, 4096, 1), (1, 4096, 1024)], H, [1, 1 / 64],
                      lambda at, b: at.transpose(1, 2) @ b, 4e-3),
    # tosa.matmul of one matrix (a batch_matmul of extent 1 along the
    # batch, a plain product of views after croq-specialize-contractions),
    # of four, with M and N dynamic, of one column (a matrix-vector product:
    # the one-column form), of a dynamic number of columns, in bf16.
    "matmul_b1": ([(1, 128, 64), (1, 64, 256)], H, [1, 1 / 8], torch.matmul,
                  4e-3),
    "matmul_b4": ([(4, 128, 64), (4, 64, 128)], H, [1, 1 / 8], torch.matmul,
                  2e-3),
    "matmul_dyn": ([(1, 200, 64), (1, 64, 300)], H, [1, 1 / 8], torch.matmul,
                   2e-3),
    "matvec": ([(1, 4096, 4096), (1, 4096, 1)], H, [1, 1 / 64], torch.matmul,
               4e-3),
    "matvec_dyn": ([(1, 4096, 4096), (1, 4096, 3)], H, [1, 1 / 64],
                   torch.matmul, 4e-3),
    "matmul_bf16": ([(1, 128, 64), (1, 64, 256)], torch.bfloat16, [1, 1 / 8],
                    torch.matmul, 2e-3),
    # Two matrices scaled by a scalar passed in (1 x 1 x 1, read once by
    # the GEMM's epilogue) and by TOSA's scalar constants.
    "matmul_scaled_b2": ([(2, 192, 64), (2, 64, 160), (1, 1, 1)], H,
                         [1, 1 / 8, 1],
                         lambda a, b, s: (a @ b) * s * 0.5 + 0.25, 2e-3),
    # Scores with the entries above the diagonal zeroed by a select on the
    # element's position (linalg.index) in the GEMM's epilogue.
    "matmul_causal_mask": ([(320, 64), (64, 320)], H, [1, 1 / 8],
                           lambda a, b: torch.tril(a @ b), 4e-3),
    # nn.Linear + ReLU on a batch x sequence x features input of dynamic
    # batch and sequence (the rows expanded back into two dynamic extents).
    "linear_dyn": ([(2, 77, 256), (512, 256), (512,)], H, [1, 1 / 16, 0.1],
                   lambda x, w, b: torch.relu(x @ w.t() + b), 4e-3),
    # x.mean(): a sum into a buffer of rank 0, then a scalar division.
    "mean_all": ([(64, 1000)], torch.float32, [1], lambda x: x.mean(), 1e-3),
    # a[:, ::2] @ b: an operand of column stride 2.
    "strided_matmul": ([(128, 512), (256, 192)], H, [1, 1 / 16],
                       lambda a, b: a[:, ::2] @ b, 2e-3),
    # A private helper function called by the public one (inlined).
    "call_helper": ([(64, 256), (64, 256)], torch.float32, [1, 1],
                    lambda x, y: _gelu(x) + y, 1e-5),
    # A matmul, a bias and a ReLU updating the result in place one after
    # the other (base variant): both in the GEMM's epilogue.
    "linear_relu": ([(1, 200, 256), (1, 256, 320), (1, 1, 320)], H,
                    [1, 1 / 16, 0.1],
                    lambda a, b, c: torch.relu(a @ b + c), 2e-3),
    # A causal mask by linalg.index, then a row softmax whose exp updates
    # the masked scores in place.
    "causal_softmax": ([(128, 128)], torch.float32, [1],
                       lambda x: torch.softmax(_causal(x), dim=-1), 1e-5),
    # tf32 on the tensor cores: f32 operands rounded to 10 mantissa bits.
    "matmul_f32": ([(1, 128, 64), (1, 64, 256)], torch.float32, [1, 1 / 8],
                   torch.matmul, 2e-3),
    # Integers in [-100, 100]: the i32 product is exact (and so is its
    # float32 reference, under 2^24).
    "matmul_i8": ([(1, 128, 64), (1, 64, 256)], torch.int8, [1, 1],
                  torch.matmul, 0.0),
}

#: The result type of the programs whose result is not of their dtype.
RESULT_DTYPES = {"matmul_i8": torch.int32, "matmul_b4": torch.float32,
                 "matmul_dyn": torch.float32, "matmul_bf16": torch.float32,
                 "matmul_scaled_b2": torch.float32,
                 "strided_matmul": torch.float32,
                 "linear_relu": torch.float32}
#: The arguments whose type is not the program's dtype (by position).
ARG_DTYPES = {"attention_heads_mask": {3: torch.float32},
              "matmul_scaled_b2": {2: torch.float32},
              "linear_relu": {2: torch.float32}}


def frontend_tests(s, random_tensor, poisoned, compare_close):
    expected = EXPECTED.read_text().splitlines()
    compiled = [line.split(":")[0][:-len(".mlir")] for line in expected
                if line.endswith(": compiles")]
    for stem in compiled:
        program = stem.split(".")[0]
        if program not in PROGRAMS:
            continue
        variant = stem[len(program) + 1:] or "base"
        module = "frontend_" + stem.replace(".", "_").replace("-", "_")
        shapes, dtype, scales, ref_fn, tol = PROGRAMS[program]

        def body(module=module, program=program, shapes=shapes, dtype=dtype,
                 scales=scales, ref_fn=ref_fn, tol=tol):
            if dtype.is_floating_point:
                types = ARG_DTYPES.get(program, {})
                args = [(random_tensor(shape, torch.float32) * scale)
                        .to(types.get(i, dtype))
                        for i, (shape, scale) in enumerate(zip(shapes, scales))]
            else:
                args = [random_tensor(shape, dtype) for shape in shapes]
            ref = ref_fn(*[a.float() for a in args])
            out = poisoned(tuple(ref.shape), RESULT_DTYPES.get(program, dtype))
            getattr(s.module(module), program)(*args, out)
            return compare_close(out, ref.double(), tol)
        s.run(f"frontend {program} ({variant})", "frontend", body)
