#!/usr/bin/env python3
# ===- frontend_corpus.py - whole frontend programs through croq-to-nvvm -===#
#
# Runs every program of Inputs/frontend (linalg on memrefs as MLIR 22's own
# TOSA and bufferization passes emit it; utils/gen-frontend-corpus.py makes
# them) through `croq-opt --croq-to-nvvm` and checks that each one either
# compiles or is declined by name: an error of the form "'<dialect>.<op>'
# op ..." that names an op of the program and says what croq does not take. An internal failure (an
# unrealized cast, "no conversion in the pipeline handles it", a crash) or a
# decline without an op fails the test, and so does any change against
# Inputs/frontend/expected.txt (which programs compile, which op declines
# the others): a program that starts to compile updates the file
# (--update).
#
# ===----------------------------------------------------------------------===#

import argparse
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
CORPUS = HERE / "Inputs" / "frontend"
EXPECTED = CORPUS / "expected.txt"
DECLINE = re.compile(r"error: '(?P<op>[a-z_]+\.[a-z_.0-9]+)' op ")
COUNT = re.compile(r"variants lists 1 products; the module has (\d+) whose")
INTERNAL = ("unrealized_conversion_cast", "no conversion in the pipeline",
            "PLEASE submit a bug report", "Stack dump")


def compile_program(croq_opt: str, pipeline: str, path: pathlib.Path,
                    variants: int = 0):
    options = "format=none" if pipeline == "croq-to-nvvm" else ""
    if variants:
        options += " gemm-variants=" + ",".join(["0"] * variants)
    return subprocess.run([croq_opt, f"--{pipeline}={options.strip()}",
                           str(path), "-o", "/dev/null"],
                          capture_output=True, text=True, timeout=300)


def is_other_form(path: pathlib.Path) -> bool:
    """A `<name>.<form>.mlir` of dynamic shapes whose `<name>.mlir` is in
    the corpus too."""
    parts = path.name.split(".")
    return (len(parts) == 3 and (path.parent / f"{parts[0]}.mlir").exists()
            and "memref<?x" in path.read_text())


def run(croq_opt: str, pipeline: str, path: pathlib.Path) -> str:
    # A GEMM of dynamic shapes compiles one kernel per tile (75 for f16),
    # and they are the same kernels whichever form a frontend gave the
    # product in. The base form of a program compiles them all; its other
    # forms compile the first variant of each such GEMM (croq-to-nvvm's
    # gemm-variants, as croq.jit compiles one at a time), which still runs
    # every pass on the form's own IR at a fraction of the time. The count
    # of those GEMMs is the pass's own error's when one is not it.
    if is_other_form(path):
        proc = compile_program(croq_opt, pipeline, path, variants=1)
        count = COUNT.search(proc.stdout + proc.stderr)
        if count:
            proc = compile_program(croq_opt, pipeline, path,
                                   int(count.group(1)))
    else:
        proc = compile_program(croq_opt, pipeline, path)
    text = proc.stdout + proc.stderr
    for marker in INTERNAL:
        if marker in text:
            return f"INTERNAL {marker}: {text.strip().splitlines()[0]}"
    if proc.returncode == 0:
        return "compiles"
    if proc.returncode < 0 or proc.returncode >= 128:
        return f"CRASH exit {proc.returncode}"
    match = DECLINE.search(text)
    if not match:
        first = text.strip().splitlines()[0] if text.strip() else "no output"
        return f"UNNAMED {first}"
    # A decline says what croq does not take; an error that does not name
    # croq is an upstream verifier's on IR a croq pass made (an internal
    # failure that names an op all the same).
    line = text[match.start():].splitlines()[0]
    if "croq" not in line:
        return f"UNEXPLAINED {line}"
    return f"declines {match.group('op')}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("croq_opt")
    parser.add_argument("--update", action="store_true")
    # The sanitizer build (scripts/test-sanitizers.sh) runs croq's own
    # passes only: after croq-to-gpu the time goes to Debian's
    # uninstrumented conversions, which the plain build's run checks.
    parser.add_argument("--pipeline", choices=["croq-to-nvvm", "croq-to-gpu"],
                        default="croq-to-nvvm")
    args = parser.parse_args()
    results = {p.name: run(args.croq_opt, args.pipeline, p)
               for p in sorted(CORPUS.glob("*.mlir"))}
    bad = {k: v for k, v in results.items()
           if not v.startswith(("compiles", "declines"))}
    for name, outcome in bad.items():
        print(f"{name}: {outcome}")
    lines = [f"{name}: {outcome}" for name, outcome in results.items()]
    compiled = sum(v == "compiles" for v in results.values())
    print(f"frontend corpus: {compiled} of {len(results)} programs compile, "
          f"{len(results) - compiled - len(bad)} declined by name, "
          f"{len(bad)} internal failures")
    if args.update:
        EXPECTED.write_text("\n".join(lines) + "\n")
        return 1 if bad else 0
    expected = EXPECTED.read_text().splitlines() if EXPECTED.exists() else []
    if expected != lines:
        old = dict(l.split(": ", 1) for l in expected if ": " in l)
        for name, outcome in results.items():
            if old.get(name) != outcome:
                print(f"changed: {name}: {old.get(name)} -> {outcome}")
        print(f"{EXPECTED} is out of date: run {__file__} "
              f"<croq-opt> --update after checking the changes")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
