#!/usr/bin/env python3
# ===- bench_linalg_ops.py - linalg elementwise ops and reductions vs torch -===#
#
# Times the kernels croq makes from linalg (test/Integration/GPU/
# linalg_ops.mlir: add, bias + tanh GELU, transpose, softmax, layer norm,
# RMS norm, as upstream's fused linalg writes them)
# against torch's eager kernels on the same tensors, device time with the
# L2 flushed before each call, the two interleaved, several rounds; prints
# the median time of each, the bandwidth (bytes read and written once) and
# the ratio torch / croq with its spread over the rounds.
#
#   python3 bench/bench_linalg_ops.py [--artifacts gpu-artifacts] [--json f]
#
# ===----------------------------------------------------------------------===#

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

ROUNDS = 7
FLUSH = torch.empty(512 * 1024 * 1024 // 4, dtype=torch.float32, device="cuda") \
    if torch.cuda.is_available() else None


def device_time(fn) -> float:
    """Milliseconds of one call, after flushing the L2."""
    FLUSH.zero_()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end)


def bench(name, shape, nbytes, croq_fn, torch_fn, rows):
    for fn in (croq_fn, torch_fn):  # warm up
        fn()
    torch.cuda.synchronize()
    times = {"croq": [], "torch": []}
    for r in range(ROUNDS):
        order = [("croq", croq_fn), ("torch", torch_fn)]
        if r % 2:
            order.reverse()
        for label, fn in order:
            times[label].append(device_time(fn))
    c, t = statistics.median(times["croq"]), statistics.median(times["torch"])
    ratios = [tt / cc for tt, cc in zip(times["torch"], times["croq"])]
    row = {"op": name, "shape": "x".join(map(str, shape)),
           "croq_ms": c, "torch_ms": t,
           "croq_tbs": nbytes / c / 1e9, "torch_tbs": nbytes / t / 1e9,
           "ratio": statistics.median(ratios),
           "ratio_min": min(ratios), "ratio_max": max(ratios)}
    rows.append(row)
    print(f"{name:14} {row['shape']:>12}  croq {c*1e3:8.1f} us {row['croq_tbs']:5.2f} TB/s"
          f"  torch {t*1e3:8.1f} us {row['torch_tbs']:5.2f} TB/s"
          f"  ratio {row['ratio']:.3f} [{row['ratio_min']:.3f}, {row['ratio_max']:.3f}]",
          flush=True)


def transformer_block(args, croq, rows, program="transformer_block"):
    """A transformer block of the frontend corpus (seq 128 or 2048, hidden
    256, 4 heads, MLP 1024, f16; TOSA lowered by MLIR's passes, compiled by
    croq as module frontend_<program>) against the same block in torch f16,
    eager and under torch.compile; device time of one call each."""
    lib = args.artifacts / "kernels" / f"libfrontend_{program}.so"
    if not lib.exists():
        return
    sys.path.insert(0, str(args.artifacts / "tests"))
    import frontend_tests
    m = croq.load(lib)
    shapes, _, scales, ref, _ = frontend_tests.PROGRAMS[program]
    xs = [(torch.randn(sh, device="cuda") * sc).half()
          for sh, sc in zip(shapes, scales)]
    out = torch.empty(shapes[0], device="cuda", dtype=torch.float16)
    fn = getattr(m, program)
    eager = lambda: ref(*xs)
    bench("block (eager)", shapes[0], 1, lambda: fn(*xs, out), eager, rows)
    try:
        compiled = torch.compile(ref)
        compiled(*xs)
        bench("block (compile)", shapes[0], 1, lambda: fn(*xs, out),
              lambda: compiled(*xs), rows)
    except Exception as e:  # torch.compile may be unavailable
        print(f"torch.compile of the block failed: {type(e).__name__}: {e}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--artifacts", type=Path,
                        default=Path(os.environ.get("CROQ_GPU_ARTIFACTS", "gpu-artifacts")))
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    sys.path.insert(0, str(args.artifacts / "python"))
    import croq
    m = croq.load(args.artifacts / "kernels" / "liblinalg_ops.so")
    rows = []
    print(f"device: {torch.cuda.get_device_name()}")
    for shape in [(16384, 4096), (4096, 32000), (65536, 1024), (3000, 5001)]:
        a = torch.randn(shape, device="cuda", dtype=torch.float16)
        b = torch.randn(shape, device="cuda", dtype=torch.float16)
        out = torch.empty_like(a)
        ref = torch.empty_like(a)
        n = a.numel() * 2
        bench("add", shape, 3 * n, lambda: m.add_f16(a, b, out),
              lambda: torch.add(a, b, out=ref), rows)
        bias = torch.randn((1, shape[1]), device="cuda", dtype=torch.float16)
        bench("bias_gelu", shape, 2 * n, lambda: m.bias_gelu_f16(a, bias, out),
              lambda: F.gelu(a + bias, approximate="tanh"), rows)
        bench("softmax", shape, 2 * n, lambda: m.softmax_f16(a, out),
              lambda: torch.softmax(a, dim=1), rows)
        w = torch.randn((shape[1],), device="cuda", dtype=torch.float16)
        bvec = torch.randn((shape[1],), device="cuda", dtype=torch.float16)
        bench("layer_norm", shape, 2 * n, lambda: m.layer_norm_f16(a, w, bvec, out),
              lambda: F.layer_norm(a, (shape[1],), w, bvec, 1e-5), rows)
        bench("rms_norm", shape, 2 * n, lambda: m.rms_norm_f16(a, w, out),
              lambda: F.rms_norm(a, (shape[1],), w, 1e-6), rows)
        outt = torch.empty((shape[1], shape[0]), device="cuda", dtype=torch.float16)
        reft = torch.empty_like(outt)
        bench("transpose", shape, 2 * n, lambda: m.transpose_f16(a, outt),
              lambda: reft.copy_(a.t()), rows)
        del a, b, out, ref, outt, reft
    transformer_block(args, croq, rows)
    transformer_block(args, croq, rows, "transformer_block_s2048")
    if args.json:
        args.json.write_text(json.dumps({"device": torch.cuda.get_device_name(),
                                         "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
