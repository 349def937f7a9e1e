"""Loading an artifact and calling its kernels.

:func:`load` opens ``libCroqRuntime.so`` (globally, so that every kernel
library binds to the one runtime) and then ``lib<name>.so``, whose global
constructors load the embedded GPU binary. Each entry point of the signature
becomes a callable :class:`EntryPoint`; a call checks every argument against
its memref type, passes each as a pointer to an MLIR memref descriptor
(``{T *allocated; T *aligned; int64 offset; int64 sizes[R];
int64 strides[R]}``) and each scalar as a pointer to its value to
``_mlir_ciface_<name>``, and raises
:class:`croq.RuntimeError` when the runtime reports a failed CUDA call.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import threading
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from . import _native
from ._abi import _SCALAR_KINDS, argument_type, make_argument
from ._torch_glue import (
    _FLOAT_SCALARS, _MISSING, _OP_NAMES, _TORCH_SCHEMA_WORDS, _TRACED_ENTRIES,
    _find_is_compiling, _raw_stream_function, _stream_handle,
    _torch_tensor_type, _traced_op, _tracing, _unused_op_name)
from .arguments import ArgumentView, scalar_value, view_argument
from .errors import ArgumentError, LoadError, RuntimeError
from .signature import FunctionSignature, MemRefArg, parse_signature

RUNTIME_LIBRARY = "libCroqRuntime.so"


class _Runtime:
    """The runtime library of the process: the first one croq loaded."""

    library: Optional[ctypes.CDLL] = None
    path: Optional[Path] = None


def _load_runtime(path: Path) -> ctypes.CDLL:
    if _Runtime.library is None:
        # A runtime some library of the process already loaded (its
        # DT_NEEDED libCroqRuntime.so) is the one its kernels call: opened
        # by its SONAME, not loaded a second time from another copy's path.
        try:
            _Runtime.library = ctypes.CDLL(
                RUNTIME_LIBRARY,
                mode=ctypes.RTLD_GLOBAL | getattr(os, "RTLD_NOLOAD", 4))
            _Runtime.path = path
            return _Runtime.library
        except OSError:
            pass
        try:
            _Runtime.library = ctypes.CDLL(str(path), mode=ctypes.RTLD_GLOBAL)
        except OSError as e:
            raise LoadError(f"cannot load the croq runtime {path}: {e}") \
                from None
        _Runtime.path = path
    return _Runtime.library


def _optional_function(libraries: Sequence[ctypes.CDLL], name: str,
                       restype: Any, argtypes: List[Any]) -> Optional[Any]:
    """``name`` from the first library that has it, typed; None if none
    does (an older runtime)."""
    for library in libraries:
        try:
            fn = getattr(library, name)
        except AttributeError:
            continue
        fn.restype = restype
        fn.argtypes = argtypes
        return fn
    return None


class EntryPoint:
    """A callable kernel entry point of a loaded :class:`Module`.

    Call it with one argument per argument of the signature (positionally,
    or by the names of the croq source): for a memref a torch CUDA tensor,
    an object with a ``__cuda_array_interface__``, or a
    :class:`croq.Buffer`; for a scalar a Python number. The kernels are
    queued on a stream and the call returns without waiting for them, as a
    torch operation does: on ``stream=`` (a ``torch.cuda.Stream``, or a raw
    ``CUstream`` handle as an int) if given, else on torch's current stream
    of the arguments' device when a torch tensor is among them, else on the
    default stream (0). Work queued on the same stream afterwards sees the
    results; to read them elsewhere, wait for the stream.
    """

    def __init__(self, module: "Module", signature: FunctionSignature,
                 function: Callable[..., None]) -> None:
        self.module = module
        self.signature = signature
        self.name = signature.name
        self._function = function
        self._types = [argument_type(a) for a in signature.arguments]
        # Which arguments are scalars, and their native launcher codes.
        self._scalars = [a.scalar for a in signature.arguments]
        # The descriptors and scalars by reference, then the stream; the
        # status of the call back.
        function.restype = ctypes.c_int32
        function.argtypes = [ctypes.POINTER(t) for t in self._types] + \
            [ctypes.c_void_p]
        self._stream_is_argument = any(
            a.name == "stream" for a in signature.arguments)
        # Per thread: what a call with the same argument types, shapes,
        # strides and device passes (see _call_cached).
        self._cached = threading.local()
        # The native launcher of the last call that went through the
        # cache (_native): it repeats that call on tensors of the same key
        # in one foreign call. Immutable, so shared by all threads.
        self._launcher: Any = None
        self._torch_ops: Dict[Optional[str], Any] = {}
        # This entry point's number in croq::call (_traced_op).
        self._traced_id = len(_TRACED_ENTRIES)
        _TRACED_ENTRIES.append(self)
        # The out-parameters that were the function's results (a function
        # on tensors): trailing, so that a call may leave them out.
        params = signature.arguments
        first = len(params)
        while first > 0 and params[first - 1].result:
            first -= 1
        self._results = list(params[first:])

    def __repr__(self) -> str:
        return f"<croq entry point {self.signature.describe()}>"

    def _bind(self, args: Sequence[Any], kwargs: Dict[str, Any]) -> List[Any]:
        params = self.signature.arguments
        if len(args) > len(params):
            raise ArgumentError(
                None, None,
                f"{self.name} takes {len(params)} arguments, got "
                f"{len(args) + len(kwargs)}")
        bound: List[Any] = list(args) + [_MISSING] * (len(params) - len(args))
        names = {p.name: p.index for p in params if p.name}
        for key, value in kwargs.items():
            if key not in names:
                known = ", ".join(names) or "none; pass them by position"
                raise TypeError(f"{self.name}() got an unexpected keyword "
                                f"argument {key!r} (argument names: {known})")
            i = names[key]
            if bound[i] is not _MISSING:
                raise TypeError(f"{self.name}() got multiple values for "
                                f"argument {key!r}")
            bound[i] = value
        for p, value in zip(params, bound):
            if value is _MISSING:
                raise ArgumentError(
                    p.index, p.name,
                    f"missing; {self.name} takes {len(params)} arguments "
                    f"({self.signature.describe()})")
        return bound

    def check(self, *args: Any, **kwargs: Any) -> List[ArgumentView]:
        """Checks the arguments as a call would, without calling; returns
        what will be passed. Raises :class:`croq.ArgumentError`."""
        bound = self._bind(args, kwargs)
        views = [view_argument(p, value)
                 for p, value in zip(self.signature.arguments, bound)]
        devices = {v.device for v in views if v.device is not None}
        if len(devices) > 1:
            first = next(v for v in views if v.device is not None)
            other = next(v for v in views
                         if v.device is not None and v.device != first.device)
            p = self.signature.arguments[other.index]
            raise ArgumentError(
                p.index, p.name,
                f"is on cuda:{other.device} but argument {first.index} is on "
                f"cuda:{first.device}; all arguments must be on one device")
        device = self.module.device
        for v in views:
            if v.device is not None and device is not None and \
                    v.device != device:
                p = self.signature.arguments[v.index]
                raise ArgumentError(
                    p.index, p.name,
                    f"is on cuda:{v.device} but the module was loaded on "
                    f"cuda:{device}")
        return views

    def _allocate_results(self, args: Sequence[Any]) -> List[Any]:
        """New tensors for the result out-parameters a call left out, on
        the device of its first tensor argument."""
        device = next((a.device for a in args
                       if type(a).__module__.startswith("torch") and
                       hasattr(a, "device")), None)
        if device is None:
            raise ArgumentError(
                self._results[0].index, self._results[0].name,
                f"missing; {self.name} returns it, which a call can allocate "
                f"only next to a torch tensor argument: pass the output")
        out: List[Any] = []
        for p in self._results:
            if any(d is None for d in p.shape):
                raise ArgumentError(
                    p.index, p.name,
                    f"missing; {self.name} returns a result of dynamic shape "
                    f"{p.describe()}, which the call cannot size: pass the "
                    f"output tensor")
        import torch  # only calls that leave results out need torch

        for p in self._results:
            dtype = getattr(torch, p.element.torch_dtypes[0])
            out.append(torch.empty(p.shape, dtype=dtype, device=device))
        return out

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Runs the entry point. A function on tensors (whose results became
        out-parameters) may be called without them: they are allocated on
        the arguments' device and returned (one tensor, or a tuple)."""
        if _tracing():
            return self._call_traced(args, kwargs)
        if self._results and not kwargs and \
                len(args) == len(self.signature.arguments) - len(self._results):
            results = self._allocate_results(args)
            self(*args, *results)
            return results[0] if len(results) == 1 else tuple(results)
        if not kwargs:
            launcher = self._launcher
            if launcher is not None:
                status = launcher(*args)
                if status is None:
                    return
                if status is not NotImplemented:
                    self._check_status(status)
                    return
            if self._call_cached(args):
                return
        stream = _MISSING
        if "stream" in kwargs and not self._stream_is_argument:
            stream = kwargs.pop("stream")
        views = self.check(*args, **kwargs)
        descriptors = [make_argument(p, v)
                       for p, v in zip(self.signature.arguments, views)]
        handle = _stream_handle(stream, views)
        self.module._clear_error()
        status = self._function(*[ctypes.byref(d) for d in descriptors],
                                handle)
        self._check_status(status)


    def _call_traced(self, args: Sequence[Any], kwargs: Dict[str, Any]) -> Any:
        """The call as torch.compile traces it: through croq's one traced
        operator (``croq::call``, :func:`_traced_op`), which the graph keeps
        as one node and runs on the graph's stream (a CUDA graph's too);
        the results a call leaves out are allocated by the graph."""
        if "stream" in kwargs and not self._stream_is_argument:
            raise ArgumentError(
                None, None, f"{self.name}: stream= cannot be passed inside "
                f"torch.compile; the call runs on the graph's stream")
        results: List[Any] = []
        if self._results and not kwargs and \
                len(args) == len(self.signature.arguments) - len(self._results):
            results = self._allocate_results(args)
            args = tuple(args) + tuple(results)
        written: List[Any] = []
        read: List[Any] = []
        ints: List[Any] = []
        floats: List[Any] = []
        for p, value in zip(self.signature.arguments,
                            self._bind(args, kwargs)):
            if p.scalar:
                if p.element_type in _FLOAT_SCALARS:
                    floats.append(value)
                else:
                    ints.append(int(value))
            elif p.written is False:
                read.append(value)
            else:
                written.append(value)
        _traced_op()(self._traced_id, written, read, ints, floats)
        if not results:
            return None
        return results[0] if len(results) == 1 else tuple(results)

    def _run_traced(self, written: Sequence[Any], read: Sequence[Any],
                    ints: Sequence[int], floats: Sequence[float]) -> None:
        """The call croq::call makes when its graph runs: the arguments
        in the signature's order again."""
        groups = [iter(written), iter(read), iter(ints), iter(floats)]
        args: List[Any] = []
        for p in self.signature.arguments:
            if not p.scalar:
                args.append(next(groups[1] if p.written is False
                                 else groups[0]))
            elif p.element_type in _FLOAT_SCALARS:
                args.append(next(groups[3]))
            elif p.element_type == "i1":
                args.append(bool(next(groups[2])))
            else:
                args.append(next(groups[2]))
        self(*args)

    def torch_op(self, qualname: Optional[str] = None):
        """This entry point as a torch custom operator (``torch.library``),
        so that it runs inside ``torch.compile`` graphs.

        The operator takes the entry point's tensors (and scalars: ``int``,
        ``float`` or ``bool`` in the schema) in order, mutates those
        the kernel may write (the signature's ``written``) and returns
        nothing; its fake implementation does nothing, so tracing it needs
        no GPU work. Call it as ``op(a, b, out)`` after allocating ``out``.

        Args:
            qualname: ``namespace::name``; ``croq::<module>_<entry point>``
                when None.

        Raises:
            croq.LoadError: the signature does not say which arguments are
                written (an artifact of an older croq), or an argument has
                no name torch accepts.
        """
        import torch
        params = self.signature.arguments
        if any(p.written is None for p in params):
            raise LoadError(f"{self.name}: the signature does not say which "
                            f"arguments are written; compile it again")
        # Names the schema language reserves get a trailing underscore.
        names = [p.name or f"arg{p.index}" for p in params]
        names = [n + "_" if n in _TORCH_SCHEMA_WORDS else n for n in names]
        for n in names:
            if not n.isidentifier():
                raise LoadError(f"{self.name}: argument name {n!r} cannot "
                                f"name a torch operator argument")
        default = qualname is None
        if default and None in self._torch_ops:
            return self._torch_ops[None]
        if default:
            module = re.sub(r"\W", "_", Path(self.module.path).name[3:-3])
            qualname = _unused_op_name(f"croq::{module}_{self.name}")
        if qualname in self._torch_ops:
            return self._torch_ops[qualname]
        alias = iter("abcdefghijklmnopqrstuvwxyz")

        def declare(p: MemRefArg, n: str) -> str:
            if p.scalar:
                kind = {"i1": "bool", "f32": "float", "f64": "float"}
                return f"{kind.get(p.element_type, 'int')} {n}"
            return f"Tensor({next(alias)}!) {n}" if p.written else \
                f"Tensor {n}"
        schema = "(" + ", ".join(
            declare(p, n) for p, n in zip(params, names)) + ") -> ()"
        entry = self

        def run(*tensors):
            entry(*tensors)

        op = torch.library.custom_op(
            qualname, run,
            mutates_args=tuple(n for p, n in zip(params, names)
                               if p.written),
            schema=schema)
        op.register_fake(lambda *tensors: None)
        self._torch_ops[qualname] = op
        _OP_NAMES.add(qualname)
        if default:
            self._torch_ops[None] = op
        return op

    def _check_status(self, status: int) -> None:
        """Raises croq.RuntimeError with the runtime's message when the
        entry point's status reports a failure."""
        if status != 0:
            message = self.module._last_error() or \
                f"the runtime reported status {status}"
            raise RuntimeError(f"{self.name}: {message}")

    def _call_cached(self, args: Sequence[Any]) -> bool:
        """The call of torch tensors (and Python numbers for the scalars)
        passed by position whose types, shapes, strides and device an
        earlier call on this thread checked: only the data pointers, their
        element alignment and the scalars' values are new, and the
        descriptors checked then are reused with them. Returns False (and
        calls nothing) where the slow path must check, or raise."""
        tensor_type = _torch_tensor_type()
        if tensor_type is None or len(args) != len(self._types):
            return False
        key = []
        for t, scalar in zip(args, self._scalars):
            if scalar:
                if type(t) not in (int, float, bool):
                    return False
                key.append(type(t))
            elif type(t) is not tensor_type:
                return False
            else:
                key.append((t.dtype, t.get_device(), t.shape, t.stride()))
        cache = getattr(self._cached, "calls", None)
        if cache is None:
            cache = self._cached.calls = {}
        entry = cache.get(tuple(key))
        if entry is None:
            entry = self._prepare_cached(args)
            if entry is None:
                return False
            if len(cache) >= _CACHED_CALLS:
                cache.clear()
            cache[tuple(key)] = entry
        (descriptors, shifts, itemsizes, pointers, device, raw_stream,
         stream, function, launcher) = entry
        if launcher is not None:
            status = launcher(*args)
            if status is NotImplemented:
                return False  # misaligned or out of range: the slow path
            self._launcher = launcher
            if status is not None:
                self._check_status(status)
            return True
        params = self.signature.arguments
        for i, (t, desc, shift, itemsize) in enumerate(
                zip(args, descriptors, shifts, itemsizes)):
            if self._scalars[i]:
                try:
                    value = scalar_value(params[i], t)
                except ArgumentError:
                    return False  # the slow path raises it
                desc.value = value
                continue
            ptr = t.data_ptr()
            if ptr % itemsize:
                return False  # the slow path names the misalignment
            desc.allocated = desc.aligned = ptr - shift
        stream.value = raw_stream(device)
        # No clearing of the last error first: every failure of the call
        # sets it, and it is read only when the status says one happened.
        status = function(*pointers, stream)
        self._check_status(status)
        return True

    def _prepare_cached(self, args: Sequence[Any]):
        """Checks `args` as a call does; returns what _call_cached reuses,
        or None where the arguments break a rule or the call needs more
        than the fast path does (the slow path then raises or calls)."""
        raw_stream = _raw_stream_function()
        if raw_stream is None:
            return None
        try:
            views = self.check(*args)
        except ArgumentError:
            return None
        tensors = [v for v, scalar in zip(views, self._scalars) if not scalar]
        if not tensors or any(not v.is_torch or v.device is None
                              for v in tensors):
            return None
        params = self.signature.arguments
        descriptors = [make_argument(p, v) for p, v in zip(params, views)]
        shifts = [(p.offset or 0) * v.itemsize for p, v in zip(params, views)]
        itemsizes = [v.itemsize for v in views]
        # The descriptors' (and the scalars') addresses as ready arguments,
        # and a function object of the entry point's own without argument
        # conversions (every argument is a c_void_p already).
        pointers = [ctypes.c_void_p(ctypes.addressof(d)) for d in descriptors]
        function = self.module._library[f"_mlir_ciface_{self.name}"]
        function.restype = ctypes.c_int32
        function.argtypes = None
        launcher = self._make_launcher(args, descriptors, shifts, itemsizes,
                                       tensors[0].device, raw_stream,
                                       function)
        return (descriptors, shifts, itemsizes, pointers, tensors[0].device,
                raw_stream, ctypes.c_void_p(0), function, launcher)

    def _make_launcher(self, args: Sequence[Any],
                       descriptors: Sequence[ctypes.Structure],
                       shifts: List[int], itemsizes: List[int], device: int,
                       raw_stream: Callable[[int], int], function: Any) -> Any:
        """The native launcher of this checked call (_launch.c), or None
        where the native path is not built or the call exceeds its limits
        (16 arguments, rank 8)."""
        launch = _native.launch_module()
        params = self.signature.arguments
        if launch is None or len(args) > _NATIVE_MAX_TENSORS or any(
                p.rank > _NATIVE_MAX_RANK for p in params):
            return None
        kinds = [_SCALAR_KINDS[p.element_type] if p.scalar else 0
                 for p in params]
        templates = [b"" if p.scalar else
                     ctypes.string_at(ctypes.addressof(d), ctypes.sizeof(d))
                     for p, d in zip(params, descriptors)]

        def per_tensor(get: Callable[[Any], Any], scalar: Any) -> List[Any]:
            return [scalar if p.scalar else get(t)
                    for p, t in zip(params, args)]
        tensor_type = next(type(t) for p, t in zip(params, args)
                           if not p.scalar)
        return launch.Launcher(
            ctypes.cast(function, ctypes.c_void_p).value, templates,
            list(shifts), list(itemsizes), per_tensor(lambda t: t.dtype, None),
            per_tensor(lambda t: t.get_device(), -1),
            per_tensor(lambda t: t.shape, None),
            per_tensor(lambda t: t.stride(), None), raw_stream, tensor_type,
            device, kinds)


#: The most tensors, and the highest rank, the native launcher takes
#: (_launch.c); calls beyond them go through ctypes.
_NATIVE_MAX_TENSORS = 16
_NATIVE_MAX_RANK = 8

#: Argument signatures an entry point remembers per thread for
#: _call_cached; past this many the memory starts over.
_CACHED_CALLS = 64

#: The calling convention of croq's entry points (``"abi"`` in the
#: signature): 3 passes pointers to the memref descriptors and to the
#: scalars' values, then the CUstream, and gets the call's status back (2
#: took memrefs only, by the same pointers).
CALLING_CONVENTION = 3


class Module:
    """A loaded artifact: one :class:`EntryPoint` attribute per entry point.

    Attributes:
        path: the kernel library.
        functions: the entry points by name.
        signatures: every function of the signature by name, callable or
            not.
        device: the CUDA device the kernels were loaded on (the runtime's
            current device at load time), or None if the runtime cannot say.
    """

    def __init__(self, path: Path, signatures: Dict[str, FunctionSignature],
                 library: ctypes.CDLL, runtime: ctypes.CDLL) -> None:
        self.path = path
        self.signatures = signatures
        self._library = library
        scope = [library, runtime]
        self._get_error = _optional_function(
            scope, "croqRtGetLastError", ctypes.c_char_p, [])
        self._clear = _optional_function(scope, "croqRtClearLastError",
                                         None, [])
        get_device = _optional_function(
            scope, "croqRtGetDevice", ctypes.c_int,
            [ctypes.POINTER(ctypes.c_int)])
        self.device: Optional[int] = None
        if get_device is not None:
            value = ctypes.c_int(-1)
            if get_device(ctypes.byref(value)) == 0 and value.value >= 0:
                self.device = value.value
        self.functions: Dict[str, EntryPoint] = {}
        self._missing: List[str] = []
        for name, sig in signatures.items():
            try:
                fn = getattr(library, f"_mlir_ciface_{name}")
            except AttributeError:
                # A public function without a kernel gets no C interface.
                self._missing.append(name)
                continue
            self.functions[name] = EntryPoint(self, sig, fn)
        # Entry points as instance attributes, found without __getattr__
        # (a call through m.name costs a lookup less); names the module's
        # own attributes take stay reachable through functions[name].
        for name, entry in self.functions.items():
            if name.isidentifier() and not hasattr(type(self), name) and \
                    name not in self.__dict__:
                self.__dict__[name] = entry
        # With torch imported, croq's traced operator is registered now
        # (once a process), so that torch.compile can trace a plain call:
        # it cannot trace the registration.
        if _find_is_compiling() is not None:
            _traced_op()

    def _clear_error(self) -> None:
        if self._clear is not None:
            self._clear()

    def _last_error(self) -> str:
        if self._get_error is None:
            return ""
        raw = self._get_error()
        return raw.decode(errors="replace") if raw else ""

    def __getattr__(self, name: str) -> EntryPoint:
        functions = self.__dict__.get("functions", {})
        if name in functions:
            return functions[name]
        if name in self.__dict__.get("_missing", []):
            raise AttributeError(
                f"{name} has no C entry point in {self.path.name}: only "
                f"functions that launch a kernel (contain croq.parallel ... "
                f": block) can be called")
        known = ", ".join(functions) or "none"
        raise AttributeError(f"{self.path.name} has no entry point {name!r} "
                             f"(entry points: {known})")

    def __dir__(self) -> List[str]:
        return sorted(set(super().__dir__()) | set(self.functions))

    def __repr__(self) -> str:
        return f"<croq module {self.path} ({', '.join(self.functions)})>"


def _resolve(path: Union[str, os.PathLike]) -> Tuple[Path, Path]:
    """The kernel library and the signature file of ``path`` (an artifact
    directory or a ``lib<name>.so``)."""
    p = Path(path)
    if p.is_dir():
        libs = sorted(x for x in p.glob("lib*.so") if x.name != RUNTIME_LIBRARY)
        if not libs:
            raise LoadError(f"{p} holds no kernel library (lib<name>.so)")
        if len(libs) > 1:
            names = ", ".join(x.name for x in libs)
            raise LoadError(f"{p} holds several kernel libraries ({names}); "
                            f"pass the path of one")
        p = libs[0]
    if not p.is_file():
        raise LoadError(f"{p} does not exist")
    if not (p.name.startswith("lib") and p.name.endswith(".so")):
        raise LoadError(f"{p} is not a kernel library (lib<name>.so)")
    signature = p.with_name(p.name[3:-3] + ".json")
    if not signature.is_file():
        raise LoadError(f"{p.name} has no signature file {signature.name} "
                        f"beside it")
    return p, signature


def load(path: Union[str, os.PathLike]) -> Module:
    """Loads an artifact that :func:`croq.compile` made.

    Args:
        path: the artifact directory (with one kernel library) or the path
            of ``lib<name>.so``; ``<name>.json`` and ``libCroqRuntime.so``
            must be beside it.

    Returns:
        The :class:`Module`.

    Raises:
        LoadError: a file is missing or malformed, or the dynamic loader
            refuses a library.
        croq.RuntimeError: loading the GPU binary failed (no driver, no
            GPU, a binary for another architecture); the runtime's message.
    """
    library_path, signature_path = _resolve(path)
    signature_text = signature_path.read_text()
    signatures = parse_signature(signature_text)
    runtime_path = library_path.with_name(RUNTIME_LIBRARY)
    if not runtime_path.is_file() and _Runtime.library is None:
        raise LoadError(f"{library_path.name} has no {RUNTIME_LIBRARY} "
                        f"beside it")
    runtime = _load_runtime(runtime_path)
    clear = _optional_function([runtime], "croqRtClearLastError", None, [])
    if clear is not None:
        clear()
    try:
        # The global constructors load the GPU binary now.
        library = ctypes.CDLL(str(library_path.resolve()))
    except OSError as e:
        raise LoadError(f"cannot load {library_path}: {e}") from None
    abi = json.loads(signature_text).get("abi")
    if abi != CALLING_CONVENTION:
        raise LoadError(
            f"{library_path.name} was compiled for calling convention "
            f"{abi or 1}, this croq calls convention {CALLING_CONVENTION} "
            f"(the stream passed, a status returned): compile it again")
    module = Module(library_path, signatures, library, runtime)
    message = module._last_error()
    if message:
        raise RuntimeError(f"loading {library_path.name}: {message}")
    return module
