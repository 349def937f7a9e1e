# ===- decode_tests.py - GPU tests of croq.decode.flash_decode -----------===#
#
# The kernels of examples/flash_decode.mlir through croq.decode.flash_decode
# on random inputs (no zeros) with poisoned (NaN) outputs, against SDPA in
# float32 on the same tensors (GQA by repeating the K/V heads, the keys past
# each sequence's length cut off): cache lengths 1, 77, 1000, 4097, 8191;
# GQA groups 1, 4, 8; one to 16 queries a sequence; f16 and bf16, D 64 and
# 128; contiguous and paged caches (shuffled pages, page sizes 128 and 256)
# with lengths per sequence, including a sequence of no keys (zeros).
# Shapes the host code must refuse fail the call naming the operand and
# leave the output poisoned. run_gpu_tests.py runs them with the other
# groups.
#
# ===----------------------------------------------------------------------===#

import math

import torch
import torch.nn.functional as F

import croq
from croq.decode import flash_decode

MODULE = "flash_decode"

# Relative to the largest output element (the reference in float32 from
# the same rounded inputs).
TOLERANCE = {torch.float16: 4e-3, torch.bfloat16: 2e-2}


def reference(q, k, v, seqlens, scale):
    """SDPA in float32 on each sequence's first seqlens[b] keys; zeros for a
    sequence of no keys. k, v: [B, Hkv, S, D]."""
    batch, heads = q.shape[:2]
    group = heads // k.shape[1]
    outs = []
    for b in range(batch):
        n = int(seqlens[b])
        if n == 0:
            outs.append(torch.zeros_like(q[b], dtype=torch.float32))
            continue
        kb = k[b, :, :n].float().repeat_interleave(group, dim=0)
        vb = v[b, :, :n].float().repeat_interleave(group, dim=0)
        outs.append(F.scaled_dot_product_attention(
            q[b].float(), kb, vb, scale=scale))
    return torch.stack(outs)


def check(out, ref, tolerance):
    unwritten = int(torch.isnan(out).sum())
    scale = float(ref.abs().max()) or 1.0
    err = float(torch.nan_to_num((out.float() - ref).abs(),
                                 nan=math.inf).max()) / scale
    ok = unwritten == 0 and err <= tolerance
    return ok, err, "" if ok else (f"relative error {err:.3g} > {tolerance}"
                                   f" ({unwritten} never written)")


def paginate(k, v, page, generator_device):
    """The caches [B, Hkv, S, D] as shuffled pages [pages, page, Hkv, D]
    and the block table [B, S / page] (S a multiple of page)."""
    batch, kv_heads, seq, dim = k.shape
    per_seq = seq // page
    order = torch.randperm(batch * per_seq, device=generator_device)
    table = order.view(batch, per_seq).to(torch.int32)

    def pages_of(t):
        blocks = t.view(batch, kv_heads, per_seq, page, dim) \
                  .permute(0, 2, 3, 1, 4).reshape(batch * per_seq, page,
                                                  kv_heads, dim)
        paged = torch.empty_like(blocks)
        paged[order] = blocks
        return paged.contiguous()
    return pages_of(k), pages_of(v), table


def decode_tests(s, random_tensor, poisoned) -> None:
    def case(dtype, dim, batch, heads, kv_heads, queries, keys, lengths=None,
             page=None, scale=None):
        name = (f"flash_decode {str(dtype)[6:]} D{dim} {batch}x{heads}/"
                f"{kv_heads}x{queries}q x{keys}"
                + ("" if lengths is None else f" lengths {lengths}")
                + ("" if page is None else f" paged {page}")
                + ("" if scale is None else f" scale {scale}"))

        def body():
            mod = s.module(MODULE)
            q = random_tensor((batch, heads, queries, dim), dtype)
            k = random_tensor((batch, kv_heads, keys, dim), dtype)
            v = random_tensor((batch, kv_heads, keys, dim), dtype)
            out = poisoned((batch, heads, queries, dim), dtype)
            seqlens = None if lengths is None else torch.tensor(
                lengths, dtype=torch.int32, device=q.device)
            sm = 1 / math.sqrt(dim) if scale is None else scale
            if page is None:
                flash_decode(q, k, v, cache_seqlens=seqlens, out=out,
                             softmax_scale=scale, module=mod)
            else:
                kp, vp, table = paginate(k, v, page, q.device)
                flash_decode(q, kp, vp, cache_seqlens=seqlens,
                             block_table=table, out=out, softmax_scale=scale,
                             module=mod)
            full = torch.full((batch,), keys) if lengths is None else seqlens
            return check(out, reference(q, k, v, full, sm), TOLERANCE[dtype])
        s.run(name, "decode", body)

    # Odd cache lengths, one query, GQA groups 1, 4 and 8, both types and
    # head dimensions.
    for keys in (1, 77, 1000, 4097, 8191):
        case(torch.float16, 128, 2, 32, 8, 1, keys)
        case(torch.bfloat16, 64, 3, 8, 8, 1, keys)
    for dtype in (torch.float16, torch.bfloat16):
        for dim in (64, 128):
            case(dtype, dim, 4, 32, 4, 1, 2048)
            case(dtype, dim, 1, 8, 1, 1, 3000)
    # Several queries a sequence: group * queries rows, over 64 in one
    # (8 x 16 = 128: two row tiles).
    case(torch.float16, 128, 2, 16, 2, 4, 1500)
    case(torch.bfloat16, 128, 2, 16, 2, 16, 700)
    case(torch.float16, 64, 1, 4, 4, 64, 513)
    # Many sequences (one split), one long sequence (many splits).
    case(torch.float16, 128, 64, 32, 8, 1, 2048)
    case(torch.bfloat16, 128, 1, 32, 8, 1, 32768)
    case(torch.float16, 64, 2, 4, 1, 1, 5000, scale=0.3)
    # Lengths per sequence (a sequence of no keys gets zeros).
    case(torch.float16, 128, 4, 32, 8, 1, 4096, lengths=[4096, 1, 77, 2500])
    case(torch.bfloat16, 64, 3, 16, 4, 2, 1024, lengths=[0, 1000, 129])
    # Paged caches: shuffled pages of 128 and 256 keys.
    for dtype in (torch.float16, torch.bfloat16):
        for dim in (64, 128):
            case(dtype, dim, 4, 32, 8, 1, 2048, page=256,
                 lengths=[2048, 1, 1000, 1793])
    case(torch.float16, 128, 3, 8, 8, 1, 8192, page=128,
         lengths=[8191, 4097, 77])
    case(torch.bfloat16, 128, 8, 32, 4, 1, 1024, page=128)
    # More work items than the 132 blocks of the persistent kernel: each
    # block walks several, the rings running on across them.
    case(torch.float16, 128, 32, 32, 8, 1, 1024, page=128,
         lengths=[(37 * i) % 1024 + 1 for i in range(32)])
    case(torch.bfloat16, 64, 48, 16, 4, 2, 512, page=256,
         lengths=[(101 * i) % 512 for i in range(48)])

    def refused(what, expect, call):
        def body():
            mod = s.module(MODULE)
            out = poisoned((2, 8, 1, 128), torch.float16)
            try:
                call(mod, out)
                torch.cuda.synchronize()
            except croq.RuntimeError as e:
                untouched = bool(torch.isnan(out).all())
                return (expect in str(e) and untouched), None, \
                    str(e)[:200] + ("" if untouched else " (out written)")
            return False, None, "no croq.RuntimeError"
        s.run(f"flash_decode refuses {what}", "decode", body)

    def f16(*shape):
        return random_tensor(shape, torch.float16)

    def workspace(rows, dim=128):
        return (torch.empty(rows, dim, device="cuda"),
                torch.empty(rows, 8, device="cuda"))

    def bad_cache(mod, out):
        q, k, v = f16(2 * 2, 4, 128), f16(3 * 2, 512, 128), f16(4, 512, 128)
        lens = torch.full((2,), 512, dtype=torch.int32, device="cuda")
        mod.decode_f16(q, k, v, lens, out.view(4, 4, 128), *workspace(256),
                       0.1)
    refused("a K cache of other sequences than Q",
            "the K cache of the decoding attention has an extent of 6 where "
            "4 is expected", bad_cache)

    def bad_page(mod, out):
        q = f16(4, 4, 128)
        k, v = f16(8, 64, 2 * 128), f16(8, 64, 2 * 128)
        table = torch.zeros(2, 4, dtype=torch.int32, device="cuda")
        lens = torch.full((2,), 256, dtype=torch.int32, device="cuda")
        mod.decode_paged_f16(q, k, v, table, lens, out.view(4, 4, 128),
                             *workspace(256), 0.1)
    refused("pages of 64 keys", "the page size of the KV cache (64 keys) is "
            "not a multiple of the decoding attention's key tile (128 keys)",
            bad_page)

    def bad_table(mod, out):
        q = f16(4, 4, 128)
        k, v = f16(8, 128, 2 * 128), f16(8, 128, 2 * 128)
        table = torch.zeros(3, 4, dtype=torch.int32, device="cuda")
        lens = torch.full((2,), 256, dtype=torch.int32, device="cuda")
        mod.decode_paged_f16(q, k, v, table, lens, out.view(4, 4, 128),
                             *workspace(256), 0.1)
    refused("a block table of other sequences",
            "the block table of the decoding attention has an extent of 3 "
            "where 2 is expected", bad_table)

    def small_workspace(mod, out):
        q, k, v = f16(4, 4, 128), f16(4, 512, 128), f16(4, 512, 128)
        lens = torch.full((2,), 512, dtype=torch.int32, device="cuda")
        mod.decode_f16(q, k, v, lens, out.view(4, 4, 128), *workspace(64),
                       0.1)
    refused("a workspace for less than one split",
            "the split workspace of the decoding attention has an extent of "
            "64 where 256 is expected", small_workspace)

    def python_groups():
        q = random_tensor((1, 6, 1, 128), torch.float16)
        k = random_tensor((1, 4, 256, 128), torch.float16)
        try:
            flash_decode(q, k, k, module=s.module(MODULE))
        except ValueError as e:
            return "multiple" in str(e), None, str(e)
        return False, None, "no ValueError"
    s.run("flash_decode refuses 6 query heads on 4 K/V heads", "decode",
          python_groups)
