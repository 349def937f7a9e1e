# ===- linalg_attention_tests.py - GPU tests of attention from linalg ----===#
#
# The functions of linalg_attention.mlir (attention written in linalg,
# bufferized by upstream MLIR, which croq-fuse-linalg-attention makes the
# flash kernel with the ops on the scores inlined; the head dimension 96
# one stays separate kernels) on random inputs with a poisoned output,
# against torch in float32: plain, causal, a bias tensor, a soft cap and
# ALiBi, f16 and bf16, D 64 and 128, odd lengths. run_gpu_tests.py runs
# them with the other groups.
#
# ===----------------------------------------------------------------------===#

import math

import torch

TOLERANCE = {torch.float16: 1e-2, torch.bfloat16: 3e-2}


def reference(op, q, k, v, bias=None):
    """softmax(op(q k^T / sqrt(D))) v in float32, as linalg_attention.mlir
    writes it ([B*H, S, D] operands; ALiBi with 8 heads)."""
    q, k, v = q.float(), k.float(), v.float()
    s = (q @ k.transpose(1, 2)) * (1.0 / math.sqrt(q.shape[-1]))
    rows, keys = s.shape[1], s.shape[2]
    i = torch.arange(rows, device=q.device).view(1, -1, 1)
    j = torch.arange(keys, device=q.device).view(1, 1, -1)
    if op == "causal":
        s = s.masked_fill(j > i, -math.inf)
    elif op == "bias":
        s = s + bias.float()
    elif op == "softcap":
        s = 30.0 * torch.tanh(s / 30.0)
    elif op == "alibi":
        h = torch.arange(s.shape[0], device=q.device).view(-1, 1, 1) % 8
        s = s - torch.exp2(-(h + 1.0)) * (i - j)
    return torch.softmax(s, dim=-1) @ v


def linalg_attention_tests(s, random_tensor, poisoned, compare_close):
    def case(fn, heads, rows, keys):
        op, t, d = fn.split("_")
        dtype = torch.float16 if t == "f16" else torch.bfloat16
        dim = int(d[1:])

        def body():
            q = random_tensor((heads, rows, dim), dtype)
            k = random_tensor((heads, keys, dim), dtype)
            v = random_tensor((heads, keys, dim), dtype)
            out = poisoned((heads, rows, dim), dtype)
            args = [q, k, v]
            bias = None
            if op == "bias":
                bias = random_tensor((rows, keys), torch.float32)
                args.append(bias)
            getattr(s.module("linalg_attention"), fn)(*args, out)
            return compare_close(out, reference(op, q, k, v, bias).double(),
                                 TOLERANCE[dtype])
        s.run(f"linalg_attention {fn} {heads}x{rows}x{keys}", fn, body)

    functions = ["plain_f16_d64", "plain_bf16_d64", "plain_f16_d128",
                 "plain_bf16_d128", "causal_f16_d128", "causal_bf16_d64",
                 "bias_f16_d64", "bias_bf16_d128", "softcap_f16_d128",
                 "softcap_bf16_d64", "alibi_f16_d128", "plain_f16_d96"]
    # Odd lengths (77, 1000: the last key tile masked, query rows past the
    # end left out of the store), one tile, several work items per block.
    for fn in functions:
        for heads, rows, keys in [(6, 77, 77), (6, 1000, 1000),
                                  (2, 128, 128)]:
            case(fn, heads, rows, keys)
    # More keys than queries and the reverse (not causal: the kernel's
    # causal mask is SDPA's, aligned at the first key).
    for fn in ["plain_f16_d128", "bias_f16_d64", "softcap_bf16_d64"]:
        case(fn, 3, 77, 300)
        case(fn, 3, 300, 77)
    # More work items than the persistent kernel's 132 blocks.
    for fn in ["plain_bf16_d64", "causal_f16_d128", "alibi_f16_d128"]:
        case(fn, 24, 1024, 1024)
