"""GPU tests of examples/flash_attention_varlen.mlir (run_gpu_tests.py calls
varlen_tests): attention on packed sequences of different lengths through
croq.flash_attn_varlen, against a float32 reference computed sequence by
sequence with SDPA (bottom-right causal masks; a query that sees no key
gets zeros), on random inputs with the output poisoned (NaN) first and
rows of padding after the last sequence that must keep their poison; and
the host checks that decline bad operands by name."""

from __future__ import annotations

import math
from typing import Callable, List, Optional, Sequence

import torch
import torch.nn.functional as F

import croq

#: ||got - ref|| / ||ref|| allowed, by element type (P is rounded to the
#: element type before P V, as in the fixed-length kernels).
TOLERANCE = {torch.float16: 1e-2, torch.bfloat16: 3e-2}
#: Rows of padding after the last sequence (q, k, v and the output).
PAD = 37


def offsets(lens: Sequence[int]) -> List[int]:
    out = [0]
    for n in lens:
        out.append(out[-1] + n)
    return out


def reference(q, k, v, cu_q, cu_k, causal, scale):
    """The float32 output of each sequence, packed like q (padding rows 0)."""
    heads, kv = q.shape[1], k.shape[1]
    out = torch.zeros(q.shape, dtype=torch.float32, device=q.device)
    for b in range(len(cu_q) - 1):
        q0, q1, k0, k1 = cu_q[b], cu_q[b + 1], cu_k[b], cu_k[b + 1]
        lq, lk = q1 - q0, k1 - k0
        if lq == 0 or lk == 0:
            continue  # no query, or no key: zeros
        qs = q[q0:q1].float().transpose(0, 1).unsqueeze(0)
        ks = k[k0:k1].float().transpose(0, 1).unsqueeze(0)
        vs = v[k0:k1].float().transpose(0, 1).unsqueeze(0)
        mask = None
        if causal:
            i = torch.arange(lq, device=q.device).unsqueeze(1)
            j = torch.arange(lk, device=q.device).unsqueeze(0)
            mask = j <= i + (lk - lq)  # bottom right
        o = F.scaled_dot_product_attention(qs, ks, vs, attn_mask=mask,
                                           scale=scale,
                                           enable_gqa=heads != kv)
        # Rows that see no key (SDPA gives NaN there): zeros.
        out[q0:q1] = torch.nan_to_num(o[0].transpose(0, 1), nan=0.0)
    return out


def rel_err(got: torch.Tensor, ref: torch.Tensor) -> float:
    got, ref = got.double(), ref.double()
    if torch.isnan(got).any():
        return math.inf
    floor = 0.01 * math.sqrt(max(ref.numel(), 1))
    return float((got - ref).norm() / max(float(ref.norm()), floor))


def varlen_tests(s, random_tensor: Callable, poisoned: Callable) -> None:
    def case(dtype, dim, causal, heads, kv, lens_q, lens_k=None,
             scale=None):
        lens_k = lens_q if lens_k is None else lens_k
        name = croq.varlen.entry_name(dtype, dim, causal)

        def body():
            mod = s.module("flash_attention_varlen")
            cu_q, cu_k = offsets(lens_q), offsets(lens_k)
            tq, tk = cu_q[-1], cu_k[-1]
            q = random_tensor((tq + PAD, heads, dim), dtype)
            k = random_tensor((tk + PAD, kv, dim), dtype)
            v = random_tensor((tk + PAD, kv, dim), dtype)
            out = poisoned((tq + PAD, heads, dim), dtype)
            dq = torch.tensor(cu_q, dtype=torch.int32, device=q.device)
            dk = torch.tensor(cu_k, dtype=torch.int32, device=q.device)
            sc = 1 / math.sqrt(dim) if scale is None else scale
            croq.flash_attn_varlen(q, k, v, dq, dk, max(lens_q),
                                   max(lens_k), causal=causal,
                                   softmax_scale=sc, out=out, module=mod)
            torch.cuda.synchronize()
            ref = reference(q, k, v, cu_q, cu_k, causal, sc)
            err = rel_err(out[:tq], ref[:tq])
            pad_kept = bool(torch.isnan(out[tq:]).all())
            ok = err <= TOLERANCE[dtype] and pad_kept
            detail = f"rel {err:.2g}"
            if not pad_kept:
                detail += "; padding rows written"
            return ok, err, detail
        lk = "" if lens_k is lens_q else f" keys {list(lens_k)}"
        s.run(f"attention varlen {name} {heads}/{kv} lens {list(lens_q)}"
              f"{lk}" + ("" if scale is None else f" scale {scale}"),
              name, body)

    mix = [1, 77, 0, 129, 1000, 0, 5, 256]
    for dtype in (torch.float16, torch.bfloat16):
        for dim in (128, 64):
            for causal in (False, True):
                for lens in ([1], [77], [129], [1000]):
                    case(dtype, dim, causal, 2, 2, lens)
                case(dtype, dim, causal, 8, 2, mix)  # GQA, group 4
    for causal in (False, True):
        # Fewer queries than keys (chunked prefill), more (rows that see
        # no key when causal), no keys, no queries.
        case(torch.float16, 128, causal, 4, 4, [1, 77, 200, 0, 64, 300],
             [300, 77, 100, 50, 0, 429])
        case(torch.bfloat16, 64, causal, 4, 1, [129, 3, 0, 1000],
             [1, 600, 9, 1000], scale=0.3)
        case(torch.float16, 64, causal, 2, 2, [0, 0])
        case(torch.bfloat16, 128, causal, 6, 3, [513, 2049, 31, 128])

    def refused(what, expect, call):
        def body():
            try:
                call(s.module("flash_attention_varlen"))
            except (croq.CroqError, RuntimeError) as e:
                torch.cuda.synchronize()
                return expect in str(e), 0.0, str(e)[:160]
            return False, 0.0, "not refused"
        s.run(f"attention varlen refuses {what}", "attention_varlen_f16",
              body)

    def tensors(rows=300, heads=4, kv=2, dim=128):
        q = random_tensor((1, rows, heads * dim), torch.float16)
        k = random_tensor((1, rows, kv * dim), torch.float16)
        cu = torch.tensor([0, 100, rows], dtype=torch.int32, device=q.device)
        return q, k, cu

    def bad_out(mod):
        q, k, cu = tensors()
        mod.attention_varlen_f16(q, k, k, cu, cu,
                                 poisoned((1, 299, 512), torch.float16), 0.1)

    def bad_cu(mod):
        q, k, cu = tensors()
        mod.attention_varlen_f16(q, k, k, cu, cu[:2],
                                 poisoned(tuple(q.shape), torch.float16), 0.1)

    def bad_cols(mod):
        q = random_tensor((1, 64, 192), torch.float16)
        cu = torch.tensor([0, 64], dtype=torch.int32, device=q.device)
        mod.attention_varlen_f16(q, q, q, cu, cu,
                                 poisoned((1, 64, 192), torch.float16), 0.1)

    def bad_v(mod):
        q, k, cu = tensors()
        v = random_tensor((1, 300, 128), torch.float16)
        mod.attention_varlen_f16(q, k, v, cu, cu,
                                 poisoned(tuple(q.shape), torch.float16), 0.1)

    def bad_heads(mod):
        q = random_tensor((64, 6, 128), torch.float16)
        k = random_tensor((64, 4, 128), torch.float16)
        cu = torch.tensor([0, 64], dtype=torch.int32, device=q.device)
        croq.flash_attn_varlen(q, k, k, cu, cu, module=mod)

    def bad_cu_type(mod):
        q = random_tensor((64, 4, 128), torch.float16)
        cu = torch.tensor([0, 64], dtype=torch.int64, device=q.device)
        croq.flash_attn_varlen(q, q, q, cu, cu, module=mod)

    refused("an output of 299 rows for 300", "the output of the "
            "variable-length attention", bad_out)
    refused("cu_seqlens_k of 2 offsets for 3", "cu_seqlens_k of the "
            "variable-length attention", bad_cu)
    refused("rows of 192 elements at D = 128", "not a multiple of the head "
            "dimension", bad_cols)
    refused("V with 1 head for K's 2", "V of the variable-length", bad_v)
    refused("6 query heads on 4 K/V heads", "not a multiple", bad_heads)
    refused("int64 offsets", "int32 needed", bad_cu_type)
    refused("a 4-d q", "[total rows, heads, D]",
            lambda mod: croq.flash_attn_varlen(
                *(random_tensor((1, 64, 4, 128), torch.float16),) * 3,
                torch.zeros(2, dtype=torch.int32, device="cuda"),
                torch.zeros(2, dtype=torch.int32, device="cuda"),
                module=mod))
