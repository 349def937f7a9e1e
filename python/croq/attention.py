"""Attention with a backward pass, on the kernels of
examples/flash_attention_bwd.mlir.

Compile the example here and load it where the GPU is::

    croq.compile("examples/flash_attention_bwd.mlir", "out/fa_bwd")
    fa = croq.attention.Attention(croq.load("out/fa_bwd"))
    out = fa(q, k, v, causal=True)         # [B, H, S, D], as SDPA takes them
    out.float().sum().backward()           # q.grad, k.grad, v.grad

``Attention.__call__`` is a ``torch.autograd.Function``: the forward saves
each query row's log-sum-exp. The backward runs the dQ kernel (which also
writes delta = rowsum(dO * O)) and then the dK/dV kernel. With
``Attention(module, fused=True)`` it runs instead a small kernel for delta,
then one kernel for dK, dV and dQ, whose key blocks add their parts of dQ
into an f32 workspace in key order (turn counters in global memory order
the adds), then converts dQ: two products fewer, but slower on the H200
for now (bench/RESULTS.md). Both are deterministic: the
same inputs give the same gradients, bit for bit. K and
V may have fewer heads than Q (grouped-query attention); their gradients
are summed over the query heads of each group. The kernels are called
through their torch custom operators (``EntryPoint.torch_op``), so the
function also runs inside ``torch.compile``.
"""

import math
from typing import Any, Optional

from .errors import ArgumentError

_DTYPES = {"float16": "f16", "bfloat16": "bf16"}


def _suffix(dtype: Any, dim: int, causal: bool) -> str:
    """The entry points' suffix for q's element type and head dimension
    (_check has declined the others)."""
    name = str(dtype).replace("torch.", "")
    return ("_causal" if causal else "") + ("_d64" if dim == 64 else "") + \
        "_" + _DTYPES[name]


def _check(q: Any, k: Any, v: Any) -> None:
    """Declines, naming the operand (q, k, v: arguments 0 to 2), what the
    kernels cannot take."""
    def refuse(index: int, rule: str) -> None:
        raise ArgumentError(index, "qkv"[index], rule)

    for index, t in enumerate((q, k, v)):
        if t.dim() != 4:
            refuse(index, f"has {t.dim()} dimensions; attention takes "
                   f"[batch, heads, rows, D]")
        if t.dtype != q.dtype:
            refuse(index, f"is {t.dtype}, q {q.dtype}")
        if t.shape[3] != q.shape[3]:
            refuse(index, f"has head dimension {t.shape[3]}, q "
                   f"{q.shape[3]}")
    if str(q.dtype).replace("torch.", "") not in _DTYPES:
        refuse(0, f"is {q.dtype}; the kernels take float16 or bfloat16")
    if q.shape[3] not in (64, 128):
        refuse(0, f"has head dimension {q.shape[3]}; the kernels take 64 "
               f"or 128")
    if v.shape != k.shape:
        refuse(2, f"has shape {tuple(v.shape)}, k {tuple(k.shape)}")
    if k.shape[0] != q.shape[0]:
        refuse(1, f"has batch {k.shape[0]}, q {q.shape[0]}")
    if k.shape[1] == 0 or q.shape[1] % k.shape[1] != 0:
        refuse(1, f"has {k.shape[1]} heads: q's {q.shape[1]} heads are not "
               f"a multiple of them")


def _flat(t: Any) -> Any:
    """[B, H, S, D] as the kernels' [B * H, S, D], contiguous."""
    return t.contiguous().view(-1, t.shape[2], t.shape[3])


class Attention:
    """softmax(scale * q k^T) v with gradients, on a loaded
    flash_attention_bwd module."""

    def __init__(self, module: Any, fused: bool = False):
        self.module = module
        # The two-kernel backward is the default: the fused one measured
        # 0.55-0.65x its speed on the H200 (bench/RESULTS.md, 2026-12-02).
        self.fused = fused
        self._ops: dict = {}
        self._function = _make_function(self)

    def op(self, name: str) -> Any:
        """The torch custom operator of entry point `name`."""
        if name not in self._ops:
            self._ops[name] = getattr(self.module, name).torch_op()
        return self._ops[name]

    def __call__(self, q: Any, k: Any, v: Any, causal: bool = False,
                 scale: Optional[float] = None) -> Any:
        _check(q, k, v)
        if scale is None:
            scale = 1 / math.sqrt(q.shape[3])
        return self._function.apply(q, k, v, causal, float(scale))

    def forward(self, q: Any, k: Any, v: Any, causal: bool,
                scale: float) -> Any:
        """out and the log-sum-exp ([B * H, S] f32)."""
        import torch
        s = _suffix(q.dtype, q.shape[3], causal)
        out = torch.empty_like(q)
        lse = torch.empty(q.shape[0] * q.shape[1], q.shape[2],
                          dtype=torch.float32, device=q.device)
        self.op("attention_lse" + s)(_flat(q), _flat(k), _flat(v),
                                     out.view(-1, q.shape[2], q.shape[3]),
                                     lse, scale)
        return out, lse

    def backward(self, q: Any, k: Any, v: Any, out: Any, lse: Any,
                 dout: Any, causal: bool, scale: float) -> Any:
        """dq, dk, dv."""
        import torch
        s = _suffix(q.dtype, q.shape[3], causal)
        fq, fk, fv, fo, fdo = (_flat(t) for t in (q, k, v, out, dout))
        dk = torch.empty_like(fk)
        dv = torch.empty_like(fv)
        delta = torch.empty_like(lse)
        if self.fused:
            return self._backward_fused(q, k, v, fq, fk, fv, fo, fdo, lse,
                                        delta, dk, dv, causal, scale)
        dq = torch.empty_like(fq)
        self.op("attention_bwd_dq" + s)(fq, fk, fv, fo, fdo, lse, delta, dq,
                                        scale)
        self.op("attention_bwd_dkdv" + s)(fq, fk, fv, fdo, lse, delta, dk,
                                          dv, scale)
        return dq.view_as(q), dk.view_as(k), dv.view_as(v)

    def _backward_fused(self, q: Any, k: Any, v: Any, fq: Any, fk: Any,
                        fv: Any, fo: Any, fdo: Any, lse: Any, delta: Any,
                        dk: Any, dv: Any, causal: bool, scale: float) -> Any:
        """delta (and zeroed workspaces), then dK, dV and dQ's f32 sum in
        one kernel (its key blocks add their parts of dQ in key order,
        counted per column half of each 64-row query tile in `turns`),
        then dQ in q's type (workspace_to_dq)."""
        import torch
        heads, seq, dim = fq.shape
        tiles = (seq + 63) // 64
        # The delta kernel also zeroes both workspaces.
        acc = torch.empty(heads * tiles * 64 * dim, dtype=torch.float32,
                          device=q.device)
        turns = torch.empty(heads * tiles * 2, dtype=torch.int32,
                            device=q.device)
        self.op("attention_bwd_delta" + _suffix(q.dtype, dim, False))(
            fo, fdo, delta, acc.view(-1, dim), turns)
        self.op("attention_bwd_dkdvdq" + _suffix(q.dtype, dim, causal))(
            fq, fk, fv, fdo, lse, delta, dk, dv, acc, turns, scale)
        dq = workspace_to_dq(acc, heads, seq, dim, q.dtype)
        return dq.view_as(q), dk.view_as(k), dv.view_as(v)


_UNSWIZZLE: dict = {}


def workspace_to_dq(acc: Any, heads: int, seq: int, dim: int,
                    dtype: Any) -> Any:
    """dQ [heads, seq, dim] in `dtype` from the fused kernel's f32
    workspace: per 64-row query tile, its two column halves one after the
    other, each as croq lays out a 64 x dim / 2 f32 shared tile swizzled by
    128 bytes (slabs of 32 columns, 16-byte chunk c of row r at chunk
    c ^ (r mod 8)), which the kernel adds with bulk adds as it is."""
    import torch
    tiles = (seq + 63) // 64
    key = (dim, acc.device)
    if key not in _UNSWIZZLE:
        half = dim // 2
        row = torch.arange(64, device=acc.device).view(64, 1)
        col = torch.arange(dim, device=acc.device).view(1, dim)
        c = col % half
        chunk = (c % 32) // 4
        _UNSWIZZLE[key] = ((col // half) * 64 * half + (c // 32) * 64 * 32
                           + row * 32 + (chunk ^ (row % 8)) * 4
                           + c % 4).view(-1)
    tile = acc.view(heads * tiles, 64 * dim).to(dtype)[:, _UNSWIZZLE[key]]
    return tile.view(heads, tiles * 64, dim)[:, :seq]


def _make_function(attention: Attention) -> Any:
    import torch

    class AttentionFunction(torch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, q: Any, k: Any, v: Any, causal: bool,
                    scale: float) -> Any:
            out, lse = attention.forward(q, k, v, causal, scale)
            ctx.save_for_backward(q, k, v, out, lse)
            ctx.causal = causal
            ctx.scale = scale
            return out

        @staticmethod
        def backward(ctx: Any, dout: Any) -> Any:
            q, k, v, out, lse = ctx.saved_tensors
            dq, dk, dv = attention.backward(q, k, v, out, lse, dout,
                                            ctx.causal, ctx.scale)
            return dq, dk, dv, None, None

    return AttentionFunction
