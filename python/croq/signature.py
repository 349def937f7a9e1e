"""Entry-point signatures: what ``croq-translate --croq-to-signature-json``
says about each public function of a croq module, and the element types.

A signature file looks like::

    {"functions": [{"name": "copy",
                    "arguments": [{"element_type": "f32",
                                   "identity_layout": true,
                                   "shape": [-1, 64], "strides": [-1, 1],
                                   "offset": 0, "name": "src"}, ...]}]}

``-1`` marks a dynamic size, stride or offset. ``name`` (the argument's
name in the croq source) is added by :func:`croq.compile` and is optional,
as is ``identity_layout``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Tuple

from .errors import LoadError


@dataclass(frozen=True)
class ElementType:
    """A memref element type and the host types that may carry it.

    Attributes:
        name: the MLIR spelling (``f32``, ``bf16``, ``i8``).
        size: bytes per element.
        torch_dtypes: names of the ``torch`` dtypes accepted for it (signless
            integers accept the signed and the unsigned type of their width).
        typestrs: ``__cuda_array_interface__`` type strings accepted for it.
    """

    name: str
    size: int
    torch_dtypes: Tuple[str, ...]
    typestrs: Tuple[str, ...] = ()


def _types(*entries: ElementType) -> Dict[str, ElementType]:
    return {e.name: e for e in entries}


#: The element types an entry point may take, by MLIR name.
ELEMENT_TYPES: Dict[str, ElementType] = _types(
    ElementType("i1", 1, ("bool",), ("|b1",)),
    ElementType("i8", 1, ("int8", "uint8"), ("|i1", "|u1")),
    ElementType("i16", 2, ("int16", "uint16"), ("<i2", "<u2")),
    ElementType("i32", 4, ("int32", "uint32"), ("<i4", "<u4")),
    ElementType("i64", 8, ("int64", "uint64"), ("<i8", "<u8")),
    ElementType("index", 8, ("int64",), ("<i8",)),
    ElementType("f16", 2, ("float16",), ("<f2",)),
    ElementType("bf16", 2, ("bfloat16",), ()),
    ElementType("f32", 4, ("float32",), ("<f4",)),
    ElementType("f64", 8, ("float64",), ("<f8",)),
    ElementType("f8E4M3FN", 1, ("float8_e4m3fn",), ()),
    ElementType("f8E5M2", 1, ("float8_e5m2",), ()),
)

#: Other spellings accepted where an element type is named by a string
#: (``croq.Buffer(..., dtype="float32")``).
_ALIASES = {
    "bool": "i1", "int8": "i8", "uint8": "i8", "int16": "i16",
    "uint16": "i16", "int32": "i32", "uint32": "i32", "int64": "i64",
    "uint64": "i64", "float16": "f16", "half": "f16", "bfloat16": "bf16",
    "float32": "f32", "float": "f32", "float64": "f64", "double": "f64",
    "float8_e4m3fn": "f8E4M3FN", "float8_e5m2": "f8E5M2",
}


def element_type(spec: Any) -> ElementType:
    """The :class:`ElementType` named by ``spec``: an MLIR name (``"f32"``),
    a torch-style name (``"float32"``), or a ``torch.dtype``.

    Raises:
        ValueError: ``spec`` names no supported element type.
    """
    if isinstance(spec, ElementType):
        return spec
    text = str(spec)
    if text.startswith("torch."):
        text = text[len("torch."):]
    text = _ALIASES.get(text, text)
    try:
        return ELEMENT_TYPES[text]
    except KeyError:
        known = ", ".join(sorted(ELEMENT_TYPES))
        raise ValueError(f"unsupported element type {spec!r}; croq "
                         f"supports {known}") from None


#: The element types a scalar argument may have (croq-host-entries passes
#: them by reference).
SCALAR_TYPES = ("i1", "i8", "i16", "i32", "i64", "index", "f32", "f64")


@dataclass(frozen=True)
class MemRefArg:
    """One argument of an entry point: a memref, or a scalar.

    ``None`` in ``shape``, ``strides`` or ``offset`` marks a dynamic entry.
    ``identity_layout`` is True when the memref has no layout map (the
    tensor must then be dense and row-major), None when the signature does
    not say. ``written`` is whether the entry point may write the memref
    (None when the signature does not say). A ``scalar`` argument (one of
    :data:`SCALAR_TYPES`, rank 0) takes a Python number.
    """

    index: int
    element_type: str
    shape: Tuple[Optional[int], ...]
    strides: Tuple[Optional[int], ...]
    offset: Optional[int]
    identity_layout: Optional[bool] = None
    name: Optional[str] = None
    written: Optional[bool] = None
    scalar: bool = False
    #: Whether the argument is an out-parameter that was a result of the
    #: function on tensors (bufferize.result): a call may leave it out, and
    #: then gets it allocated and returned.
    result: bool = False

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def element(self) -> ElementType:
        return element_type(self.element_type)

    def describe(self) -> str:
        """The memref type, approximately as MLIR prints it (the type of a
        scalar)."""
        if self.scalar:
            return self.element_type
        dims = "x".join("?" if d is None else str(d) for d in self.shape)
        text = f"{dims}x{self.element_type}" if dims else self.element_type
        if self.identity_layout is False:
            strides = ", ".join("?" if s is None else str(s)
                                for s in self.strides)
            offset = "?" if self.offset is None else str(self.offset)
            text += f", strided<[{strides}], offset: {offset}>"
        return f"memref<{text}>"


@dataclass(frozen=True)
class FunctionSignature:
    """An entry point: its name and arguments."""

    name: str
    arguments: Tuple[MemRefArg, ...] = field(default_factory=tuple)

    def describe(self) -> str:
        args = ", ".join(
            (f"%{a.name}: " if a.name else "") + a.describe()
            for a in self.arguments)
        return f"{self.name}({args})"


def _dynamic(value: Any, what: str) -> Optional[int]:
    if not isinstance(value, int) or isinstance(value, bool):
        raise LoadError(f"signature: {what} is {value!r}, expected an integer")
    return None if value < 0 else value


def parse_signature(data: Any) -> Dict[str, FunctionSignature]:
    """Parses a signature (JSON text, or the decoded object) into a mapping
    from entry-point name to :class:`FunctionSignature`, in file order.

    Raises:
        LoadError: the text is not JSON or lacks a required field.
    """
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as e:
            raise LoadError(f"signature: not valid JSON: {e}") from None
    if not isinstance(data, Mapping) or not isinstance(
            data.get("functions"), list):
        raise LoadError("signature: expected an object with a 'functions' "
                        "list")
    result: Dict[str, FunctionSignature] = {}
    for f in data["functions"]:
        if not isinstance(f, Mapping) or not isinstance(f.get("name"), str):
            raise LoadError(f"signature: a function has no name: {f!r}")
        fname = f["name"]
        args: List[MemRefArg] = []
        for i, a in enumerate(f.get("arguments", [])):
            where = f"{fname} argument {i}"
            if isinstance(a, Mapping) and a.get("scalar"):
                etype = a.get("element_type")
                if etype not in SCALAR_TYPES:
                    raise LoadError(f"signature: {where} is a scalar of type "
                                    f"{etype!r}; croq passes "
                                    f"{', '.join(SCALAR_TYPES)}")
                args.append(MemRefArg(i, etype, (), (), 0, None, a.get("name"),
                                      False, scalar=True))
                continue
            try:
                etype = a["element_type"]
                shape = tuple(_dynamic(d, f"{where} shape") for d in a["shape"])
                strides = tuple(_dynamic(s, f"{where} strides")
                                for s in a["strides"])
                offset = _dynamic(a["offset"], f"{where} offset")
            except (KeyError, TypeError) as e:
                raise LoadError(f"signature: {where} lacks {e}") from None
            if len(strides) != len(shape):
                raise LoadError(f"signature: {where} has {len(shape)} sizes "
                                f"but {len(strides)} strides")
            if etype not in ELEMENT_TYPES:
                raise LoadError(f"signature: {where} has element type "
                                f"{etype!r}, which croq cannot pass from "
                                f"Python")
            identity = a.get("identity_layout")
            written = a.get("written")
            args.append(MemRefArg(i, etype, shape, strides, offset,
                                  None if identity is None else bool(identity),
                                  a.get("name"),
                                  None if written is None else bool(written),
                                  result=bool(a.get("result", False))))
        result[fname] = FunctionSignature(fname, tuple(args))
    return result


_FUNC_RE = re.compile(r"func\.func\s+(?:(?:public|private|nested)\s+)?@([\w$.]+)\s*\(")
_ARG_RE = re.compile(r"%([\w$.-]+)\s*:")


def argument_names(source: str) -> Dict[str, List[str]]:
    """The argument names of each ``func.func`` in croq IR source text, by
    function name: ``{"copy": ["src", "dst"]}``. Best effort: names that
    cannot be found are left out."""
    names: Dict[str, List[str]] = {}
    for m in _FUNC_RE.finditer(source):
        depth, i = 1, m.end()
        while i < len(source) and depth:
            c = source[i]
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            i += 1
        params = source[m.end():i - 1]
        # Only names at the top nesting level of the parameter list.
        top, depth = [], 0
        for c in params:
            if c in "(<[{":
                depth += 1
            elif c in ")>]}":
                depth -= 1
            top.append(c if depth == 0 else " ")
        names[m.group(1)] = _ARG_RE.findall("".join(top))
    return names


def add_argument_names(data: Dict[str, Any], source: str) -> Dict[str, Any]:
    """Adds a ``name`` to every argument of the signature ``data`` whose
    function's parameter list in ``source`` has as many names as the
    signature has arguments. Returns ``data``."""
    names = argument_names(source)
    for f in data.get("functions", []):
        found = names.get(f.get("name"), [])
        args = f.get("arguments", [])
        if len(found) == len(args):
            for a, n in zip(args, found):
                a["name"] = n
    return data
