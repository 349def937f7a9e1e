"""Signatures: parsing croq-translate's JSON, argument names from the
source, element types."""

from __future__ import annotations

import json
import subprocess

import pytest

import croq
from croq.signature import add_argument_names, argument_names

from conftest import REPO


def test_parse_tool_output(tools_dir):
    out = subprocess.run(
        [str(tools_dir / "croq-translate"), "--croq-to-signature-json",
         str(REPO / "examples" / "tiled_add.mlir")],
        check=True, capture_output=True, text=True).stdout
    sigs = croq.parse_signature(out)
    assert list(sigs) == ["tiled_add_2d", "tiled_add_f32"]
    static = sigs["tiled_add_2d"].arguments
    assert [a.element_type for a in static] == ["i32"] * 3
    assert static[0].shape == (64, 128)
    assert static[0].strides == (128, 1)
    assert static[0].offset == 0
    assert static[0].identity_layout is True
    dynamic = sigs["tiled_add_f32"].arguments[2]
    assert dynamic.shape == (None, None)
    assert dynamic.strides == (None, 1)
    assert dynamic.describe() == "memref<?x?xf32>"


def test_strided_layout_is_not_identity(tools_dir, tmp_path):
    src = tmp_path / "k.mlir"
    src.write_text((REPO / "test" / "Integration" / "GPU" / "copy.mlir")
                   .read_text())
    out = subprocess.run(
        [str(tools_dir / "croq-translate"), "--croq-to-signature-json",
         str(src)], check=True, capture_output=True, text=True).stdout
    arg = croq.parse_signature(out)["copy_f32_strided"].arguments[0]
    assert arg.identity_layout is False
    assert arg.strides == (None, 1) and arg.offset is None
    assert arg.describe() == "memref<?x?xf32, strided<[?, 1], offset: ?>>"


def test_argument_names_from_source():
    source = """
    func.func @a(%lhs: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                 %rhs : memref<4x(8)xf32> {llvm.noalias},
                 %out: memref<?xf32, affine_map<(d0) -> (d0 + 1)>>) {
      %x = arith.constant 0 : index
      return
    }
    func.func private @b() -> ()
    func.func @c(%only: memref<f16>) { return }
    """
    assert argument_names(source) == {"a": ["lhs", "rhs", "out"], "b": [],
                                      "c": ["only"]}


def test_add_argument_names_only_when_counts_match():
    data = {"functions": [
        {"name": "f", "arguments": [{"element_type": "f32"}] * 2},
        {"name": "g", "arguments": [{"element_type": "f32"}]}]}
    data = json.loads(json.dumps(data))
    add_argument_names(data, "func.func @f(%x: memref<f32>, %y: memref<f32>)"
                             " func.func @g(%p: memref<f32>, %q: memref<f32>)")
    assert [a.get("name") for a in data["functions"][0]["arguments"]] == \
        ["x", "y"]
    assert "name" not in data["functions"][1]["arguments"][0]


@pytest.mark.parametrize("text,words", [
    ("not json", "not valid JSON"),
    ("[]", "'functions' list"),
    ('{"functions": [{"arguments": []}]}', "has no name"),
    ('{"functions": [{"name": "f", "arguments": [{"element_type": "f32"}]}]}',
     "lacks"),
    ('{"functions": [{"name": "f", "arguments": [{"element_type": "f32", '
     '"shape": [1, 2], "strides": [1], "offset": 0}]}]}', "2 sizes but 1"),
    ('{"functions": [{"name": "f", "arguments": [{"element_type": "complex<f32>", '
     '"shape": [], "strides": [], "offset": 0}]}]}', "cannot pass"),
    ('{"functions": [{"name": "f", "arguments": [{"element_type": "f32", '
     '"shape": ["?"], "strides": [1], "offset": 0}]}]}', "expected an integer"),
])
def test_malformed_signatures(text, words):
    with pytest.raises(croq.LoadError, match=words):
        croq.parse_signature(text)


def test_element_types():
    assert croq.element_type("float32").name == "f32"
    assert croq.element_type("torch.bfloat16").name == "bf16"
    assert croq.element_type("i8").size == 1
    assert "uint8" in croq.element_type("i8").torch_dtypes
    with pytest.raises(ValueError, match="unsupported element type"):
        croq.element_type("f128")
