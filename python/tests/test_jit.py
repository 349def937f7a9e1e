"""croq.jit on the stub runtime: compile on first call. A dynamic-shape GEMM
compiles its classifier once and each shape class's variant alone, the
first time a call needs it; calls of a known shape compile nothing; the
disk cache serves a new module of the same text; errors name the cause."""

from __future__ import annotations

import sys
import time

import pytest

import croq

from test_module import last_launch

GEMM = """
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>)
  return
}
"""

STATIC = GEMM.replace("?x?", "256x256")

#: The variants of the dynamic f16 GEMM into f32: the product as stored
#: has 28 (43 kernels); before it comes its one-row form where N is 1
#: (C^T = B^T A^T, three variants), a product of its own, whose class a
#: call of more columns leaves at -1.
VARIANTS = 28


def operands(m, n, k, k_b=None):
    """Buffers at distinct fake device addresses (the stub launches
    nothing)."""
    return [croq.Buffer(0x7F0000000000, (m, k), dtype="f16"),
            croq.Buffer(0x7E0000000000, (k_b or k, n), dtype="f16"),
            croq.Buffer(0x7D0000000000, (m, n), dtype="f32")]


def kernels(artifact: croq.Artifact) -> int:
    """The kernels an artifact's PTX holds."""
    return sum(1 for line in artifact.ptx.read_text().splitlines()
               if line.startswith("//--- "))


@pytest.fixture
def options(tools_dir, stub_runtime_dir, binary_format):
    return dict(tools_dir=tools_dir, runtime_dir=stub_runtime_dir,
                binary=binary_format)


@pytest.fixture(scope="module")
def gemm(tools_dir, stub_runtime_dir, binary_format, tmp_path_factory):
    return croq.jit(GEMM, name="gemm",
                    directory=tmp_path_factory.mktemp("jit"),
                    tools_dir=tools_dir, runtime_dir=stub_runtime_dir,
                    binary=binary_format)


def test_first_call_compiles_one_variant(gemm):
    args = operands(2048, 1024, 4096)
    gemm.gemm(*args)
    (row, variant) = gemm.gemm.shape_class(*args)
    assert row == -1
    assert 0 <= variant < VARIANTS
    assert set(gemm.compiled) == {"classify", (row, variant)}
    # The classifier has no kernel; the specialization the chosen one only
    # (a whole tile: one kernel), launched once.
    assert kernels(gemm.compiled["classify"]) == 0
    assert kernels(gemm.compiled[(row, variant)]) == 1
    entry = gemm.gemm.entry_for(*args)
    before = last_launch(entry.module).count
    gemm.gemm(*args)
    assert last_launch(entry.module).count == before + 1


def test_same_class_compiles_nothing(gemm):
    first = operands(2048, 1024, 4096)
    gemm.gemm(*first)
    compiled = dict(gemm.compiled)
    # K a step longer: the same tile wins.
    other = operands(2048, 1024, 4160)
    assert gemm.gemm.shape_class(*other) == gemm.gemm.shape_class(*first)
    gemm.gemm(*other)
    assert gemm.compiled == compiled
    assert gemm.gemm.entry_for(*other) is gemm.gemm.entry_for(*first)


def test_new_class_compiles_its_variant(gemm):
    whole = gemm.gemm.shape_class(*operands(2048, 1024, 4096))
    # One tile of 128 x 128 and a long K: split among blocks, two kernels
    # (the partial products and their reduction).
    skinny = operands(128, 128, 16384)
    split = gemm.gemm.shape_class(*skinny)
    assert split != whole
    gemm.gemm(*skinny)
    assert split in gemm.compiled
    assert kernels(gemm.compiled[split]) == 2


def test_specialization_refuses_another_class(gemm):
    args = operands(2048, 1024, 4096)
    skinny = gemm.gemm.shape_class(*operands(128, 128, 16384))
    module = gemm.specialization(skinny)
    with pytest.raises(croq.RuntimeError,
                       match=f"compiled for variant {skinny[1]} only"):
        module.gemm(*args)


def test_extent_mismatch_fails_before_compiling(gemm):
    compiled = dict(gemm.compiled)
    with pytest.raises(croq.RuntimeError, match="extents 4096 and 4000 "
                       "differ"):
        gemm.gemm(*operands(1024, 1024, 4096, k_b=4000))
    assert gemm.compiled == compiled


def test_argument_errors_name_the_argument(gemm):
    a, b, c = operands(256, 256, 256)
    with pytest.raises(croq.ArgumentError, match="argument 0"):
        gemm.gemm(croq.Buffer(0x7F0000000000, (256, 256), dtype="f32"), b, c)


def test_cache_serves_a_new_module(gemm, options, tmp_path):
    args = operands(2048, 1024, 4096)
    gemm.gemm(*args)
    again = croq.jit(GEMM, name="gemm", directory=tmp_path, **options)
    start = time.perf_counter()
    again.gemm(*args)
    took = time.perf_counter() - start
    assert again.compiled and all(a.cached for a in again.compiled.values())
    # Two copies out of the cache and two loads; no tool runs.
    assert took < 2.0


def test_static_module_compiles_whole(options, tmp_path):
    static = croq.jit(STATIC, name="static", directory=tmp_path, **options)
    args = [croq.Buffer(0x7F0000000000, (256, 256), dtype="f16"),
            croq.Buffer(0x7E0000000000, (256, 256), dtype="f16"),
            croq.Buffer(0x7D0000000000, (256, 256), dtype="f32")]
    assert static.gemm.shape_class(*args) == ()
    static(*args)  # one entry point: the module is callable
    assert set(static.compiled) == {"classify", "all"}


def test_decorator_names_the_module(options, tmp_path):
    @croq.jit(directory=tmp_path, **options)
    def matmul():
        return GEMM

    assert isinstance(matmul, croq.JitModule)
    assert matmul.name == "matmul"
    assert matmul.entry_points() == ["gemm"]
    with pytest.raises(AttributeError, match="no entry point 'gem'.*gemm"):
        matmul.gem


def test_text_only(options):
    with pytest.raises(croq.CompileError, match="not a path"):
        croq.jit("examples/tiled_add.mlir", **options)
    with pytest.raises(croq.CompileError, match="chooses gemm_variants"):
        croq.jit(GEMM, gemm_variants=[0])


def test_compile_checks_the_variant_options(options, tmp_path):
    with pytest.raises(croq.CompileError, match="gemm_variants must be"):
        croq.compile(GEMM, tmp_path, gemm_variants=[], **options)
    with pytest.raises(croq.CompileError, match="exclude each other"):
        croq.compile(GEMM, tmp_path, gemm_variants=[1], gemm_classify=True,
                     **options)
    with pytest.raises(croq.CompileError,
                       match="variants gives product 1 variant 33; it has 33"):
        croq.compile(GEMM, tmp_path, gemm_variants=[-1, 33], **options)


def test_traced_call_needs_compile_all(gemm, monkeypatch):
    # croq.jit is the function; its module is croq.jit in sys.modules.
    monkeypatch.setattr(sys.modules["croq.jit"], "_tracing", lambda: True)
    fresh = croq.JitModule(GEMM, name="gemm", **gemm._options)
    with pytest.raises(croq.CompileError, match="compile_all"):
        fresh.function("gemm")(*operands(256, 256, 256))


def test_croq_ir_module_compiles_whole(options, tmp_path):
    """croq IR has no product whose variant the host code chooses: its
    classifier (the hand-written kernels dropped) reports none, and the
    module is compiled whole, once."""
    from conftest import REPO
    text = (REPO / "examples" / "tiled_add.mlir").read_text()
    module = croq.jit(text, name="tiled_add", directory=tmp_path, **options)
    args = [croq.Buffer(0x7F0000000000 + i * 0x1000000, (100, 200),
                        dtype="f32") for i in range(3)]
    assert module.tiled_add_f32.shape_class(*args) == ()
    assert kernels(module.compiled["classify"]) == 0
    module.tiled_add_f32(*args)
    entry = module.tiled_add_f32.entry_for(*args)
    assert last_launch(entry.module).grid[:2] == [7, 4]
    assert set(module.compiled) == {"classify", "all"}
