"""Where croq.compile finds its tools: the linker without clang-22 (the
system cc), ptxas from CUDA_HOME, PATH or the Python wheels that ship one,
the multi-call croq-tool of the wheel, and the build.json that records
them."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

import croq
from croq import compiler

from conftest import REPO


def _fake_executable(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\necho 'fake ptxas, release 0.0'\n")
    path.chmod(0o755)
    return path


def test_croq_clang_wins(monkeypatch, tmp_path):
    clang = _fake_executable(tmp_path / "my-clang")
    monkeypatch.setenv("CROQ_CLANG", str(clang))
    assert compiler.find_linker() == clang


def test_linker_falls_back_to_cc(monkeypatch):
    def no_clang():
        raise croq.CompileError("clang-22 not found", tool="clang-22")
    monkeypatch.setattr(compiler, "find_clang", no_clang)
    monkeypatch.delenv("CC", raising=False)
    linker = compiler.find_linker()
    assert linker.name in ("cc", "gcc")


def test_no_linker_at_all(monkeypatch):
    def no_clang():
        raise croq.CompileError("clang-22 not found", tool="clang-22")
    monkeypatch.setattr(compiler, "find_clang", no_clang)
    monkeypatch.delenv("CC", raising=False)
    monkeypatch.setenv("PATH", "")
    with pytest.raises(croq.CompileError, match="no linker"):
        compiler.find_linker()


def test_ptxas_order_and_origin(monkeypatch, tmp_path):
    cuda = _fake_executable(tmp_path / "cuda" / "bin" / "ptxas")
    on_path = _fake_executable(tmp_path / "path" / "ptxas")
    monkeypatch.delenv("CROQ_PTXAS", raising=False)
    monkeypatch.setenv("CUDA_HOME", str(tmp_path / "cuda"))
    monkeypatch.setenv("PATH", str(tmp_path / "path"))
    assert compiler.find_ptxas() == cuda
    assert compiler.ptxas_origin(cuda) == "CUDA_HOME"
    monkeypatch.delenv("CUDA_HOME")
    assert compiler.ptxas_origin(on_path) == "PATH"
    explicit = _fake_executable(tmp_path / "explicit" / "ptxas")
    monkeypatch.setenv("CROQ_PTXAS", str(explicit))
    assert compiler.find_ptxas() == explicit
    assert compiler.ptxas_origin(explicit) == "CROQ_PTXAS"
    assert compiler.ptxas_origin(tmp_path / "elsewhere") == "given"


def test_ptxas_of_the_python_wheels(monkeypatch, tmp_path):
    """Triton's and nvidia-cuda-nvcc's ptxas are candidates, found without
    importing the packages."""
    site = tmp_path / "site"
    triton = _fake_executable(
        site / "triton" / "backends" / "nvidia" / "bin" / "ptxas")
    (site / "triton" / "__init__.py").write_text("raise ImportError\n")
    nvcc = _fake_executable(site / "nvidia" / "cu13" / "bin" / "ptxas")
    monkeypatch.syspath_prepend(str(site))
    candidates = compiler._ptxas_candidates()
    assert (triton, "triton") in candidates
    assert (nvcc, "nvidia-cuda-nvcc") in candidates
    assert compiler.ptxas_origin(triton) == "triton"


def test_translate_command_of_the_multi_call_tool(tmp_path):
    assert compiler.translate_command(tmp_path / "croq-tool") == \
        [str(tmp_path / "croq-tool"), "translate"]
    assert compiler.translate_command(tmp_path / "croq-translate") == \
        [str(tmp_path / "croq-translate")]


def test_build_info_and_cc_link(tools_dir, stub_runtime_dir, binary_format,
                                tmp_path, monkeypatch):
    """Linked by the system cc when clang-22 is missing; build.json names
    the tools, and the cache keeps it."""
    def no_clang():
        raise croq.CompileError("clang-22 not found", tool="clang-22")
    monkeypatch.setattr(compiler, "find_clang", no_clang)
    art = croq.compile(REPO / "examples" / "tiled_add.mlir", tmp_path / "a",
                       tools_dir=tools_dir, runtime_dir=stub_runtime_dir,
                       binary=binary_format)
    assert not art.cached
    info = json.loads((art.directory / "tiled_add.build.json").read_text())
    assert Path(info["linker"]).name in ("cc", "gcc")
    assert info["croq_translate"] == str(tools_dir / "croq-translate")
    assert info["binary"] == binary_format
    if binary_format == "bin":
        assert info["ptxas_origin"] in ("CROQ_PTXAS", "CUDA_HOME", "PATH",
                                        "/usr/local/cuda", "triton",
                                        "nvidia-cuda-nvcc")
        assert "release" in info["ptxas_version"]
    assert b"$ORIGIN" in art.library.read_bytes()
    again = croq.compile(REPO / "examples" / "tiled_add.mlir", tmp_path / "b",
                         tools_dir=tools_dir, runtime_dir=stub_runtime_dir,
                         binary=binary_format)
    assert again.cached
    assert (again.directory / "tiled_add.build.json").read_text() == \
        (art.directory / "tiled_add.build.json").read_text()


def test_packaged_tool_comes_first(monkeypatch, tmp_path):
    """An installed wheel's croq/bin/croq-tool is found before the
    repository's build and PATH."""
    tool = _fake_executable(tmp_path / "croq" / "bin" / "croq-tool")
    monkeypatch.delenv("CROQ_TOOLS_DIR", raising=False)
    monkeypatch.setattr(compiler, "_PACKAGED_TOOL", tool)
    assert compiler.find_croq_translate() == tool
    (tmp_path / "croq" / "lib").mkdir()
    runtime = tmp_path / "croq" / "lib" / "libCroqRuntime.so"
    runtime.write_bytes(b"")
    monkeypatch.delenv("CROQ_RUNTIME_DIR", raising=False)
    assert compiler.find_runtime(None, tool) == runtime
