"""Autotuning among the variants a module already holds.

A GEMM of dynamic extents that ``convert-linalg-to-croq`` compiles holds
every variant the cost model weighs (block tiles, tiles of C^T, clusters,
K loops split through a workspace or in a cluster, stream-K), and its host
code picks one per call by the model. :func:`autotune_variants` wraps a
loaded module so that each entry point, the first time it sees a shape,
times the variants on the call's own tensors instead and keeps the fastest:
the host code asks the runtime for a requested variant before it chooses
(``croqRtRequestVariants``, ``croqRtRequestedVariant``) and takes it where
the model could take it at that shape; it reports the variant it took
(``croqRtGetReportedVariants``), so a variant the shape excludes is not
timed twice. No variant is compiled again. A module of static extents holds
one variant per GEMM and has nothing to tune here (see
:func:`croq.compile_variants` for that).

A function with several such GEMMs (an MLP: two products) is tuned one
product at a time, in order, the others held at their best so far. A
variant's time is the median of ``iters`` calls, each timed alone by CUDA
events after the L2 cache is flushed (the operands of a GEMM in a model
are rarely in the L2 when it starts), so memory-bound shapes are ranked by
what they cost cold. The sweep's three fastest and the model's choice are
then timed again in three rounds of rotated order, and the fastest median
is kept; another variant must beat the model's choice by 1%, so a tie
(within the timing's noise) keeps the model's. The arguments the entry
point writes are saved first and put back after each timed variant. The
choices live in memory, keyed by function, device and the arguments'
dtypes, shapes and strides;
:meth:`VariantTunedModule.choices` lists them with the times measured::

    tuned = croq.autotune_variants(croq.load("out/gemm"))
    tuned.gemm(a, b, c)          # times every variant once for this shape
    tuned.gemm(a, b, c)          # then calls the fastest
"""

from __future__ import annotations

import ctypes
import statistics
import threading
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .errors import CroqError, LoadError
from .jit import MAX_PRODUCTS
from .module import EntryPoint, Module, _optional_function, _Runtime

#: The sweep's fastest variants timed again against the model's choice,
#: in rounds of rotated order (VariantTunedEntryPoint._final).
FINALISTS = 3
ROUNDS = 3
#: How much faster than the model's choice another variant must run in
#: the final rounds to be taken: a tie stays with the model.
MIN_GAIN = 1.01


def _runtime_function(name: str, restype: Any, argtypes: List[Any]) -> Any:
    fn = None
    if _Runtime.library is not None:
        fn = _optional_function([_Runtime.library], name, restype, argtypes)
    if fn is None:
        raise LoadError(f"the croq runtime has no {name} (an older "
                        "libCroqRuntime.so); autotune_variants needs this "
                        "croq's runtime")
    return fn


class _Requests:
    """The runtime's requests and reports, for the calling thread."""

    def __init__(self) -> None:
        i64p = ctypes.POINTER(ctypes.c_int64)
        self._request = _runtime_function("croqRtRequestVariants",
                                          ctypes.c_int, [i64p, ctypes.c_int64])
        self._reported = _runtime_function("croqRtGetReportedVariants",
                                           ctypes.c_int64,
                                           [i64p, ctypes.c_int64])
        self._counts = _runtime_function("croqRtGetVariantCounts",
                                         ctypes.c_int64,
                                         [i64p, ctypes.c_int64])

    def request(self, variants: Sequence[int]) -> None:
        array = (ctypes.c_int64 * max(len(variants), 1))(*variants)
        if not self._request(array, len(variants)):
            raise CroqError(f"croqRtRequestVariants refused {list(variants)}")

    def _read(self, fn: Any) -> List[int]:
        out = (ctypes.c_int64 * MAX_PRODUCTS)()
        count = fn(out, MAX_PRODUCTS)
        if count > MAX_PRODUCTS:
            raise CroqError(f"{count} GEMMs whose variant the host code "
                            f"chooses in one call; at most {MAX_PRODUCTS} "
                            "are tuned")
        return list(out[:count])

    def reported(self) -> List[int]:
        """The variant the last call took, by product (-1: not reached)."""
        return self._read(self._reported)

    def counts(self) -> List[int]:
        """The variants of each product the last call reached."""
        return self._read(self._counts)


class VariantTunedModule:
    """A loaded :class:`croq.Module` whose entry points tune their GEMMs'
    variants per shape (:func:`autotune_variants`)."""

    def __init__(self, module: Module, iters: int = 10,
                 flush_bytes: int = 256 << 20) -> None:
        if iters < 1:
            raise ValueError(f"iters must be at least 1, got {iters}")
        self.module = module
        self.iters = iters
        self.flush_bytes = flush_bytes
        self._lock = threading.Lock()
        self._choices: Dict[str, Tuple[int, ...]] = {}
        self._models: Dict[str, Tuple[int, ...]] = {}
        self._times: Dict[str, Dict[Tuple[int, ...], float]] = {}
        self._entries: Dict[str, VariantTunedEntryPoint] = {}
        self._requests: Optional[_Requests] = None

    def __getattr__(self, name: str) -> "VariantTunedEntryPoint":
        if name.startswith("_"):
            raise AttributeError(name)
        if name not in self._entries:
            self._entries[name] = VariantTunedEntryPoint(
                self, getattr(self.module, name))
        return self._entries[name]

    def requests(self) -> _Requests:
        if self._requests is None:
            self._requests = _Requests()
        return self._requests

    def choices(self) -> Dict[str, Dict[str, Any]]:
        """For each (function, device, arguments) key tuned: the variants
        chosen (by product), the cost model's, and each timed combination's
        median ms."""
        with self._lock:
            return {key: {"variants": list(chosen),
                          "model": list(self._models[key]),
                          "ms": {",".join(map(str, v)): t
                                 for v, t in self._times[key].items()}}
                    for key, chosen in self._choices.items()}

    def _choice(self, key: str) -> Optional[Tuple[int, ...]]:
        with self._lock:
            return self._choices.get(key)

    def _remember(self, key: str, chosen: Tuple[int, ...],
                  model: Tuple[int, ...],
                  times: Dict[Tuple[int, ...], float]) -> None:
        with self._lock:
            self._choices[key] = chosen
            self._models[key] = model
            self._times[key] = times


class VariantTunedEntryPoint:
    """An entry point that calls its GEMMs' fastest variants for its
    arguments' shapes."""

    def __init__(self, owner: VariantTunedModule, entry: EntryPoint) -> None:
        self.owner = owner
        self.entry = entry
        self.name = entry.name

    def key(self, *args: Any) -> str:
        """The choice's key: function, device, and each tensor argument's
        dtype, shape and strides (a scalar's value does not change it)."""
        import torch
        parts = [self.name, torch.cuda.get_device_name()]
        for a in args:
            if hasattr(a, "shape") and hasattr(a, "stride"):
                parts.append(f"{a.dtype}:{tuple(a.shape)}:{a.stride()}")
        return "|".join(parts)

    def __call__(self, *args: Any) -> None:
        key = self.key(*args)
        chosen = self.owner._choice(key)
        if chosen is None:
            chosen = self.tune(*args)
        self._call(chosen, args)

    def _call(self, variants: Sequence[int], args: Sequence[Any]) -> None:
        requests = self.owner.requests()
        requests.request(variants)
        try:
            self.entry(*args)
        finally:
            requests.request(())

    def tune(self, *args: Any) -> Tuple[int, ...]:
        """Times the variants of each GEMM on these arguments, keeps the
        fastest for their key and returns them (by product); the arguments
        are left as they were."""
        import torch
        requests = self.owner.requests()
        written = [a for a, spec in zip(args, self.entry.signature.arguments)
                   if spec.written is not False and hasattr(a, "clone")]
        saved = [a.clone() for a in written]

        def restore() -> None:
            for a, s in zip(written, saved):
                a.copy_(s)
        self._call((), args)
        torch.cuda.synchronize()
        model = tuple(requests.reported())
        counts = requests.counts()
        restore()
        times: Dict[Tuple[int, ...], float] = {}
        best = model
        if model:
            flush = torch.empty(self.owner.flush_bytes, dtype=torch.uint8,
                                device=_args_device(args))
            best_ms = times[model] = self._time(model, args, flush, restore)
            for product, count in enumerate(counts):
                for variant in range(count):
                    if variant == best[product]:
                        continue
                    ask = list(best)
                    ask[product] = variant
                    taken = self._taken(ask, args, restore)
                    if taken is None or taken[product] != variant or \
                            tuple(taken) in times:
                        continue
                    ms = times[tuple(taken)] = self._time(tuple(taken), args,
                                                          flush, restore)
                    if ms < best_ms:
                        best, best_ms = tuple(taken), ms
            best = self._final(model, times, args, flush, restore)
        self.owner._remember(self.key(*args), best, model, times)
        return best

    def _final(self, model: Tuple[int, ...],
               times: Dict[Tuple[int, ...], float],
               args: Sequence[Any], flush: Any, restore: Any
               ) -> Tuple[int, ...]:
        """The fastest of the sweep's FINALISTS fastest and the model's
        choice, timed again in ROUNDS rounds of rotated order (a single
        sweep's medians differ by a few percent from call order and
        clocks); another variant than the model's must be MIN_GAIN faster
        than it. `times` gets the final medians."""
        timed = sorted(times, key=times.get)
        finalists = list(dict.fromkeys([model] + timed[:FINALISTS]))
        if len(finalists) == 1:
            return model
        samples: Dict[Tuple[int, ...], List[float]] = {
            v: [] for v in finalists}
        for r in range(ROUNDS):
            shift = r % len(finalists)
            for v in finalists[shift:] + finalists[:shift]:
                samples[v].append(self._time(v, args, flush, restore))
        for v, values in samples.items():
            times[v] = statistics.median(values)
        best = min(finalists, key=times.get)
        if best != model and times[best] * MIN_GAIN > times[model]:
            return model
        return best

    def _taken(self, ask: Sequence[int], args: Sequence[Any],
               restore: Any) -> Optional[List[int]]:
        """The variants a call that requests `ask` takes (None where it
        fails)."""
        import torch
        try:
            self._call(ask, args)
            torch.cuda.synchronize()
        except CroqError:
            return None
        finally:
            restore()
        return self.owner.requests().reported()

    def _time(self, variants: Tuple[int, ...], args: Sequence[Any],
              flush: Any, restore: Any) -> float:
        """The median ms of `iters` calls of `variants`, each after a flush
        of the L2 cache."""
        import torch
        samples = []
        for _ in range(self.owner.iters):
            flush.zero_()
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            self._call(variants, args)
            end.record()
            end.synchronize()
            samples.append(start.elapsed_time(end))
        restore()
        return statistics.median(samples)


def _args_device(args: Sequence[Any]) -> Any:
    """The device of the first tensor argument (the current CUDA device if
    none is a tensor)."""
    import torch
    for a in args:
        if isinstance(a, torch.Tensor):
            return a.device
    return torch.device("cuda")


def autotune_variants(module: Module, iters: int = 10) -> VariantTunedModule:
    """Wraps ``module`` (:func:`croq.load`'s) so that its entry points time
    their GEMMs' variants on the first call of each shape and call the
    fastest (``iters`` timed calls per variant, each after an L2 flush)."""
    if not isinstance(module, Module):
        raise TypeError(f"autotune_variants takes a loaded croq.Module, got "
                        f"{type(module).__name__}")
    return VariantTunedModule(module, iters)
