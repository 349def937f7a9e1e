"""GPU tests of examples/flash_attention_bwd.mlir (run_gpu_tests.py calls
attention_bwd_tests): the training forward's output and log-sum-exp, and
the backward's dQ, dK and dV against SDPA's in float32 on the same inputs
(upcast), on random inputs with every output poisoned (NaN) first, for
the fused backward (delta, then dK, dV and dQ's f32 sum in one kernel)
and the two-kernel one (dQ, then dK/dV), on the same shapes; that two
runs give the same gradients bit for bit (the kernels are deterministic:
the fused kernel's key blocks add to dQ in a fixed order); the autograd
function (croq.attention.Attention) through loss.backward(); and the
host checks that decline bad extents by operand name."""

from __future__ import annotations

import math
from typing import Callable, Tuple

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

import croq

#: ||got - ref|| / ||ref|| allowed, by element type: the gradients go
#: through P and dS rounded to the element type (SDPA's own f16 and bf16
#: gradients show errors of the same order; each row prints both).
TOLERANCE = {torch.float16: 1e-2, torch.bfloat16: 4e-2}

#: SDPA's backends for the reference. In float32 the math one (matmuls and
#: a softmax, differentiated by autograd); in f16/bf16 (the "(sdpa)" error
#: of each row) FlashAttention-2, or the math one where FA2 declines (as
#: for causal attention with fewer or more queries than keys). Neither cuDNN's nor the
#: memory-efficient kernels: under compute-sanitizer (H200, torch 2.11,
#: 2026-12-03) synccheck reports cuDNN's backward kernel
#: (cudnn_generated_fort_native_sdpa_sm90_flash_bprop_wgmma_f16_knob_26_*)
#: for divergent threads at a barrier, and the launch failure it then
#: injects fails every later test of the process; racecheck reports the
#: memory-efficient kernels (fmha_cutlassF_f32_aligned_64x64_rf_sm80,
#: fmha_cutlassF_f16_aligned_64x64_rf_sm80) for shared-memory races.
REFERENCE_BACKENDS = {
    torch.float32: [SDPBackend.MATH],
    torch.float16: [SDPBackend.FLASH_ATTENTION, SDPBackend.MATH],
}
REFERENCE_BACKENDS[torch.bfloat16] = REFERENCE_BACKENDS[torch.float16]


def rel_err(got: torch.Tensor, ref: torch.Tensor) -> float:
    """||got - ref|| / ||ref||, with ||ref|| taken as at least 0.01 per
    element (RMS): with one key, dQ and dK vanish (dS = P (dP - delta) = 0
    exactly), and the float32 reference is rounding noise of ~1e-7 that no
    low-precision result matches relatively (SDPA's own f16 gradients
    measured 0.4 to 6 there). NaN (an unwritten element) is infinite."""
    got, ref = got.detach().double(), ref.detach().double()
    if torch.isnan(got).any():
        return math.inf
    floor = 0.01 * math.sqrt(ref.numel())
    return float((got - ref).norm() / max(float(ref.norm()), floor))


def suffix(dtype: torch.dtype, dim: int, causal: bool) -> str:
    return ("_causal" if causal else "") + ("_d64" if dim == 64 else "") + \
        ("_bf16" if dtype == torch.bfloat16 else "_f16")


def reference(q, k, v, dout, causal, scale):
    """SDPA's output, log-sum-exp and gradients in float32, and its
    gradients in the inputs' type (for comparison), from
    REFERENCE_BACKENDS."""
    gqa = q.shape[1] != k.shape[1]

    def run(dtype):
        qq, kk, vv = (t.detach().to(dtype).requires_grad_() for t in (q, k, v))
        with sdpa_kernel(REFERENCE_BACKENDS[dtype]):
            out = F.scaled_dot_product_attention(
                qq, kk, vv, is_causal=causal, scale=scale, enable_gqa=gqa)
            grads = torch.autograd.grad(out, (qq, kk, vv), dout.to(dtype))
        return out, grads
    out32, grads32 = run(torch.float32)
    _, grads_low = run(q.dtype)
    group = q.shape[1] // k.shape[1]
    kk = k.float().repeat_interleave(group, dim=1)
    s = (q.float() @ kk.transpose(-1, -2)) * scale
    if causal:
        hidden = torch.ones(q.shape[2], k.shape[2], dtype=torch.bool,
                            device=q.device).triu(1)
        s = s.masked_fill(hidden, -math.inf)
    lse = torch.logsumexp(s, dim=-1)
    return out32, lse, grads32, grads_low


def attention_bwd_tests(s, random_tensor: Callable, poisoned: Callable
                        ) -> None:
    def run_fused(mod, sfx, dim, fl, out, lse, sc, dtype, keys):
        """delta (which zeroes the workspaces, poisoned here), dK, dV and
        dQ's f32 sum in one kernel, dQ converted as croq.attention does."""
        heads, seq = fl[0].shape[0], fl[0].shape[1]
        tiles = (seq + 63) // 64
        delta = poisoned((heads, seq), torch.float32)
        acc = poisoned((heads * tiles * 64 * dim,), torch.float32)
        turns = torch.full((heads * tiles * 2,), 1 << 30, dtype=torch.int32,
                           device="cuda")
        dk = poisoned((fl[1].shape[0], keys, dim), dtype)
        dv = poisoned((fl[1].shape[0], keys, dim), dtype)
        plain = sfx.replace("_causal", "")
        getattr(mod, "attention_bwd_delta" + plain)(
            out, fl[3], delta, acc.view(-1, dim), turns)
        getattr(mod, "attention_bwd_dkdvdq" + sfx)(
            fl[0], fl[1], fl[2], fl[3], lse, delta, dk, dv, acc, turns, sc)
        dq = croq.attention.workspace_to_dq(acc, heads, seq, dim, dtype)
        return dq, dk, dv

    def case(dtype, dim, causal, batch, heads, kv, seq, keys=None,
             scale=None, fused=True):
        keys = seq if keys is None else keys
        sfx = suffix(dtype, dim, causal)
        sc = 1 / math.sqrt(dim) if scale is None else scale

        def body() -> Tuple[bool, float, str]:
            mod = s.module("flash_attention_bwd")
            q = random_tensor((batch, heads, seq, dim), dtype)
            k = random_tensor((batch, kv, keys, dim), dtype)
            v = random_tensor((batch, kv, keys, dim), dtype)
            dout = random_tensor((batch, heads, seq, dim), dtype)
            fl = [t.view(-1, t.shape[2], dim) for t in (q, k, v, dout)]
            out = poisoned((batch * heads, seq, dim), dtype)
            lse = poisoned((batch * heads, seq), torch.float32)
            getattr(mod, "attention_lse" + sfx)(fl[0], fl[1], fl[2], out,
                                                lse, sc)
            grads = []
            for _ in range(2):  # twice: the same bits both times
                if fused:
                    grads.append(run_fused(mod, sfx, dim, fl, out, lse, sc,
                                           dtype, keys))
                    continue
                delta = poisoned((batch * heads, seq), torch.float32)
                dq = poisoned((batch * heads, seq, dim), dtype)
                dk = poisoned((batch * kv, keys, dim), dtype)
                dv = poisoned((batch * kv, keys, dim), dtype)
                getattr(mod, "attention_bwd_dq" + sfx)(
                    fl[0], fl[1], fl[2], out, fl[3], lse, delta, dq, sc)
                getattr(mod, "attention_bwd_dkdv" + sfx)(
                    fl[0], fl[1], fl[2], fl[3], lse, delta, dk, dv, sc)
                grads.append((dq, dk, dv))
            torch.cuda.synchronize()
            out32, lse32, g32, glow = reference(q, k, v, dout, causal, sc)
            errs = {"out": rel_err(out.view_as(q), out32),
                    "lse": rel_err(lse.view(batch, heads, seq), lse32)}
            for n, got, ref, low in zip(("dq", "dk", "dv"), grads[0], g32,
                                        glow):
                errs[n] = rel_err(got.view_as(ref), ref)
                errs[n + "(sdpa)"] = rel_err(low, ref)
            same = all(torch.equal(a, b) for a, b in zip(*grads))
            worst = max(v for n, v in errs.items() if "sdpa" not in n)
            detail = " ".join(f"{n} {e:.2g}" for n, e in errs.items())
            ok = worst <= TOLERANCE[dtype] and same
            if not same:
                detail += "; two runs differ"
            return ok, worst, detail
        s.run(f"attention backward{'' if fused else ' two-kernel'}{sfx} "
              f"{batch}x{heads}/{kv}x{seq}x{keys}"
              + ("" if scale is None else f" scale {scale}"),
              ("attention_bwd_dkdvdq" if fused else "attention_bwd_dq") + sfx,
              body)

    # Both backwards on every shape: the two-kernel one is the default,
    # and its kernels tile the queries differently at D = 64 (tiles of 128
    # rows in the dK/dV kernel) than the fused one.
    for fused in (True, False):
        for dtype in (torch.float16, torch.bfloat16):
            for dim in (128, 64):
                for causal in (False, True):
                    for seq in (1, 77, 129, 1000):
                        case(dtype, dim, causal, 2, 2, 2, seq, fused=fused)
                    # GQA, group 4
                    case(dtype, dim, causal, 1, 8, 2, 513, fused=fused)
        for causal in (False, True):
            case(torch.float16, 128, causal, 1, 2, 2, 4097, fused=fused)
            case(torch.bfloat16, 64, causal, 1, 4, 1, 4097, fused=fused)
            case(torch.float16, 64, causal, 2, 4, 4, 300, keys=200,
                 fused=fused)
            case(torch.bfloat16, 128, causal, 1, 4, 2, 200, keys=300,
                 scale=0.3, fused=fused)

    def autograd(dtype, dim, causal, kv, fused=True):
        def body():
            mod = s.module("flash_attention_bwd")
            fa = croq.attention.Attention(mod, fused=fused)
            q, k, v = (random_tensor((2, 4 if t == "q" else kv, 333, dim),
                                     dtype).requires_grad_()
                       for t in ("q", "k", "v"))
            dout = random_tensor((2, 4, 333, dim), dtype)
            out = fa(q, k, v, causal=causal)
            (out.float() * dout.float()).sum().backward()
            _, _, g32, _ = reference(q, k, v, dout, causal, 1 / math.sqrt(dim))
            errs = [rel_err(t.grad, r) for t, r in zip((q, k, v), g32)]
            return max(errs) <= TOLERANCE[dtype], max(errs), \
                "dq dk dv " + " ".join(f"{e:.2g}" for e in errs)
        s.run(f"attention backward autograd {dtype} D{dim} causal {causal} "
              f"kv {kv}" + ("" if fused else " two-kernel"),
              ("attention_bwd_dkdvdq" if fused else "attention_bwd_dq")
              + suffix(dtype, dim, causal), body)

    autograd(torch.float16, 128, False, 4)
    autograd(torch.bfloat16, 64, True, 1)
    autograd(torch.float16, 128, True, 2, fused=False)
    autograd(torch.bfloat16, 64, False, 2, fused=False)

    def refused(what, expect, call):
        def body():
            try:
                call(s.module("flash_attention_bwd"))
            except (croq.CroqError, RuntimeError) as e:
                torch.cuda.synchronize()
                return expect in str(e), 0.0, str(e)[:160]
            return False, 0.0, "not refused"
        s.run(f"attention backward refuses {what}", "attention_bwd_dq_f16",
              body)

    def bad_delta(mod):
        q = random_tensor((2, 256, 128), torch.float16)
        lse = poisoned((2, 256), torch.float32)
        delta = poisoned((2, 255), torch.float32)
        mod.attention_bwd_dq_f16(q, q, q, q, q, lse, delta,
                                 poisoned((2, 256, 128), torch.float16), 0.1)

    def bad_dv(mod):
        q = random_tensor((4, 256, 128), torch.float16)
        k = random_tensor((2, 256, 128), torch.float16)
        lse = poisoned((4, 256), torch.float32)
        mod.attention_bwd_dkdv_f16(q, k, k, q, lse, lse,
                                   poisoned((2, 256, 128), torch.float16),
                                   poisoned((3, 256, 128), torch.float16),
                                   0.1)

    def bad_d(mod):
        q = random_tensor((2, 256, 64), torch.float16)
        lse = poisoned((2, 256), torch.float32)
        mod.attention_bwd_dq_f16(q, q, q, q, q, lse, lse,
                                 poisoned((2, 256, 64), torch.float16), 0.1)

    def bad_heads(mod):
        fa = croq.attention.Attention(mod)
        q = random_tensor((1, 6, 64, 128), torch.float16)
        k = random_tensor((1, 4, 64, 128), torch.float16)
        fa(q, k, k)

    def bad_workspace(mod):
        q = random_tensor((2, 200, 128), torch.float16)
        lse = poisoned((2, 200), torch.float32)
        # 200 rows are 4 tiles of 64: 512 workspace rows of 128, not 500.
        mod.attention_bwd_dkdvdq_f16(
            q, q, q, q, lse, lse, poisoned((2, 200, 128), torch.float16),
            poisoned((2, 200, 128), torch.float16),
            poisoned((500 * 128,), torch.float32),
            torch.zeros(16, dtype=torch.int32, device="cuda"), 0.1)

    def bad_turns(mod):
        q = random_tensor((2, 200, 128), torch.float16)
        mod.attention_bwd_delta_f16(
            q, q, poisoned((2, 200), torch.float32),
            poisoned((512, 128), torch.float32),
            torch.zeros(15, dtype=torch.int32, device="cuda"))

    refused("a dQ workspace of 500 rows for 512", "the dQ workspace of the",
            bad_workspace)
    refused("15 turn counters for 16", "the dQ turn counters", bad_turns)
    refused("delta with 255 rows for 256", "delta of the attention", bad_delta)
    refused("dV with 3 heads for K's 2", "dV of the attention", bad_dv)
    refused("D = 64 to a D = 128 entry point", "Q of the attention", bad_d)
    refused("6 query heads on 4 K/V heads", "not a multiple", bad_heads)
    refused("a 3-d q", "[batch, heads, rows, D]",
            lambda mod: croq.attention.Attention(mod)(
                *(random_tensor((4, 64, 128), torch.float16),) * 3))
