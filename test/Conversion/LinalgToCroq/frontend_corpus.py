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
INTERNAL = ("unrealized_conversion_cast", "no conversion in the pipeline",
            "PLEASE submit a bug report", "Stack dump")


def run(croq_opt: str, path: pathlib.Path) -> str:
    proc = subprocess.run([croq_opt, "--croq-to-nvvm=format=none", str(path),
                           "-o", "/dev/null"], capture_output=True, text=True,
                          timeout=300)
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
    args = parser.parse_args()
    results = {p.name: run(args.croq_opt, p)
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
