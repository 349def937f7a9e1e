#!/usr/bin/env python3
"""Checks that every ODS `Example:` block appears in the round-trip test.

Usage: ods_examples.py ROUNDTRIP_TEST TD_FILE_OR_DIR...

Every ```mlir block that follows an `Example:` line in the given .td files
must appear in ROUNDTRIP_TEST as consecutive lines, ignoring indentation and
comment lines (so CHECK lines may sit next to the ops). An op line must
match a test line exactly; a type line (one that starts with `!`) must occur
within a test line, since types appear in function signatures. The
round-trip test parses and verifies what it contains, so an example that
does not parse or verify fails there. Exits 1 when an example is missing.
"""

import os
import re
import sys


def examples_in(path):
    """Yields (line number, [lines]) for each Example: block in a .td file."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() == "Example:":
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            if j < len(lines) and lines[j].strip() == "```mlir":
                block = []
                k = j + 1
                while k < len(lines) and lines[k].strip() != "```":
                    if lines[k].strip():
                        block.append(lines[k].strip())
                    k += 1
                yield j + 2, block
                i = k
        i += 1


def td_files(roots):
    for root in roots:
        if os.path.isfile(root):
            yield root
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(".td"):
                    yield os.path.join(dirpath, name)


def matches(example_line, test_line):
    if example_line.startswith("!"):
        return example_line in test_line
    return example_line == test_line


def contains(test_lines, block):
    for start in range(len(test_lines) - len(block) + 1):
        if all(matches(e, t) for e, t in zip(block, test_lines[start:])):
            return True
    return False


def main(args):
    if len(args) < 2:
        print(__doc__)
        return 2
    for path in args:
        if not os.path.exists(path):
            print("ods_examples.py: no such file or directory: %s" % path)
            return 2
    with open(args[0], encoding="utf-8") as f:
        test_lines = [l.strip() for l in f.read().splitlines()
                      if l.strip() and not l.strip().startswith("//")]
    checked = missing = 0
    for td in td_files(args[1:]):
        for number, block in examples_in(td):
            checked += 1
            if not contains(test_lines, block):
                missing += 1
                print("%s:%d: example not found in %s:" % (td, number, args[0]))
                for line in block:
                    print("  " + line)
    if checked == 0:
        print("ods_examples.py: no Example: blocks found")
        return 2
    if missing:
        print("ods_examples.py: %d of %d examples missing" % (missing, checked))
        return 1
    print("ods_examples.py: all %d examples found" % checked)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
