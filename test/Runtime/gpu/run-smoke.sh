#!/usr/bin/env bash
# Builds libCroqRuntime from its sources with the host compiler (no CMake, no
# MLIR needed) and runs runtime_smoke.cpp against it on the GPU. Run from the
# repository root on a machine with a Hopper GPU and its driver:
#   test/Runtime/gpu/run-smoke.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=${1:-/tmp/croq-runtime-smoke}
cxx=${CXX:-g++}
mkdir -p "$out"
cuda_include=()
if [ -f /usr/local/cuda/include/cuda.h ]; then
  cuda_include=(-I/usr/local/cuda/include) # enables DriverApiCheck.cpp
fi
"$cxx" -std=c++17 -O2 -fPIC -shared -fvisibility=hidden -Iinclude \
  "${cuda_include[@]}" lib/Runtime/*.cpp -o "$out/libCroqRuntime.so" \
  -ldl -lpthread -Wl,--version-script=lib/Runtime/CroqRuntime.map
"$cxx" -std=c++17 -O2 -Iinclude test/Runtime/gpu/runtime_smoke.cpp \
  -L"$out" -lCroqRuntime -Wl,-rpath,"$out" -o "$out/runtime_smoke"
"$out/runtime_smoke"
