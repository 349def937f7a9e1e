"""MLIR's C interface for croq's entry points: the ctypes structure of a
memref descriptor (``{T *allocated; T *aligned; int64 offset; int64
sizes[R]; int64 strides[R]}``) and of a scalar argument, and the value
passed by reference for an argument. :mod:`croq.module` passes them to
``_mlir_ciface_<name>``."""

from __future__ import annotations

import ctypes
from typing import Any, Dict

from .arguments import ArgumentView
from .signature import MemRefArg

_descriptor_types: Dict[int, type] = {}


def descriptor_type(rank: int) -> type:
    """The ctypes structure of a rank-``rank`` MLIR memref descriptor."""
    if rank not in _descriptor_types:
        fields = [("allocated", ctypes.c_void_p),
                  ("aligned", ctypes.c_void_p),
                  ("offset", ctypes.c_int64)]
        if rank:
            fields += [("sizes", ctypes.c_int64 * rank),
                       ("strides", ctypes.c_int64 * rank)]
        _descriptor_types[rank] = type(f"MemRefDescriptor{rank}",
                                       (ctypes.Structure,),
                                       {"_fields_": fields})
    return _descriptor_types[rank]


#: The ctypes type that holds a scalar argument of each type (signless
#: integers as signed ones of their width: ctypes wraps an unsigned value
#: to the same bits).
SCALAR_CTYPES: Dict[str, type] = {
    "i1": ctypes.c_uint8, "i8": ctypes.c_int8, "i16": ctypes.c_int16,
    "i32": ctypes.c_int32, "i64": ctypes.c_int64, "index": ctypes.c_int64,
    "f32": ctypes.c_float, "f64": ctypes.c_double}

#: The native launcher's code of each scalar type (_launch.c); 0 is a
#: tensor.
_SCALAR_KINDS = {"i1": 1, "i8": 2, "i16": 3, "i32": 4, "i64": 5,
                 "index": 5, "f32": 6, "f64": 7}


def argument_type(arg: MemRefArg) -> type:
    """The ctypes type a pointer to which is passed for ``arg``: its
    descriptor's, or its scalar's."""
    if arg.scalar:
        return SCALAR_CTYPES[arg.element_type]
    return descriptor_type(arg.rank)


def make_argument(arg: MemRefArg, view: ArgumentView) -> Any:
    """What is passed by reference for ``view``: the descriptor of a
    memref, the value of a scalar."""
    if arg.scalar:
        return SCALAR_CTYPES[arg.element_type](view.value)
    return make_descriptor(arg, view)


def make_descriptor(arg: MemRefArg, view: ArgumentView) -> ctypes.Structure:
    """The descriptor of ``view`` for the memref ``arg``. A static offset
    in the memref type is moved from the data pointer into the offset
    field, as MLIR's C interface expects."""
    offset = arg.offset or 0
    aligned = view.ptr - offset * view.itemsize
    desc = descriptor_type(arg.rank)()
    desc.allocated = view.base if view.base is not None else aligned
    desc.aligned = aligned
    desc.offset = offset
    for d in range(arg.rank):
        desc.sizes[d] = view.shape[d]
        # A static stride is what the kernel assumes; for size-1 dimensions
        # the host's stride may differ but is never used.
        static = arg.strides[d]
        desc.strides[d] = view.strides[d] if static is None else static
    return desc
