"""GPU tests of elementwise adds, dma copies, zero-filled copies,
transposes and swizzled tiles (run_gpu_tests.py runs them): exact
comparisons against torch on random inputs, outputs poisoned first."""

from __future__ import annotations

from typing import Sequence, Tuple

import torch

from gpu_test_support import (
    DEVICE, Suite, compare, compare_close, misaligned, poison_, poisoned,
    random_tensor, shape_name)


def add_tests(s: Suite) -> None:
    def case(kernel: str, dtype: torch.dtype, shape: Tuple[int, ...]) -> None:
        def body():
            m = s.module("tiled_add")
            a, b = random_tensor(shape, dtype), random_tensor(shape, dtype)
            c = poisoned(shape, dtype)
            getattr(m, kernel)(a, b, c)
            if dtype.is_floating_point:
                ref = (a.double() + b.double()).to(dtype)
            else:
                ref = a + b
            return compare(c, ref)
        s.run(f"{kernel} {shape_name(shape)}", kernel, body)

    case("add_i32_64x128", torch.int32, (64, 128))
    for shape in [(1000, 1000), (64, 128), (1, 1), (33, 65)]:
        case("add_i32", torch.int32, shape)
    for shape in [(1000, 1000), (4096, 4096), (1, 1), (31, 97)]:
        case("add_f32", torch.float32, shape)
    for shape in [(1000, 1000), (17, 33)]:
        case("add_f16", torch.float16, shape)
        case("add_bf16", torch.bfloat16, shape)

    def scaled(shape: Tuple[int, ...], calls: Sequence[Tuple]) -> None:
        """scaled_add_f32: scalars of every type, by position and by name,
        with other values on each call (the native launcher converts them
        per call; nothing of an earlier call's values is kept)."""
        def body():
            m = s.module("tiled_add")
            a = random_tensor(shape, torch.float32)
            b = random_tensor(shape, torch.float32)
            for i, values in enumerate(calls):
                alpha, beta, bias, wide, offset, negate, tiny, short = values
                c = poisoned(shape, torch.float32)
                if i % 2:
                    m.scaled_add_f32(a, b, c, alpha=alpha, beta=beta,
                                     bias=bias, wide=wide, offset=offset,
                                     negate=negate, tiny=tiny, short=short)
                else:
                    m.scaled_add_f32(a, b, c, *values)
                # i8 and i16 are signless: 200 is -56 in the kernel's extsi.
                signed = [v - (1 << w) if v >= 1 << (w - 1) else v
                          for v, w in ((tiny, 8), (short, 16))]
                shift = float(bias + wide + offset + sum(signed))
                beta32 = float(torch.tensor(beta, dtype=torch.float32))
                alpha32 = float(torch.tensor(alpha, dtype=torch.float32))
                ref = (alpha32 * a.double() + beta32 * b.double() +
                       shift) * (-1.0 if negate else 1.0)
                ok, err, detail = compare_close(c, ref, 1e-6)
                if not ok:
                    return ok, err, f"call {i} {values}: {detail}"
            return ok, err, ""
        s.run(f"scaled_add_f32 (scalar arguments) {shape_name(shape)}",
              "scaled_add_f32", body)

    # The integer sums stay small (the i64 and index values beyond 32 bits
    # cancel) so that alpha a + beta b is not rounded away.
    calls = [(0.5, -2.25, 3, -(1 << 33) + 5, 1 << 33, False, -4, 2),
             (-1.75, 1e-3, 57, 1 << 40, -(1 << 40), True, 200, 65535),
             (3, 2, -1, 0, 1, True, 0, 0),
             (0.5, -2.25, 3, -(1 << 33) + 5, 1 << 33, False, -4, 2)]
    for shape in [(1000, 1000), (31, 97)]:
        scaled(shape, calls)


def copy_tests(s: Suite) -> None:
    def case(kernel: str, dtype: torch.dtype, shape: Tuple[int, ...],
             src_offset: int = 0, dst_offset: int = 0) -> None:
        label = f"{kernel} {shape_name(shape)}"
        if src_offset or dst_offset:
            label += f" misaligned(src+{src_offset}, dst+{dst_offset})"

        def body():
            m = s.module("copy")
            src = misaligned(shape, dtype, src_offset, random_tensor) \
                if src_offset else random_tensor(shape, dtype)
            dst = misaligned(shape, dtype, dst_offset, poisoned) \
                if dst_offset else poisoned(shape, dtype)
            getattr(m, kernel)(src, dst)
            return compare(dst, src)
        s.run(label, kernel, body)

    ragged = [(1000, 1000), (1, 1), (65, 1), (1, 65), (64, 65), (129, 63),
              (1000, 1001)]
    for shape in ragged + [(4096, 4096)]:
        case("copy_f32", torch.float32, shape)
    # 1000-byte i8 rows are not 16-byte multiples (scalar path); 1024 are.
    for shape in [(1000, 1000), (1, 1), (63, 129), (1000, 1001), (1000, 1024)]:
        case("copy_f16", torch.float16, shape)
        case("copy_i8", torch.int8, shape)
    for shape in [(1000, 1000), (1, 1), (64, 65), (1000, 1001)]:
        case("copy_f32_async", torch.float32, shape)
    for shape in [(1000, 1000), (1, 3), (63, 129), (1000, 1024)]:
        case("copy_f16_async", torch.float16, shape)
        case("copy_i8_async", torch.int8, shape)
    for shape in [(1025,), (1,), (1024 * 1024 + 1,)]:
        case("copy_1d_f32", torch.float32, shape)
    for shape in [(5, 9, 33), (4, 8, 32), (1, 1, 1)]:
        case("copy_3d_f32", torch.float32, shape)

    # Misaligned data pointers: the run-time alignment check must fail and
    # the scalar path (scalar cp.async, or plain loads for 1- and 2-byte
    # elements) must run.
    case("copy_f32", torch.float32, (1000, 1000), src_offset=1)
    case("copy_f32", torch.float32, (64, 64), dst_offset=3)
    case("copy_f16", torch.float16, (1000, 1000), src_offset=1, dst_offset=5)
    case("copy_i8", torch.int8, (1000, 1000), src_offset=3, dst_offset=7)
    case("copy_f32_async", torch.float32, (1000, 1000), src_offset=1)
    case("copy_f16_async", torch.float16, (1000, 1000), src_offset=1)
    case("copy_i8_async", torch.int8, (1000, 1000), src_offset=5)

    # Strided memrefs: slices of larger tensors (row stride and offset not
    # those of a dense tensor); the parts around the output slice must stay
    # untouched.
    def strided(kernel: str, rows: int, cols: int) -> None:
        def body():
            m = s.module("copy")
            big_src = random_tensor((rows + 7, cols + 13), torch.float32)
            src = big_src[3:3 + rows, 5:5 + cols]
            big_dst = poisoned((rows + 9, cols + 11), torch.float32)
            sentinel = torch.full_like(big_dst, 123.0)
            big_dst.copy_(sentinel)
            dst = big_dst[2:2 + rows, 1:1 + cols]
            poison_(dst)
            getattr(m, kernel)(src, dst)
            ok, err, detail = compare(dst, src)
            outside = big_dst.clone()
            outside[2:2 + rows, 1:1 + cols] = 123.0
            if not torch.equal(outside, sentinel):
                n = int((outside != sentinel).sum())
                return False, err, f"{n} elements outside the slice changed"
            return ok, err, detail
        s.run(f"{kernel} {rows}x{cols} slice", kernel, body)

    strided("copy_f32_strided", 1000, 1000)
    strided("copy_f32_strided", 1, 1)
    strided("copy_f32_async_strided", 1000, 999)


def zfill_tests(s: Suite) -> None:
    def case(kernel: str, rows: int) -> None:
        def body():
            m = s.module("zfill")
            x = random_tensor((rows, 16), torch.float32)
            blocks = -(-rows // 64)
            out = poisoned((blocks * 64, 16), torch.float32)
            getattr(m, kernel)(x, out)
            padded = torch.zeros(blocks * 64, 16, device=DEVICE)
            padded[:rows] = x
            ref = torch.zeros_like(out)
            for b in range(blocks):
                r = slice(64 * b, 64 * b + 64)
                if kernel.startswith("zfill_rows"):
                    ref[64 * b:64 * b + 40] = padded[64 * b:64 * b + 40]
                else:
                    ref[r, :10] = padded[r, :10]
            return compare(out, ref)
        s.run(f"{kernel} {rows}x16", kernel, body)

    for kernel in ["zfill_rows", "zfill_cols", "zfill_rows_async",
                   "zfill_cols_async"]:
        for rows in [128, 100, 1, 1000]:
            case(kernel, rows)


def transpose_tests(s: Suite) -> None:
    def case(kernel: str, dtype: torch.dtype, shape: Tuple[int, int]) -> None:
        def body():
            m = s.module("transpose")
            x = random_tensor(shape, dtype)
            out = poisoned((shape[1], shape[0]), dtype)
            getattr(m, kernel)(x, out)
            return compare(out, x.t().contiguous())
        s.run(f"{kernel} {shape_name(shape)}", kernel, body)

    for shape in [(1000, 777), (32, 32), (1, 1), (1, 100), (100, 1)]:
        case("transpose_f32", torch.float32, shape)
    for shape in [(1000, 777), (16, 64), (3, 200)]:
        case("transpose_f16", torch.float16, shape)

    def three_d():
        m = s.module("transpose")
        a = random_tensor((32, 16, 8), torch.float32)
        o = poisoned((16, 32, 8), torch.float32)
        m.transpose_3d_f32(a, o)
        return compare(o, a.permute(1, 0, 2).contiguous())
    s.run("transpose_3d_f32 32x16x8 [1,0,2]", "transpose_3d_f32", three_d)


def swizzle_tests(s: Suite) -> None:
    def case(kernel: str, shape: Tuple[int, int]) -> None:
        def body():
            m = s.module("swizzle")
            x = random_tensor(shape, torch.float16)
            out = poisoned((shape[1], shape[0]), torch.float16)
            getattr(m, kernel)(x, out)
            return compare(out, x.t().contiguous())
        s.run(f"{kernel} {shape_name(shape)}", kernel, body)

    for kernel in ["swizzle_128", "swizzle_64", "swizzle_32", "swizzle_auto"]:
        for shape in [(1000, 777), (64, 64), (1, 8)]:
            case(kernel, shape)
