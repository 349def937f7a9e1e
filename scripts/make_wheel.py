#!/usr/bin/env python3
"""Packs the croq wheel from a CROQ_STATIC_TOOLS build (scripts/build-wheel.sh).

    make_wheel.py --build-dir build-wheel --out-dir dist

The wheel holds the Python package (python/croq), the multi-call compiler
``croq/bin/croq-tool`` and ``croq/lib/libCroqRuntime.so`` (both stripped),
``croq/_build_info.json`` (commit, LLVM, what the binaries need from the
system), and two console scripts, croq-opt and croq-translate. Written with
the standard library only (zipfile, RECORD hashes), so packing needs no
network and no wheel package.

The platform tag is computed, not assumed: manylinux_2_<N>_x86_64 where
GLIBC_2.<N> is the newest glibc symbol version any bundled binary requires
(``objdump -p``, the version references), and at least 2.28, the glibc
whose symbol lists scripts/glibc_check.py checks every import against
(the binaries link against glibc 2.28 stubs, cmake/CroqGlibcCompat.cmake).
Packing fails where that check does. --check-only prints what the binaries
need and fails if it breaks a rule of check_requirements().
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Dict, List, Tuple

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))
import glibc_check  # noqa: E402

#: The shared libraries the bundled binaries may need: glibc's, and the
#: compression libraries LLVM's Support library calls (zlib, zstd), which
#: every Debian and Ubuntu system has (dpkg needs them).
ALLOWED_NEEDED = {
    "libc.so.6", "libm.so.6", "libdl.so.2", "librt.so.1", "libpthread.so.0",
    "ld-linux-x86-64.so.2", "libz.so.1", "libzstd.so.1",
}


def elf_requirements(path: Path) -> Dict[str, object]:
    """What the ELF file at `path` needs from the system: its DT_NEEDED
    libraries and the symbol versions it requires of each (objdump -p)."""
    out = subprocess.run(["objdump", "-p", str(path)], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    needed = re.findall(r"^\s*NEEDED\s+(\S+)", out, re.M)
    versions: Dict[str, List[str]] = {}
    current = None
    in_refs = False
    for line in out.splitlines():
        if line.startswith("Version References:"):
            in_refs = True
            continue
        if in_refs:
            m = re.match(r"\s*required from (\S+):", line)
            if m:
                current = m.group(1)
                versions.setdefault(current, [])
                continue
            m = re.match(r"\s*0x[0-9a-f]+ 0x[0-9a-f]+ \d+ (\S+)", line)
            if m and current:
                versions[current].append(m.group(1))
                continue
            if line.strip() == "":
                continue
            in_refs = False
    glibc = [tuple(int(x) for x in v[len("GLIBC_"):].split("."))
             for vs in versions.values() for v in vs
             if re.fullmatch(r"GLIBC_\d+\.\d+(\.\d+)?", v)]
    return {"needed": needed, "versions": versions,
            "glibc_max": ".".join(map(str, max(glibc))) if glibc else None}


def check_requirements(reqs: Dict[str, Dict[str, object]]) -> List[str]:
    """The rules the wheel's binaries keep: only ALLOWED_NEEDED libraries
    (no libLLVM, libMLIR, libstdc++, libgcc_s), and no GLIBCXX_/CXXABI_/
    GCC_ versions (the C++ runtime is linked in)."""
    problems = []
    for name, req in reqs.items():
        for lib in req["needed"]:
            if lib not in ALLOWED_NEEDED:
                problems.append(f"{name} needs {lib}")
        for lib, versions in req["versions"].items():
            for v in versions:
                if re.match(r"(GLIBCXX|CXXABI|GCC)_", v):
                    problems.append(f"{name} requires {v} of {lib}")
    return problems


def platform_tag(reqs: Dict[str, Dict[str, object]]) -> str:
    """manylinux_2_<N>_x86_64 for the newest GLIBC_2.<N> required, and no
    older than the glibc the imports are checked against (2.28)."""
    newest = max((tuple(int(x) for x in str(r["glibc_max"]).split("."))
                  for r in reqs.values() if r["glibc_max"]),
                 default=glibc_check.FLOOR)
    newest = max(newest[:2], glibc_check.FLOOR)
    return f"manylinux_{newest[0]}_{newest[1]}_x86_64"


def check_glibc(binaries: Dict[str, Path], tag: str) -> List[str]:
    """Every glibc import of every binary, against the tag and glibc
    2.28's symbol lists (scripts/glibc_check.py)."""
    lists = glibc_check.glibc_228()
    limit = glibc_check.tag_glibc(tag)
    return [p for name, path in binaries.items()
            for p in glibc_check.check(name, path, limit, lists)]


def _record_line(arcname: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest())
    return f"{arcname},sha256={digest.rstrip(b'=').decode()},{len(data)}"


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", "-C", str(REPO), *args], check=True,
                              stdout=subprocess.PIPE,
                              text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _package_version() -> str:
    text = (REPO / "python" / "croq" / "__init__.py").read_text()
    return re.search(r'^__version__ = "([^"]+)"', text, re.M).group(1)


def _metadata(version: str) -> str:
    readme = ("croq compiles tile kernels for NVIDIA Hopper (sm_90a) from "
              "linalg or croq IR and calls them from Python. This wheel "
              "carries the compiler (MLIR/LLVM 22 linked in) and the "
              "runtime: compiling needs ptxas (CUDA toolkit, Triton's or "
              "nvidia-cuda-nvcc's) and a C compiler (cc) to link; running "
              "needs the CUDA driver.\n")
    return (f"Metadata-Version: 2.1\nName: croq\nVersion: {version}\n"
            "Summary: Compile croq tile kernels for NVIDIA Hopper and call "
            "them from Python\n"
            "License: Apache-2.0 WITH LLVM-exception\n"
            "Requires-Python: >=3.9\n"
            "Provides-Extra: torch\n"
            'Requires-Dist: torch; extra == "torch"\n'
            "Description-Content-Type: text/plain\n\n" + readme)


def build(build_dir: Path, out_dir: Path, staging: Path) -> Path:
    tool = build_dir / "bin" / "croq-tool"
    runtime = build_dir / "lib" / "libCroqRuntime.so"
    for f in (tool, runtime):
        if not f.is_file():
            sys.exit(f"make_wheel: {f} is missing; build it first "
                     "(scripts/build-wheel.sh)")
    if staging.exists():
        shutil.rmtree(staging)
    pkg = staging / "croq"
    shutil.copytree(REPO / "python" / "croq", pkg,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (pkg / "bin").mkdir()
    (pkg / "lib").mkdir()
    shutil.copy2(tool, pkg / "bin" / "croq-tool")
    shutil.copy2(runtime, pkg / "lib" / "libCroqRuntime.so")
    subprocess.run(["strip", "--strip-all", str(pkg / "bin" / "croq-tool")],
                   check=True)
    subprocess.run(["strip", "--strip-unneeded",
                    str(pkg / "lib" / "libCroqRuntime.so")], check=True)

    binaries = {"croq/bin/croq-tool": pkg / "bin" / "croq-tool",
                "croq/lib/libCroqRuntime.so": pkg / "lib" / "libCroqRuntime.so"}
    reqs = {name: elf_requirements(p) for name, p in binaries.items()}
    problems = check_requirements(reqs)
    if problems:
        sys.exit("make_wheel: the binaries need what the wheel cannot "
                 "promise:\n  " + "\n  ".join(problems))
    tag = platform_tag(reqs)
    problems = check_glibc(binaries, tag)
    if problems:
        sys.exit(f"make_wheel: the binaries import what {tag} does not "
                 "promise:\n  " + "\n  ".join(problems))
    base = _package_version()
    commit = _git("rev-parse", "--short=10", "HEAD")
    dirty = _git("status", "--porcelain", "--untracked-files=no")
    version = f"{base}+g{commit}" + (".dirty" if dirty else "")
    llvm = subprocess.run(["/usr/lib/llvm-22/bin/llvm-config", "--version"],
                          stdout=subprocess.PIPE, text=True).stdout.strip()
    info = {"version": version, "commit": _git("rev-parse", "HEAD"),
            "dirty": bool(dirty), "llvm": llvm, "platform_tag": tag,
            "binaries": reqs}
    (pkg / "_build_info.json").write_text(json.dumps(info, indent=2) + "\n")

    name = f"croq-{version}-py3-none-{tag}.whl"
    dist_info = f"croq-{version}.dist-info"
    out_dir.mkdir(parents=True, exist_ok=True)
    wheel_path = out_dir / name
    files: List[Tuple[str, Path]] = sorted(
        (str(p.relative_to(staging)), p) for p in pkg.rglob("*")
        if p.is_file())
    meta = {
        f"{dist_info}/METADATA": _metadata(version),
        f"{dist_info}/WHEEL": ("Wheel-Version: 1.0\n"
                               "Generator: croq scripts/make_wheel.py\n"
                               "Root-Is-Purelib: false\n"
                               f"Tag: py3-none-{tag}\n"),
        f"{dist_info}/entry_points.txt": (
            "[console_scripts]\ncroq-opt = croq._tools:opt\n"
            "croq-translate = croq._tools:translate\n"),
        f"{dist_info}/top_level.txt": "croq\n",
    }
    record = []
    # Level 6: 48.2 MiB in 5.5 s of CPU for croq-tool's 169 MiB; level 9
    # saves 0.3 MiB for 17 s (measured on the build machine).
    with zipfile.ZipFile(wheel_path, "w", zipfile.ZIP_DEFLATED,
                         compresslevel=6) as whl:
        for arcname, path in files:
            data = path.read_bytes()
            zi = zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0))
            # Regular file bits too: pip makes a file executable only when
            # its mode says regular file with an x bit.
            executable = os.access(path, os.X_OK) and arcname in binaries
            zi.external_attr = (0o100755 if executable else 0o100644) << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            whl.writestr(zi, data)
            record.append(_record_line(arcname, data))
        for arcname, text in meta.items():
            data = text.encode()
            zi = zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0))
            zi.external_attr = 0o100644 << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            whl.writestr(zi, data)
            record.append(_record_line(arcname, data))
        record.append(f"{dist_info}/RECORD,,")
        zi = zipfile.ZipInfo(f"{dist_info}/RECORD",
                             date_time=(2020, 1, 1, 0, 0, 0))
        zi.external_attr = 0o100644 << 16
        zi.compress_type = zipfile.ZIP_DEFLATED
        whl.writestr(zi, "\n".join(record) + "\n")
    return wheel_path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", type=Path, default=REPO / "build-wheel")
    parser.add_argument("--out-dir", type=Path,
                        default=REPO / "build-wheel" / "dist")
    parser.add_argument("--check-only", nargs="*", type=Path, metavar="ELF",
                        help="print what these binaries need and check "
                        "them against the rules; build nothing")
    args = parser.parse_args()
    if args.check_only is not None:
        reqs = {str(p): elf_requirements(p) for p in args.check_only}
        print(json.dumps({"platform_tag": platform_tag(reqs),
                          "binaries": reqs}, indent=2))
        problems = check_requirements(reqs) + check_glibc(
            {str(p): p for p in args.check_only}, platform_tag(reqs))
        for p in problems:
            print(f"make_wheel: {p}", file=sys.stderr)
        return 1 if problems else 0
    wheel = build(args.build_dir.resolve(), args.out_dir.resolve(),
                  args.build_dir.resolve() / "wheel-staging")
    print(wheel)
    return 0


if __name__ == "__main__":
    sys.exit(main())
