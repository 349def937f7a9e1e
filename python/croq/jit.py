"""Compile on first call: croq or linalg text in, callables out.

:func:`jit` takes the text of a module (croq IR, or ``linalg`` on memrefs or
tensors) and returns a :class:`JitModule`, whose entry points compile the
first time they are called. A GEMM of dynamic extents (``linalg.matmul`` on
``memref<?x?xf16>``) has many variants, the tiles, clusters, split and
stream-K forms the cost model weighs (17 variants, 31 kernels for an f16
GEMM); :func:`croq.compile` compiles them all, with host code that chooses
per call. A jit module compiles only what its calls need:

1. the *classifier* (``compile(..., gemm_classify=True)``, once a module):
   the module's host code without kernels, which computes the cost model's
   choice for each such GEMM and reports it to the runtime
   (``croqRtReportVariant``). Its variant numbers are the *shape class* of
   the call;
2. the *specialization* of each shape class seen
   (``compile(..., gemm_variants=[...])``): the kernels of those variants
   alone, whose host code checks that a call's extents chose them.

A call looks its arguments' shapes (and integer scalars) up; the first call
of a new shape runs the classifier, and the first of a new class compiles
its specialization. Both go through :func:`croq.compile`'s cache on disk, so
a new process (or a notebook's next kernel) finds them there. Later calls of
a known shape cost a dictionary lookup more than a loaded module's::

    gemm = croq.jit(LINALG_TEXT)
    gemm.gemm(a, b, c)                    # compiles the class of (a, b, c)
    gemm.gemm(a2, b2, c2)                 # another shape of the class: no compile
    full = gemm.compile_all()             # every variant (croq.autotune, torch.compile)
"""

from __future__ import annotations

import ctypes
import functools
import re
import tempfile
import threading
from pathlib import Path
from typing import Any, Callable, Dict, Hashable, List, Optional, Tuple, Union

from .compiler import Artifact, compile as compile_module
from .errors import CompileError, LoadError
from .module import EntryPoint, Module, _Runtime, _tracing

#: The most products a module may have whose variant the host code chooses
#: (the classifier's report is read into an array of this size).
MAX_PRODUCTS = 64

#: Shapes a jit entry point remembers the class of; past this many it
#: starts over (the classifier runs again, the compiled classes stay).
MAX_SHAPES = 4096


def _key_part(value: Any) -> Hashable:
    shape = getattr(value, "shape", None)
    if shape is not None:
        return shape  # torch.Size and croq.Buffer's tuple: hashable
    return value if isinstance(value, int) else None


def _shape_key(args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Hashable:
    """What decides a call's shape class: each tensor's shape and each
    integer scalar's value (an index may size a view), in order."""
    key = tuple([_key_part(a) for a in args])
    if kwargs:
        key += tuple((k, _key_part(v)) for k, v in sorted(kwargs.items())
                     if k != "stream")
    return key


class JitFunction:
    """An entry point of a :class:`JitModule`: call it as the loaded
    module's entry point (:class:`croq.EntryPoint`); it compiles what the
    call's shape class needs first."""

    def __init__(self, module: "JitModule", name: str) -> None:
        self.module = module
        self.name = name
        self._classes: Dict[Hashable, Tuple[int, ...]] = {}
        self._entries: Dict[Hashable, EntryPoint] = {}

    def __repr__(self) -> str:
        return f"<croq jit entry point {self.name} of {self.module.name}>"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if _tracing():
            return self._traced_entry()(*args, **kwargs)
        key = _shape_key(args, kwargs)
        entry = self._entries.get(key)
        if entry is None:
            entry = self.entry_for(*args, **kwargs)
        return entry(*args, **kwargs)

    def shape_class(self, *args: Any, **kwargs: Any) -> Tuple[int, ...]:
        """The shape class of a call with these arguments: the variant the
        cost model chooses for each product whose variant the host code
        chooses, in program order (-1 where this function does not reach
        the product; empty where the module has none). Runs the classifier
        (compiled on the first call), which checks the arguments as a call
        does: a wrong argument raises here."""
        key = _shape_key(args, kwargs)
        known = self._classes.get(key)
        if known is not None:
            return known
        classifier = self.module._classifier().functions.get(self.name)
        if classifier is None:
            raise LoadError(f"{self.module.name} has no entry point "
                            f"{self.name!r}")
        classifier(*args, **kwargs)
        found = self.module._reported_variants()
        if len(self._classes) >= MAX_SHAPES:
            self._classes.clear()
        self._classes[key] = found
        return found

    def entry_for(self, *args: Any, **kwargs: Any) -> EntryPoint:
        """The loaded entry point that serves calls with these arguments:
        the specialization of their shape class, compiled if new."""
        key = _shape_key(args, kwargs)
        entry = self._entries.get(key)
        if entry is not None:
            return entry
        variants = self.shape_class(*args, **kwargs)
        entry = self.module.specialization(variants).functions[self.name]
        if len(self._entries) >= MAX_SHAPES:
            self._entries.clear()
        self._entries[key] = entry
        return entry

    def _traced_entry(self) -> EntryPoint:
        """The entry point a call inside torch.compile goes through: the
        module with every variant, which serves any shape (torch.compile
        cannot trace a compile)."""
        full = self.module._full
        if full is None:
            raise CompileError(
                f"{self.name}: a jit entry point compiles on its first call, "
                f"which torch.compile cannot trace; call "
                f"{self.module.name}.compile_all() (every variant, for any "
                f"shape) before torch.compile", tool="croq")
        return full.functions[self.name]


class JitModule:
    """A module of croq or linalg text whose entry points compile on their
    first call (:func:`jit`). Entry points are attributes (``m.gemm``);
    a module with one entry point is also callable itself.

    Attributes:
        name: the module name (artifact file names).
        text: the IR.
        directory: where the classifier and the specializations are
            compiled (``classify/``, ``variants-<v>/``, ``all/``).
        compiled: the artifacts compiled or found in the cache so far, by
            what they hold: ``"classify"``, a tuple of variants, or
            ``"all"``.
    """

    def __init__(self, text: str, name: str = "kernel",
                 directory: Optional[Union[str, Path]] = None,
                 **options: Any) -> None:
        if not re.fullmatch(r"[\w.+-]+", name):
            raise CompileError(f"module name {name!r} is not a plain file "
                               f"name", tool="croq")
        for forbidden in ("gemm_variants", "gemm_classify", "out_dir",
                          "name"):
            if forbidden in options:
                raise CompileError(f"croq.jit chooses {forbidden} itself",
                                   tool="croq")
        self.name = name
        self.text = text
        self._directory = Path(directory) if directory is not None else None
        self._options = options
        self._lock = threading.RLock()
        self._classify: Optional[Module] = None
        self._modules: Dict[Tuple[int, ...], Module] = {}
        self._full: Optional[Module] = None
        self.compiled: Dict[Any, Artifact] = {}
        self._functions: Dict[str, JitFunction] = {}

    def __repr__(self) -> str:
        return f"<croq jit module {self.name}>"

    @property
    def directory(self) -> Path:
        if self._directory is None:
            self._directory = Path(tempfile.mkdtemp(prefix=f"croq-jit-"
                                                    f"{self.name}-"))
        return self._directory

    def _compile(self, what: Any, subdirectory: str,
                 **extra: Any) -> Module:
        artifact = compile_module(self.text, self.directory / subdirectory,
                                  name=self.name, **self._options, **extra)
        self.compiled[what] = artifact
        return artifact.load()

    def _classifier(self) -> Module:
        with self._lock:
            if self._classify is None:
                self._classify = self._compile("classify", "classify",
                                               gemm_classify=True)
            return self._classify

    def _reported_variants(self) -> Tuple[int, ...]:
        """The variants the classifier's last call on this thread
        reported (croqRtGetReportedVariants)."""
        runtime = _Runtime.library
        get = getattr(runtime, "croqRtGetReportedVariants", None)
        if get is None:
            raise LoadError("the croq runtime has no croqRtGetReportedVariants "
                            "(an older libCroqRuntime.so); compile on first "
                            "call needs this croq's runtime")
        get.restype = ctypes.c_int64
        get.argtypes = [ctypes.POINTER(ctypes.c_int64), ctypes.c_int64]
        out = (ctypes.c_int64 * MAX_PRODUCTS)()
        count = get(out, MAX_PRODUCTS)
        if count > MAX_PRODUCTS:
            raise CompileError(f"{self.name} has {count} GEMMs whose variant "
                               f"the host code chooses; croq.jit takes at "
                               f"most {MAX_PRODUCTS}", tool="croq")
        return tuple(out[:count])

    def specialization(self, variants: Tuple[int, ...]) -> Module:
        """The module compiled for one shape class (``variants``, as
        :meth:`JitFunction.shape_class` gives it; empty: the module has no
        GEMM whose variant the host code chooses, so it is compiled
        whole)."""
        variants = tuple(variants)
        with self._lock:
            module = self._modules.get(variants)
            if module is None:
                if not variants:
                    module = self.compile_all()
                else:
                    label = "_".join(str(v) for v in variants)
                    module = self._compile(variants, f"variants-{label}",
                                           gemm_variants=list(variants))
                self._modules[variants] = module
            return module

    def compile_all(self) -> Module:
        """The module with every variant of every GEMM (what
        :func:`croq.compile` makes): host code that chooses per call, for
        any shape; what calls inside torch.compile go through."""
        with self._lock:
            if self._full is None:
                self._full = self._compile("all", "all")
            return self._full

    def function(self, name: str) -> JitFunction:
        """Entry point ``name`` (checked once the classifier is compiled)."""
        fn = self._functions.get(name)
        if fn is None:
            fn = self._functions[name] = JitFunction(self, name)
        return fn

    def entry_points(self) -> List[str]:
        """The module's entry points (compiles the classifier)."""
        return list(self._classifier().functions)

    def __getattr__(self, name: str) -> JitFunction:
        if name.startswith("_"):
            raise AttributeError(name)
        if name not in self.entry_points():
            known = ", ".join(self.entry_points()) or "none"
            raise AttributeError(f"{self.name} has no entry point {name!r} "
                                 f"(entry points: {known})")
        return self.function(name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        names = self.entry_points()
        if len(names) != 1:
            raise TypeError(f"{self.name} has {len(names)} entry points "
                            f"({', '.join(names)}); call one by name")
        return self.function(names[0])(*args, **kwargs)


def jit(source: Union[str, Callable[[], str], None] = None, *,
        name: Optional[str] = None,
        directory: Optional[Union[str, Path]] = None,
        **options: Any) -> Any:
    """Compiles croq or linalg text on first call, as ``triton.jit`` does.

    ``jit(text)`` returns a :class:`JitModule`; as a decorator of a function
    that returns the text (``@croq.jit`` or ``@croq.jit(gemm_stream_k=1)``)
    it returns the module named after the function. The text is the IR
    itself, never a path, so that it works the same in a notebook. Each
    call compiles what its shape class needs the first time (see the
    module's documentation); the options are :func:`croq.compile`'s (tools,
    chip, ``gemm_*``, ``cache``).

    Raises:
        CompileError: a bad option; the tools' errors come at the first
            call.
    """
    def make(text: str, default_name: str) -> JitModule:
        if not isinstance(text, str) or "{" not in text:
            raise CompileError("croq.jit takes the IR text (a module with a "
                               "function), not a path; read the file first",
                               tool="croq")
        return JitModule(text, name or default_name, directory, **options)

    if source is None:
        return lambda fn: jit(fn, name=name, directory=directory, **options)
    if callable(source):
        module = make(source(), source.__name__)
        functools.update_wrapper(module, source, updated=())
        return module
    return make(source, "kernel")
