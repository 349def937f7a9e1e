"""The native call path of croq entry points.

``_launch.c`` (beside this file) is compiled with the host's C compiler and
Python's headers the first time a call needs it, into croq's cache
directory (keyed by the source, the Python build and the compiler), and
loaded from there afterwards. Where that cannot be done (no compiler, no
headers, ``CROQ_NATIVE_CALLS=0``), calls go through ctypes, slower but the
same in every other respect; :func:`call_path` says which is in use and why.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import threading
import uuid
from pathlib import Path
from types import ModuleType
from typing import List, Optional, Tuple

_SOURCE = Path(__file__).with_name("_launch.c")
_lock = threading.Lock()
_loaded: Optional[Tuple[Optional[ModuleType], str]] = None


def _find_compiler() -> Optional[str]:
    """``$CC``, else the first of cc, gcc, clang and clang-22 on PATH."""
    if os.environ.get("CC"):
        return shutil.which(os.environ["CC"].split()[0])
    for name in ("cc", "gcc", "clang", "clang-22"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _compile(compiler: str, include: str, target: Path) -> None:
    """Compiles _launch.c into `target`, written under another name first so
    that a concurrent compile never loads half a file."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.with_name(f".{uuid.uuid4().hex}{target.suffix}")
    command: List[str] = [compiler, "-O2", "-shared", "-fPIC", f"-I{include}",
                          str(_SOURCE), "-o", str(staging)]
    proc = subprocess.run(command, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=120)
    if proc.returncode != 0:
        staging.unlink(missing_ok=True)
        log = proc.stdout.decode(errors="replace").strip()
        raise OSError(f"{' '.join(command)} failed:\n{log}")
    os.replace(staging, target)


def _load() -> Tuple[Optional[ModuleType], str]:
    if os.environ.get("CROQ_NATIVE_CALLS", "1") == "0":
        return None, "ctypes (CROQ_NATIVE_CALLS=0)"
    include = sysconfig.get_paths().get("include", "")
    if not include or not (Path(include) / "Python.h").is_file():
        return None, f"ctypes (no Python.h in {include or 'any include path'})"
    compiler = _find_compiler()
    if compiler is None:
        return None, "ctypes (no C compiler: set CC or install cc)"
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    digest = hashlib.sha256()
    for part in (_SOURCE.read_bytes(), sys.version.encode(), suffix.encode(),
                 include.encode(), os.path.realpath(compiler).encode()):
        digest.update(part)
        digest.update(b"\0")
    from .compiler import default_cache_dir
    target = (default_cache_dir() / "native" / digest.hexdigest()[:32] /
              f"_launch{suffix}")
    try:
        if not target.is_file():
            _compile(compiler, include, target)
        loader = importlib.machinery.ExtensionFileLoader("croq._launch",
                                                         str(target))
        spec = importlib.util.spec_from_file_location("croq._launch",
                                                      str(target),
                                                      loader=loader)
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
    except (OSError, ImportError, subprocess.SubprocessError) as e:
        return None, f"ctypes (the native call path did not build: {e})"
    return module, f"native ({target})"


def launch_module() -> Optional[ModuleType]:
    """The compiled ``_launch`` module, built on first use; None where calls
    go through ctypes."""
    global _loaded
    if _loaded is None:
        with _lock:
            if _loaded is None:
                _loaded = _load()
    return _loaded[0]


def call_path() -> str:
    """How entry points are called in this process: ``native (<file>)``, or
    ``ctypes (<why>)``."""
    launch_module()
    return _loaded[1]
