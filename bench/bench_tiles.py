#!/usr/bin/env python3
"""Times every configuration of a GEMM from linalg against cuBLAS, shape by
shape: the data behind convert-linalg-to-croq's cost model. Each variant of
kernels/tiles_mm (croq.compile_variants: the model's choice, each tile
whole, the splittable tiles split) runs linalg_mm_f16 on each shape; the
table gives cuBLAS ms / variant ms (device time, L2 flushed, median
[min-max] over rounds, every variant and cuBLAS in one rotation per round)
and marks the fastest variant per shape. A variant is checked against a
float32 product before it is timed.

Usage:
    bench_tiles.py --artifacts DIR [--rounds N] [--shapes MxNxK,...]
        [--variants LABEL ...] [--md FILE]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_gemm import is_library_kernel  # noqa: E402
from bench_linalg import (SHAPES, checked_f16_product, croq_kernels,  # noqa: E402
                          parse_shapes, rotate)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--artifacts", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--shapes", type=parse_shapes,
                        help="comma-separated MxNxK shapes instead of the "
                             "sweep's aligned ones")
    parser.add_argument("--variants", nargs="*",
                        help="labels of variants.json to time (default all)")
    parser.add_argument("--md", type=Path, help="also write the table here")
    args = parser.parse_args()
    import croq
    directory = args.artifacts / "kernels" / "tiles_mm"
    manifest = json.loads((directory / "variants.json").read_text())
    labels = args.variants or manifest["variants"]
    modules = {label: croq.load(directory / label) for label in labels}
    shapes = args.shapes or [s for s in SHAPES if s != (4095, 4097, 4093)]
    lines = [f"device: {torch.cuda.get_device_name()}; linalg_mm_f16; "
             "cuBLAS ms / variant ms, median [min-max] over "
             f"{args.rounds} rounds; * fastest", "",
             "| shape | cuBLAS ms | " + " | ".join(labels) + " |",
             "|---|---|" + "---|" * len(labels)]
    print("\n".join(lines), flush=True)
    match = croq_kernels("linalg_mm_f16")
    for m, n, k in shapes:
        calls = {}
        for label, mod in modules.items():
            checked = checked_f16_product(mod.linalg_mm_f16, m, n, k)
            if checked is None:
                return 1
            a, b, out = checked
            calls[label] = ((lambda f=mod.linalg_mm_f16, a=a, b=b, o=out:
                             f(a, b, o)), match)
        calls["cuBLAS"] = ((lambda a=a, b=b: torch.matmul(a, b)),
                           is_library_kernel)
        times = rotate(calls, args.rounds)
        base = statistics.median(times["cuBLAS"])
        ratios = {label: [base / t for t in times[label]] for label in labels}
        best = max(labels, key=lambda lb: statistics.median(ratios[lb]))
        cells = []
        for label in labels:
            r = ratios[label]
            mark = "*" if label == best else ""
            cells.append(f"{mark}{statistics.median(r):.3f} "
                         f"[{min(r):.3f}-{max(r):.3f}]")
        line = f"| {m}x{n}x{k} | {base:.4f} | " + " | ".join(cells) + " |"
        lines.append(line)
        print(line, flush=True)
    if args.md:
        args.md.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
