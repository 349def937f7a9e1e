"""Block-scaled 8-bit float matrix products (the DeepSeek-V3 recipe).

``out[m, n] = sum_k (a[m, k] * sa[m, k // 128]) * (b[n, k] * sb[n // 128,
k // 128])``: A (M x K) and B (N x K, both K-major) in e4m3 or e5m2, A's f32
scales per row and 128-element group of K (``sa``: M x ceil(K / 128)), B's
per 128 x 128 block (``sb``: ceil(N / 128) x ceil(K / 128)), an f32 result.
convert-linalg-to-croq takes the product as the ``linalg.generic`` that
:func:`block_scaled_linalg` writes and computes it as a GEMM that applies
the scales to each K step's partial product as it adds it into the f32
accumulator. K need not be a multiple of 128 (the last group is partial).

Compile here (MLIR tools needed) and call on torch tensors::

    import croq.block_scaled as bs
    art = bs.compile_block_scaled("out/bs")        # once, cached
    bs.block_scaled_matmul(a, sa, b, sb, artifact=art.directory)

On a machine without the tools, pass ``artifact=`` the compiled directory.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, Dict, Optional, Union

from .compiler import Artifact, compile as _compile
from .errors import ArgumentError
from .module import Module, load

#: The K elements (and N elements, for B) one scale covers.
SCALE_BLOCK = 128

#: The 8-bit float element types, by torch name and MLIR name.
_TYPES = {"float8_e4m3fn": "f8E4M3FN", "float8_e5m2": "f8E5M2"}

#: The entry point's name.
FUNCTION = "block_scaled_mm"

_loaded: Dict[str, Module] = {}
_lock = threading.Lock()


def block_scaled_linalg(dtype: str = "float8_e4m3fn",
                        shape: Optional[tuple] = None) -> str:
    """The linalg text of the block-scaled product on 8-bit floats of
    ``dtype`` (a torch name: ``float8_e4m3fn`` or ``float8_e5m2``), for
    ``shape`` = (M, N, K) or dynamic extents (None): a function
    ``block_scaled_mm(a, sa, b, sb, out)`` that zeroes ``out`` and sums the
    dequantized products into it."""
    if dtype not in _TYPES:
        raise ValueError(f"dtype must be one of {sorted(_TYPES)}, got "
                         f"{dtype!r}")
    element = _TYPES[dtype]

    def dim(value: Optional[int]) -> str:
        return "?" if value is None else str(value)

    m, n, k = shape if shape is not None else (None, None, None)
    kb = None if k is None else -(-k // SCALE_BLOCK)
    nb = None if n is None else -(-n // SCALE_BLOCK)
    ta = f"memref<{dim(m)}x{dim(k)}x{element}>"
    tb = f"memref<{dim(n)}x{dim(k)}x{element}>"
    tsa = f"memref<{dim(m)}x{dim(kb)}xf32>"
    tsb = f"memref<{dim(nb)}x{dim(kb)}xf32>"
    tc = f"memref<{dim(m)}x{dim(n)}xf32>"
    return f"""\
#a = affine_map<(m, n, k) -> (m, k)>
#sa = affine_map<(m, n, k) -> (m, k floordiv {SCALE_BLOCK})>
#b = affine_map<(m, n, k) -> (n, k)>
#sb = affine_map<(m, n, k) -> (n floordiv {SCALE_BLOCK}, k floordiv {SCALE_BLOCK})>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @{FUNCTION}(%a: {ta}, %sa: {tsa}, %b: {tb}, %sb: {tsb}, %out: {tc}) {{
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : {tc})
  linalg.generic {{indexing_maps = [#a, #sa, #b, #sb, #c],
                  iterator_types = ["parallel", "parallel", "reduction"]}}
      ins(%a, %sa, %b, %sb : {ta}, {tsa}, {tb}, {tsb}) outs(%out : {tc}) {{
  ^bb0(%x: {element}, %xs: f32, %y: {element}, %ys: f32, %acc: f32):
    %xf = arith.extf %x : {element} to f32
    %xd = arith.mulf %xf, %xs : f32
    %yf = arith.extf %y : {element} to f32
    %yd = arith.mulf %yf, %ys : f32
    %p = arith.mulf %xd, %yd : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }}
  return
}}
"""


def compile_block_scaled(out_dir: Optional[Union[str, os.PathLike]] = None,
                         *, dtype: str = "float8_e4m3fn",
                         shape: Optional[tuple] = None,
                         **compile_options: Any) -> Artifact:
    """Compiles :func:`block_scaled_linalg` (``croq.compile``'s options
    and compile cache apply) into ``out_dir``."""
    return _compile(block_scaled_linalg(dtype, shape), out_dir,
                    name=f"block_scaled_{dtype}", **compile_options)


def _module(artifact: Optional[Union[str, os.PathLike]], dtype: str,
            compile_options: Dict[str, Any]) -> Module:
    with _lock:
        key = str(artifact) if artifact is not None else \
            f"{dtype}:{sorted(compile_options.items())}"
        if key not in _loaded:
            if artifact is None:
                artifact = compile_block_scaled(
                    dtype=dtype, **compile_options).directory
            _loaded[key] = load(Path(artifact))
        return _loaded[key]


def block_scaled_matmul(a: Any, sa: Any, b: Any, sb: Any, out: Any = None, *,
                        artifact: Optional[Union[str, os.PathLike]] = None,
                        **compile_options: Any) -> Any:
    """``out`` (a new f32 M x N tensor when None) = the block-scaled
    product of torch CUDA tensors ``a`` (M x K) and ``b`` (N x K) of one
    8-bit float type with f32 scales ``sa`` (M x ceil(K / 128)) and ``sb``
    (ceil(N / 128) x ceil(K / 128)). The module is ``artifact`` (a compiled
    directory) if given, else compiled here (cached) with
    ``compile_options``; queued on torch's current stream."""
    import torch
    dtype = str(a.dtype).replace("torch.", "")
    if dtype not in _TYPES or b.dtype != a.dtype:
        raise ArgumentError(None, "a", "a and b must be float8_e4m3fn or "
                            f"float8_e5m2 tensors of one type, got {a.dtype} "
                            f"and {b.dtype}")
    if a.dim() != 2 or b.dim() != 2 or a.shape[1] != b.shape[1]:
        raise ArgumentError(None, "b", "a (M x K) and b (N x K) must share "
                            f"K, got {tuple(a.shape)} and {tuple(b.shape)}")
    m, k = a.shape
    n = b.shape[0]
    kb, nb = -(-k // SCALE_BLOCK), -(-n // SCALE_BLOCK)
    for name, t, want in (("sa", sa, (m, kb)), ("sb", sb, (nb, kb))):
        if t.dtype != torch.float32 or tuple(t.shape) != want:
            raise ArgumentError(None, name, f"{name} must be an f32 tensor of "
                                f"shape {want}, got {t.dtype} "
                                f"{tuple(t.shape)}")
    if out is None:
        out = torch.empty((m, n), device=a.device, dtype=torch.float32)
    module = _module(artifact, dtype, compile_options)
    getattr(module, FUNCTION)(a, sa, b, sb, out)
    return out
