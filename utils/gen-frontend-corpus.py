#!/usr/bin/env python3
"""Regenerate the frontend corpus of bufferized memref IR from its tensor sources.

Sources: test/Conversion/LinalgToCroq/Inputs/frontend/src/*.mlir (TOSA or linalg on
tensors, one function each). Every source is lowered by UPSTREAM MLIR's own passes
(mlir-opt of LLVM 22) in several variants; each result goes to
test/Conversion/LinalgToCroq/Inputs/frontend/<name>[.<variant>].mlir with a header saying
how it was made. A variant whose IR is identical to an earlier variant of the same source is
not written (and a stale file of that name is removed).

Usage:
  utils/gen-frontend-corpus.py                 # regenerate everything, rewrite README table
  utils/gen-frontend-corpus.py softmax_f16 mlp # only these sources
  utils/gen-frontend-corpus.py --check         # regenerate in memory, fail if anything differs
  MLIR_OPT=/path/to/mlir-opt utils/gen-frontend-corpus.py

A source may ask for extra variants with a line `// corpus-variants: copyout` (default
variants: base fused unitdims fused-unitdims specialized generalized), and leave some out
with `// corpus-skip: specialized` (where upstream's own passes fail on it).
"""

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "test", "Conversion", "LinalgToCroq", "Inputs", "frontend")
SRC = os.path.join(CORPUS, "src")
README = os.path.join(CORPUS, "README.md")

TOSA = "func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor)"
CLEAN = "canonicalize,cse"
BUFFERIZE = ("one-shot-bufferize{bufferize-function-boundaries "
             "function-boundary-type-conversion=identity-layout-map}")
OUT_PARAMS_HOISTED = "buffer-results-to-out-params{hoist-static-allocs modify-public-functions}"
OUT_PARAMS = "buffer-results-to-out-params{modify-public-functions}"

# name -> (pipeline stages, one-line description); the order is the order of deduplication.
VARIANTS = collections.OrderedDict([
    ("base", ([TOSA, CLEAN, BUFFERIZE, OUT_PARAMS_HOISTED, CLEAN],
              "no fusion: named linalg.reduce / linalg.transpose, one generic per TOSA op")),
    ("fused", ([TOSA, CLEAN, "func.func(linalg-fuse-elementwise-ops)", CLEAN, BUFFERIZE,
                OUT_PARAMS_HOISTED, CLEAN],
               "upstream elementwise fusion (reductions become rank+1 generics over "
               "expand_shape views)")),
    ("unitdims", ([TOSA, CLEAN,
                   "func.func(linalg-fold-unit-extent-dims,linalg-fuse-elementwise-ops)", CLEAN,
                   BUFFERIZE, OUT_PARAMS_HOISTED, CLEAN],
                  "unit dims folded, then fused (collapse/expand_shape views, memref.copy "
                  "into out-params)")),
    ("fused-unitdims", ([TOSA, CLEAN,
                         "func.func(linalg-fuse-elementwise-ops,linalg-fold-unit-extent-dims)",
                         CLEAN, BUFFERIZE, OUT_PARAMS_HOISTED, CLEAN],
                        "fused, then unit dims folded (fused reductions back to rank-2 "
                        "generics)")),
    ("specialized", ([TOSA, CLEAN, "func.func(linalg-specialize-generic-ops)", CLEAN, BUFFERIZE,
                      OUT_PARAMS_HOISTED, CLEAN],
                     "no fusion, generics turned back into named ops where upstream can "
                     "(linalg.add, linalg.transpose, linalg.copy, ...)")),
    ("generalized", ([TOSA, CLEAN,
                      "func.func(linalg-generalize-named-ops,linalg-fuse-elementwise-ops)", CLEAN,
                      BUFFERIZE, OUT_PARAMS_HOISTED, CLEAN],
                     "every named op generalized, then fused (matmuls as generic contractions, "
                     "transposes as permuted maps, fills as generics)")),
    ("copyout", ([TOSA, CLEAN, "func.func(linalg-fuse-elementwise-ops)", CLEAN, BUFFERIZE,
                  OUT_PARAMS, CLEAN, "buffer-deallocation-pipeline", CLEAN],
                 "fused; results not hoisted: alloc + memref.copy into each out-param, "
                 "then buffer-deallocation-pipeline (memref.dealloc)")),
])
DEFAULT_VARIANTS = ["base", "fused", "unitdims", "fused-unitdims", "specialized", "generalized"]


def find_mlir_opt():
    for cand in (os.environ.get("MLIR_OPT"), "/usr/lib/llvm-22/bin/mlir-opt",
                 shutil.which("mlir-opt-22")):
        if cand and os.path.exists(cand):
            return cand
    sys.exit("gen-frontend-corpus: no mlir-opt 22 found; set MLIR_OPT")


def pipeline(variant):
    return "builtin.module(" + ",".join(VARIANTS[variant][0]) + ")"


def out_name(name, variant):
    return name + ".mlir" if variant == "base" else "%s.%s.mlir" % (name, variant)


def requested_variants(src_text):
    variants = list(DEFAULT_VARIANTS)
    m = re.search(r"^// corpus-variants:(.*)$", src_text, re.M)
    if m:
        for v in m.group(1).split():
            if v not in VARIANTS:
                sys.exit("unknown variant %r" % v)
            if v not in variants:
                variants.append(v)
    # `// corpus-skip: V ...` leaves variants out (where upstream's own pass
    # fails on the source; the source says why).
    m = re.search(r"^// corpus-skip:(.*)$", src_text, re.M)
    if m:
        variants = [v for v in variants if v not in m.group(1).split()]
    return variants


def run(mlir_opt, args, stdin=None):
    return subprocess.run([mlir_opt] + args, input=stdin, capture_output=True, text=True)


def header(name, variant, version):
    return "\n".join([
        "// GENERATED by utils/gen-frontend-corpus.py from src/%s.mlir; do not edit." % name,
        "// Variant %s: %s." % (variant, VARIANTS[variant][1]),
        "// %s" % version,
        "// Command:",
        "//   mlir-opt src/%s.mlir \\" % name,
        "//     --pass-pipeline='%s'" % pipeline(variant),
        "",
    ]) + "\n"


OP_RE = re.compile(r"\b((?:linalg|memref|scf|bufferization|tensor)\.[a-z_0-9]+)\b")
CONST0_RE = re.compile(r"affine_map<\([^)]*\) -> \([^)]*\b0\b[^)]*\)>")


def inventory(body):
    ops = collections.Counter()
    for line in body.splitlines():
        line = line.split("//")[0]
        m = re.match(r"\s*(?:%[^=]+=\s*)?([a-z_]+\.[a-z_0-9.]+)", line)
        if m and OP_RE.match(m.group(1)):
            ops[m.group(1)] += 1
    notes = []
    if CONST0_RE.search(body):
        notes.append("const-0 map")
    if re.search(r"iterator_types = \[[^\]]*\"reduction\"", body):
        notes.append("generic reduction")
    if "call @dealloc_helper" in body:
        notes.append("dealloc_helper")
    return ops, notes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("names", nargs="*", help="source names (default: all)")
    ap.add_argument("--check", action="store_true",
                    help="do not write; exit 1 if a checked-in file is stale or missing")
    args = ap.parse_args()
    mlir_opt = find_mlir_opt()
    version = " ".join(run(mlir_opt, ["--version"]).stdout.split())
    version = "mlir-opt: " + re.sub(r"^.*?(LLVM version \S+).*$", r"\1", version)

    names = args.names or sorted(f[:-5] for f in os.listdir(SRC) if f.endswith(".mlir"))
    failures, stale, rows = [], [], []
    for name in names:
        src = os.path.join(SRC, name + ".mlir")
        src_text = open(src).read()
        seen = {}  # body -> variant that produced it
        for variant in requested_variants(src_text):
            path = os.path.join(CORPUS, out_name(name, variant))
            res = run(mlir_opt, [src, "--pass-pipeline=" + pipeline(variant)])
            if res.returncode != 0:
                failures.append((name, variant, res.stderr.strip().splitlines()[:3]))
                continue
            body = res.stdout
            if body in seen:
                if os.path.exists(path):
                    stale.append(path)
                    if not args.check:
                        os.remove(path)
                rows.append((name, variant, "= " + seen[body], None))
                continue
            seen[body] = variant
            text = header(name, variant, version) + body
            check = run(mlir_opt, ["-", "-o", os.devnull], stdin=text)
            if check.returncode != 0:
                failures.append((name, variant, ["output does not parse:"] +
                                 check.stderr.strip().splitlines()[:3]))
                continue
            old = open(path).read() if os.path.exists(path) else None
            if old != text:
                stale.append(path)
                if not args.check:
                    with open(path, "w") as f:
                        f.write(text)
            rows.append((name, variant, out_name(name, variant), inventory(body)))

    for name, variant, err in failures:
        print("FAILED %s [%s]:\n  %s" % (name, variant, "\n  ".join(err)), file=sys.stderr)
    if args.check:
        for p in stale:
            print("stale: " + os.path.relpath(p, ROOT), file=sys.stderr)
        sys.exit(1 if stale or failures else 0)
    if not args.names:
        write_readme_table(rows)
    written = sum(1 for r in rows if r[3] is not None)
    print("gen-frontend-corpus: %d files (%d changed), %d failures" %
          (written, len([p for p in stale if os.path.exists(p)]), len(failures)))
    sys.exit(1 if failures else 0)


def short(op):
    return op.split(".", 1)[1] if op.startswith("linalg.") else op


def write_readme_table(rows):
    lines = ["| file | linalg ops | memref / other ops | notes |", "|---|---|---|---|"]
    for name, variant, fname, inv in rows:
        if inv is None:
            continue
        ops, notes = inv
        lin = ", ".join("%s%s" % (short(o), "" if n == 1 else " x%d" % n)
                        for o, n in sorted(ops.items()) if o.startswith("linalg.")
                        and o not in ("linalg.yield", "linalg.index"))
        other = ", ".join("%s%s" % (o, "" if n == 1 else " x%d" % n)
                          for o, n in sorted(ops.items())
                          if not o.startswith("linalg.") and o not in ("scf.yield",))
        if "linalg.index" in ops:
            notes = notes + ["linalg.index"]
        lines.append("| %s | %s | %s | %s |" % (fname, lin, other, ", ".join(notes)))
    dups = ["%s.%s %s" % (n, v, f) for n, v, f, inv in rows if inv is None]
    lines += ["", "Variants identical to an earlier one (not written): " +
              ("; ".join(dups) if dups else "none") + "."]
    table = "\n".join(lines)
    text = open(README).read() if os.path.exists(README) else \
        "<!-- inventory:begin -->\n<!-- inventory:end -->\n"
    text = re.sub(r"(<!-- inventory:begin -->\n).*?(<!-- inventory:end -->)",
                  lambda m: m.group(1) + table + "\n" + m.group(2), text, flags=re.S)
    with open(README, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
