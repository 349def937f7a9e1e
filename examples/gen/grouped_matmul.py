#!/usr/bin/env python3
"""Writes examples/grouped_matmul.mlir, the grouped GEMMs of MoE layers.

The template lives in the croq package (python/croq/_grouped_ir.py), which
compiles it for croq.grouped_mm; this script prints it so that the example
is in the tree; test/Examples/grouped-matmul-generated.test checks that the
example is this script's output. Run it after editing the template:

    python3 examples/gen/grouped_matmul.py > examples/grouped_matmul.mlir
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))

from croq._grouped_ir import kernel_text  # noqa: E402

if __name__ == "__main__":
    print(kernel_text(), end="")
