#!/usr/bin/env python3
"""Prints the ```mlir code blocks of Markdown files as one croq-opt input.

Blocks are separated by `// -----` so that `croq-opt -split-input-file`
parses and verifies each one on its own. Every block is preceded by a
comment naming its file and line, so that a failure points at the doc.
Exits non-zero when a file has no mlir block, so that a test on a doc whose
examples were all removed (or renamed to another fence) fails.
"""

import sys


def blocks(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    current = None
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if current is None:
            if stripped == "```mlir":
                current = (number, [])
        elif stripped == "```":
            yield current
            current = None
        else:
            current[1].append(line)
    if current is not None:
        sys.exit(f"{path}:{current[0]}: unterminated ```mlir block")


def main():
    out = []
    for path in sys.argv[1:]:
        found = list(blocks(path))
        if not found:
            sys.exit(f"{path}: no ```mlir blocks")
        for start, body in found:
            out.append(f"// {path}:{start}\n" + "\n".join(body) + "\n")
    sys.stdout.write("// -----\n".join(out))


if __name__ == "__main__":
    main()
