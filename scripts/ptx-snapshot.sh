#!/usr/bin/env bash
# Compiles every example, GPU test kernel and benchmark kernel with the
# current build and writes, per source file, its PTX (croq-translate
# --croq-to-ptx) and its host code (croq-opt --croq-to-nvvm="format=none",
# host and device LLVM dialect) into OUTDIR. Two snapshots compare a
# refactoring of the lowering with what it replaced:
#
#   ./scripts/ptx-snapshot.sh /tmp/before      # on the old commit
#   ./scripts/ptx-snapshot.sh /tmp/after       # on the new one
#   diff -r /tmp/before /tmp/after
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: ptx-snapshot.sh OUTDIR}
mkdir -p "$out"
bin=${CROQ_BIN:-build/bin}
status=0
for src in examples/*.mlir test/Integration/GPU/*.mlir bench/kernels/*.mlir; do
  name=$(echo "$src" | tr '/' '_')
  name=${name%.mlir}
  if ! "$bin/croq-translate" --croq-to-ptx "$src" -o "$out/$name.ptx" \
      2>"$out/$name.ptx.err"; then
    echo "ptx-snapshot: $src: croq-translate failed" >&2
    status=1
  fi
  if ! "$bin/croq-opt" --croq-to-nvvm="format=none" "$src" \
      -o "$out/$name.host.mlir" 2>"$out/$name.host.err"; then
    echo "ptx-snapshot: $src: croq-opt failed" >&2
    status=1
  fi
  [ -s "$out/$name.ptx.err" ] || rm -f "$out/$name.ptx.err"
  [ -s "$out/$name.host.err" ] || rm -f "$out/$name.host.err"
done
exit $status
