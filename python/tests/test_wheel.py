"""The wheel's platform tag and what its binaries need from the system
(scripts/make_wheel.py): the rules on synthetic requirements, objdump's
version references of a real library, the glibc 2.28 check
(scripts/glibc_check.py) on small programs linked three ways, and, where a
wheel was built (scripts/build-wheel.sh, or $CROQ_WHEEL), its tag and
imports against its binaries."""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from conftest import BUILD, REPO

_spec = importlib.util.spec_from_file_location(
    "make_wheel", REPO / "scripts" / "make_wheel.py")
make_wheel = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_wheel)


def _req(needed, versions):
    glibc = [tuple(map(int, v[6:].split("."))) for vs in versions.values()
             for v in vs if v.startswith("GLIBC_")]
    return {"needed": needed, "versions": versions,
            "glibc_max": ".".join(map(str, max(glibc))) if glibc else None}


def test_tag_is_the_newest_glibc_required():
    reqs = {
        "a": _req(["libc.so.6"], {"libc.so.6": ["GLIBC_2.2.5", "GLIBC_2.34"]}),
        "b": _req(["libc.so.6"], {"libc.so.6": ["GLIBC_2.17", "GLIBC_2.36"]}),
    }
    assert make_wheel.platform_tag(reqs) == "manylinux_2_36_x86_64"
    assert make_wheel.check_requirements(reqs) == []
    # No older than the glibc whose symbol lists the imports are checked
    # against.
    old = {"a": _req(["libc.so.6"], {"libc.so.6": ["GLIBC_2.2.5",
                                                   "GLIBC_2.27"]})}
    assert make_wheel.platform_tag(old) == "manylinux_2_28_x86_64"


def test_rules_reject_llvm_and_the_shared_cxx_runtime():
    reqs = {"tool": _req(
        ["libLLVM.so.22.1", "libstdc++.so.6", "libc.so.6"],
        {"libstdc++.so.6": ["GLIBCXX_3.4.29", "CXXABI_1.3"],
         "libc.so.6": ["GLIBC_2.34"]})}
    problems = make_wheel.check_requirements(reqs)
    assert "tool needs libLLVM.so.22.1" in problems
    assert "tool needs libstdc++.so.6" in problems
    assert "tool requires GLIBCXX_3.4.29 of libstdc++.so.6" in problems
    assert "tool requires CXXABI_1.3 of libstdc++.so.6" in problems


def test_version_references_of_a_real_library():
    runtime = BUILD / "lib" / "libCroqRuntime.so"
    if not runtime.is_file():
        pytest.skip(f"{runtime} is not built")
    req = make_wheel.elf_requirements(runtime)
    assert "libc.so.6" in req["needed"]
    assert re.fullmatch(r"2\.\d+(\.\d+)?", req["glibc_max"])
    assert any(v.startswith("GLIBC_") for v in req["versions"]["libc.so.6"])


def _built_wheel():
    if os.environ.get("CROQ_WHEEL"):
        return Path(os.environ["CROQ_WHEEL"])
    wheels = sorted((REPO / "build-wheel" / "dist").glob("croq-*.whl"),
                    key=lambda p: p.stat().st_mtime)
    return wheels[-1] if wheels else None


def test_built_wheel_tag_matches_its_binaries(tmp_path):
    wheel = _built_wheel()
    if wheel is None:
        pytest.skip("no wheel built (scripts/build-wheel.sh)")
    with zipfile.ZipFile(wheel) as whl:
        whl.extractall(tmp_path)
        names = whl.namelist()
        record_name = next(n for n in names if n.endswith(".dist-info/RECORD"))
        record = whl.read(record_name).decode().splitlines()
        wheel_meta = whl.read(record_name.replace("RECORD", "WHEEL")).decode()
        for line in record:
            path, digest, size = line.rsplit(",", 2)
            if not digest:
                continue
            data = whl.read(path)
            want = base64.urlsafe_b64encode(
                hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert digest == f"sha256={want}" and int(size) == len(data), path
    binaries = {n: tmp_path / n for n in
                ("croq/bin/croq-tool", "croq/lib/libCroqRuntime.so")}
    reqs = {n: make_wheel.elf_requirements(p) for n, p in binaries.items()}
    assert make_wheel.check_requirements(reqs) == []
    tag = make_wheel.platform_tag(reqs)
    assert wheel.name.endswith(f"-py3-none-{tag}.whl"), (wheel.name, tag)
    assert f"Tag: py3-none-{tag}" in wheel_meta
    # The newest glibc the tag promises is what the binaries reference, or
    # 2.28, and every import is in glibc 2.28's lists.
    newest = max(tuple(map(int, r["glibc_max"].split(".")))
                 for r in reqs.values())
    newest = max(newest[:2], (2, 28))
    assert tag == f"manylinux_{newest[0]}_{newest[1]}_x86_64"
    assert make_wheel.check_glibc(binaries, tag) == []


glibc_check = make_wheel.glibc_check

#: Calls what glibc 2.34 moved from libpthread into libc, and a math
#: function 2.29 gave a new version.
_PROGRAM = r"""
#include <math.h>
#include <pthread.h>
#include <stdio.h>
%s
static void *run(void *arg) { return arg; }
int main(int argc, char **argv) {
  pthread_t thread;
  void *result;
  if (pthread_create(&thread, 0, run, argv) || pthread_join(thread, &result))
    return 1;
  printf("%%f\n", exp((double)argc));
  return result != argv;
}
"""


def _link(tmp_path, name, extra_source="", flags=()):
    cc = shutil.which("clang-22") or shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler")
    src = tmp_path / f"{name}.c"
    src.write_text(_PROGRAM % extra_source)
    out = tmp_path / name
    subprocess.run([cc, "-O1", str(src), "-o", str(out), *flags, "-lpthread",
                    "-lm"], check=True)
    return out


def test_glibc_228_lists():
    lists = glibc_check.glibc_228()
    assert ("pthread_create", "GLIBC_2.2.5") in lists["libpthread.so.0"]
    assert ("pthread_create", "GLIBC_2.2.5") not in lists["libc.so.6"]
    assert ("exp", "GLIBC_2.2.5") in lists["libm.so.6"]
    assert ("exp", "GLIBC_2.29") not in lists["libm.so.6"]
    assert ("__xstat", "GLIBC_2.2.5") in lists["libc.so.6"]
    assert not any(s == "stat" for s, _ in lists["libc.so.6"])
    assert ("dlopen", "GLIBC_2.2.5") in lists["libdl.so.2"]


def test_check_rejects_a_program_linked_against_this_glibc(tmp_path):
    version = os.confstr("CS_GNU_LIBC_VERSION") or ""
    if tuple(map(int, re.findall(r"\d+", version))) < (2, 34):
        pytest.skip(f"{version}: pthread_create still in libpthread")
    prog = _link(tmp_path, "plain")
    problems = glibc_check.check("plain", prog, (2, 28),
                                 glibc_check.glibc_228())
    assert ("plain: pthread_create@GLIBC_2.34 (libc.so.6) is newer than "
            "glibc 2.28") in problems
    assert "plain: exp@GLIBC_2.29 (libm.so.6) is newer than glibc 2.28" \
        in problems


def test_check_rejects_an_old_version_from_the_wrong_library(tmp_path):
    # .symver picks 2.2.5, but this glibc records it against libc.so.6,
    # where 2.28's ld.so would look for it and fail.
    version = os.confstr("CS_GNU_LIBC_VERSION") or ""
    if tuple(map(int, re.findall(r"\d+", version))) < (2, 34):
        pytest.skip(f"{version}: pthread_create still in libpthread")
    prog = _link(tmp_path, "symver", '__asm__(".symver pthread_create, "'
                 '"pthread_create@GLIBC_2.2.5");')
    problems = glibc_check.check("symver", prog, (2, 28),
                                 glibc_check.glibc_228())
    assert ("symver: glibc 2.28's libc.so.6 does not define "
            "pthread_create@GLIBC_2.2.5; 2.28 has it in libpthread.so.0") \
        in problems


def test_check_accepts_a_program_linked_against_the_stubs(tmp_path):
    stubs = BUILD / "glibc-2.28-stubs"
    if not (stubs / "libc.so.6").is_file():
        pytest.skip(f"{stubs} not built (CROQ_WHEEL_TOOL=ON)")
    prog = _link(tmp_path, "stubbed", flags=(f"-L{stubs}",))
    assert glibc_check.check("stubbed", prog, (2, 28),
                             glibc_check.glibc_228()) == []
    found = {(s, v, lib) for s, v, lib, _ in glibc_check.imports(prog)}
    assert ("pthread_create", "GLIBC_2.2.5", "libpthread.so.0") in found
    assert ("exp", "GLIBC_2.2.5", "libm.so.6") in found
    # Linked so, it still runs here (2.34+ finds both in libc and libm).
    run = subprocess.run([str(prog)], stdout=subprocess.PIPE, text=True)
    assert run.returncode == 0 and run.stdout.strip() == "2.718282"
