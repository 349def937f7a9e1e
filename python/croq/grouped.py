"""Grouped GEMMs for mixture-of-experts layers on torch tensors.

:func:`grouped_mm` multiplies the rows of each group (expert) of ``a`` by
that group's weights in one persistent launch of the kernels of
``_grouped_ir`` (examples/grouped_matmul.mlir). Two forms:

- contiguous: ``a`` [M, K] whose rows are grouped by expert, ``offsets``
  [G + 1] (group g's rows are ``offsets[g]`` to ``offsets[g + 1]``) or
  ``counts`` [G], ``b`` [G, N, K] (contiguous, or the transpose of a
  contiguous [G, K, N]), ``out`` [M, N];
- masked (``masked=True``): ``a`` [G, maxM, K], ``counts`` [G], ``b``
  [G, N, K], ``out`` [G, maxM, N]; only the first ``counts[g]`` rows of each
  group are computed and written, the others are left as they are. The
  launch depends on the shapes only, so a call can be captured in a CUDA
  graph and replayed after the counts changed.

Offsets and counts stay on the device (int32 or int64; int64 ones are
converted on the call's stream). The kernels are compiled on first use with
:func:`croq.compile` (cached by its compile cache, so a later process loads
them in milliseconds) where the MLIR tools are; on a machine without them,
point ``CROQ_GROUPED_KERNELS`` (or :func:`set_kernels`) at an artifact
directory compiled elsewhere by :func:`compile_kernels`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Dict, Optional, Union

from ._grouped_ir import kernel_text

#: The module name of the compiled kernels.
MODULE_NAME = "grouped_matmul"

_modules: Dict[str, Any] = {}
_kernels_dir: Optional[Path] = None


def compile_kernels(out_dir: Optional[Union[str, os.PathLike]] = None,
                    **options: Any):
    """Compiles the grouped GEMM kernels (cached) and returns the
    :class:`croq.Artifact`; ``options`` go to :func:`croq.compile`."""
    from .compiler import compile as croq_compile
    return croq_compile(kernel_text(), out_dir, name=MODULE_NAME, **options)


def set_kernels(directory: Union[str, os.PathLike, None]) -> None:
    """Uses the artifact in ``directory`` (from :func:`compile_kernels`)
    instead of compiling; None goes back to compiling."""
    global _kernels_dir
    _kernels_dir = Path(directory) if directory is not None else None


def _module():
    from .module import load
    directory = _kernels_dir
    if directory is None and os.environ.get("CROQ_GROUPED_KERNELS"):
        directory = Path(os.environ["CROQ_GROUPED_KERNELS"])
    key = str(directory) if directory is not None else ""
    module = _modules.get(key)
    if module is None:
        if directory is not None:
            module = load(directory)
        else:
            module = compile_kernels().load()
        _modules[key] = module
    return module


def _fail(message: str) -> None:
    raise ValueError(f"croq.grouped_mm: {message}")


def _check_tensor(torch: Any, name: str, t: Any, rank: int) -> None:
    if not isinstance(t, torch.Tensor):
        _fail(f"{name} must be a torch.Tensor, got {type(t).__name__}")
    if not t.is_cuda:
        _fail(f"{name} must be on a CUDA device, it is on {t.device}")
    if t.dim() != rank:
        _fail(f"{name} must have {rank} dimensions, it has shape "
              f"{tuple(t.shape)}")
    if not t.is_contiguous():
        _fail(f"{name} must be contiguous (row-major), its strides are "
              f"{t.stride()}")


def _check_index_tensor(torch: Any, name: str, t: Any, length: int,
                        device: Any) -> Any:
    if not isinstance(t, torch.Tensor):
        _fail(f"{name} must be a torch.Tensor on the device, got "
              f"{type(t).__name__}")
    if t.device != device:
        _fail(f"{name} must be on {device} (read by the kernel), it is on "
              f"{t.device}")
    if t.dtype not in (torch.int32, torch.int64):
        _fail(f"{name} must be int32 or int64, it is {t.dtype}")
    if t.dim() != 1 or t.shape[0] != length:
        _fail(f"{name} must have shape ({length},), it has "
              f"{tuple(t.shape)}")
    if t.dtype != torch.int32 or not t.is_contiguous():
        t = t.to(torch.int32).contiguous()
    return t


def grouped_mm(a: Any, b: Any, offsets: Any = None, *, counts: Any = None,
               out: Any = None, masked: bool = False) -> Any:
    """Grouped GEMM: ``out[rows of g] = a[rows of g] @ b[g].T``.

    Args:
        a: [M, K] (contiguous form) or [G, maxM, K] (masked), f16 or bf16.
        b: [G, N, K], the same dtype: contiguous (K-major weights), or the
            transpose ``w.transpose(1, 2)`` of contiguous [G, K, N] weights
            ``w`` (N-major), which are read as they are.
        offsets: contiguous form: [G + 1] cumulative row offsets (int32 or
            int64, on a's device); give ``counts`` instead to have them
            computed on the device.
        counts: [G] rows per group (int32 or int64, on the device): the
            masked form's counts, or the contiguous form's group sizes.
        out: the result ([M, N] or [G, maxM, N], a's dtype, contiguous);
            allocated when None (rows of no group are then uninitialized).
        masked: the masked form.

    Returns:
        ``out``. The call is queued on torch's current stream.

    Raises:
        ValueError: an argument breaks a rule (named in the message).
    """
    import torch

    rank = 3 if masked else 2
    _check_tensor(torch, "a", a, rank)
    if isinstance(b, torch.Tensor) and b.dim() == 3 and \
            not b.is_contiguous() and b.transpose(1, 2).is_contiguous():
        # The [G, K, N] weights, passed as their [G, N, K] transpose.
        n_major = True
        _check_tensor(torch, "b", b.transpose(1, 2), 3)
    else:
        n_major = False
        if isinstance(b, torch.Tensor) and b.dim() == 3 and \
                not b.is_contiguous():
            _fail(f"b [G, N, K] must be contiguous, or the transpose of a "
                  f"contiguous [G, K, N] tensor; its strides are "
                  f"{b.stride()}")
        _check_tensor(torch, "b", b, 3)
    if a.dtype not in (torch.float16, torch.bfloat16):
        _fail(f"a must be float16 or bfloat16, it is {a.dtype}")
    if b.dtype != a.dtype:
        _fail(f"b must have a's dtype {a.dtype}, it is {b.dtype}")
    if b.device != a.device:
        _fail(f"b must be on a's device {a.device}, it is on {b.device}")
    groups, n, k = b.shape
    if a.shape[-1] != k:
        _fail(f"a's last dimension ({a.shape[-1]}) must be b's K "
              f"({k}); b is [G, N, K] = {tuple(b.shape)}")
    if k == 0:
        _fail("K is 0: there is nothing to multiply")
    if masked:
        if offsets is not None:
            _fail("the masked form takes counts, not offsets")
        if counts is None:
            _fail("the masked form needs counts [G]")
        if a.shape[0] != groups:
            _fail(f"a [G, maxM, K] has {a.shape[0]} groups, b has {groups}")
        counts = _check_index_tensor(torch, "counts", counts, groups,
                                     a.device)
        rows_shape = (groups, a.shape[1], n)
    else:
        if (offsets is None) == (counts is None):
            _fail("give one of offsets [G + 1] and counts [G]")
        if counts is not None:
            counts = _check_index_tensor(torch, "counts", counts, groups,
                                         a.device)
            offsets = torch.zeros(groups + 1, dtype=torch.int32,
                                  device=a.device)
            torch.cumsum(counts, 0, dtype=torch.int32, out=offsets[1:])
        else:
            offsets = _check_index_tensor(torch, "offsets", offsets,
                                          groups + 1, a.device)
        rows_shape = (a.shape[0], n)
    if out is None:
        out = torch.empty(rows_shape, dtype=a.dtype, device=a.device)
    else:
        _check_tensor(torch, "out", out, rank)
        if out.dtype != a.dtype:
            _fail(f"out must have a's dtype {a.dtype}, it is {out.dtype}")
        if out.device != a.device:
            _fail(f"out must be on a's device {a.device}, it is on "
                  f"{out.device}")
        if tuple(out.shape) != rows_shape:
            _fail(f"out must have shape {rows_shape}, it has "
                  f"{tuple(out.shape)}")
    if out.numel() == 0 or groups == 0:
        return out
    if masked and a.shape[0] * a.shape[1] >= 2 ** 31 or \
            not masked and a.shape[0] >= 2 ** 31:
        _fail("more than 2^31 - 1 rows")
    module = _module()
    suffix = ("kn_" if n_major else "") + \
        ("f16" if a.dtype == torch.float16 else "bf16")
    # K-major weights are read as one [G * N, K] matrix; N-major ones as the
    # [G, K, N] tensor they are.
    b_arg = b.transpose(1, 2) if n_major else b.view(groups * n, k)
    if masked:
        fn = getattr(module, f"grouped_mm_masked_{suffix}")
        fn(a.view(-1, k), b_arg, counts, out.view(-1, n))
    else:
        fn = getattr(module, f"grouped_mm_{suffix}")
        fn(a, b_arg, offsets, out)
    return out
