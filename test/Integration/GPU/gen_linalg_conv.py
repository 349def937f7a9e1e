"""Writes linalg convolutions on memrefs as a frontend hands them to
croq (bufferized: a zero-filled padded copy for the padding, a zero fill of
the output, the elementwise consumer after), one function per static shape:
the GPU test module linalg_conv.mlir (conv_tests.py) and the benchmark
module bench/kernels/conv.mlir (bench/bench_conv.py).

Usage: gen_linalg_conv.py {tests|bench} OUT.mlir"""
import sys
from dataclasses import dataclass
from typing import Tuple


@dataclass
class Conv:
    name: str
    n: int
    h: int
    w: int
    c: int
    f: int
    r: int = 3
    s: int = 3
    pad: Tuple[int, int, int, int] = (0, 0, 0, 0)  # top, bottom, left, right
    stride: Tuple[int, int] = (1, 1)
    dilation: Tuple[int, int] = (1, 1)
    hwcf: bool = False
    dtype: str = "f16"
    out: str = "f16"
    bias_relu: bool = False
    #: linalg.conv_2d_nchw_fchw on NCHW input and output, FCHW filters.
    nchw: bool = False

    def padded(self):
        return (self.h + self.pad[0] + self.pad[1],
                self.w + self.pad[2] + self.pad[3])

    def output(self):
        hp, wp = self.padded()
        p = (hp - self.dilation[0] * (self.r - 1) - 1) // self.stride[0] + 1
        q = (wp - self.dilation[1] * (self.s - 1) - 1) // self.stride[1] + 1
        return p, q


#: The GPU tests: each form of the pass, odd sizes and partial tiles.
TESTS = [
    # The layer of issue 42: 8x58x58x64 (padded already) * 128 3x3.
    Conv("conv_issue_f16", 8, 58, 58, 64, 128),
    # Padding from a padded copy, odd H and W, partial M and N tiles.
    Conv("conv_pad1_odd_f16", 2, 13, 11, 64, 96, pad=(1, 1, 1, 1)),
    # hwcf filters, f32 output, two channel blocks.
    Conv("conv_hwcf_f32", 3, 9, 17, 128, 200, pad=(1, 1, 1, 1), hwcf=True,
         out="f32"),
    Conv("conv_stride2_f16", 2, 15, 13, 64, 64, pad=(1, 1, 1, 1),
         stride=(2, 2)),
    Conv("conv_dilation2_f16", 2, 12, 10, 64, 128, pad=(2, 2, 2, 2),
         dilation=(2, 2)),
    # A 5x3 filter, asymmetric padding, strides (1, 2), hwcf.
    Conv("conv_5x3_asym_f16", 1, 11, 9, 64, 64, r=5, s=3, pad=(2, 1, 1, 0),
         stride=(1, 2), hwcf=True),
    # 1x1, stride 1: a plain GEMM; 40 channels (a multiple of 8).
    Conv("conv_1x1_f16", 2, 7, 9, 40, 72, r=1, s=1),
    Conv("conv_bias_relu_f16", 2, 13, 11, 64, 96, pad=(1, 1, 1, 1),
         bias_relu=True),
    Conv("conv_bf16_f32", 1, 10, 10, 64, 64, pad=(1, 1, 1, 1), dtype="bf16",
         out="f32"),
    # Channels that are not whole K steps of 64: the last block of each tap
    # reads zeros past C (A) against the next tap's filters (B).
    Conv("conv_c32_f32", 1, 16, 16, 32, 64, pad=(1, 1, 1, 1), out="f32"),
    Conv("conv_c96_hwcf_f16", 2, 9, 7, 96, 136, pad=(1, 1, 1, 1),
         hwcf=True),
    # NCHW, through NHWC copies.
    Conv("conv_nchw_f16", 2, 11, 9, 64, 72, nchw=True),
]

#: The benchmark layers (ResNet-50 and U-Net), padding 1 for 3x3.
P1 = (1, 1, 1, 1)
BENCH = [
    Conv("r50_64_56_3x3", 8, 56, 56, 64, 64, pad=P1),
    Conv("r50_256_28_3x3", 32, 28, 28, 256, 256, pad=P1),
    Conv("r50_512_14_3x3", 16, 14, 14, 512, 512, pad=P1),
    Conv("r50_128_112_1x1", 8, 112, 112, 128, 128, r=1, s=1),
    Conv("issue_64_58_3x3", 8, 58, 58, 64, 128, pad=P1),
    Conv("unet_320_64_3x3", 4, 64, 64, 320, 320, pad=P1),
    Conv("unet_640_32_3x3", 4, 32, 32, 640, 640, pad=P1),
    Conv("r50_128_56_3x3_s2", 8, 56, 56, 128, 256, pad=P1, stride=(2, 2)),
    Conv("r50_256_28_3x3_bias_relu", 32, 28, 28, 256, 256, pad=P1,
         bias_relu=True),
]


def memref(shape, dtype, layout=""):
    return "memref<" + "x".join(str(d) for d in shape) + f"x{dtype}{layout}>"


def emit(k: Conv) -> str:
    p, q = k.output()
    hp, wp = k.padded()
    if k.nchw:
        return emit_nchw(k)
    xt = memref((k.n, k.h, k.w, k.c), k.dtype)
    wshape = (k.r, k.s, k.c, k.f) if k.hwcf else (k.f, k.r, k.s, k.c)
    wt = memref(wshape, k.dtype)
    ot = memref((k.n, p, q, k.f), k.out)
    args = [f"%x: {xt}", f"%w: {wt}"]
    if k.bias_relu:
        args.append(f"%bias: {memref((k.f,), k.out)}")
    args.append(f"%out: {ot}")
    lines = [f"func.func @{k.name}({', '.join(args)}) {{"]
    zero = "0.0"
    lines.append(f"  %zx = arith.constant {zero} : {k.dtype}")
    lines.append(f"  %zo = arith.constant {zero} : {k.out}")
    src = "%x"
    if any(k.pad):
        pt = memref((k.n, hp, wp, k.c), k.dtype)
        strides = [hp * wp * k.c, wp * k.c, k.c, 1]
        offset = k.pad[0] * wp * k.c + k.pad[2] * k.c
        svt = memref((k.n, k.h, k.w, k.c), k.dtype,
                     f", strided<[{', '.join(map(str, strides))}], "
                     f"offset: {offset}>")
        lines += [
            f"  %padded = memref.alloc() : {pt}",
            f"  linalg.fill ins(%zx : {k.dtype}) outs(%padded : {pt})",
            f"  %interior = memref.subview %padded[0, {k.pad[0]}, {k.pad[2]}, 0]"
            f" [{k.n}, {k.h}, {k.w}, {k.c}] [1, 1, 1, 1] : {pt} to {svt}",
            f"  memref.copy %x, %interior : {xt} to {svt}",
        ]
        src, xt = "%padded", pt
    dst = "%out"
    if k.bias_relu:
        lines.append(f"  %product = memref.alloc() : {ot}")
        dst = "%product"
    op = "conv_2d_nhwc_hwcf" if k.hwcf else "conv_2d_nhwc_fhwc"
    lines += [
        f"  linalg.fill ins(%zo : {k.out}) outs({dst} : {ot})",
        f"  linalg.{op} {{dilations = dense<[{k.dilation[0]}, "
        f"{k.dilation[1]}]> : tensor<2xi64>, strides = dense<[{k.stride[0]}, "
        f"{k.stride[1]}]> : tensor<2xi64>}}",
        f"    ins({src}, %w : {xt}, {wt}) outs({dst} : {ot})",
    ]
    if k.bias_relu:
        lines += [
            "  linalg.generic {indexing_maps = [affine_map<(n, p, q, f) -> "
            "(n, p, q, f)>, affine_map<(n, p, q, f) -> (f)>, "
            "affine_map<(n, p, q, f) -> (n, p, q, f)>], iterator_types = "
            "[\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}",
            f"    ins(%product, %bias : {ot}, {memref((k.f,), k.out)}) "
            f"outs(%out : {ot}) {{",
            f"  ^bb0(%v: {k.out}, %b: {k.out}, %o: {k.out}):",
            f"    %sum = arith.addf %v, %b : {k.out}",
            f"    %relu = arith.maximumf %sum, %zo : {k.out}",
            f"    linalg.yield %relu : {k.out}",
            "  }",
            f"  memref.dealloc %product : {ot}",
        ]
    if any(k.pad):
        lines.append(f"  memref.dealloc %padded : {xt}")
    lines += ["  return", "}"]
    return "\n".join(lines)


def emit_nchw(k: Conv) -> str:
    """A linalg.conv_2d_nchw_fchw into a zeroed output (no padding)."""
    p, q = k.output()
    xt = memref((k.n, k.c, k.h, k.w), k.dtype)
    wt = memref((k.f, k.c, k.r, k.s), k.dtype)
    ot = memref((k.n, k.f, p, q), k.out)
    return "\n".join([
        f"func.func @{k.name}(%x: {xt}, %w: {wt}, %out: {ot}) {{",
        f"  %zo = arith.constant 0.0 : {k.out}",
        f"  linalg.fill ins(%zo : {k.out}) outs(%out : {ot})",
        f"  linalg.conv_2d_nchw_fchw {{dilations = dense<[{k.dilation[0]}, "
        f"{k.dilation[1]}]> : tensor<2xi64>, strides = dense<[{k.stride[0]}, "
        f"{k.stride[1]}]> : tensor<2xi64>}}",
        f"    ins(%x, %w : {xt}, {wt}) outs(%out : {ot})",
        "  return",
        "}"])


HEADER = """\
// GENERATED by gen_linalg_conv.py {which}; do not edit.
"""

if __name__ == "__main__":
    which, out = sys.argv[1], sys.argv[2]
    convs = TESTS if which == "tests" else BENCH
    body = "\n\n".join(emit(k) for k in convs)
    with open(out, "w") as f:
        f.write(HEADER.format(which=which) + "\n" + body + "\n")
