#!/usr/bin/env bash
# Checks the glibc symbols the croq wheel's binaries import
# (scripts/glibc_check.py: against the tag and glibc 2.28's symbol lists),
# then installs it into a fresh virtual environment and compiles with
# it alone: python/tests/wheel_smoke.py (a static and a dynamic-shape GEMM
# from linalg text, examples/tiled_add.mlir from croq IR; artifacts checked
# and loaded; timings printed as JSON), run from a scratch directory with a
# clean environment (no PYTHONPATH, no build tree, PATH without LLVM) and,
# where `unshare` may make a mount namespace (root), with /usr/lib/llvm-22
# and libLLVM.so hidden behind empty mounts, as on the GPU machine.
#
#   scripts/test-wheel.sh [WHEEL]     # default: build-wheel/dist/croq-*.whl
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

wheel=${1:-$(ls -t build-wheel/dist/croq-*.whl 2>/dev/null | head -1)}
if [ -z "$wheel" ] || [ ! -f "$wheel" ]; then
  echo "test-wheel: no wheel (build one: scripts/build-wheel.sh)" >&2
  exit 1
fi
wheel=$(realpath "$wheel")
PYTHON=${CROQ_PYTHON:-/usr/bin/python3}

# Every glibc symbol each bundled binary imports: no newer than the tag
# says, and defined by glibc 2.28 at that version in that library (--list
# prints them all).
"$PYTHON" scripts/glibc_check.py "$wheel"

work=$(mktemp -d /tmp/croq-wheel-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
echo "test-wheel: $wheel ($(du -h "$wheel" | cut -f1)) into $work/venv"
"$PYTHON" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/python" -m pip install -q --no-index --no-deps "$wheel"
cp python/tests/wheel_smoke.py examples/tiled_add.mlir "$work/"
mkdir "$work/run"

clean_env=(env -i HOME="$work" CROQ_CACHE_DIR="$work/cache"
  PATH="$work/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
[ -n "${CUDA_HOME:-}" ] && clean_env+=(CUDA_HOME="$CUDA_HOME")
smoke=("$work/venv/bin/python" "$work/wheel_smoke.py" "$work/tiled_add.mlir")

if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
  hide='mount -t tmpfs none /usr/lib/llvm-22'
  for lib in /usr/lib/x86_64-linux-gnu/libLLVM*.so* \
             /usr/lib/x86_64-linux-gnu/libclang*.so*; do
    [ -f "$lib" ] && hide+=" && mount --bind /dev/null $lib"
  done
  echo "test-wheel: /usr/lib/llvm-22 and libLLVM hidden (unshare -m)"
  (cd "$work/run" && unshare -m --propagation private \
    sh -c "$hide && exec \"\$@\"" sh "${clean_env[@]}" "${smoke[@]}")
else
  echo "test-wheel: cannot hide /usr/lib/llvm-22 (no unshare); PATH only"
  (cd "$work/run" && "${clean_env[@]}" "${smoke[@]}")
fi
echo "test-wheel: passed"
