#!/usr/bin/env python3
"""Lists FileCheck directives that FileCheck silently ignores.

FileCheck only sees a directive when its prefix is followed by a colon
(`CHECK:`, `CHECK-NEXT:`); a line such as `// CHECK-NEXT foo` is a comment
to it, so the check it was meant to make never runs. This script reports
every such line in the files under the given paths: the default prefix
CHECK, and any prefix a file names with --check-prefix or --check-prefixes,
with any directive suffix (-NEXT, -SAME, -DAG, -NOT, -LABEL, -EMPTY,
-COUNT-n). Exits 1 when it finds one, 2 when a path does not exist.
"""

import os
import re
import sys

SUFFIXES = (".mlir", ".test", ".ll")
# Fixtures that plant dead directives on purpose; scanned only when named.
FIXTURES = os.path.join("lint", "Inputs")


def prefixes_of(text):
    prefixes = {"CHECK"}
    for match in re.finditer(r"--?check-prefix(?:es)?[= ]([A-Za-z0-9_,-]+)",
                             text):
        prefixes.update(p for p in match.group(1).split(",") if p)
    return prefixes


def dead_directives(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    names = "|".join(re.escape(p) for p in sorted(prefixes_of(text)))
    # A comment that starts with a directive not followed by a colon.
    dead = re.compile(r"^\s*(?://|;|#)\s*((?:%s)(?:-[A-Z0-9]+)*)(?=\s|$)" %
                      names)
    for number, line in enumerate(text.splitlines(), 1):
        match = dead.match(line)
        if match:
            yield number, match.group(1), line.strip()


def files_under(root):
    if os.path.isfile(root):
        yield root
        return
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        dirnames[:] = [d for d in dirnames
                       if not os.path.join(dirpath, d).endswith(FIXTURES)]
        for name in sorted(filenames):
            if name.endswith(SUFFIXES):
                yield os.path.join(dirpath, name)


def main(paths):
    found = 0
    for root in paths:
        if not os.path.exists(root):
            print("dead_checks.py: no such file or directory: %s" % root)
            return 2
        for path in files_under(root):
            for number, directive, line in dead_directives(path):
                print("%s:%d: '%s' has no colon, so FileCheck ignores it: %s" %
                      (path, number, directive, line))
                found += 1
    if found:
        print("dead_checks.py: %d FileCheck directive(s) without a colon" %
              found)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
