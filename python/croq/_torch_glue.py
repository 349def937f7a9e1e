"""croq's ties to torch, none of which imports torch: torch's current stream
of a call, torch.Tensor once imported, the custom operator ``croq::call``
through which torch.compile's graphs reach entry points, the operator
names this process registered, and whether torch.compile is tracing.
:mod:`croq.module` calls them."""

from __future__ import annotations

import sys
from typing import Any, Callable, List, Optional, Sequence

from .arguments import ArgumentView

#: An argument not passed (EntryPoint._bind) or a stream not given.
_MISSING = object()


def _raw_stream_function() -> Optional[Callable[[int], int]]:
    """torch's current raw CUstream of a device index, read without making
    a Stream object (a few microseconds less per call); None where torch is
    not imported or lacks it."""
    torch = sys.modules.get("torch")
    return getattr(getattr(torch, "_C", None), "_cuda_getCurrentRawStream",
                   None)


def _torch_tensor_type() -> Optional[type]:
    """torch.Tensor once torch is imported, else None (no import here)."""
    global _TENSOR_TYPE
    if _TENSOR_TYPE is None:
        torch = sys.modules.get("torch")
        _TENSOR_TYPE = getattr(torch, "Tensor", None)
    return _TENSOR_TYPE


_TENSOR_TYPE: Optional[type] = None

#: torch.compiler.is_compiling once torch is imported (_tracing).
_IS_COMPILING: Optional[Callable[[], bool]] = None

#: The torch operator names entry points of this process registered: a
#: module loaded twice gets new names (torch refuses a name twice).
_OP_NAMES: set = set()


def _unused_op_name(name: str) -> str:
    """`name`, or `name` with a number appended where taken."""
    candidate, n = name, 1
    while candidate in _OP_NAMES:
        n += 1
        candidate = f"{name}_{n}"
    return candidate


def _find_is_compiling() -> Optional[Callable[[], bool]]:
    global _IS_COMPILING
    if _IS_COMPILING is None:
        compiler = getattr(sys.modules.get("torch"), "compiler", None)
        _IS_COMPILING = getattr(compiler, "is_compiling", None)
    return _IS_COMPILING


#: Scalar element types passed to croq::call as floats (the others as ints).
_FLOAT_SCALARS = ("f16", "bf16", "f32", "f64")

#: The entry points croq::call runs, by number (EntryPoint._traced_id).
#: Entry points stay alive with their module's library, which is never
#: unloaded.
_TRACED_ENTRIES: List["EntryPoint"] = []

#: croq::call, once registered (_traced_op).
_TRACED_OP: Any = None


def _traced_op() -> Any:
    """The one torch custom operator through which torch.compile's graphs
    call croq entry points: ``croq::call(int entry, Tensor(a!)[] written,
    Tensor[] read, int[] ints, float[] floats)``, the entry point by number
    and its arguments by kind. One registration a process (the first costs
    torch's custom-operator machinery); its fake implementation does
    nothing."""
    global _TRACED_OP
    if _TRACED_OP is None:
        import torch

        def run(entry, written, read, ints, floats):
            _TRACED_ENTRIES[entry]._run_traced(written, read, ints, floats)
        name = _unused_op_name("croq::call")
        op = torch.library.custom_op(
            name, run, mutates_args=("written",),
            schema="(int entry, Tensor(a!)[] written, Tensor[] read, "
                   "int[] ints, float[] floats) -> ()")
        op.register_fake(lambda *args: None)
        _OP_NAMES.add(name)
        _TRACED_OP = op
    return _TRACED_OP


def _tracing() -> bool:
    """Whether torch.compile is tracing the current call: then it goes
    through the entry point's custom operator, since Dynamo cannot trace
    the native launcher. Found once torch is imported; no import here."""
    is_compiling = _IS_COMPILING
    if is_compiling is None:
        is_compiling = _find_is_compiling()
        if is_compiling is None:
            return False
    return is_compiling()


#: Words a torch operator schema cannot use as argument names.
_TORCH_SCHEMA_WORDS = {"Tensor", "int", "float", "bool", "str", "None",
                       "self", "out"}


def _stream_handle(stream: Any, views: Sequence[ArgumentView]) -> int:
    """The CUstream to launch on: `stream` (a torch.cuda.Stream, an object
    with a ``cuda_stream`` handle, an int or None for the default stream),
    else torch's current stream on the device of the torch arguments, else
    the default stream."""
    if stream is not _MISSING:
        if stream is None:
            return 0
        handle = getattr(stream, "cuda_stream", stream)
        if not isinstance(handle, int) or isinstance(handle, bool) or \
                handle < 0:
            raise TypeError(f"stream must be a torch.cuda.Stream, a CUstream "
                            f"handle (int) or None, got {stream!r}")
        return handle
    devices = {v.device for v in views if v.is_torch and v.device is not None}
    if not devices:
        return 0
    # A torch tensor exists, so torch is imported (unless it is a stand-in).
    torch = sys.modules.get("torch")
    device = next(iter(devices))
    raw = _raw_stream_function()
    if raw is not None:
        return int(raw(device))
    current = getattr(getattr(torch, "cuda", None), "current_stream", None)
    if current is None:
        return 0
    return int(current(device).cuda_stream)
