"""The package with the real libCroqRuntime (build/lib), where it is built.
Runs in a subprocess, so that this runtime and the stub of the other tests
never share a process."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

import croq

from conftest import BUILD, PYTHON_DIR, REPO

RUNTIME = BUILD / "lib" / "libCroqRuntime.so"


@pytest.mark.skipif(not RUNTIME.is_file(),
                    reason=f"the runtime is not built ({RUNTIME})")
def test_load_with_the_real_runtime(tools_dir, tmp_path):
    art = croq.compile(REPO / "examples" / "tiled_add.mlir", tmp_path,
                       tools_dir=tools_dir, runtime_dir=RUNTIME.parent,
                       binary="isa")
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(PYTHON_DIR)!r})
        import croq
        try:
            m = croq.load({str(art.directory)!r})
        except croq.RuntimeError as e:
            print("RUNTIME-ERROR", e)
        else:
            print("LOADED", sorted(m.functions), m.device)
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    if out.startswith("LOADED"):  # a machine with a GPU and its driver
        assert "['tiled_add_2d', 'tiled_add_f32'] 0" in out
    else:
        # No driver here: the constructor's mgpuModuleLoad failed, and the
        # runtime's message names the call and the library it could not open.
        assert out.startswith("RUNTIME-ERROR loading libtiled_add.so: "), out
        assert "mgpuModuleLoad" in out
