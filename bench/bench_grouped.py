#!/usr/bin/env python3
"""Times croq's grouped GEMM (croq.grouped_mm, examples/grouped_matmul.mlir)
on mixture-of-experts shapes against a loop of cuBLAS GEMMs, one per expert
(torch.mm on each group's rows, the sizes known on the host), and against
torch's own grouped GEMM (torch._grouped_mm, where the installed torch has
it and takes the dtype).

The weights are [E, N, K] (K-major), or with --b-layout kn [E, K, N]
(N-major, as torch._grouped_mm takes them). Shapes: E experts (8, 64,
256), hidden 7168, intermediate 2048: the
up-projection (N = 2048, K = 7168) and the down-projection (N = 7168,
K = 2048) of T tokens routed to their top-k experts by random logits with
a per-expert bias (so the groups are uneven; top-8, and top-2 for 8
experts, where top-8 would send every token to every expert). Each
case is checked first against a float32 product per group (random inputs,
output poisoned with NaN). Each round times the three in a rotated order,
each as the median over 20 replays of a CUDA graph of one call
(captured once; the loop's launches are replayed without the host's launch
gaps, which favours it), L2 flushed before each replay, the replay timed
between CUDA events. The stream column times one eager call the same way
(host launch costs included). The tables give medians and the spread
(min-max) over rounds.

Usage:
    bench_grouped.py --kernels DIR [--rounds N] [--md FILE] [--tokens T,..]
                     [--experts E,..] [--b-layout nk|kn]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_gemm import time_events  # noqa: E402

import croq  # noqa: E402
import croq.grouped  # noqa: E402

HIDDEN, INTERMEDIATE = 7168, 2048


def routing(tokens: int, experts: int, top_k: int, gen) -> list:
    """Rows per expert of ``tokens`` tokens routed to their top-k experts."""
    bias = torch.randn(experts, generator=gen) * 0.7
    logits = torch.randn(tokens, experts, generator=gen) + bias
    chosen = logits.topk(top_k, dim=1).indices.flatten()
    return torch.bincount(chosen, minlength=experts).tolist()


def graph_of(fn):
    """A CUDA graph of one call of ``fn`` (warmed up first)."""
    fn()
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        fn()
    torch.cuda.synchronize()
    return graph


def spread(values) -> str:
    return f"{min(values):.3f}-{max(values):.3f}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernels", type=Path, required=True,
                        help="lib grouped_matmul.so or its directory")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--md", type=Path)
    parser.add_argument("--tokens", default="4096,16384")
    parser.add_argument("--experts", default="8,64,256")
    parser.add_argument("--dtype", default="bfloat16")
    parser.add_argument("--b-layout", choices=["nk", "kn"], default="nk",
                        help="the experts' weights [G, N, K] (K-major) or "
                        "[G, K, N] (N-major, passed to croq.grouped_mm as "
                        "their transpose)")
    args = parser.parse_args()
    croq.grouped.set_kernels(args.kernels)
    dtype = getattr(torch, args.dtype)
    has_grouped = hasattr(torch, "_grouped_mm")
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__},"
          f" torch._grouped_mm: {'yes' if has_grouped else 'no'}", flush=True)
    gen = torch.Generator().manual_seed(2026)
    rows = []
    for experts in [int(x) for x in args.experts.split(",")]:
        top_k = 2 if experts == 8 else 8
        for tokens in [int(x) for x in args.tokens.split(",")]:
            sizes = routing(tokens, experts, top_k, gen)
            for proj, n, k in (("up", INTERMEDIATE, HIDDEN),
                               ("down", HIDDEN, INTERMEDIATE)):
                rows.append(bench_case(experts, tokens, top_k, sizes, proj,
                                       n, k, dtype, args.rounds,
                                       has_grouped, args.b_layout == "kn"))
    header = ("| E | tokens x top-k | rows min-max | proj | N x K | croq ms "
              "| cuBLAS loop ms | loop / croq | torch._grouped_mm ms "
              "| grouped / croq | croq TFLOP/s | stream ms croq / loop |")
    lines = [header, "|" + "---|" * 12]
    for r in rows:
        lines.append(
            f"| {r['E']} | {r['T']} x {r['k']} | {r['rows']} | {r['proj']} "
            f"| {r['NK']} | {r['croq']} | {r['loop']} | {r['ratio']} "
            f"| {r['grouped']} | {r['gratio']} | {r['tflops']} "
            f"| {r['stream']} |")
    loop_ratios = [r["r"] for r in rows]
    geo = statistics.geometric_mean(loop_ratios)
    lines.append("")
    lines.append(f"geomean cuBLAS loop / croq: {geo:.3f} (lowest "
                 f"{min(loop_ratios):.3f})")
    gr = [r["gr"] for r in rows if r["gr"] is not None]
    if gr:
        lines.append(f"geomean torch._grouped_mm / croq: "
                     f"{statistics.geometric_mean(gr):.3f} (lowest "
                     f"{min(gr):.3f})")
    text = "\n".join(lines)
    print(text)
    if args.md:
        args.md.write_text(text + "\n")
    return 0


def bench_case(experts, tokens, top_k, sizes, proj, n, k, dtype, rounds,
               has_grouped, n_major):
    m = sum(sizes)
    a = torch.randn(m, k, device="cuda").to(dtype)
    if n_major:
        b = (torch.randn(experts, k, n, device="cuda") / k ** 0.5).to(
            dtype).transpose(1, 2)
    else:
        b = (torch.randn(experts, n, k, device="cuda") / k ** 0.5).to(dtype)
    cum = [0]
    for s in sizes:
        cum.append(cum[-1] + s)
    offsets = torch.tensor(cum, dtype=torch.int32, device="cuda")
    out = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
    out_loop = torch.empty_like(out)
    groups = [(g, cum[g], cum[g + 1]) for g in range(experts)
              if cum[g + 1] > cum[g]]

    def run_croq():
        croq.grouped_mm(a, b, offsets, out=out)

    def run_loop():
        for g, lo, hi in groups:
            torch.mm(a[lo:hi], b[g].t(), out=out_loop[lo:hi])

    ends = offsets[1:].contiguous()
    grouped_ok = has_grouped

    def run_grouped():
        torch._grouped_mm(a, b.transpose(-2, -1), offs=ends,
                          out_dtype=dtype)

    # Check first: each group against its float32 product.
    run_croq()
    run_loop()
    torch.cuda.synchronize()
    worst = 0.0
    for g, lo, hi in groups:
        ref = a[lo:hi].float() @ b[g].float().t()
        err = float((out[lo:hi].float() - ref).abs().max() /
                    ref.abs().max().clamp(min=1e-30))
        worst = max(worst, err)
    if not worst < 2e-2 or bool(torch.isnan(out).any()):
        raise SystemExit(f"croq grouped_mm wrong: E={experts} {proj}: "
                         f"relative error {worst:.3g}")
    if grouped_ok:
        try:
            res = torch._grouped_mm(a, b.transpose(-2, -1), offs=ends,
                                    out_dtype=dtype)
            torch.cuda.synchronize()
            gerr = float((res.float() - out_loop.float()).abs().max() /
                         out_loop.float().abs().max())
            if not gerr < 2e-2:
                print(f"  torch._grouped_mm differs by {gerr:.3g}: left out")
                grouped_ok = False
        except Exception as e:  # not built for this dtype / device
            print(f"  torch._grouped_mm unavailable here: {e}")
            grouped_ok = False

    methods = [("croq", run_croq), ("loop", run_loop)]
    if grouped_ok:
        methods.append(("grouped", run_grouped))
    graphs = {name: graph_of(fn) for name, fn in methods}
    times = {name: [] for name, _ in methods}
    stream = {name: [] for name, _ in methods}
    for r in range(rounds):
        order = methods[r % len(methods):] + methods[:r % len(methods)]
        for name, fn in order:
            times[name].append(time_events(graphs[name].replay, 20))
            stream[name].append(time_events(fn, 10))
    med = {name: statistics.median(v) for name, v in times.items()}
    ratios = [lo / c for lo, c in zip(times["loop"], times["croq"])]
    flops = 2.0 * m * n * k
    row = {
        "E": experts, "T": tokens, "k": top_k,
        "rows": f"{min(sizes)}-{max(sizes)}", "proj": proj,
        "NK": f"{n} x {k}",
        "croq": f"{med['croq']:.3f} ({spread(times['croq'])})",
        "loop": f"{med['loop']:.3f} ({spread(times['loop'])})",
        "ratio": f"**{statistics.median(ratios):.3f}** ({spread(ratios)})",
        "r": statistics.median(ratios),
        "tflops": f"{flops / med['croq'] / 1e9:.0f}",
        "stream": f"{statistics.median(stream['croq']):.3f} / "
                  f"{statistics.median(stream['loop']):.3f}",
        "grouped": "-", "gratio": "-", "gr": None,
    }
    if grouped_ok:
        gratios = [g / c for g, c in zip(times["grouped"], times["croq"])]
        row["grouped"] = f"{med['grouped']:.3f} ({spread(times['grouped'])})"
        row["gratio"] = f"{statistics.median(gratios):.3f}"
        row["gr"] = statistics.median(gratios)
    print(f"E={experts} T={tokens} {proj}: croq {med['croq']:.3f} ms, loop "
          f"{med['loop']:.3f} ms, ratio {row['r']:.3f}, grouped "
          f"{row['grouped']}, max err {worst:.2g}", flush=True)
    return row


if __name__ == "__main__":
    sys.exit(main())
