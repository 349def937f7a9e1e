"""croq: compile croq tile kernels for NVIDIA Hopper and call them.

Compile here (MLIR, clang and ptxas needed, no GPU)::

    import croq
    art = croq.compile("examples/tiled_add.mlir", "out/tiled_add")

and load and call anywhere with a GPU and the CUDA driver (no MLIR)::

    m = croq.load("out/tiled_add")
    m.tiled_add_f32(a, b, c)       # torch CUDA tensors

A call queues its kernels on torch's current stream (or ``stream=``) and
returns at once, as a torch operation does. Arguments are checked against the entry point's memref types first
(:class:`ArgumentError` names the argument and the rule); a failed CUDA
call raises :class:`croq.RuntimeError` with the runtime's message.
"""

from . import attention
from ._native import call_path
from .arguments import ArgumentView, Buffer
from .autotune import (DEFAULT_CONFIGS, AutotunedEntryPoint, AutotunedModule,
                       autotune, compile_variants, load_autotuned)
from .compiler import Artifact, compile
from .decode import flash_decode
from .grouped import compile_kernels as compile_grouped_kernels
from .grouped import grouped_mm
from .errors import (ArgumentError, CompileError, CroqError,
                     CroqRuntimeError, LoadError, RuntimeError)
from .jit import JitFunction, JitModule, jit
from .varlen import flash_attn_varlen
from .variant_tuning import (VariantTunedEntryPoint, VariantTunedModule,
                             autotune_variants)
from .module import EntryPoint, Module, load
from .signature import (ELEMENT_TYPES, FunctionSignature, MemRefArg,
                        element_type, parse_signature)

__version__ = "0.1.0"

__all__ = [
    "ArgumentError", "ArgumentView", "Artifact", "AutotunedEntryPoint",
    "AutotunedModule", "Buffer", "CompileError", "CroqError",
    "CroqRuntimeError", "DEFAULT_CONFIGS", "ELEMENT_TYPES", "EntryPoint",
    "FunctionSignature", "JitFunction", "JitModule", "LoadError", "MemRefArg",
    "Module", "RuntimeError", "VariantTunedEntryPoint", "VariantTunedModule",
    "autotune", "autotune_variants", "call_path", "compile", "compile_grouped_kernels",
    "compile_variants", "element_type", "flash_attn_varlen", "flash_decode",
    "grouped_mm", "jit",
    "load", "load_autotuned", "parse_signature",
]
