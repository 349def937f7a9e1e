"""Kernel arguments: what a call may pass for a memref or a scalar, and the
rules each value is checked against before anything reaches the GPU.

A memref argument may be given as

- a ``torch.Tensor`` on a CUDA device,
- any object with a ``__cuda_array_interface__`` (CuPy, Numba, ...),
- a :class:`Buffer`: a raw device pointer with a shape, strides and dtype.

Every value is turned into an :class:`ArgumentView` (pointer, shape,
strides in elements, element size, device) and checked against the memref
type of the signature: element type, rank, static sizes, static strides,
contiguity where the memref has the identity layout, element alignment of
the data pointer, and the device. A broken rule raises
:class:`croq.ArgumentError`, which names the argument.

A scalar argument (i1, i8, i16, i32, i64, index, f32, f64) takes a Python
number: ``bool`` for i1, an ``int`` in the type's range for the other
integers (signed or unsigned: the types are signless), an ``int`` or a
``float`` for f32 and f64. Its :class:`ArgumentView` carries the value.

Alignment: croq's 16-byte vector paths check the alignment of every tile at
run time and fall back to scalar accesses, so only the alignment of one
element is required. :attr:`ArgumentView.aligned16` says whether the fast
path is possible.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any, Optional, Sequence, Tuple

from .errors import ArgumentError
from .signature import ElementType, MemRefArg, element_type


@dataclass
class Buffer:
    """A raw device pointer with its layout, for callers without torch.

    Attributes:
        ptr: the address of element (0, ..., 0) in device memory.
        shape: the sizes.
        strides: the strides in elements; row-major (dense) when None.
        dtype: the element type: an MLIR name (``"f32"``), a torch-style
            name (``"float32"``) or a ``torch.dtype``.
        device: the CUDA device index, or None to leave it unchecked.
    """

    ptr: int
    shape: Sequence[int]
    strides: Optional[Sequence[int]] = None
    dtype: Any = "f32"
    device: Optional[int] = None


def dense_strides(shape: Sequence[int]) -> Tuple[int, ...]:
    """Row-major strides, in elements, of a dense tensor of ``shape``."""
    strides = []
    step = 1
    for size in reversed(list(shape)):
        strides.append(step)
        step *= max(int(size), 1)
    return tuple(reversed(strides))


@dataclass
class ArgumentView:
    """What a call passes for one memref: the data pointer, the sizes, the
    strides in elements, the element size, and where it came from."""

    index: int
    ptr: int
    shape: Tuple[int, ...]
    strides: Tuple[int, ...]
    itemsize: int
    element: ElementType
    device: Optional[int]
    base: Optional[int] = None
    is_torch: bool = False
    #: The value of a scalar argument (an int or a float), else None.
    value: Any = None

    @property
    def aligned16(self) -> bool:
        """Whether the data pointer is 16-byte aligned (croq's vector paths
        also need 16-byte aligned rows; they check at run time)."""
        return self.ptr % 16 == 0


def _is_torch_tensor(value: Any) -> bool:
    return (type(value).__module__.split(".")[0] == "torch"
            and hasattr(value, "data_ptr") and hasattr(value, "stride"))


def _from_torch(arg: MemRefArg, value: Any) -> ArgumentView:
    dtype = str(value.dtype).replace("torch.", "")
    if dtype not in arg.element.torch_dtypes:
        wanted = " or ".join(f"torch.{d}" for d in arg.element.torch_dtypes)
        raise ArgumentError(
            arg.index, arg.name,
            f"has dtype torch.{dtype} but {arg.describe()} needs {wanted}")
    device = value.device
    if device.type != "cuda":
        raise ArgumentError(
            arg.index, arg.name,
            f"is on the {device.type} device; croq kernels take CUDA tensors "
            f"(move it with .cuda())")
    base = None
    try:
        base = int(value.untyped_storage().data_ptr())
    except Exception:  # pragma: no cover - older torch, or a fake tensor
        base = None
    return ArgumentView(arg.index, int(value.data_ptr()), tuple(value.shape),
                        tuple(int(s) for s in value.stride()),
                        int(value.element_size()), arg.element,
                        device.index if device.index is not None else 0,
                        base, is_torch=True)


def _from_cuda_array_interface(arg: MemRefArg, value: Any) -> ArgumentView:
    cai = value.__cuda_array_interface__
    typestr = cai.get("typestr", "")
    if typestr not in arg.element.typestrs:
        wanted = " or ".join(arg.element.typestrs) or "none: pass a torch "\
            "tensor or a croq.Buffer"
        raise ArgumentError(
            arg.index, arg.name,
            f"has __cuda_array_interface__ type {typestr!r} but "
            f"{arg.describe()} needs {wanted}")
    shape = tuple(int(s) for s in cai["shape"])
    itemsize = arg.element.size
    if cai.get("strides") is None:
        strides = dense_strides(shape)
    else:
        byte_strides = [int(s) for s in cai["strides"]]
        if any(s % itemsize for s in byte_strides):
            raise ArgumentError(
                arg.index, arg.name,
                f"has byte strides {tuple(byte_strides)} that are not "
                f"multiples of its {itemsize}-byte elements")
        strides = tuple(s // itemsize for s in byte_strides)
    return ArgumentView(arg.index, int(cai["data"][0]), shape, strides,
                        itemsize, arg.element, None)


def _from_buffer(arg: MemRefArg, value: Buffer) -> ArgumentView:
    try:
        etype = element_type(value.dtype)
    except ValueError as e:
        raise ArgumentError(arg.index, arg.name, str(e)) from None
    if etype.name != arg.element_type:
        raise ArgumentError(
            arg.index, arg.name,
            f"is a Buffer of {etype.name} but {arg.describe()} needs "
            f"{arg.element_type}")
    shape = tuple(int(s) for s in value.shape)
    strides = dense_strides(shape) if value.strides is None else tuple(
        int(s) for s in value.strides)
    if len(strides) != len(shape):
        raise ArgumentError(arg.index, arg.name,
                            f"is a Buffer with {len(shape)} sizes but "
                            f"{len(strides)} strides")
    if not isinstance(value.ptr, int) or value.ptr <= 0:
        raise ArgumentError(arg.index, arg.name,
                            f"is a Buffer with pointer {value.ptr!r}; expected "
                            f"a non-null device address")
    return ArgumentView(arg.index, value.ptr, shape, strides, etype.size,
                        etype, value.device)


def _check_layout(arg: MemRefArg, view: ArgumentView) -> None:
    """Checks rank, sizes, strides and alignment of ``view`` against
    ``arg``."""
    if len(view.shape) != arg.rank:
        raise ArgumentError(
            arg.index, arg.name,
            f"has rank {len(view.shape)} (shape {view.shape}) but "
            f"{arg.describe()} has rank {arg.rank}")
    for d, (size, static) in enumerate(zip(view.shape, arg.shape)):
        if static is not None and size != static:
            raise ArgumentError(
                arg.index, arg.name,
                f"has size {size} in dimension {d} (shape {view.shape}) but "
                f"{arg.describe()} needs {static}")
    if any(size == 0 for size in view.shape):
        raise ArgumentError(
            arg.index, arg.name,
            f"has no elements (shape {view.shape}); croq kernels are not "
            f"launched on empty tensors")
    if any(s < 0 for s in view.strides):
        raise ArgumentError(arg.index, arg.name,
                            f"has negative strides {view.strides}")
    if arg.identity_layout:
        dense = dense_strides(view.shape)
        for d, size in enumerate(view.shape):
            if size != 1 and view.strides[d] != dense[d]:
                raise ArgumentError(
                    arg.index, arg.name,
                    f"is not contiguous (strides {view.strides}, dense "
                    f"would be {dense}); {arg.describe()} has the identity "
                    f"layout (use .contiguous(), or a strided memref type)")
    for d, (size, stride, static) in enumerate(
            zip(view.shape, view.strides, arg.strides)):
        if size == 1:
            continue  # the stride of a size-1 dimension is never used
        if static is not None and stride != static:
            raise ArgumentError(
                arg.index, arg.name,
                f"has stride {stride} in dimension {d} (strides "
                f"{view.strides}) but {arg.describe()} needs {static}")
    if view.ptr % view.itemsize:
        raise ArgumentError(
            arg.index, arg.name,
            f"has data pointer {view.ptr:#x}, not aligned to its "
            f"{view.itemsize}-byte elements")


def scalar_value(arg: MemRefArg, value: Any) -> Any:
    """``value`` as the Python number the scalar ``arg`` passes: an int, or
    a float for f32 and f64.

    Raises:
        croq.ArgumentError: ``value`` is not a number of the argument's type
            or lies outside its range.
    """
    kind = arg.element_type
    what = f"{type(value).__module__}.{type(value).__qualname__}"
    if kind in ("f32", "f64"):
        if isinstance(value, numbers.Real) and not isinstance(value, bool):
            return float(value)
        raise ArgumentError(arg.index, arg.name,
                            f"is a {what}; the {kind} scalar takes an int or "
                            f"a float")
    if kind == "i1":
        if isinstance(value, bool) or (isinstance(value, numbers.Integral)
                                       and int(value) in (0, 1)):
            return int(value)
        raise ArgumentError(arg.index, arg.name,
                            f"is {value!r}; the i1 scalar takes a bool")
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        raise ArgumentError(arg.index, arg.name,
                            f"is a {what}; the {kind} scalar takes an int")
    bits = 64 if kind == "index" else int(kind[1:])
    low = -(1 << (bits - 1))
    high = (1 << (bits - 1)) - 1 if kind == "index" else (1 << bits) - 1
    if not low <= int(value) <= high:
        raise ArgumentError(arg.index, arg.name,
                            f"is {int(value)}, outside the range of {kind} "
                            f"({low} to {high})")
    return int(value)


def view_argument(arg: MemRefArg, value: Any) -> ArgumentView:
    """Checks ``value`` against the memref or scalar ``arg`` and returns
    what will be passed for it.

    Raises:
        croq.ArgumentError: ``value`` breaks a rule; the message names the
            argument and the rule.
    """
    if arg.scalar:
        return ArgumentView(arg.index, 0, (), (), arg.element.size,
                            arg.element, None,
                            value=scalar_value(arg, value))
    if isinstance(value, Buffer):
        view = _from_buffer(arg, value)
    elif _is_torch_tensor(value):
        view = _from_torch(arg, value)
    elif hasattr(value, "__cuda_array_interface__"):
        view = _from_cuda_array_interface(arg, value)
    else:
        raise ArgumentError(
            arg.index, arg.name,
            f"is a {type(value).__module__}.{type(value).__qualname__}; "
            f"expected a torch CUDA tensor, an object with "
            f"__cuda_array_interface__, or a croq.Buffer for "
            f"{arg.describe()}")
    _check_layout(arg, view)
    return view
