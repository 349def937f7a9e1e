"""GPU tests of TMA loads in im2col mode (im2col.mlir), run by
run_gpu_tests.py.

Each kernel loads, for every tap of a 3x3 filter and every block of 64
output positions and 64 channels, one column of the im2col matrix of an
N x H x W x C f16 tensor by one im2col TMA load, and stores it as rows
tap * Mpad + position (Mpad: the positions rounded up to 64) of a poisoned
output. The reference is torch's unfold of the NCHW view with the same
padding, stride and dilation; it is compared exactly (a load moves values).
Positions past the last image must read zero (TMA's fill for coordinates
past N).

The conv3x3_p1s* kernels are 3x3 convolutions (padding 1, stride 1 or 2)
as implicit GEMMs on wgmma whose A operand comes from im2col loads
(unpipelined, and one with 64 channels pipelined by croq-pipeline-loops): compared with torch's conv2d in float64 within the f16 GEMM
tolerance.
"""

import itertools
import math
from typing import Callable, Sequence, Tuple

import torch

#: The kernels of im2col.mlir and their (padding, stride, dilation), as
#: (H, W) pairs; the filter is 3x3 and each load 64 pixels x 64 channels.
KERNELS = {
    "im2col_s2d2": ((2, 2), (2, 2), (2, 2)),
    "im2col_asym": ((1, 2), (2, 1), (1, 2)),
}
TILE = 64
TAPS = 9


def reference(x: torch.Tensor, padding, stride, dilation) -> torch.Tensor:
    """The im2col matrix of NHWC `x` as the kernels write it:
    [tap, position, channel], position = (n, output row, output column)."""
    n, h, w, c = x.shape
    cols = torch.nn.functional.unfold(
        x.permute(0, 3, 1, 2).float(), kernel_size=3, dilation=dilation,
        padding=padding, stride=stride)  # [N, C * 9, L], channel-major
    positions = cols.shape[2]
    cols = cols.view(n, c, TAPS, positions).permute(2, 0, 3, 1)
    return cols.reshape(TAPS, n * positions, c).to(x.dtype)


#: The kernels of other ranks: (padding, stride, dilation) per spatial
#: dimension, outermost first.
KERNELS_ND = {
    "im2col_nwc": ((2,), (2,), (2,)),
    "im2col_ndhwc": ((1, 0, 1), (1, 2, 1), (1, 1, 2)),
}


def reference_nd(x: torch.Tensor, padding: Sequence[int],
                 stride: Sequence[int], dilation: Sequence[int]
                 ) -> torch.Tensor:
    """The im2col matrix of channels-last `x` (any number of spatial
    dimensions, 3-tap filters) by slicing a zero-padded copy, as
    [tap, position, channel], taps in row-major order."""
    spatial = x.shape[1:-1]
    pad = []
    for p in reversed(padding):
        pad += [p, p]
    xp = torch.nn.functional.pad(x, [0, 0] + pad)
    extents = [(size + 2 * p - d * 2 - 1) // s + 1
               for size, p, s, d in zip(spatial, padding, stride, dilation)]
    columns = []
    for tap in itertools.product(range(3), repeat=len(spatial)):
        index = [slice(None)]
        for t, e, s, d in zip(tap, extents, stride, dilation):
            index.append(slice(t * d, t * d + (e - 1) * s + 1, s))
        index.append(slice(None))
        columns.append(xp[tuple(index)].reshape(-1, x.shape[-1]))
    return torch.stack(columns)


def conv_reference(x: torch.Tensor, w: torch.Tensor,
                   stride: int) -> torch.Tensor:
    """conv2d of NHWC `x` with FHWC `w`, padding 1, as [N * P * Q, F] in
    float64."""
    out = torch.nn.functional.conv2d(
        x.permute(0, 3, 1, 2).double(), w.permute(0, 3, 1, 2).double(),
        padding=1, stride=stride)
    return out.permute(0, 2, 3, 1).reshape(-1, w.shape[0])


def im2col_tests(s, random_tensor: Callable, poisoned: Callable,
                 compare: Callable, compare_close: Callable,
                 tolerance: float) -> None:
    def case(kernel: str, shape: Tuple[int, int, int, int]) -> None:
        padding, stride, dilation = KERNELS[kernel]

        def run():
            m = s.module("im2col")
            x = random_tensor(shape, torch.float16)
            ref = reference(x, padding, stride, dilation)
            positions = ref.shape[1]
            mpad = math.ceil(positions / TILE) * TILE
            cpad = math.ceil(shape[3] / TILE) * TILE
            out = poisoned((TAPS * mpad, cpad), torch.float16)
            getattr(m, kernel)(x, out)
            got = out.view(TAPS, mpad, cpad)
            return got, ref, positions

        def body():
            got, ref, positions = run()
            return compare(got[:, :positions, :shape[3]].contiguous(), ref)

        def past_the_end():
            # Positions past the last image, and channels past C, read zero.
            got, ref, positions = run()
            tail = torch.cat([got[:, positions:, :].reshape(-1),
                              got[:, :, ref.shape[2]:].reshape(-1)])
            return compare(tail, torch.zeros_like(tail))

        name = "x".join(str(d) for d in shape)
        s.run(f"{kernel} {name} (im2col TMA load vs torch unfold)", kernel,
              body)
        s.run(f"{kernel} {name} (positions past the end read zero)", kernel,
              past_the_end)

    # Odd H and W, positions that do not fill the last column of 64, two
    # blocks of channels, and a channel count that is not a multiple of 64.
    for kernel in KERNELS:
        for shape in [(2, 13, 11, 64), (3, 17, 9, 128), (1, 5, 7, 96)]:
            case(kernel, shape)

    def case_nd(kernel: str, shape: Tuple[int, ...]) -> None:
        padding, stride, dilation = KERNELS_ND[kernel]

        def body():
            m = s.module("im2col")
            x = random_tensor(shape, torch.float16)
            ref = reference_nd(x, padding, stride, dilation)
            taps, positions = ref.shape[0], ref.shape[1]
            mpad = math.ceil(positions / TILE) * TILE
            cpad = math.ceil(shape[-1] / TILE) * TILE
            out = poisoned((taps * mpad, cpad), torch.float16)
            getattr(m, kernel)(x, out)
            got = out.view(taps, mpad, cpad)
            return compare(got[:, :positions, :shape[-1]].contiguous(), ref)

        name = "x".join(str(d) for d in shape)
        s.run(f"{kernel} {name} (im2col TMA load vs sliced padded copy)",
              kernel, body)

    # Rank 3 (a 1-d convolution's NWC input) and rank 5 (NDHWC).
    for shape in [(3, 37, 64), (2, 100, 96)]:
        case_nd("im2col_nwc", shape)
    for shape in [(2, 5, 7, 9, 64), (1, 4, 6, 5, 128)]:
        case_nd("im2col_ndhwc", shape)

    def conv(stride: int, n: int, h: int, w: int, c: int, f: int,
             pipelined: bool = False) -> None:
        kernel = {(1, False): "conv3x3_p1s1_f16",
                  (2, False): "conv3x3_p1s2_f16",
                  (1, True): "conv3x3_p1s1_pipelined_f16"}[stride, pipelined]

        def body():
            m = s.module("im2col")
            x = random_tensor((n, h, w, c), torch.float16)
            filters = random_tensor((f, 3, 3, c), torch.float16)
            ref = conv_reference(x, filters, stride)
            out = poisoned(tuple(ref.shape), torch.float16)
            getattr(m, kernel)(x, filters.reshape(f, 9 * c), out)
            return compare_close(out, ref, tolerance)

        how = "pipelined" if pipelined else "unpipelined"
        s.run(f"{kernel} {n}x{h}x{w}x{c} * {f}x3x3x{c} ({how} implicit "
              f"GEMM, im2col TMA A)", kernel, body)

    # Odd sizes, positions and filters that do not fill the last tiles, and
    # the 8x58x58x64 input of issue 42 with 128 filters (padding 1 here).
    for stride in (1, 2):
        conv(stride, 2, 13, 11, 64, 96)
        conv(stride, 3, 9, 17, 128, 200)
        conv(stride, 8, 58, 58, 64, 128)
    # The pipelined kernel (croq-pipeline-loops: producer warpgroup, rings of
    # stages) takes 64 channels.
    conv(1, 2, 13, 11, 64, 96, pipelined=True)
    conv(1, 3, 9, 17, 64, 200, pipelined=True)
    conv(1, 8, 58, 58, 64, 128, pipelined=True)
