"""Compiling croq IR into a loadable artifact.

:func:`compile` runs the flow that needs no GPU::

    croq-translate --croq-to-bundle --croq-bundle-dir=. --croq-bundle-name=k \
        k.mlir    # k.json, k.ptx, cubin/, k.ptxas.txt, k.o; runs ptxas
    clang-22 -shared k.o -o libk.so -L. -lCroqRuntime -Wl,-rpath,$ORIGIN

and puts ``libk.so``, ``k.json``, ``k.ptx``, ``k.build.json`` (which tools
made it) and a copy of ``libCroqRuntime.so`` in one directory, the
artifact, which :func:`croq.load` loads (on the GPU machine, which needs no
MLIR).

The tools come from a build tree, or from the wheel (scripts/build-wheel.sh),
which carries ``croq/bin/croq-tool`` (croq-opt and croq-translate in one
executable, MLIR and LLVM linked in) and ``croq/lib/libCroqRuntime.so``.
Without clang-22 the system C compiler (``cc``) links the host object.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import (TYPE_CHECKING, Dict, List, Optional, Sequence, Tuple,
                    Union)

from .errors import CompileError
from .signature import FunctionSignature, add_argument_names, parse_signature

if TYPE_CHECKING:
    from .module import Module

#: The file name of the runtime library the artifacts link against.
RUNTIME_LIBRARY = "libCroqRuntime.so"

_REPO_ROOT = Path(__file__).resolve().parents[2]

#: The multi-call compiler the wheel bundles: ``croq-tool translate ...``
#: runs croq-translate, ``croq-tool opt ...`` croq-opt.
MULTI_CALL_TOOL = "croq-tool"
_PACKAGED_TOOL = Path(__file__).resolve().parent / "bin" / MULTI_CALL_TOOL


@dataclass
class Artifact:
    """What :func:`compile` produced, all in ``directory``.

    Attributes:
        name: the kernel module's name (the source file's stem).
        directory: where the files are.
        library: ``lib<name>.so``, the host code with the GPU binary inside.
        signature: ``<name>.json``, the entry points.
        ptx: ``<name>.ptx``, the PTX of the kernels (for reading and ptxas).
        runtime: the copy of ``libCroqRuntime.so`` the library loads.
        resources: ``<name>.ptxas.txt``, ``ptxas -v`` output (registers,
            shared memory, spills per kernel), or None without ptxas. The
            cubins ptxas made are kept as ``cubin/<kernel>.cubin``, for
            ``cuobjdump --dump-sass`` or ``nvdisasm``.
        source: ``<name>.mlir``, the croq IR that was compiled.
        cached: whether the files came from the compile cache instead of
            the tools.
    """

    name: str
    directory: Path
    library: Path
    signature: Path
    ptx: Path
    runtime: Path
    resources: Optional[Path]
    source: Path
    cached: bool = False

    def functions(self) -> Dict[str, FunctionSignature]:
        """The entry points, parsed from the signature file."""
        return parse_signature(self.signature.read_text())

    def load(self) -> "Module":
        """Loads the artifact (see :func:`croq.load`)."""
        from .module import load
        return load(self.directory / self.library.name)


def _is_executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def find_croq_translate(tools_dir: Optional[Union[str, os.PathLike]] = None
                        ) -> Path:
    """Finds ``croq-translate``: in ``tools_dir``, in ``$CROQ_TOOLS_DIR``, in
    the installed package (the wheel's ``croq/bin/croq-tool``), in the
    repository's ``build/bin``, or on ``PATH``. The path may be the
    multi-call ``croq-tool``; :func:`translate_command` runs either.

    Raises:
        CompileError: it is in none of them.
    """
    candidates: List[Path] = []
    if tools_dir is not None:
        candidates.append(Path(tools_dir) / "croq-translate")
    elif os.environ.get("CROQ_TOOLS_DIR"):
        candidates.append(Path(os.environ["CROQ_TOOLS_DIR"]) / "croq-translate")
    else:
        candidates.append(_PACKAGED_TOOL)
        candidates.append(_REPO_ROOT / "build" / "bin" / "croq-translate")
        found = shutil.which("croq-translate")
        if found:
            candidates.append(Path(found))
    for c in candidates:
        if _is_executable(c):
            return c
    where = ", ".join(str(c) for c in candidates)
    raise CompileError(
        f"croq-translate not found (looked at {where}); build croq "
        f"(./scripts/setup.sh) or pass tools_dir= or set CROQ_TOOLS_DIR",
        tool="croq-translate")


def translate_command(translate: Path) -> List[str]:
    """The command line prefix that runs croq-translate at ``translate``
    (``croq-tool translate`` for the multi-call tool)."""
    if translate.name == MULTI_CALL_TOOL:
        return [str(translate), "translate"]
    return [str(translate)]


def find_runtime(runtime_dir: Optional[Union[str, os.PathLike]] = None,
                 translate: Optional[Path] = None) -> Path:
    """Finds ``libCroqRuntime.so``: in ``runtime_dir``, in
    ``$CROQ_RUNTIME_DIR``, in ``lib/`` beside the tools directory of
    ``translate``, or in the repository's ``build/lib``.

    Raises:
        CompileError: it is in none of them.
    """
    candidates: List[Path] = []
    if runtime_dir is not None:
        candidates.append(Path(runtime_dir) / RUNTIME_LIBRARY)
    elif os.environ.get("CROQ_RUNTIME_DIR"):
        candidates.append(Path(os.environ["CROQ_RUNTIME_DIR"]) /
                          RUNTIME_LIBRARY)
    else:
        if translate is not None:
            candidates.append(translate.parent.parent / "lib" / RUNTIME_LIBRARY)
        candidates.append(_REPO_ROOT / "build" / "lib" / RUNTIME_LIBRARY)
    for c in candidates:
        if c.is_file():
            return c
    where = ", ".join(str(c) for c in candidates)
    raise CompileError(
        f"{RUNTIME_LIBRARY} not found (looked at {where}); build it "
        f"(cmake --build build --target CroqRuntime) or pass runtime_dir= "
        f"or set CROQ_RUNTIME_DIR", tool="CroqRuntime")


def find_clang() -> Path:
    """Finds clang 22: ``$CROQ_CLANG``, ``clang-22`` on ``PATH``, or
    ``/usr/lib/llvm-22/bin/clang``.

    Raises:
        CompileError: none of them exists.
    """
    if os.environ.get("CROQ_CLANG"):
        return Path(os.environ["CROQ_CLANG"])
    found = shutil.which("clang-22")
    if found:
        return Path(found)
    fallback = Path("/usr/lib/llvm-22/bin/clang")
    if _is_executable(fallback):
        return fallback
    raise CompileError("clang-22 not found on PATH nor at "
                       "/usr/lib/llvm-22/bin/clang; install clang-22 or set "
                       "CROQ_CLANG", tool="clang-22")


def find_linker() -> Path:
    """Finds the compiler driver that links the host object into the
    library: ``$CROQ_CLANG``, clang 22 (see :func:`find_clang`), else the
    system C compiler, ``$CC``, ``cc`` or ``gcc`` on ``PATH`` (the GPU
    machine has gcc, not LLVM). The object is position-independent ELF
    calling the runtime's C functions only, so any of them links it.

    Raises:
        CompileError: none of them exists.
    """
    try:
        return find_clang()
    except CompileError:
        pass
    for name in [os.environ.get("CC"), "cc", "gcc"]:
        found = shutil.which(name) if name else None
        if found:
            return Path(found)
    raise CompileError("no linker: neither clang-22 ($CROQ_CLANG, PATH, "
                       "/usr/lib/llvm-22/bin/clang) nor a C compiler ($CC, "
                       "cc, gcc on PATH) was found; install gcc",
                       tool="cc")


def _ptxas_candidates() -> List[Tuple[Path, str]]:
    """Where ptxas may be, in the order :func:`find_ptxas` tries them, each
    with the name of its origin (which the artifact's build.json records)."""
    candidates: List[Tuple[Path, str]] = []
    if os.environ.get("CROQ_PTXAS"):
        candidates.append((Path(os.environ["CROQ_PTXAS"]), "CROQ_PTXAS"))
    if os.environ.get("CUDA_HOME"):
        candidates.append((Path(os.environ["CUDA_HOME"]) / "bin" / "ptxas",
                           "CUDA_HOME"))
    found = shutil.which("ptxas")
    if found:
        candidates.append((Path(found), "PATH"))
    candidates.append((Path("/usr/local/cuda/bin/ptxas"), "/usr/local/cuda"))
    # The ptxas the Python wheels ship, found without importing them:
    # Triton's (triton/backends/nvidia/bin) and NVIDIA's nvidia-cuda-nvcc
    # (nvidia/cuda_nvcc/bin for CUDA 12, nvidia/cu13/bin for CUDA 13).
    for package, relatives, origin in [
            ("triton", ["backends/nvidia/bin/ptxas"], "triton"),
            ("nvidia", ["cu13/bin/ptxas", "cuda_nvcc/bin/ptxas"],
             "nvidia-cuda-nvcc")]:
        try:
            spec = importlib.util.find_spec(package)
        except (ImportError, ValueError):
            spec = None
        for root in (spec.submodule_search_locations or []) if spec else []:
            for relative in relatives:
                candidates.append((Path(root) / relative, origin))
    return candidates


def find_ptxas() -> Optional[Path]:
    """Finds ``ptxas``: ``$CROQ_PTXAS``, ``$CUDA_HOME/bin``, ``PATH``,
    ``/usr/local/cuda/bin``, then the one Triton's wheel ships
    (``triton/backends/nvidia/bin``) or the ``nvidia-cuda-nvcc`` wheel's;
    None when there is none."""
    for path, _ in _ptxas_candidates():
        if _is_executable(path):
            return path
    return None


def ptxas_origin(ptxas: Path) -> str:
    """Where :func:`find_ptxas` found ``ptxas`` (``CUDA_HOME``, ``PATH``,
    ``triton``, ...), or ``given`` for a path it would not find."""
    for path, origin in _ptxas_candidates():
        if path == ptxas:
            return origin
    return "given"


def _tool_version(command: Sequence[Union[str, Path]]) -> str:
    """The line of ``command``'s output that names a release (``ptxas
    --version``: ``Cuda compilation tools, release 13.0, V13.0.88``), else
    its last line, or ``unknown``."""
    try:
        proc = subprocess.run([str(c) for c in command],
                              stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    lines = [ln.strip() for ln in proc.stdout.decode(errors="replace")
             .splitlines() if ln.strip()]
    releases = [ln for ln in lines if "release" in ln]
    return (releases or lines or ["unknown"])[-1]


def _write_build_info(path: Path, *, translate: Path, linker: Path,
                      ptxas: Optional[Path], binary: str,
                      options: Sequence[str]) -> None:
    """Writes ``<name>.build.json``: the tools that made the artifact (which
    croq-translate, linker and ptxas, and where ptxas came from)."""
    from . import __version__
    info = {
        "croq_version": __version__,
        "croq_translate": str(translate),
        "linker": str(linker),
        "binary": binary,
        "options": list(options),
        "ptxas": str(ptxas) if ptxas is not None else None,
        "ptxas_origin": ptxas_origin(ptxas) if ptxas is not None else None,
        "ptxas_version": (_tool_version([ptxas, "--version"])
                          if ptxas is not None else None),
    }
    path.write_text(json.dumps(info, indent=2) + "\n")


def _run(command: Sequence[Union[str, Path]], *, stdout_path: Optional[Path],
         env: Optional[Dict[str, str]] = None) -> str:
    """Runs ``command``, writing its standard output to ``stdout_path``;
    returns its standard error. A non-zero exit, or an ``error:`` on
    standard error (some MLIR passes report errors and exit 0), raises."""
    args = [str(c) for c in command]
    tool = Path(args[0]).name
    if tool == MULTI_CALL_TOOL and len(args) > 1:
        tool = f"croq-{args[1]}"  # croq-tool translate: croq-translate
    try:
        if stdout_path is not None:
            with open(stdout_path, "wb") as out:
                proc = subprocess.run(args, stdout=out, stderr=subprocess.PIPE,
                                      env=env)
        else:
            proc = subprocess.run(args, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, env=env)
    except OSError as e:
        raise CompileError(f"{tool} could not be run: {e}", tool=tool,
                           command=args) from None
    stderr = proc.stderr.decode(errors="replace")
    if proc.returncode != 0 or re.search(r"(^|\s)error:", stderr):
        raise CompileError(
            f"{tool} failed (exit status {proc.returncode}):\n{stderr.rstrip()}"
            f"\ncommand: {' '.join(args)}",
            tool=tool, command=args, returncode=proc.returncode,
            stderr=stderr)
    return stderr


def split_ptx(text: str) -> Dict[str, str]:
    """Splits what ``croq-translate --croq-to-ptx`` prints (one PTX module
    per kernel, each after a ``//--- <kernel>.ptx`` line) into
    ``{kernel: ptx}``; text without markers is one module, ``kernel``."""
    modules: Dict[str, str] = {}
    current: Optional[str] = None
    lines: List[str] = []
    for line in text.splitlines(keepends=True):
        m = re.match(r"//--- (\S+)\.ptx\s*$", line)
        if m:
            if current is not None or "".join(lines).strip():
                modules[current or "kernel"] = "".join(lines)
            current, lines = m.group(1), []
            continue
        lines.append(line)
    if current is not None or "".join(lines).strip():
        modules[current or "kernel"] = "".join(lines)
    return modules


def _check_count(name: str, value: object) -> None:
    """Raises CompileError unless the option `name`'s `value` is an int >= 0
    (a bool is not one)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise CompileError(f"{name} must be an int >= 0, got {value!r}",
                           tool="croq")


def _source_and_name(source_or_path: Union[str, os.PathLike],
                     name: Optional[str]) -> "tuple[str, str]":
    """The IR text and the module name of ``source_or_path``."""
    if isinstance(source_or_path, os.PathLike) or (
            isinstance(source_or_path, str) and "\n" not in source_or_path
            and "{" not in source_or_path):
        path = Path(source_or_path)
        try:
            text = path.read_text()
        except OSError as e:
            raise CompileError(f"cannot read {path}: {e.strerror}",
                               tool="croq") from None
        return text, name or path.stem
    return str(source_or_path), name or "kernel"


#: What the compile cache keys on besides the source and the options: the
#: version of this package and of the entry points' calling convention.
# Entries of format 1 could hold other modules' files of a shared output
# directory (and restore stale copies of them); format 2 holds the
# artifact's own files only.
_CACHE_FORMAT = "croq-compile-cache 2, abi 3"


def default_cache_dir() -> Path:
    """Where :func:`compile` keeps its cache: ``$CROQ_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/croq``, else ``~/.cache/croq``."""
    if os.environ.get("CROQ_CACHE_DIR"):
        return Path(os.environ["CROQ_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "croq"


def _tool_identity(path: Optional[Path]) -> str:
    """A tool as the cache key sees it: its real path, size and
    modification time (a rebuilt or upgraded tool is another key)."""
    if path is None:
        return "none"
    real = Path(path).resolve()
    try:
        st = real.stat()
    except OSError:
        return str(real)
    return f"{real}:{st.st_size}:{st.st_mtime_ns}"


def _cache_key(text: str, name: str, options: Sequence[str],
               tools: Sequence[Optional[Path]]) -> str:
    digest = hashlib.sha256()
    for part in [_CACHE_FORMAT, name, *options,
                 *[_tool_identity(t) for t in tools], text]:
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def _artifact_files(directory: Path, name: str) -> List[str]:
    """The files of artifact `name` in `directory`, relative to it: its
    library, signature, PTX, source, ptxas report and runtime copy, and the
    cubins of its kernels (``cubin/<kernel>.cubin``, one per kernel the PTX
    names), not the files of other modules compiled into the directory."""
    files = [f"lib{name}.so", f"{name}.json", f"{name}.ptx", f"{name}.mlir",
             f"{name}.ptxas.txt", f"{name}.build.json", RUNTIME_LIBRARY]
    ptx = directory / f"{name}.ptx"
    if ptx.is_file():
        for line in ptx.read_text().splitlines():
            if line.startswith("//--- ") and line.endswith(".ptx"):
                files.append(f"cubin/{line[len('//--- '):-len('.ptx')]}.cubin")
    return files


def _copy_artifact_files(src: Path, dst: Path, name: str) -> None:
    """Copies the files of artifact `name` (_artifact_files) from `src` into
    `dst`, nothing else of the directory."""
    for relative in _artifact_files(src, name):
        entry = src / relative
        if entry.is_file():
            (dst / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(entry, dst / relative)


def _artifact_in(directory: Path, name: str, cached: bool) -> Artifact:
    resources = directory / f"{name}.ptxas.txt"
    return Artifact(name=name, directory=directory,
                    library=directory / f"lib{name}.so",
                    signature=directory / f"{name}.json",
                    ptx=directory / f"{name}.ptx",
                    runtime=directory / RUNTIME_LIBRARY,
                    resources=resources if resources.is_file() else None,
                    source=directory / f"{name}.mlir", cached=cached)


def _store_in_cache(root: Path, key: str, artifact: Artifact) -> None:
    """Copies `artifact` into the cache under `key`: into a private
    directory first, renamed into place, so that a reader never sees half
    an entry (a concurrent compile of the same key keeps the first)."""
    try:
        root.mkdir(parents=True, exist_ok=True)
        staging = root / f".tmp-{key}-{uuid.uuid4().hex}"
        _copy_artifact_files(artifact.directory, staging, artifact.name)
        (staging / "DONE").write_text(artifact.name + "\n")
        try:
            staging.rename(root / key)
        except OSError:
            shutil.rmtree(staging, ignore_errors=True)
    except OSError:
        pass  # a cache that cannot be written only costs the next compile


def compile(source_or_path: Union[str, os.PathLike],  # noqa: A001
            out_dir: Optional[Union[str, os.PathLike]] = None, *,
            name: Optional[str] = None,
            tools_dir: Optional[Union[str, os.PathLike]] = None,
            runtime_dir: Optional[Union[str, os.PathLike]] = None,
            chip: str = "sm_90a", binary: str = "bin",
            features: Optional[str] = None,
            tma_fallback: str = "auto",
            gemm_tile: Optional[Tuple[int, int]] = None,
            gemm_split_k: int = 0,
            gemm_stream_k: int = 0,
            gemm_cluster_k: int = 0,
            gemm_cluster: Optional[Tuple[int, int]] = None,
            gemm_f8_promote_steps: Optional[int] = None,
            gemm_variants: Optional[Sequence[int]] = None,
            gemm_classify: bool = False,
            pipeline_stages: int = 0,
            cache: Union[bool, str, os.PathLike] = True) -> Artifact:
    """Compiles croq IR into an artifact directory.

    Args:
        source_or_path: a path to a ``.mlir`` file, or croq IR text.
        out_dir: the artifact directory (created); a new temporary directory
            when None.
        name: the module name; the file's stem, or ``kernel`` for text.
        tools_dir: where ``croq-translate`` is (see
            :func:`find_croq_translate`).
        runtime_dir: where ``libCroqRuntime.so`` is (see
            :func:`find_runtime`).
        chip: the GPU architecture (``sm_90a``).
        binary: what the library embeds: ``bin`` (a cubin, assembled here
            by ptxas) or ``isa`` (PTX, compiled by the driver when loaded).
        features: PTX features (``+ptx80``); croq-translate's default when
            None.
        tma_fallback: where tma copies carry the software copy that moves a
            tensor TMA cannot take: ``auto`` (where the tensor's static type
            does not prove TMA usable), ``always`` or ``never`` (a call
            whose tensor TMA cannot take then fails with the runtime's
            reason).
        gemm_tile: ``(rows, cols)``, the block tile of every GEMM the
            module hands over as ``linalg.matmul`` or
            ``linalg.batch_matmul``, instead of the one the cost model
            chooses by shape: (128, 256), (128, 128) or (64, 128).
        gemm_split_k: the K splits of those GEMMs: 0 (the default) lets the
            cost model choose by shape (splits for few tiles and a long K,
            reduced by a second kernel through an f32 workspace on the
            call's stream), 1 never splits, N > 1 forces N splits (of the
            128x128, 64x128 and 128x64 tiles).
        gemm_stream_k: the stream-K form of those GEMMs (whole waves of
            tiles, then the K steps of the tiles left spread evenly over
            a wave of blocks, their partials reduced by a further kernel):
            0 (the default) lets the cost model choose, 1 never, 2 always
            (on the 128-row tiles of widths of whole 32-column groups).
        gemm_cluster_k: the K loop of each tile split among the blocks of
            a thread block cluster and summed in its first block through
            distributed shared memory (no workspace, one kernel): 0 (the
            default) lets the cost model choose, 1 never, S > 1 always, in
            clusters of S blocks (of the 128x128, 64x128 and 128x64 tiles).
        gemm_cluster: ``(m, n)``, the thread block cluster of those GEMMs'
            unsplit kernels: ``(2, 1)`` puts two blocks of one tile column
            in a cluster, which load B's K steps once between them by TMA
            multicast; ``(1, 2)`` does the same along N for A; ``(2, 4)``
            does both: each block's A step goes to the 4 blocks of its
            row, its B step to the 2 of its column; ``(1, 1)``: no
            clusters. The product is at most 8. None
            (the default) lets the cost model choose (clusters of 2 x 1
            for the 128x192 and 128x256 tiles where B's rows are not
            multiples of 128 bytes).
        gemm_f8_promote_steps: the K steps (128 elements each) an 8-bit
            float GEMM accumulates in wgmma's partial sum before adding it
            into its f32 accumulator; 0 never adds (wgmma accumulates the
            whole K loop, less accurately). None: the compiler's default.
        gemm_variants: compile on first call (:func:`croq.jit`): for each
            GEMM from linalg whose variant the host code chooses by shape
            (dynamic extents; in program order), the one variant to compile
            (the cost model's choice for one shape class), or -1 for none;
            a call whose shape chose another fails, naming both. None (the
            default) compiles every variant.
        gemm_classify: compile the classifier instead: no kernel; a call
            records each such GEMM's choice in the runtime
            (``croqRtGetReportedVariants``). ptxas is not needed.
        pipeline_stages: the stages of the rings croq-pipeline-loops
            builds for the loops that carry no ``croq.stages`` attribute
            (the GEMMs from linalg among them): 0 (the default) as many as
            fit in shared memory, up to 8 (the few-row GEMMs ran slower
            with 13 and with 4 or 6 on an H200, bench/RESULTS.md); 1 no
            pipelining; N > 1 exactly N, a ring that does not fit being
            croq-translate's error.
        cache: the compile cache: True for :func:`default_cache_dir`, a
            directory, or False for none. An entry is keyed by the IR text,
            the module name, the options, and the path, size and time of
            croq-translate, the runtime, the linker and ptxas; a hit copies the
            files into ``out_dir`` without running any tool.

    Returns:
        The :class:`Artifact`.

    Raises:
        CompileError: a tool is missing or failed; the message carries the
            tool's standard error.
    """
    if tma_fallback not in ("auto", "always", "never"):
        raise CompileError("tma_fallback must be 'auto', 'always' or "
                           f"'never', got {tma_fallback!r}", tool="croq")
    if binary not in ("bin", "isa"):
        raise CompileError(f"binary must be 'bin' or 'isa', got {binary!r}",
                           tool="croq")
    text, name = _source_and_name(source_or_path, name)
    if not re.fullmatch(r"[\w.+-]+", name):
        raise CompileError(f"module name {name!r} is not a plain file name",
                           tool="croq")
    translate = find_croq_translate(tools_dir)
    runtime = find_runtime(runtime_dir, translate)
    linker = find_linker()
    # The classifier has no kernel for ptxas to assemble.
    ptxas = None if gemm_classify else find_ptxas()
    if binary == "bin" and ptxas is None and not gemm_classify:
        raise CompileError("ptxas not found (PATH, $CUDA_HOME/bin, "
                           "/usr/local/cuda/bin); it assembles the cubin. "
                           "Install the CUDA toolkit or use binary='isa'",
                           tool="ptxas")

    options = [f"--croq-chip={chip}", f"--croq-tma-fallback={tma_fallback}"]
    if features:
        options.append(f"--croq-features={features}")
    if gemm_tile is not None:
        if len(gemm_tile) != 2 or not all(isinstance(d, int) and d > 0
                                          for d in gemm_tile):
            raise CompileError("gemm_tile must be (rows, cols), got "
                               f"{gemm_tile!r}", tool="croq")
        options.append(f"--croq-gemm-tile={gemm_tile[0]},{gemm_tile[1]}")
    _check_count("gemm_split_k", gemm_split_k)
    if gemm_split_k:
        options.append(f"--croq-gemm-split-k={gemm_split_k}")
    if gemm_stream_k not in (0, 1, 2):
        raise CompileError("gemm_stream_k must be 0, 1 or 2, got "
                           f"{gemm_stream_k!r}", tool="croq")
    if gemm_stream_k:
        options.append(f"--croq-gemm-stream-k={gemm_stream_k}")
    _check_count("gemm_cluster_k", gemm_cluster_k)
    if gemm_cluster_k:
        options.append(f"--croq-gemm-cluster-k={gemm_cluster_k}")
    if gemm_cluster is not None:
        if len(gemm_cluster) != 2 or not all(isinstance(d, int) and d > 0
                                             for d in gemm_cluster):
            raise CompileError("gemm_cluster must be (m, n), got "
                               f"{gemm_cluster!r}", tool="croq")
        options.append(
            f"--croq-gemm-cluster={gemm_cluster[0]},{gemm_cluster[1]}")

    if gemm_f8_promote_steps is not None:
        _check_count("gemm_f8_promote_steps", gemm_f8_promote_steps)
        options.append(
            f"--croq-gemm-f8-promote-steps={gemm_f8_promote_steps}")

    if gemm_variants is not None:
        variants = list(gemm_variants)
        if not variants or not all(
                isinstance(v, int) and not isinstance(v, bool) and v >= -1
                for v in variants):
            raise CompileError("gemm_variants must be a non-empty sequence "
                               "of ints >= -1 (a variant, or -1 for none), "
                               f"got {gemm_variants!r}", tool="croq")
        options.append("--croq-gemm-variants=" +
                       ",".join(str(v) for v in variants))
    _check_count("pipeline_stages", pipeline_stages)
    if pipeline_stages:
        options.append(f"--croq-pipeline-stages={pipeline_stages}")
    if gemm_classify:
        if gemm_variants is not None:
            raise CompileError("gemm_classify and gemm_variants exclude each "
                               "other", tool="croq")
        options.append("--croq-gemm-classify")

    cache_root: Optional[Path] = None
    key = ""
    if cache is not False:
        cache_root = default_cache_dir() if cache is True else Path(cache)
        key = _cache_key(text, name, [*options, f"binary={binary}"],
                         [translate, runtime, linker,
                          ptxas if binary == "bin" else None])
    directory = Path(out_dir) if out_dir is not None else Path(
        tempfile.mkdtemp(prefix=f"croq-{name}-"))
    if cache_root is not None and (cache_root / key / "DONE").is_file():
        _copy_artifact_files(cache_root / key, directory, name)
        return _artifact_in(directory, name, cached=True)

    directory.mkdir(parents=True, exist_ok=True)
    src = directory / f"{name}.mlir"
    src.write_text(text)

    env = dict(os.environ)
    if ptxas is not None:
        env["PATH"] = f"{ptxas.parent}{os.pathsep}{env.get('PATH', '')}"

    # One croq-translate run lowers the module once and writes the
    # signature, the PTX, the cubins (ptxas once per kernel, all at once),
    # ptxas's report and the host object with the kernels embedded.
    bundle = [*translate_command(translate), "--croq-to-bundle", *options,
              f"--croq-binary-format={binary}", f"--croq-bundle-dir={directory}",
              f"--croq-bundle-name={name}"]
    if ptxas is not None:
        bundle.append(f"--croq-ptxas={ptxas}")
    _run([*bundle, src], stdout_path=None, env=env)
    signature = directory / f"{name}.json"
    data = json.loads(signature.read_text())
    signature.write_text(json.dumps(add_argument_names(data, text),
                                    indent=2) + "\n")
    obj = directory / f"{name}.o"

    runtime_copy = directory / RUNTIME_LIBRARY
    if runtime.resolve() != runtime_copy.resolve():
        shutil.copy2(runtime, runtime_copy)
    library = directory / f"lib{name}.so"
    _run([linker, "-shared", obj, "-o", library, f"-L{directory}",
          "-lCroqRuntime", "-Wl,-rpath,$ORIGIN"], stdout_path=None, env=env)
    obj.unlink()
    _write_build_info(directory / f"{name}.build.json", translate=translate,
                      linker=linker, ptxas=ptxas if binary == "bin" else None,
                      binary=binary, options=options)
    artifact = _artifact_in(directory, name, cached=False)
    if cache_root is not None:
        _store_in_cache(cache_root, key, artifact)
    return artifact
