"""The ``croq-opt`` and ``croq-translate`` commands of the wheel.

The wheel carries one compiler executable, ``croq/bin/croq-tool`` (both
tools, MLIR and LLVM linked in); pip installs these two console scripts,
which replace themselves with ``croq-tool opt|translate ARGS``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .compiler import MULTI_CALL_TOOL

_TOOL = Path(__file__).resolve().parent / "bin" / MULTI_CALL_TOOL


def _exec(tool: str) -> None:
    if not (_TOOL.is_file() and os.access(_TOOL, os.X_OK)):
        sys.exit(f"croq-{tool}: {_TOOL} is missing: this croq package was "
                 "not installed from the wheel (scripts/build-wheel.sh)")
    os.execv(str(_TOOL), [str(_TOOL), tool, *sys.argv[1:]])


def opt() -> None:
    """``croq-opt``: passes and pipelines."""
    _exec("opt")


def translate() -> None:
    """``croq-translate``: PTX, cubin and host code."""
    _exec("translate")
