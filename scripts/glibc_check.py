#!/usr/bin/env python3
"""Checks that binaries run on glibc 2.28: every glibc symbol they import.

    glibc_check.py WHEEL            # its bundled ELF files, against its tag
    glibc_check.py [--tag T] ELF... # T: manylinux_2_28_x86_64 unless given
    glibc_check.py --list ...       # also print every import

For each dynamic symbol a binary imports, with the version and library its
version reference names (readelf), it fails, naming binary and symbol,
where the version is newer than the tag's glibc, or where glibc 2.28 does
not define that symbol at that version in that library
(utils/glibc-2.28/*.abilist, glibc's own lists of its x86_64 ABI), or where
a glibc symbol is imported with no version at all. The library matters:
glibc 2.28 fails a lookup that reaches the named library without finding
the symbol there (see cmake/CroqGlibcCompat.cmake). make_wheel.py runs it
before packing, and scripts/test-wheel.sh on the wheel it installs.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

REPO = Path(__file__).resolve().parents[1]
ABILISTS = REPO / "utils" / "glibc-2.28"
#: The glibc whose symbol lists the check reads: the oldest the wheel can
#: promise, whatever older versions its binaries happen to name.
FLOOR = (2, 28)
SONAMES = {"libc.so.6": "libc", "libm.so.6": "libm",
           "libpthread.so.0": "libpthread", "libdl.so.2": "libdl",
           "librt.so.1": "librt", "ld-linux-x86-64.so.2": "ld"}

#: (symbol, version or None, library or None, weak)
Import = Tuple[str, Optional[str], Optional[str], bool]


def glibc_228() -> Dict[str, Set[Tuple[str, str]]]:
    """{soname: {(symbol, version)}} that glibc 2.28 exports on x86_64."""
    lists = {}
    for soname, stem in SONAMES.items():
        pairs = set()
        for line in (ABILISTS / f"{stem}.abilist").read_text().splitlines():
            fields = line.split()
            if len(fields) >= 3:
                pairs.add((fields[1], fields[0]))
        lists[soname] = pairs
    return lists


def version_of(name: str) -> Tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", name))


def imports(path: Path) -> List[Import]:
    """The undefined dynamic symbols of the ELF file at `path`."""
    def readelf(*args):
        return subprocess.run(["readelf", "-W", *args, str(path)], check=True,
                              stdout=subprocess.PIPE, text=True).stdout
    # Version index -> the library its version reference names.
    files: Dict[str, str] = {}
    current = None
    for line in readelf("-V").splitlines():
        m = re.search(r"Version: \d+\s+File: (\S+)", line)
        if m:
            current = m.group(1)
            continue
        m = re.search(r"Name: (\S+)\s+Flags: \S+\s+Version: (\d+)", line)
        if m and current:
            files[m.group(2)] = current
    result = []
    for line in readelf("--dyn-syms").splitlines():
        m = re.match(r"\s*\d+: \S+\s+\d+\s+\S+\s+(\S+)\s+\S+\s+UND\s+"
                     r"([^@\s]+)(?:@(\S+)(?: \((\d+)\))?)?\s*$", line)
        if not m or not m.group(2):
            continue
        bind, name, version, index = m.groups()
        result.append((name, version, files.get(index or ""), bind == "WEAK"))
    return result


def check(name: str, path: Path, tag_glibc: Tuple[int, int],
          lists: Dict[str, Set[Tuple[str, str]]]) -> List[str]:
    """What `path` imports that glibc 2.28 (and the tag) does not promise."""
    problems = []
    glibc_names = {s for pairs in lists.values() for s, _ in pairs}
    for symbol, version, lib, weak in imports(path):
        if version is None:
            # An import with no version binds to whatever a library defines
            # by that name: fine for the weak hooks (__gmon_start__), not
            # for a glibc function.
            if not weak and symbol in glibc_names:
                problems.append(f"{name}: {symbol} is imported unversioned")
            continue
        if not version.startswith("GLIBC_"):
            continue
        if version_of(version) > tag_glibc:
            problems.append(f"{name}: {symbol}@{version} ({lib}) is newer "
                            f"than glibc {tag_glibc[0]}.{tag_glibc[1]}")
        elif lib not in lists:
            problems.append(f"{name}: {symbol}@{version} is required from "
                            f"{lib}, not a glibc 2.28 library")
        elif (symbol, version) not in lists[lib]:
            homes = [s for s, pairs in lists.items()
                     if (symbol, version) in pairs]
            where = f"; 2.28 has it in {', '.join(homes)}" if homes else ""
            problems.append(f"{name}: glibc 2.28's {lib} does not define "
                            f"{symbol}@{version}{where}")
    return problems


def tag_glibc(tag: str) -> Tuple[int, int]:
    m = re.search(r"manylinux_(\d+)_(\d+)_", tag)
    if not m:
        sys.exit(f"glibc_check: {tag} is not a manylinux_X_Y tag")
    return int(m.group(1)), int(m.group(2))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--tag", help="default: the wheel's, or "
                        "manylinux_2_28_x86_64")
    parser.add_argument("--list", action="store_true",
                        help="print every versioned import")
    args = parser.parse_args()
    lists = glibc_228()
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        binaries = {}
        for f in args.files:
            if not f.is_file():
                sys.exit(f"glibc_check: {f} is missing")
            if f.suffix != ".whl":
                binaries[str(f)] = f
                continue
            args.tag = args.tag or f.name.rsplit("-", 1)[-1][:-len(".whl")]
            with zipfile.ZipFile(f) as whl:
                for member in whl.namelist():
                    data = whl.read(member)
                    if data[:4] == b"\x7fELF":
                        out = Path(tmp) / member
                        out.parent.mkdir(parents=True, exist_ok=True)
                        out.write_bytes(data)
                        binaries[member] = out
        if not binaries:
            sys.exit("glibc_check: no ELF files to check")
        limit = tag_glibc(args.tag or "manylinux_2_28_x86_64")
        for name, path in binaries.items():
            if args.list:
                for symbol, version, lib, _ in sorted(imports(path)):
                    if version:
                        print(f"{name}: {symbol}@{version} {lib}")
            found = check(name, path, limit, lists)
            problems += found
            glibc = [(version_of(v), v, s, lib)
                     for s, v, lib, _ in imports(path)
                     if v and v.startswith("GLIBC_")]
            newest = max(glibc, default=None)
            print(f"glibc_check: {name}: {len(glibc)} glibc imports, newest "
                  + (f"{newest[2]}@{newest[1]} ({newest[3]})" if newest
                     else "none")
                  + (f"; {len(found)} problems" if found else
                     f"; all in glibc 2.28's lists, none past "
                     f"{limit[0]}.{limit[1]}"))
    for p in problems:
        print(f"glibc_check: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
