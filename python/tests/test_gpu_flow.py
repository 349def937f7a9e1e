"""The GPU check flow, as far as it can be checked without a GPU: the
drivers parse, every GPU test and benchmark kernel is exercised by its
driver, and the known-issues list names real kernels."""

from __future__ import annotations

import ast
import re

import pytest

from conftest import REPO

GPU_TESTS = REPO / "test" / "Integration" / "GPU"
DRIVER = GPU_TESTS / "run_gpu_tests.py"
#: What the test groups share, the known issues among it.
SUPPORT = GPU_TESTS / "gpu_test_support.py"
GROUPS = sorted(GPU_TESTS.glob("*_tests.py"))
BENCHES = sorted((REPO / "bench").glob("bench_*.py"))


def functions(paths):
    names = {}
    for path in paths:
        for name in re.findall(r"func\.func @(\w+)", path.read_text()):
            names[name] = path.name
    return names


@pytest.mark.parametrize("script", [DRIVER, SUPPORT, *GROUPS, *BENCHES],
                         ids=lambda p: p.name)
def test_driver_parses(script):
    ast.parse(script.read_text(), filename=str(script))


def test_every_gpu_test_kernel_is_run():
    kernels = functions(sorted(GPU_TESTS.glob("*.mlir")))
    assert len(kernels) >= 25
    # run_gpu_tests.py and the groups it imports (copy_tests.py,
    # tma_tests.py, linalg_matmul_tests.py, linalg_ops_tests.py, ...).
    driver = DRIVER.read_text() + "".join(
        path.read_text() for path in sorted(GPU_TESTS.glob("*_tests.py")))
    missing = [f"{k} ({f})" for k, f in kernels.items()
               if f'"{k}"' not in driver]
    assert not missing, f"kernels the GPU driver never runs: {missing}"


def test_every_bench_kernel_is_timed():
    kernels = functions(sorted((REPO / "bench" / "kernels").glob("*.mlir")))
    assert kernels
    assert BENCHES
    bench = "".join(script.read_text() for script in BENCHES)
    missing = [k for k in kernels if f'"{k}"' not in bench]
    assert not missing, f"bench kernels no bench script times: {missing}"


def test_known_issues_name_real_kernels():
    tree = ast.parse(SUPPORT.read_text())
    known = None
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and \
                getattr(node.target, "id", None) == "KNOWN_ISSUES":
            known = ast.literal_eval(node.value)
    assert known is not None, "gpu_test_support.py has no KNOWN_ISSUES"
    kernels = functions(sorted(GPU_TESTS.glob("*.mlir")))
    assert set(known) <= set(kernels)


def test_every_gpu_kernel_file_is_assembled_by_lit():
    """Each kernel file is also a lit test that assembles each of its
    kernels with ptxas (REQUIRES: ptxas)."""
    for path in sorted(GPU_TESTS.glob("*.mlir")):
        text = path.read_text()
        assert "// REQUIRES: ptxas" in text, path.name
        for name in re.findall(r"func\.func @(\w+)", text):
            assert f"%t.d/{name}_kernel.ptx" in text, \
                f"{path.name}: {name} is not assembled by ptxas"
