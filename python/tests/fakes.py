"""Stand-ins for torch tensors and CUDA arrays, so that the argument checks
can be tested without torch or a GPU. Only the attributes croq reads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence, Tuple


@dataclass(frozen=True)
class FakeDtype:
    name: str
    itemsize: int

    def __str__(self) -> str:
        return f"torch.{self.name}"


float32 = FakeDtype("float32", 4)
float16 = FakeDtype("float16", 2)
bfloat16 = FakeDtype("bfloat16", 2)
int32 = FakeDtype("int32", 4)
int8 = FakeDtype("int8", 1)


@dataclass(frozen=True)
class FakeDevice:
    type: str
    index: Optional[int]


def dense(shape: Sequence[int]) -> Tuple[int, ...]:
    strides, step = [], 1
    for s in reversed(shape):
        strides.append(step)
        step *= max(s, 1)
    return tuple(reversed(strides))


class Tensor:
    """Looks like a torch.Tensor to croq (its module is 'torch')."""

    def __init__(self, shape: Sequence[int], dtype: FakeDtype = float32, *,
                 strides: Optional[Sequence[int]] = None,
                 ptr: int = 0x7F0000000000, device: str = "cuda",
                 index: Optional[int] = 0, storage: Optional[int] = None):
        self.shape = tuple(shape)
        self.dtype = dtype
        self._strides = tuple(strides) if strides is not None else dense(shape)
        self._ptr = ptr
        self.device = FakeDevice(device, index if device == "cuda" else None)
        self._storage = ptr if storage is None else storage

    def data_ptr(self) -> int:
        return self._ptr

    def stride(self) -> Tuple[int, ...]:
        return self._strides

    def get_device(self) -> int:
        return self.device.index if self.device.type == "cuda" else -1

    def element_size(self) -> int:
        return self.dtype.itemsize

    def untyped_storage(self):
        ptr = self._storage

        class Storage:
            def data_ptr(self) -> int:
                return ptr
        return Storage()


Tensor.__module__ = "torch"


class CudaArray:
    """An object with a __cuda_array_interface__ (as CuPy's arrays have)."""

    def __init__(self, shape, typestr="<f4", strides=None,
                 ptr=0x7F0000100000):
        self.__cuda_array_interface__ = {
            "shape": tuple(shape), "typestr": typestr, "strides": strides,
            "data": (ptr, False), "version": 3}
