"""The package with the real libCroqRuntime (build/lib) and the runtime
tests' stand-in driver (libcroq-fake-cuda.so, which prints each driver call
and can be told to fail one): module load, launch shape and CUDA errors as
croq reports them. Each case runs in a subprocess, so that this runtime and
the stub of the other tests never share a process."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

import croq

from conftest import BUILD, PYTHON_DIR, REPO, RUNTIME_DIR, WHEEL

RUNTIME = RUNTIME_DIR / "libCroqRuntime.so"
FAKE_CUDA = BUILD / "lib" / "libcroq-fake-cuda.so"

pytestmark = pytest.mark.skipif(
    not (RUNTIME.is_file() and FAKE_CUDA.is_file()),
    reason=f"the runtime and its fake driver are not built in {BUILD / 'lib'}")

CALL = """
import sys
if {python!r}:
    sys.path.insert(0, {python!r})
import croq
try:
    m = croq.load({artifact!r})
except croq.RuntimeError as e:
    print("LOAD-ERROR", e, flush=True)
    sys.exit(0)
print("LOADED", sorted(m.functions), m.device, flush=True)
args = [croq.Buffer(0x7F0000000000 + i * 0x1000000, (100, 200), dtype="f32")
        for i in range(3)]
try:
    m.tiled_add_f32(*args)
except croq.RuntimeError as e:
    print("CALL-ERROR", e, flush=True)
else:
    print("CALLED", flush=True)
"""


@pytest.fixture(scope="module")
def artifact(tools_dir, tmp_path_factory):
    return croq.compile(REPO / "examples" / "tiled_add.mlir",
                        tmp_path_factory.mktemp("real-runtime"),
                        tools_dir=tools_dir, runtime_dir=RUNTIME.parent,
                        binary="isa")


def run(artifact, libcuda, fail=None):
    env = dict(os.environ, CROQ_RUNTIME_LIBCUDA=str(libcuda))
    env.pop("CROQ_FAKE_CUDA_FAIL", None)
    if fail:
        env["CROQ_FAKE_CUDA_FAIL"] = fail
    script = CALL.format(python="" if WHEEL else str(PYTHON_DIR),
                         artifact=str(artifact.directory))
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(script)],
                          capture_output=True, text=True, env=env,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_load_and_launch(artifact):
    out = run(artifact, FAKE_CUDA)
    assert "LOADED ['tiled_add_2d', 'tiled_add_f32'] 0" in out
    # 32x32 tiles of 100x200: 7 x 4 blocks, two 4 KB tiles in shared memory.
    assert "cuLaunchKernel(tiled_add_f32_kernel, grid=(7,4,1), " \
           "block=(128,1,1), smem=8192" in out
    assert "\nCALLED\n" in out


def test_launch_failure_is_a_runtime_error(artifact):
    out = run(artifact, FAKE_CUDA, fail="cuLaunchKernel=701")
    assert "CALL-ERROR tiled_add_f32: " in out
    assert "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES" in out
    assert "CALLED" not in out


def test_driver_failure_at_load_is_a_runtime_error(artifact):
    out = run(artifact, FAKE_CUDA, fail="cuInit=100")
    assert "LOAD-ERROR loading libtiled_add.so: " in out
    assert "CUDA_ERROR_NO_DEVICE" in out


def test_no_driver(artifact, tmp_path):
    out = run(artifact, tmp_path / "libcuda.so.1")
    assert "LOAD-ERROR loading libtiled_add.so: " in out
    assert "cannot load the CUDA driver" in out
