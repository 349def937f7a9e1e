# ===- conv_tests.py - GPU tests of linalg convolutions as implicit GEMMs -===#
#
# The functions of linalg_conv.mlir (gen_linalg_conv.py): linalg
# convolutions on memrefs, as a frontend hands them over, that
# convert-linalg-to-croq makes implicit GEMMs (im2col TMA loads of A) or,
# for 1x1 ones, plain GEMMs. Random NHWC inputs and filters, outputs
# poisoned with NaN, compared with torch's conv2d in float64 within the
# GEMM tolerance of the operands' type. run_gpu_tests.py runs them with the
# other groups.
#
# ===----------------------------------------------------------------------===#

import torch

from gen_linalg_conv import TESTS

DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}


def nchw_reference(k, x, w):
    """conv2d of NCHW `x` with FCHW `w` in float64, NCHW."""
    return torch.nn.functional.conv2d(x.double(), w.double(),
                                      stride=k.stride, dilation=k.dilation)


def conv_reference(k, x, w, bias=None):
    """conv2d of NHWC `x` with filters `w` (FHWC, or HWCF for an hwcf
    convolution) in float64, NHWC, the padding of `k` (top, bottom, left,
    right), then bias and relu where `k` fuses them."""
    filters = w.permute(3, 0, 1, 2) if k.hwcf else w  # -> F, R, S, C
    xp = torch.nn.functional.pad(
        x.permute(0, 3, 1, 2).double(),
        [k.pad[2], k.pad[3], k.pad[0], k.pad[1]])
    out = torch.nn.functional.conv2d(
        xp, filters.permute(0, 3, 1, 2).double(), stride=k.stride,
        dilation=k.dilation).permute(0, 2, 3, 1)
    if bias is not None:
        # The generic adds and clamps in the output's type: the product
        # rounded first.
        out = out.to(DTYPES[k.out]).double() + bias.double()
        out = torch.relu(out)
    return out


def conv_tests(s, random_tensor, poisoned, compare_close, tolerances):
    def case(k):
        def body():
            dtype, out_type = DTYPES[k.dtype], DTYPES[k.out]
            p, q = k.output()
            if k.nchw:
                x = random_tensor((k.n, k.c, k.h, k.w), dtype)
                w = random_tensor((k.f, k.c, k.r, k.s), dtype)
                out = poisoned((k.n, k.f, p, q), out_type)
                getattr(s.module("linalg_conv"), k.name)(x, w, out)
                return compare_close(out, nchw_reference(k, x, w),
                                     tolerances[dtype])
            x = random_tensor((k.n, k.h, k.w, k.c), dtype)
            wshape = (k.r, k.s, k.c, k.f) if k.hwcf else (k.f, k.r, k.s, k.c)
            w = random_tensor(wshape, dtype)
            out = poisoned((k.n, p, q, k.f), out_type)
            args = [x, w]
            bias = None
            if k.bias_relu:
                bias = random_tensor((k.f,), out_type)
                args.append(bias)
            getattr(s.module("linalg_conv"), k.name)(*args, out)
            ref = conv_reference(k, x, w, bias)
            return compare_close(out, ref, tolerances[dtype])
        form = ("1x1 plain GEMM" if k.r == k.s == 1 and k.stride == (1, 1)
                else "implicit GEMM, im2col TMA A")
        if k.nchw:
            form += ", NCHW through NHWC copies"
        s.run(f"linalg_conv {k.name} {k.n}x{k.h}x{k.w}x{k.c} * {k.f} "
              f"{k.r}x{k.s} pad {k.pad} stride {k.stride} dilation "
              f"{k.dilation} ({form})", k.name, body)

    # The functions of linalg_conv.mlir, named as they are there.
    names = ("conv_issue_f16", "conv_pad1_odd_f16", "conv_hwcf_f32",
             "conv_stride2_f16", "conv_dilation2_f16", "conv_5x3_asym_f16",
             "conv_1x1_f16", "conv_bias_relu_f16", "conv_bf16_f32",
             "conv_c32_f32", "conv_c96_hwcf_f16", "conv_nchw_f16")
    specs = {k.name: k for k in TESTS}
    assert set(names) == set(specs), "linalg_conv.mlir is not gen_linalg_conv.py's"
    for name in names:
        case(specs[name])
