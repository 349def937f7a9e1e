"""Fixtures of the croq package tests: the repository's tools, a GPU-free
stub of libCroqRuntime built from stub_runtime.c, and artifacts compiled
against it. Nothing here needs a GPU."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
PYTHON_DIR = TESTS.parent
REPO = PYTHON_DIR.parent
#: CROQ_TEST_WHEEL=1: the tests run against the croq package installed from
#: the wheel (scripts/ci-wheel.sh), with the compiler and runtime it
#: carries, instead of python/ and the build tree's tools.
WHEEL = os.environ.get("CROQ_TEST_WHEEL") == "1"
if not WHEEL:
    sys.path.insert(0, str(PYTHON_DIR))

import croq  # noqa: E402
from croq.compiler import find_clang, find_ptxas  # noqa: E402

if WHEEL and PYTHON_DIR in Path(croq.__file__).resolve().parents:
    raise ImportError(f"CROQ_TEST_WHEEL=1 but croq comes from {PYTHON_DIR}, "
                      f"not an installed wheel: run from outside the tree")

BUILD = Path(os.environ.get("CROQ_BUILD_DIR", REPO / "build"))
#: The tools: the build tree's, or the croq-opt and croq-translate scripts
#: the wheel installs beside the environment's python (they run the
#: package's croq-tool).
TOOLS = Path(sys.executable).parent if WHEEL else BUILD / "bin"
#: The real runtime the package calls: the wheel's, or the build tree's.
RUNTIME_DIR = Path(croq.__file__).resolve().parent / "lib" if WHEEL else \
    BUILD / "lib"


def _have_translate() -> bool:
    return (TOOLS / "croq-translate").is_file()


needs_translate = pytest.mark.skipif(
    not _have_translate(),
    reason=f"croq-translate is not built in {TOOLS}")
needs_ptxas = pytest.mark.skipif(find_ptxas() is None,
                                 reason="ptxas (CUDA toolkit) not found")


@pytest.fixture(scope="session")
def tools_dir() -> Path:
    if not _have_translate():
        pytest.skip(f"croq-translate is not built in {TOOLS}")
    return TOOLS


@pytest.fixture(scope="session")
def stub_runtime_dir(tmp_path_factory) -> Path:
    """A directory holding libCroqRuntime.so built from stub_runtime.c."""
    try:
        clang = find_clang()
    except croq.CompileError as e:
        pytest.skip(str(e))
    out = tmp_path_factory.mktemp("stub-runtime")
    subprocess.run([str(clang), "-shared", "-fPIC", "-O1",
                    "-Wl,-soname,libCroqRuntime.so",
                    str(TESTS / "stub_runtime.c"), "-o",
                    str(out / "libCroqRuntime.so")], check=True)
    return out


@pytest.fixture(scope="session", autouse=True)
def private_compile_cache(tmp_path_factory):
    """The tests' compiles share a cache of their own, not the user's."""
    old = os.environ.get("CROQ_CACHE_DIR")
    os.environ["CROQ_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if old is None:
        del os.environ["CROQ_CACHE_DIR"]
    else:
        os.environ["CROQ_CACHE_DIR"] = old


@pytest.fixture(scope="session")
def binary_format() -> str:
    """'bin' where ptxas can assemble the cubin, 'isa' (PTX) elsewhere."""
    return "bin" if find_ptxas() is not None else "isa"


@pytest.fixture(scope="session")
def tiled_add(tools_dir, stub_runtime_dir, binary_format, tmp_path_factory):
    """examples/tiled_add.mlir compiled against the stub runtime."""
    return croq.compile(REPO / "examples" / "tiled_add.mlir",
                        tmp_path_factory.mktemp("tiled_add"),
                        tools_dir=tools_dir, runtime_dir=stub_runtime_dir,
                        binary=binary_format)


@pytest.fixture(scope="session")
def gpu_kernels(tools_dir, stub_runtime_dir, binary_format, tmp_path_factory):
    """Modules of test/Integration/GPU compiled into one directory (as
    scripts/gpu-artifacts.sh does), against the stub runtime."""
    out = tmp_path_factory.mktemp("gpu-kernels")
    return {name: croq.compile(REPO / "test" / "Integration" / "GPU" /
                               f"{name}.mlir", out, tools_dir=tools_dir,
                               runtime_dir=stub_runtime_dir,
                               binary=binary_format)
            for name in ("copy", "pad", "tiled_add")}


@pytest.fixture
def copy_module(gpu_kernels):
    return croq.load(gpu_kernels["copy"].library)


@pytest.fixture
def scalars_module(gpu_kernels):
    """test/Integration/GPU/tiled_add.mlir: @scaled_add_f32 takes scalars of
    every type an entry point may take."""
    return croq.load(gpu_kernels["tiled_add"].library)


def pytest_report_header(config):
    return [f"croq: tools {TOOLS} ({'found' if _have_translate() else 'missing'}),"
            f" ptxas {find_ptxas() or 'missing'}"]


def which(name: str) -> bool:
    return shutil.which(name) is not None
