#!/usr/bin/env bash
# Writes croq-fuzz's seed corpus: every .mlir file under test/ and examples/,
# split at its `// -----` markers, one file per split, with full-line
# comments (RUN, CHECK, expected-error) dropped and empty splits skipped. A
# split larger than the fuzzer's input limit (8 KiB, see fuzz.sh) is cut
# further before each top-level `func.func`. Files are named by the hash of
# their content, so duplicates collapse.
#
#   ./scripts/fuzz-corpus.sh [dir]   # default build-asan/fuzz/seed
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build-asan/fuzz/seed}
mkdir -p "$out"
rm -f "$out"/*

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count=0
while IFS= read -r -d '' file; do
  # One file per split in $tmp: part-0, part-1, ...
  rm -f "$tmp"/part-*
  awk -v dir="$tmp" '
    BEGIN { n = 0; f = dir "/part-0" }
    /^\/\/ -----/ { close(f); n++; f = dir "/part-" n; next }
    /^[[:space:]]*\/\// { next }
    { print > f }
  ' "$file"
  for part in "$tmp"/part-*; do
    [ -f "$part" ] || continue
    if [ "$(wc -c < "$part")" -gt 8192 ]; then
      awk -v base="$part" '
        BEGIN { n = 0; f = base "-0" }
        /^func\.func/ { close(f); n++; f = base "-" n }
        { print > f }
      ' "$part"
      rm "$part"
    fi
  done
  for part in "$tmp"/part-*; do
    [ -f "$part" ] || continue
    grep -q '[^[:space:]]' "$part" || continue
    sum=$(sha1sum "$part" | cut -c1-16)
    cp "$part" "$out/$sum.mlir"
    count=$((count + 1))
  done
done < <(find test examples -name '*.mlir' -print0 | sort -z)
echo "fuzz-corpus: ${count} splits, $(ls "$out" | wc -l) distinct, in ${out}"
