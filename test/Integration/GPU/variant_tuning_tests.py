"""GPU tests of requested GEMM variants and croq.autotune_variants
(run_gpu_tests.py calls variant_tuning_tests) on linalg_matmul.mlir's
dynamic-shape GEMMs, whose host code holds every variant the cost model
weighs.

- Every variant, requested in turn at a shape (croqRtRequestVariants), is
  either taken (reported back) or refused for the model's choice, and
  every variant taken computes the product: random operands, poisoned
  output, against the float64 product. This checks each variant of the
  dispatcher, where the model's choices reach only some.
- croq.autotune_variants: the first call of a shape times the variants
  and calls the fastest; its result is right, an accumulating GEMM's
  output is accumulated into once (tuning puts written arguments back),
  the choice is reused, and the requests are cleared after each call (a
  plain call of the module takes the model's choice again).
"""

from __future__ import annotations

from typing import Callable, Tuple

import torch

import croq
from croq.variant_tuning import _Requests

#: Shapes whose variants are each requested: few rows (tiles of C^T, K
#: split in clusters), a part-filled wave, one of several waves, and one
#: with every extent off the tiles.
EVERY_VARIANT_SHAPES = [(150, 6000, 6000), (333, 4096, 4096),
                        (2048, 1024, 4096), (1000, 3000, 1000),
                        (77, 5000, 3000)]

#: (kernel, element type, B stored N x K): linalg_matmul.mlir's.
KERNELS = [("linalg_mm_f16", torch.float16, False),
           ("linalg_mm_nt_bf16", torch.bfloat16, True)]


def variant_tuning_tests(s, random_tensor: Callable, poisoned: Callable,
                         compare_close: Callable, tolerance: dict) -> None:
    """`tolerance`: run_gpu_tests.py's GEMM_TOLERANCE, by result type."""
    def operands(m: int, n: int, k: int, dtype: torch.dtype, nt: bool):
        a = random_tensor((m, k), dtype)
        b = random_tensor((n, k) if nt else (k, n), dtype)
        ref = a.double() @ (b.double().t() if nt else b.double())
        return a, b, ref

    def every_variant(kernel: str, dtype: torch.dtype, nt: bool,
                      shape: Tuple[int, int, int]) -> None:
        m, n, k = shape
        if s.skip_gemm(m, n, k):
            return

        def body():
            fn = getattr(s.module("linalg_matmul"), kernel)
            requests = _Requests()
            a, b, ref = operands(m, n, k, dtype, nt)
            out = poisoned((m, n), dtype)
            fn(a, b, out)
            torch.cuda.synchronize()
            model = requests.reported()
            counts = requests.counts()
            product = len(model) - 1
            taken, refused, worst = [], [], 0.0
            for variant in range(counts[product]):
                ask = [-1] * product + [variant]
                out = poisoned((m, n), dtype)
                requests.request(ask)
                try:
                    fn(a, b, out)
                    torch.cuda.synchronize()
                finally:
                    requests.request(())
                took = requests.reported()[product]
                if took != variant:
                    if took != model[product]:
                        return (False, worst, f"variant {variant} requested, "
                                f"{took} taken; the model's is "
                                f"{model[product]}")
                    refused.append(variant)
                    continue
                ok, err, detail = compare_close(out, ref, tolerance[dtype])
                worst = max(worst, err)
                if not ok:
                    return False, err, f"variant {variant}: {detail}"
                taken.append(variant)
            if model[product] not in taken:
                return (False, worst, f"the model's variant {model[product]} "
                        f"was refused when requested")
            return (True, worst, f"{len(taken)} of {counts[product]} variants "
                    f"taken and right (model's {model[product]}), refused "
                    f"{refused}")
        s.run(f"variant tuning: every variant of {kernel} {m}x{n}x{k}",
              "variant_tuning", body)

    def tuned(m: int, n: int, k: int) -> None:
        if s.skip_gemm(m, n, k):
            return

        def body():
            module = s.module("linalg_matmul")
            tuned = croq.autotune_variants(module, iters=3)
            a, b, ref = operands(m, n, k, torch.float16, False)
            out = poisoned((m, n), torch.float16)
            tuned.linalg_mm_f16(a, b, out)
            ok, err, detail = compare_close(out, ref, tolerance[torch.float16])
            if not ok:
                return ok, err, "first (tuning) call: " + detail
            choices = tuned.choices()
            (entry,) = choices.values()
            # Accumulating into C: once, whatever tuning ran.
            c = random_tensor((m, n), torch.float32)
            expected = c.double() + ref
            tuned.linalg_mm_acc_f16(a, b, c)
            ok, err, detail = compare_close(c, expected,
                                            tolerance[torch.float32])
            if not ok:
                return ok, err, "accumulating: " + detail
            # The same shape again: no new tuning, the same result.
            out.fill_(float("nan"))
            tuned.linalg_mm_f16(a, b, out)
            ok, err, detail = compare_close(out, ref, tolerance[torch.float16])
            again = tuned.choices()
            if not ok or len(again) != 2 or \
                    again[tuned.linalg_mm_f16.key(a, b, out)] != entry:
                return False, err, f"second call: {detail}; {again}"
            # A plain call of the module afterwards takes the model's
            # choice: the requests were cleared.
            module.linalg_mm_f16(a, b, out)
            torch.cuda.synchronize()
            plain = _Requests().reported()
            if plain != entry["model"]:
                return (False, err, f"plain call took {plain}, the model's "
                        f"is {entry['model']}")
            return (True, err, f"chose {entry['variants']} (model's "
                    f"{entry['model']}) of {len(entry['ms'])} timed")
        s.run(f"variant tuning: autotune_variants linalg_mm_f16 {m}x{n}x{k}",
              "variant_tuning", body)

    for kernel, dtype, nt in KERNELS:
        for shape in EVERY_VARIANT_SHAPES:
            every_variant(kernel, dtype, nt, shape)
    for shape in [(150, 6000, 6000), (1024, 1024, 1024)]:
        tuned(*shape)
