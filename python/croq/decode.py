"""Decoding attention on torch tensors: few queries against a KV cache.

:func:`flash_decode` calls the kernels of examples/flash_decode.mlir
(compiled with :func:`croq.compile` and loaded with :func:`croq.load`, or
found through ``CROQ_DECODE_KERNELS``, an artifact directory) on

- ``q`` [B, Hq, nq, D] (1 to 64 queries a sequence, typically 1),
- a contiguous cache, ``k`` and ``v`` [B, Hkv, S, D] (SDPA's layout), or a
  paged one, ``k`` and ``v`` [pages, page_size, Hkv, D] with
  ``block_table`` [B, pages a sequence] (int32; flash_attn_with_kvcache's
  and vLLM's layout; page_size a multiple of 128),
- ``cache_seqlens`` [B] (int32 or int64, on the device): the keys of each
  sequence; all of the cache (S, or the block table's pages) where None.

Hq must be a multiple of Hkv (grouped-query attention): the query heads of
one key/value head and their queries are the rows of one tile, so that the
cache is read once per group. f16 or bf16, D = 64 or 128. The result is
softmax(scale * q k^T) v over the first ``cache_seqlens[b]`` keys of each
sequence, [B, Hq, nq, D] in q's type (into ``out`` where given). Cache rows
past a sequence's length must hold finite values (masked scores weigh 0,
but 0 x NaN is NaN): see examples/flash_decode.mlir.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any, Dict, Optional

#: The module name of the compiled kernels (examples/flash_decode.mlir).
MODULE_NAME = "flash_decode"
#: Keys of a key tile; a page holds a multiple of it.
KEY_TILE = 128
#: The SMs of an H100 or H200.
SMS = 132

_modules: Dict[str, Any] = {}


def _module():
    directory = os.environ.get("CROQ_DECODE_KERNELS")
    if not directory:
        raise ValueError("flash_decode: no kernel module: pass module= (the "
                         "croq.load of examples/flash_decode.mlir) or set "
                         "CROQ_DECODE_KERNELS to its artifact directory")
    if directory not in _modules:
        from .module import load
        path = Path(directory)
        lib = path / f"lib{MODULE_NAME}.so"
        _modules[directory] = load(lib if lib.exists() else path)
    return _modules[directory]


def _entry_name(dtype, dim: int, paged: bool) -> str:
    import torch
    if dtype not in (torch.float16, torch.bfloat16):
        raise ValueError(f"flash_decode: q is {dtype}; f16 or bf16 needed")
    if dim not in (64, 128):
        raise ValueError(f"flash_decode: head dimension {dim}; 64 or 128 "
                         "needed")
    name = "decode_paged" if paged else "decode"
    if dim == 64:
        name += "_d64"
    return name + ("_f16" if dtype == torch.float16 else "_bf16")


def workspace_splits(items: int, row_tiles: int, key_tiles: int,
                     dim: int) -> int:
    """The most splits the workspace is made for: the kernels take at most
    one split a key tile, and the split rule (examples/gen/decode_common.py)
    looks for whole waves of blocks; four waves of blocks bound it."""
    wave = SMS
    units = max(items * row_tiles, 1)
    return max(1, min(key_tiles, -(-4 * wave // units)))


def flash_decode(q, k, v, *, cache_seqlens=None, block_table=None,
                 softmax_scale: Optional[float] = None, out=None,
                 module: Any = None, max_splits: Optional[int] = None):
    """Attention of ``q`` on the cache ``k``, ``v`` (see the module's
    docstring); returns ``out``. ``max_splits`` bounds the splits of the
    keys (the workspace's room; the kernels' rule picks within it), for
    measuring the rule."""
    import torch
    paged = block_table is not None
    for name, t in (("q", q), ("k", k), ("v", v)):
        if t.dim() != 4:
            raise ValueError(f"flash_decode: {name} has {t.dim()} "
                             "dimensions; 4 needed")
        if not t.is_contiguous():
            raise ValueError(f"flash_decode: {name} is not contiguous")
        if t.dtype != q.dtype:
            raise ValueError(f"flash_decode: {name} is {t.dtype}, q "
                             f"{q.dtype}")
    batch, heads, queries, dim = q.shape
    entry = _entry_name(q.dtype, dim, paged)
    if paged:
        pages, page, kv_heads, kdim = k.shape
        if page % KEY_TILE:
            raise ValueError(f"flash_decode: the page size ({page}) is not "
                             f"a multiple of {KEY_TILE}")
        if block_table.dim() != 2 or block_table.shape[0] != batch:
            raise ValueError("flash_decode: block_table must be [batch, "
                             f"pages]; got {list(block_table.shape)}")
        table = block_table.to(torch.int32).contiguous()
        capacity = table.shape[1] * page
    else:
        kb, kv_heads, capacity, kdim = k.shape
        if kb != batch:
            raise ValueError(f"flash_decode: k has {kb} sequences, q "
                             f"{batch}")
    if kdim != dim or tuple(v.shape) != tuple(k.shape):
        raise ValueError(f"flash_decode: k {list(k.shape)} and v "
                         f"{list(v.shape)} do not match q {list(q.shape)}")
    if kv_heads == 0 or heads % kv_heads:
        raise ValueError(f"flash_decode: q's heads ({heads}) are not a "
                         f"multiple of the cache's ({kv_heads})")
    group = heads // kv_heads
    rows = group * queries
    if cache_seqlens is None:
        seqlens = torch.full((batch,), capacity, dtype=torch.int32,
                             device=q.device)
    else:
        if tuple(cache_seqlens.shape) != (batch,):
            raise ValueError("flash_decode: cache_seqlens must be [batch]; "
                             f"got {list(cache_seqlens.shape)}")
        seqlens = cache_seqlens.to(torch.int32).contiguous()
    if out is None:
        out = torch.empty_like(q)
    items = batch * kv_heads
    row_tiles = -(-rows // 64)
    key_tiles = max(1, -(-capacity // KEY_TILE))
    splits = workspace_splits(items, row_tiles, key_tiles, dim)
    if max_splits is not None:
        splits = max(1, min(splits, max_splits))
    ws_rows = splits * items * row_tiles * 64
    o_part = torch.empty(ws_rows, dim, dtype=torch.float32, device=q.device)
    lse = torch.empty(ws_rows, 8, dtype=torch.float32, device=q.device)
    scale = 1.0 / math.sqrt(dim) if softmax_scale is None else softmax_scale
    mod = module if module is not None else _module()
    qv = q.view(items, rows, dim)
    ov = out.view(items, rows, dim)
    if paged:
        kv3 = k.view(k.shape[0], k.shape[1], kv_heads * dim)
        vv3 = v.view(kv3.shape)
        getattr(mod, entry)(qv, kv3, vv3, table, seqlens, ov, o_part, lse,
                            scale)
    else:
        getattr(mod, entry)(qv, k.view(items, capacity, dim),
                            v.view(items, capacity, dim), seqlens, ov,
                            o_part, lse, scale)
    return out
