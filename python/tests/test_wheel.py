"""The wheel's platform tag and what its binaries need from the system
(scripts/make_wheel.py): the rules on synthetic requirements, objdump's
version references of a real library, and, where a wheel was built
(scripts/build-wheel.sh, or $CROQ_WHEEL), its tag against its binaries."""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import os
import re
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
    # The newest glibc the tag promises is what the binaries reference.
    newest = max(tuple(map(int, r["glibc_max"].split(".")))
                 for r in reqs.values())
    assert tag == f"manylinux_{newest[0]}_{newest[1]}_x86_64"
