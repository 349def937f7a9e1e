#!/usr/bin/env python3
"""Times croq.compile of a module three ways (issue 14's targets: at most
1.0 s cold and 50 ms warm for examples/matmul_persistent.mlir):

- cold, fresh process: a new Python process imports croq and compiles
  with the cache off (what a user's first compile costs, the import
  included, reported separately);
- cold, in process: croq.compile(cache=False) into a new directory, the
  process already warm;
- warm: a cache hit (a private cache directory, filled once first).

Also the phases of one cold compile: croq-translate --croq-to-bundle (the
pipeline, ptxas, the host object) and the link. Median [min-max] of N runs
each. Needs the built tools (build/bin, build/lib), no GPU.

Usage:
    bench_compile.py [--module PATH] [--runs N] [--md FILE]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python"))

_FRESH = """
import sys, time
t0 = time.perf_counter()
sys.path.insert(0, {python!r})
import croq
t1 = time.perf_counter()
croq.compile({module!r}, {out!r}, tools_dir={tools!r}, runtime_dir={lib!r},
             cache=False)
t2 = time.perf_counter()
print(t1 - t0, t2 - t1)
"""


def spread(values) -> str:
    return (f"{statistics.median(values):.3f} "
            f"[{min(values):.3f}-{max(values):.3f}]")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module", type=Path,
                        default=REPO / "examples" / "matmul_persistent.mlir")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--md", type=Path)
    args = parser.parse_args()
    import croq
    tools, lib = REPO / "build" / "bin", REPO / "build" / "lib"
    work = Path(tempfile.mkdtemp(prefix="croq-bench-compile-"))
    imports, fresh, inproc, warm, translate = [], [], [], [], []
    for i in range(args.runs):
        code = _FRESH.format(python=str(REPO / "python"),
                             module=str(args.module), out=str(work / f"f{i}"),
                             tools=str(tools), lib=str(lib))
        result = subprocess.run([sys.executable, "-c", code], check=True,
                                capture_output=True, text=True)
        t_import, t_compile = map(float, result.stdout.split())
        imports.append(t_import)
        fresh.append(t_compile)
        t0 = time.perf_counter()
        croq.compile(args.module, work / f"p{i}", tools_dir=tools,
                     runtime_dir=lib, cache=False)
        inproc.append(time.perf_counter() - t0)
        # The one croq-translate run the compile makes, alone.
        bundle = work / f"b{i}"
        t0 = time.perf_counter()
        subprocess.run([str(tools / "croq-translate"), "--croq-to-bundle",
                        f"--croq-bundle-dir={bundle}", "--croq-bundle-name=m",
                        str(args.module)], check=True, capture_output=True)
        translate.append(time.perf_counter() - t0)
    cache = work / "cache"
    croq.compile(args.module, work / "w", tools_dir=tools, runtime_dir=lib,
                 cache=cache)
    for i in range(args.runs):
        t0 = time.perf_counter()
        art = croq.compile(args.module, work / f"w{i}", tools_dir=tools,
                           runtime_dir=lib, cache=cache)
        warm.append(time.perf_counter() - t0)
        assert art.cached, "the warm compile missed the cache"
    lines = [f"croq.compile of {args.module.relative_to(REPO)}, {args.runs} "
             f"runs each, {os.cpu_count()} CPUs; seconds, median [min-max]",
             "", "| measure | s |", "|---|---|",
             f"| cold, fresh process (compile) | {spread(fresh)} |",
             f"| import croq in that process | {spread(imports)} |",
             f"| cold, in process | {spread(inproc)} |",
             f"| croq-translate --croq-to-bundle alone | {spread(translate)} |",
             f"| warm (cache hit) | {spread(warm)} |"]
    print("\n".join(lines))
    if args.md:
        args.md.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
