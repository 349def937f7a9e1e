"""bench_attention.py --varlen: attention on packed sequences of different
lengths (examples/flash_attention_varlen.mlir through
croq.flash_attn_varlen) against torch's scaled_dot_product_attention run
two ways on the same data: once per sequence (a loop of SDPA calls, its
flash kernel), and once on the batch padded to the longest sequence with a
boolean mask (keys past each sequence's end, and the causal diagonal),
which sends SDPA to its memory-efficient kernel.

Device time per call (the sum of its kernels) with L2 flushed before each
call, the three calls interleaved call by call in an order rotated every
round (time_marked); medians over the rounds with the spread of the
per-round ratios. TFLOP/s count the useful products: 4 * H * Lq * Lk * D a
sequence, half of it causal (the convention of bench_attention.py). A mix
is NAME:HqxHkv:D[:causal][:bf16], its lengths from MIXES; each mix is
checked against the per-sequence SDPA before it is timed.

    python3 bench/bench_attention.py --artifacts gpu-artifacts --varlen \\
        [--shapes chat16:32x8:128:causal,...] [--rounds 5]
"""

from __future__ import annotations

import math
import random
import statistics
from typing import Dict, List

import torch
import torch.nn.functional as F

from bench_gemm import flush_l2


def time_marked(calls, rounds: int, iters: int = 10):
    """Device times (ms) of each call (name: (function, kernel match)),
    per round the median of `iters` calls: one profiler session a round,
    the calls interleaved call by call in an order rotated every round, each
    after a marker kernel (torch.cuda._sleep's spin_kernel) and an L2 flush.
    A call's time is the sum of the matching kernels between its flush and
    the next marker: SDPA's own fills would split groups that start at
    each flush (bench_gemm.time_interleaved), as in its loop over
    sequences."""
    from torch.profiler import ProfilerActivity, profile
    names = list(calls)
    for f, _ in calls.values():
        f()
    torch.cuda.synchronize()
    times = {name: [] for name in names}
    for r in range(rounds):
        shift = r % len(names)
        order = names[shift:] + names[:shift]
        sequence = order * iters
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for name in sequence:
                torch.cuda._sleep(1000)
                flush_l2()
                calls[name][0]()
            torch.cuda.synchronize()
        events = sorted((e for e in prof.events()
                         if str(getattr(e, "device_type", "")).endswith(
                             "CUDA")), key=lambda e: e.time_range.start)
        groups: List[List] = []
        for event in events:
            if "spin_kernel" in event.name:
                groups.append([])
            elif groups:
                groups[-1].append(event)
        if len(groups) != len(sequence):
            raise RuntimeError(f"{len(groups)} marked groups for "
                               f"{len(sequence)} calls")
        for name in order:
            match = calls[name][1]
            own = [sum(e.time_range.elapsed_us() for e in g[1:]
                       if match(e.name)) / 1e3
                   for n, g in zip(sequence, groups) if n == name]
            times[name].append(statistics.median(own))
    return times


def _mixes() -> Dict[str, List[int]]:
    rng = random.Random(40)
    return {
        # A batch of chat prompts: 16 lengths uniform in 64 .. 2048.
        "chat16": [rng.randint(64, 2048) for _ in range(16)],
        # One long document with short requests around it.
        "long+short": [8192, 512, 256, 128, 100, 50, 2000, 3000],
        # Many short requests: 64 lengths in 16 .. 300.
        "short64": [rng.randint(16, 300) for _ in range(64)],
        # Eight near 1000, none a multiple of 128.
        "even8": [rng.randint(900, 1100) for _ in range(8)],
    }


MIXES = _mixes()

DEFAULT = ("chat16:32x8:128:causal,chat16:32x8:128,long+short:32x8:128:causal,"
           "short64:32x8:128:causal,even8:16x16:128:causal,"
           "chat16:32x8:64:causal:bf16")


def bench_mix(module, text: str, rounds: int) -> dict:
    import croq
    name, heads_kv, dim, *opts = text.split(":")
    heads, kv = (int(x) for x in heads_kv.split("x"))
    dim = int(dim)
    causal = "causal" in opts
    dtype = torch.bfloat16 if "bf16" in opts else torch.float16
    lens = MIXES[name]
    cu = [0]
    for n in lens:
        cu.append(cu[-1] + n)
    total, longest, batch = cu[-1], max(lens), len(lens)
    q = torch.randn(total, heads, dim, device="cuda", dtype=dtype)
    k, v = (torch.randn(total, kv, dim, device="cuda", dtype=dtype)
            for _ in range(2))
    out = torch.full_like(q, float("nan"))
    cu_d = torch.tensor(cu, dtype=torch.int32, device="cuda")
    gqa = heads != kv
    # Per sequence: [1, H, L, D] views of the packed rows.
    seqs = [tuple(t[cu[b]:cu[b + 1]].transpose(0, 1).unsqueeze(0)
                  for t in (q, k, v)) for b in range(batch)]
    # Padded: [B, H, longest, D] and a mask [B, 1, longest, longest].
    # (K and V repeated to the query heads: SDPA's kernels with a mask
    # take no grouped heads.)
    padded = [torch.zeros(batch, heads, longest, dim, device="cuda",
                          dtype=dtype) for _ in range(3)]
    for b, s in enumerate(seqs):
        for p, t in zip(padded, s):
            p[b, :, :lens[b]] = t[0].repeat_interleave(heads // t.shape[1],
                                                        dim=0)
    idx = torch.arange(longest, device="cuda")
    lens_d = torch.tensor(lens, device="cuda")
    mask = (idx.view(1, 1, 1, -1) < lens_d.view(-1, 1, 1, 1)).expand(
        batch, 1, longest, longest)
    if causal:
        mask = mask & (idx.view(1, 1, 1, -1) <= idx.view(1, 1, -1, 1))
    mask = mask.contiguous()

    def run_croq():
        croq.flash_attn_varlen(q, k, v, cu_d, cu_d, longest, longest,
                               causal=causal, out=out, module=module)

    def run_loop():
        return [F.scaled_dot_product_attention(*s, is_causal=causal,
                                               enable_gqa=gqa) for s in seqs]

    def run_padded():
        return F.scaled_dot_product_attention(*padded, attn_mask=mask)

    run_croq()
    ref = run_loop()
    torch.cuda.synchronize()
    err = max(float((out[cu[b]:cu[b + 1]].float() -
                     r[0].transpose(0, 1).float()).abs().max())
              for b, r in enumerate(ref))
    result = {"mix": text, "lengths": lens, "max_abs_error": err}
    if not err <= (6e-2 if dtype == torch.bfloat16 else 2e-2):
        result["status"] = f"WRONG (max abs error {err:.3g})"
        return result

    def not_flush(n: str) -> bool:
        return "FillFunctor" not in n and "Memset" not in n and \
            not n.startswith("Memcpy")
    times = time_marked(
        {"croq": (run_croq, lambda n: n.startswith("attention_varlen")),
         "loop": (run_loop, not_flush), "padded": (run_padded, not_flush)},
        rounds)
    flops = sum(4.0 * heads * n * n * dim / (2 if causal else 1)
                for n in lens)
    result["status"] = "ok"
    for key in ("croq", "loop", "padded"):
        ms = statistics.median(times[key])
        result[f"{key}_us"] = 1e3 * ms
        result[f"{key}_tflops"] = flops / ms / 1e9
    for key in ("loop", "padded"):
        ratios = [s / c for c, s in zip(times["croq"], times[key])]
        result[f"vs_{key}"] = statistics.median(ratios)
        result[f"vs_{key}_spread"] = (min(ratios), max(ratios))
    return result


def main_varlen(args) -> int:
    import croq
    import json
    module = croq.load(args.artifacts / "kernels" /
                       "libflash_attention_varlen.so")
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}")
    results = []
    for text in (args.shapes or DEFAULT).split(","):
        r = bench_mix(module, text, args.rounds)
        results.append(r)
        if r["status"] != "ok":
            print(f"{text:>30}  {r['status']}")
            continue
        lo_l, hi_l = r["vs_loop_spread"]
        lo_p, hi_p = r["vs_padded_spread"]
        print(f"{text:>30}  croq {r['croq_us']:8.1f} us "
              f"{r['croq_tflops']:6.1f} TFLOP/s | SDPA loop "
              f"{r['loop_us']:8.1f} us {r['loop_tflops']:6.1f} | padded "
              f"{r['padded_us']:8.1f} us {r['padded_tflops']:6.1f} | "
              f"loop/croq {r['vs_loop']:.3f} ({lo_l:.3f}-{hi_l:.3f}) "
              f"padded/croq {r['vs_padded']:.3f} ({lo_p:.3f}-{hi_p:.3f}) "
              f"err {r['max_abs_error']:.2g}", flush=True)
    ok = [r for r in results if r["status"] == "ok"]
    for key in ("loop", "padded"):
        if ok:
            g = math.exp(sum(math.log(r[f"vs_{key}"]) for r in ok) / len(ok))
            print(f"SDPA {key} / croq geomean {g:.3f} over {len(ok)} mixes, "
                  f"lowest {min(r[f'vs_{key}'] for r in ok):.3f}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0 if len(ok) == len(results) else 1
