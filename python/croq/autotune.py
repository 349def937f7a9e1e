"""Autotuning of the GEMMs a module hands over as linalg matrix products.

The compiler chooses a GEMM's block tile and K splits by a cost model. This
mode times the candidates instead: :func:`compile_variants` compiles a
module once per configuration (``gemm_tile`` and ``gemm_split_k`` forced,
and the cost model's own choice), :func:`load_autotuned` loads them, and
each call of an entry point of the result runs, the first time it sees a
shape, every variant on the call's own tensors, keeps the fastest for that
shape and calls it. Later calls of the same shape go straight to it. The
choices are kept in ``choices.json`` next to the variants, keyed by
function, device and the arguments' dtypes, shapes and strides, so a new
process does not time them again.

A variant's time is the median over three batches of ``iters`` calls queued
back to back between two CUDA events: the GPU's time per call, with the
host's launch overlapped as in a loop. Timing runs the kernels several
times on the arguments, so the arguments
the entry point writes are saved first and put back after each variant:
a GEMM that accumulates into its output (``C += A B``) gives the same
result as an untuned call. Compile here, tune where the GPU is::

    croq.compile_variants("gemm.mlir", "out/gemm")        # MLIR machine
    tuned = croq.load_autotuned("out/gemm")               # GPU machine
    tuned.linalg_mm_f16(a, b, c)
"""

from __future__ import annotations

import json
import os
import statistics
import threading
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from .compiler import compile as compile_module
from .errors import CompileError, CroqError, LoadError
from .module import EntryPoint, Module, load

#: The configurations tried by default: the cost model's choice, then each
#: tile whole (the two largest alone and in clusters of two blocks along M
#: that share B by TMA multicast), then the splittable tiles split 2 to 16
#: ways.
DEFAULT_CONFIGS: Tuple[Dict[str, Any], ...] = (
    {},
    {"gemm_tile": (128, 256), "gemm_split_k": 1, "gemm_cluster": (1, 1)},
    {"gemm_tile": (128, 256), "gemm_split_k": 1, "gemm_cluster": (2, 1)},
    {"gemm_tile": (128, 192), "gemm_split_k": 1, "gemm_cluster": (1, 1)},
    {"gemm_tile": (128, 192), "gemm_split_k": 1, "gemm_cluster": (2, 1)},
    {"gemm_tile": (128, 128), "gemm_split_k": 1, "gemm_cluster": (1, 1)},
    {"gemm_tile": (128, 128), "gemm_split_k": 1, "gemm_cluster": (2, 1)},
    {"gemm_tile": (128, 128), "gemm_split_k": 2},
    {"gemm_tile": (128, 128), "gemm_split_k": 4},
    {"gemm_tile": (64, 128), "gemm_split_k": 1, "gemm_cluster": (1, 1)},
    {"gemm_tile": (64, 128), "gemm_split_k": 1, "gemm_cluster": (2, 1)},
    {"gemm_tile": (64, 128), "gemm_split_k": 2},
    {"gemm_tile": (64, 128), "gemm_split_k": 4},
    {"gemm_tile": (64, 128), "gemm_split_k": 8},
    {"gemm_tile": (64, 128), "gemm_split_k": 16},
)

_MANIFEST = "variants.json"
_CHOICES = "choices.json"


def config_label(config: Dict[str, Any]) -> str:
    """A configuration's name: ``model`` for the cost model's choice, else
    ``t<rows>x<cols>``, ``s<splits>`` and ``c<m>x<n>`` for a cluster
    (``t64x128s4``, ``t128x192s1c2x1``)."""
    if not config:
        return "model"
    label = ""
    if config.get("gemm_tile"):
        rows, cols = config["gemm_tile"]
        label += f"t{rows}x{cols}"
    if config.get("gemm_split_k"):
        label += f"s{config['gemm_split_k']}"
    if config.get("gemm_cluster"):
        cm, cn = config["gemm_cluster"]
        label += f"c{cm}x{cn}"
    return label or "model"


def compile_variants(source_or_path: Union[str, os.PathLike],
                     out_dir: Union[str, os.PathLike],
                     configs: Sequence[Dict[str, Any]] = DEFAULT_CONFIGS,
                     name: Optional[str] = None,
                     **options: Any) -> Path:
    """Compiles the module once per configuration into ``out_dir/<label>``.

    Args:
        source_or_path: croq IR (or a path to it) with ``linalg.matmul`` or
            ``linalg.batch_matmul``.
        out_dir: the directory of the variants (created).
        configs: dicts of :func:`croq.compile`'s ``gemm_tile`` and
            ``gemm_split_k``; ``{}`` is the cost model's choice.
        name: the module name, as for :func:`croq.compile`.
        **options: other :func:`croq.compile` options (``tools_dir``,
            ``chip``, ``cache``...), the same for every variant.

    Returns:
        ``out_dir``, which :func:`load_autotuned` takes.

    A configuration that does not compile (a forced tile with no room for
    one of the module's GEMMs) is left out; ``variants.json`` lists the
    variants and, under ``skipped``, each left-out configuration with its
    error.

    Raises:
        CompileError: no configuration compiled (the message has each
            one's error), or a configuration is malformed.
    """
    if not configs:
        raise CompileError("compile_variants needs at least one "
                           "configuration", tool="croq")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    labels: List[str] = []
    skipped: Dict[str, str] = {}
    module_name = ""
    for config in configs:
        unknown = set(config) - {"gemm_tile", "gemm_split_k", "gemm_cluster"}
        if unknown:
            raise CompileError(f"autotune configurations set gemm_tile, "
                               f"gemm_split_k and gemm_cluster, got "
                               f"{sorted(unknown)}",
                               tool="croq")
        label = config_label(config)
        if label in labels or label in skipped:
            raise CompileError(f"configuration {label} is listed twice",
                               tool="croq")
        try:
            art = compile_module(source_or_path, out / label, name=name,
                                 **options, **config)
        except CompileError as e:
            # A tile that does not fit one of the module's GEMMs (a 128x224
            # tile of f32 results on a chip with less shared memory): the
            # others are still candidates.
            skipped[label] = str(e)
            continue
        labels.append(label)
        module_name = art.name
    if not labels:
        raise CompileError("no configuration compiled: " + "; ".join(
            f"configuration {label}: {why}" for label, why in skipped.items()),
            tool="croq")
    (out / _MANIFEST).write_text(json.dumps(
        {"module": module_name, "variants": labels, "skipped": skipped},
        indent=1))
    return out


def load_autotuned(path: Union[str, os.PathLike], iters: int = 10
                   ) -> "AutotunedModule":
    """Loads the variants :func:`compile_variants` wrote into ``path``;
    each entry point of the result tunes itself per shape (``iters`` timed
    calls per variant)."""
    directory = Path(path)
    try:
        manifest = json.loads((directory / _MANIFEST).read_text())
    except (OSError, ValueError) as e:
        raise LoadError(f"{directory} holds no autotune variants "
                        f"({_MANIFEST}: {e})") from None
    modules = [(label, load(directory / label))
               for label in manifest["variants"]]
    return AutotunedModule(directory, modules, iters)


def autotune(source_or_path: Union[str, os.PathLike],
             out_dir: Union[str, os.PathLike],
             configs: Sequence[Dict[str, Any]] = DEFAULT_CONFIGS,
             iters: int = 10, **options: Any) -> "AutotunedModule":
    """:func:`compile_variants` and :func:`load_autotuned` in one, for a
    machine that compiles and runs."""
    return load_autotuned(
        compile_variants(source_or_path, out_dir, configs, **options), iters)


class AutotunedModule:
    """The variants of a module; its attributes are
    :class:`AutotunedEntryPoint` objects, one per entry point."""

    def __init__(self, directory: Path,
                 modules: Sequence[Tuple[str, Module]], iters: int) -> None:
        self.directory = directory
        self.variants = list(modules)
        self.iters = iters
        self._lock = threading.Lock()
        self._choices: Dict[str, str] = {}
        try:
            self._choices = json.loads((directory / _CHOICES).read_text())
        except (OSError, ValueError):
            self._choices = {}
        self._entries: Dict[str, AutotunedEntryPoint] = {}

    def __getattr__(self, name: str) -> "AutotunedEntryPoint":
        if name.startswith("_"):
            raise AttributeError(name)
        if name not in self._entries:
            entries = [(label, getattr(module, name))
                       for label, module in self.variants]
            self._entries[name] = AutotunedEntryPoint(self, name, entries)
        return self._entries[name]

    def choices(self) -> Dict[str, str]:
        """The variant chosen for each (function, device, arguments) key."""
        with self._lock:
            return dict(self._choices)

    def _choice(self, key: str) -> Optional[str]:
        with self._lock:
            return self._choices.get(key)

    def _remember(self, key: str, label: str) -> None:
        with self._lock:
            self._choices[key] = label
            tmp = self.directory / f"{_CHOICES}.{os.getpid()}.tmp"
            try:
                tmp.write_text(json.dumps(self._choices, indent=1,
                                          sort_keys=True))
                os.replace(tmp, self.directory / _CHOICES)
            except OSError:
                pass  # a read-only directory: the choice lives in memory


class AutotunedEntryPoint:
    """An entry point that runs the fastest variant for its arguments."""

    def __init__(self, owner: AutotunedModule, name: str,
                 entries: Sequence[Tuple[str, EntryPoint]]) -> None:
        self.owner = owner
        self.name = name
        self.entries = dict(entries)
        self.signature = entries[0][1].signature

    def key(self, *args: Any) -> str:
        """The choice's key: function, device, and each argument's dtype,
        shape and strides."""
        import torch
        parts = [self.name, torch.cuda.get_device_name()]
        for a in args:
            if hasattr(a, "shape") and hasattr(a, "stride"):
                parts.append(f"{a.dtype}:{tuple(a.shape)}:{a.stride()}")
        return "|".join(parts)

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        key = self.key(*args)
        label = self.owner._choice(key)
        if label is None or label not in self.entries:
            label = self.tune(*args, **kwargs)
            self.owner._remember(key, label)
        self.entries[label](*args, **kwargs)

    def tune(self, *args: Any, **kwargs: Any) -> str:
        """Times every variant on these arguments and returns the label of
        the fastest; the arguments are left as they were."""
        import torch
        written = [a for a, spec in zip(args, self.signature.arguments)
                   if spec.written is not False and hasattr(a, "clone")]
        saved = [a.clone() for a in written]

        def restore() -> None:
            for a, s in zip(written, saved):
                a.copy_(s)
        times: Dict[str, float] = {}
        failures: List[str] = []
        for label, entry in self.entries.items():
            try:
                entry(*args, **kwargs)
                torch.cuda.synchronize()
            except CroqError as e:
                failures.append(f"{label}: {e}")
                restore()
                continue
            # Back-to-back calls between two events: the GPU's time per
            # call, with the host's launch overlapped as in a real loop.
            samples = []
            for _ in range(3):
                start = torch.cuda.Event(enable_timing=True)
                end = torch.cuda.Event(enable_timing=True)
                start.record()
                for _ in range(self.owner.iters):
                    entry(*args, **kwargs)
                end.record()
                end.synchronize()
                samples.append(start.elapsed_time(end) / self.owner.iters)
            times[label] = statistics.median(samples)
            restore()
        torch.cuda.synchronize()
        if not times:
            raise CroqError(f"{self.name}: no variant ran: "
                            + "; ".join(failures))
        return min(times, key=times.get)
