#!/usr/bin/env python3
"""Checks that the code a Markdown page quotes still exists in the sources.

A fenced code block preceded by the comment

    <!-- quoted from: path/one.cpp path/two.cmake -->

(paths relative to the repository root, given as the first argument) must
consist of lines that each occur, leading and trailing blanks ignored, in one
of the named files; a line `...` stands for omitted code. Exits non-zero,
naming the page's line, on the first line that does not, and when the page
has no such block.
"""

import pathlib
import re
import sys

MARKER = re.compile(r"^<!-- quoted from: (?P<files>.+) -->$")


def main():
    root = pathlib.Path(sys.argv[1])
    page = pathlib.Path(sys.argv[2])
    lines = page.read_text(encoding="utf-8").split("\n")
    checked = 0
    errors = []
    index = 0
    while index < len(lines):
        match = MARKER.match(lines[index].strip())
        index += 1
        if not match:
            continue
        if index >= len(lines) or not lines[index].startswith("```"):
            sys.exit(f"{page}:{index}: a quoted-from marker must precede a "
                     f"code block")
        known = set()
        for name in match["files"].split():
            source = root / name
            if not source.exists():
                errors.append(f"{page}:{index}: no file {name}")
                continue
            known |= {l.strip() for l in source.read_text().split("\n")}
        index += 1
        while index < len(lines) and not lines[index].startswith("```"):
            quoted = lines[index].strip()
            if quoted and quoted != "..." and quoted not in known:
                errors.append(f"{page}:{index + 1}: not in "
                              f"{match['files']}: {quoted}")
            index += 1
        checked += 1
    if checked == 0:
        errors.append(f"{page}: no quoted code block to check")
    if errors:
        sys.exit("\n".join(errors))


if __name__ == "__main__":
    main()
