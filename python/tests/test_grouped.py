"""croq.grouped_mm's kernels: the template's entry points, their compile
and signature, and the argument checks that need no GPU."""

from __future__ import annotations

import pytest

import croq
from croq._grouped_ir import kernel_text

ENTRIES = {
    f"grouped_mm_{form}{layout}{dtype}"
    for form in ("", "masked_") for layout in ("", "kn_")
    for dtype in ("f16", "bf16")
}


def test_kernel_text_entry_points():
    text = kernel_text()
    names = {line.split("@")[1].split("(")[0]
             for line in text.splitlines() if line.startswith("func.func @")}
    assert names == ENTRIES
    assert "Written by python/croq/_grouped_ir.py" in text


def test_compile_signature(tools_dir, stub_runtime_dir, tmp_path):
    art = croq.compile_grouped_kernels(tmp_path / "grouped",
                                       tools_dir=tools_dir,
                                       runtime_dir=stub_runtime_dir,
                                       binary="isa")
    functions = art.functions()
    assert ENTRIES <= set(functions)
    contiguous = functions["grouped_mm_bf16"]
    assert [a.name for a in contiguous.arguments] == \
        ["a", "b", "offsets", "out"]
    masked = functions["grouped_mm_masked_kn_f16"]
    assert [a.name for a in masked.arguments] == ["a", "b", "counts", "out"]
    assert masked.arguments[1].shape == (None, None, None)


def test_refuses_non_tensors():
    pytest.importorskip("torch")
    with pytest.raises(ValueError, match="croq.grouped_mm: a must be a "
                       "torch.Tensor"):
        croq.grouped_mm([[1.0]], None, None)
