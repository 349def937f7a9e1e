"""The Triton side of bench_gemm.py: a persistent GEMM that loads its tiles
through TMA tensor descriptors, output = lhs[M, K] @ rhs[N, K]^T.

Each program walks output tiles `program_id, program_id + #SMs, ...` in
grouped order (GROUP_M tile rows share their rhs tiles in L2), runs the K
loop with `tl.dot` on descriptor loads (Triton pipelines it and uses wgmma)
and stores through a descriptor. `best_triton_matmul` times a few tile
configurations on the shape and keeps the fastest, so the comparison is
with Triton at its best among them, not at one fixed configuration.
"""

from __future__ import annotations

from typing import Callable, List, Optional, Tuple

import torch

try:
    import triton
    import triton.language as tl
    from triton.tools.tensor_descriptor import TensorDescriptor
    IMPORT_ERROR: Optional[str] = None
except Exception as e:  # Triton missing or too old for tensor descriptors
    triton = None
    IMPORT_ERROR = f"{type(e).__name__}: {e}"

if triton is not None:

    @triton.jit
    def _persistent_tma_matmul(a_desc, b_desc, c_desc, M, N, K,
                               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                               BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
                               NUM_SMS: tl.constexpr, OUT_BF16: tl.constexpr):
        start = tl.program_id(0)
        tiles_m = tl.cdiv(M, BLOCK_M)
        tiles_n = tl.cdiv(N, BLOCK_N)
        k_tiles = tl.cdiv(K, BLOCK_K)
        in_group = GROUP_M * tiles_n
        for tile in tl.range(start, tiles_m * tiles_n, NUM_SMS, flatten=True):
            group = tile // in_group
            first_m = group * GROUP_M
            group_m = min(tiles_m - first_m, GROUP_M)
            pid_m = first_m + (tile % group_m)
            pid_n = (tile % in_group) // group_m
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for kk in range(k_tiles):
                a = a_desc.load([pid_m * BLOCK_M, kk * BLOCK_K])
                b = b_desc.load([pid_n * BLOCK_N, kk * BLOCK_K])
                acc = tl.dot(a, b.T, acc)
            if OUT_BF16:
                c = acc.to(tl.bfloat16)
            else:
                c = acc.to(tl.float16)
            c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], c)


# (BLOCK_M, BLOCK_N, BLOCK_K, stages, warps, persistent): large tiles for
# large problems, small tiles with more stages for small and skinny ones;
# non-persistent forms launch one program per tile.
CONFIGS: List[Tuple[int, int, int, int, int, bool]] = [
    (128, 256, 64, 3, 8, True),
    (128, 256, 64, 3, 8, False),
    (128, 128, 64, 4, 8, True),
    (128, 128, 64, 4, 4, True),
    (128, 128, 64, 4, 8, False),
    (128, 64, 64, 4, 4, True),
    (128, 64, 64, 5, 4, False),
    (64, 128, 64, 4, 4, True),
    (64, 128, 64, 5, 4, False),
    (64, 64, 64, 6, 4, True),
    (64, 64, 64, 5, 4, False),
]


def make_triton_matmul(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor,
                       config: Tuple[int, int, int, int, int, bool]
                       ) -> Callable:
    """A call that computes out = a @ b.T with one tile configuration."""
    bm, bn, bk, stages, warps, persistent = config
    m, k = a.shape
    n = b.shape[0]
    sms = torch.cuda.get_device_properties(a.device).multi_processor_count
    if not persistent:
        # One program per tile: the tile loop runs once.
        sms = triton.cdiv(m, bm) * triton.cdiv(n, bn)
    a_desc = TensorDescriptor.from_tensor(a, [bm, bk])
    b_desc = TensorDescriptor.from_tensor(b, [bn, bk])
    c_desc = TensorDescriptor.from_tensor(out, [bm, bn])
    tiles = triton.cdiv(m, bm) * triton.cdiv(n, bn)
    grid = (min(sms, tiles),)

    def call():
        _persistent_tma_matmul[grid](
            a_desc, b_desc, c_desc, m, n, k, BLOCK_M=bm, BLOCK_N=bn,
            BLOCK_K=bk, GROUP_M=8, NUM_SMS=sms,
            OUT_BF16=out.dtype == torch.bfloat16, num_stages=stages,
            num_warps=warps)
    return call


def best_triton_matmul(a: torch.Tensor, b: torch.Tensor,
                       timer: Callable[[Callable], float]
                       ) -> Tuple[Optional[float], str]:
    """The best time (ms) of the configurations that compute a @ b.T
    correctly, and a note: the configuration, or why there is none."""
    if triton is None:
        return None, f"no triton ({IMPORT_ERROR})"
    ref = a.float() @ b.float().t()
    scale = float(ref.abs().max()) or 1.0
    best: Optional[float] = None
    note = ""
    errors = []
    for config in CONFIGS:
        out = torch.full((a.shape[0], b.shape[0]), float("nan"),
                         device=a.device, dtype=a.dtype)
        try:
            call = make_triton_matmul(a, b, out, config)
            call()
            torch.cuda.synchronize()
        except Exception as e:  # a configuration Triton cannot take
            errors.append(f"{config}: {type(e).__name__}: {str(e)[:120]}")
            continue
        err = float(torch.nan_to_num((out.float() - ref).abs(),
                                     nan=float("inf")).max()) / scale
        if not err <= 1e-2:
            errors.append(f"{config}: wrong (relative error {err:.3g})")
            continue
        ms = timer(call)
        if best is None or ms < best:
            best, note = ms, "x".join(str(c) for c in config[:3]) + \
                f" s{config[3]} w{config[4]}" + \
                (" persistent" if config[5] else "")
    if best is None:
        return None, "; ".join(errors) or "no configuration ran"
    return best, note


def fastest_triton_matmul(a: torch.Tensor, b: torch.Tensor,
                          time_call: Callable[[Callable], float]
                          ) -> Tuple[Optional[Callable], str]:
    """The call of best_triton_matmul's fastest configuration for a @ b.T
    (timed by `time_call`), ready to be timed again on the device, and its
    note; None and why when no configuration runs."""
    chosen: dict = {}

    def timer(call):
        ms = time_call(call)
        if "ms" not in chosen or ms < chosen["ms"]:
            chosen.update(ms=ms, call=call)
        return ms
    _, note = best_triton_matmul(a, b, timer)
    return chosen.get("call"), note
