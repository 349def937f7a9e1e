"""Attention on packed sequences of different lengths (prefill).

:func:`flash_attn_varlen` calls the kernels of
examples/flash_attention_varlen.mlir (compiled with :func:`croq.compile`
and loaded with :func:`croq.load`, passed as ``module=``, or found through
``CROQ_VARLEN_KERNELS``, an artifact directory) on the operands
flash-attn's ``flash_attn_varlen_func`` takes:

- ``q`` [total_q, Hq, D], ``k`` and ``v`` [total_k, Hkv, D], contiguous,
  f16 or bf16, D = 64 or 128, Hq a multiple of Hkv (grouped-query
  attention);
- ``cu_seqlens_q`` and ``cu_seqlens_k``, int32 [B + 1] on the device: the
  rows of sequence b are cu_seqlens[b] .. cu_seqlens[b + 1] - 1 (an empty
  sequence repeats an offset);
- ``causal``: aligned at the bottom right, as flash-attn 2.1 and later
  (query i of a sequence of Lq queries and Lk keys sees keys 0 to
  i + Lk - Lq; a query that sees none gets zeros, as does every query of a
  sequence without keys).

The result is [total_q, Hq, D] in q's type (into ``out`` where given);
rows past cu_seqlens_q[B] are not written. ``max_seqlen_q`` and
``max_seqlen_k`` are accepted for flash-attn's signature and not needed
(the kernels read the lengths on the device). Rows of ``k`` and ``v``
past a sequence's keys are read and weighed 0, so they must be finite
(0 x NaN is NaN): rows past cu_seqlens_k[B] too.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any, Dict, Optional

from .errors import ArgumentError

#: The module name of the compiled kernels.
MODULE_NAME = "flash_attention_varlen"

_modules: Dict[str, Any] = {}

_ARGS = ("q", "k", "v", "cu_seqlens_q", "cu_seqlens_k")


def _module():
    directory = os.environ.get("CROQ_VARLEN_KERNELS")
    if not directory:
        raise ValueError("flash_attn_varlen: no kernel module: pass module= "
                         "(the croq.load of examples/flash_attention_varlen"
                         ".mlir) or set CROQ_VARLEN_KERNELS to its artifact "
                         "directory")
    if directory not in _modules:
        from .module import load
        path = Path(directory)
        lib = path / f"lib{MODULE_NAME}.so"
        _modules[directory] = load(lib if lib.exists() else path)
    return _modules[directory]


def entry_name(dtype: Any, dim: int, causal: bool) -> str:
    """The entry point for q's type, head dimension and causality."""
    import torch
    kind = {torch.float16: "f16", torch.bfloat16: "bf16"}[dtype]
    return ("attention_varlen" + ("_causal" if causal else "") +
            ("_d64" if dim == 64 else "") + "_" + kind)


def _check(q, k, v, cu_q, cu_k, out) -> None:
    """Declines, naming the argument, what the kernels cannot take."""
    import torch

    def refuse(index: int, rule: str) -> None:
        raise ArgumentError(index, _ARGS[index] if index < 5 else "out",
                            rule)

    for index, t in enumerate((q, k, v)):
        if t.dim() != 3:
            refuse(index, f"has {t.dim()} dimensions; [total rows, heads, "
                   f"D] needed")
        if t.dtype != q.dtype:
            refuse(index, f"is {t.dtype}, q {q.dtype}")
        if not t.is_contiguous():
            refuse(index, "is not contiguous")
        if t.shape[2] != q.shape[2]:
            refuse(index, f"has head dimension {t.shape[2]}, q {q.shape[2]}")
    if q.dtype not in (torch.float16, torch.bfloat16):
        refuse(0, f"is {q.dtype}; the kernels take float16 or bfloat16")
    if q.shape[2] not in (64, 128):
        refuse(0, f"has head dimension {q.shape[2]}; the kernels take 64 or "
               f"128")
    if v.shape != k.shape:
        refuse(2, f"has shape {tuple(v.shape)}, k {tuple(k.shape)}")
    if k.shape[1] == 0 or q.shape[1] % k.shape[1] != 0:
        refuse(1, f"has {k.shape[1]} heads: q's {q.shape[1]} heads are not "
               f"a multiple of them")
    for index, cu in ((3, cu_q), (4, cu_k)):
        if cu.dim() != 1 or cu.shape[0] < 1:
            refuse(index, f"has shape {tuple(cu.shape)}; [batch + 1] "
                   f"offsets needed")
        if cu.dtype != torch.int32:
            refuse(index, f"is {cu.dtype}; int32 needed")
        if cu.device != q.device:
            refuse(index, f"is on {cu.device}, q on {q.device}")
    if cu_k.shape != cu_q.shape:
        refuse(4, f"has {cu_k.shape[0]} offsets, cu_seqlens_q "
               f"{cu_q.shape[0]}")
    if k.shape[0] == 0 and q.shape[0] > 0:
        refuse(1, "has no rows (no sequence has keys): the kernels need a "
               "key tensor to map")
    if out is not None and (out.shape != q.shape or out.dtype != q.dtype
                            or not out.is_contiguous()):
        refuse(5, f"is {out.dtype} {tuple(out.shape)}; a contiguous "
               f"{q.dtype} {tuple(q.shape)} needed")


def flash_attn_varlen(q, k, v, cu_seqlens_q, cu_seqlens_k,
                      max_seqlen_q: Optional[int] = None,
                      max_seqlen_k: Optional[int] = None, *,
                      causal: bool = False,
                      softmax_scale: Optional[float] = None, out=None,
                      module: Any = None):
    """Attention of each packed sequence's queries on its keys (see the
    module's docstring); returns ``out``. Called through the entry point's
    torch custom operator (``EntryPoint.torch_op``), so it also runs
    inside ``torch.compile``."""
    del max_seqlen_q, max_seqlen_k  # the kernels read the lengths
    import torch
    _check(q, k, v, cu_seqlens_q, cu_seqlens_k, out)
    total_q, heads, dim = q.shape
    if out is None:
        out = torch.empty_like(q)
    if total_q == 0:
        return out
    scale = 1.0 / math.sqrt(dim) if softmax_scale is None else softmax_scale
    mod = module if module is not None else _module()
    op = getattr(mod, entry_name(q.dtype, dim, causal)).torch_op()

    def packed(t):
        return t.view(1, t.shape[0], t.shape[1] * t.shape[2])

    op(packed(q), packed(k), packed(v), cu_seqlens_q, cu_seqlens_k,
       packed(out), float(scale))
    return out
