#!/usr/bin/env python3
"""Writes test/Integration/GPU/linalg_attention.mlir: attention in linalg,
as upstream MLIR bufferizes it, for the GPU tests of
croq-fuse-linalg-attention (linalg_attention_tests.py).

Each function is written here in linalg on tensors with dynamic batch and
sequence extents ([B*H, S, D]) and bufferized by upstream mlir-opt (LLVM
22), exactly as the frontend corpus is (utils/gen-frontend-corpus.py):

    python3 test/Integration/GPU/gen_linalg_attention.py \
        > test/Integration/GPU/linalg_attention.mlir

MLIR_OPT= picks another mlir-opt.
"""

import os
import subprocess
import sys

PIPELINE = ("builtin.module(one-shot-bufferize{bufferize-function-boundaries "
            "function-boundary-type-conversion=identity-layout-map},"
                        "buffer-results-to-out-params{modify-public-functions},"
            "canonicalize,cse)")

# The ops on the scaled scores before the softmax (x: the score, i, j: the
# query row and key, h: the batch index), as a generic's body lines, and
# the extra inputs they read.
SCORE_OPS = {
    "plain": None,
    # Keys past the query's own index are -inf (SDPA's is_causal).
    "causal": """\
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %future = arith.cmpi ugt, %j, %i : index
    %y = arith.select %future, %ninf, %x : f32""",
    # A bias [S, T] added to every head's scores.
    "bias": """\
    %y = arith.addf %x, %b : f32""",
    # Gemma 2's soft cap at 30: 30 tanh(x / 30).
    "softcap": """\
    %cap = arith.constant 30.0 : f32
    %a = arith.divf %x, %cap : f32
    %th = math.tanh %a : f32
    %y = arith.mulf %th, %cap : f32""",
    # ALiBi with 8 heads: x - 2^-(h mod 8 + 1) (i - j).
    "alibi": """\
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c8 = arith.constant 8 : index
    %hh = arith.remui %h, %c8 : index
    %h32 = arith.index_cast %hh : index to i32
    %hf = arith.sitofp %h32 : i32 to f32
    %one = arith.constant 1.0 : f32
    %e = arith.addf %hf, %one : f32
    %ne = arith.negf %e : f32
    %slope = math.exp2 %ne : f32
    %i32 = arith.index_cast %i : index to i32
    %j32 = arith.index_cast %j : index to i32
    %dist = arith.subi %i32, %j32 : i32
    %df = arith.sitofp %dist : i32 to f32
    %bias = arith.mulf %slope, %df : f32
    %y = arith.subf %x, %bias : f32""",
}

# (score op, element type, head dimension): the functions of the module.
FUNCTIONS = [
    ("plain", "f16", 64), ("plain", "bf16", 64), ("plain", "f16", 128),
    ("plain", "bf16", 128), ("causal", "f16", 128), ("causal", "bf16", 64),
    ("bias", "f16", 64), ("bias", "bf16", 128), ("softcap", "f16", 128),
    ("softcap", "bf16", 64), ("alibi", "f16", 128),
    # Not fused (head dimension 96): separate kernels, still correct.
    ("plain", "f16", 96),
]


def function(op, T, D):
    name = f"{op}_{T}_d{D}"
    bias = op == "bias"
    scale = 1.0 / D ** 0.5
    t3 = f"tensor<?x?x{D}x{T}>"
    args = f"%q: {t3}, %k: {t3}, %v: {t3}"
    if bias:
        args += ", %bias: tensor<?x?xf32>"
    # The result becomes an out-parameter that a copy fills (no hoisting:
    # the extents are dynamic), the last argument.
    lines = [f"func.func @{name}({args}) -> {t3} {{"]
    w = lines.append
    w("  %c0 = arith.constant 0 : index")
    w("  %c1 = arith.constant 1 : index")
    w(f"  %bh = tensor.dim %q, %c0 : {t3}")
    w(f"  %s = tensor.dim %q, %c1 : {t3}")
    w(f"  %t = tensor.dim %k, %c1 : {t3}")
    w("  %zero = arith.constant 0.0 : f32")
    w(f"  %zt = arith.constant 0.0 : {T}")
    w("  %ninf = arith.constant 0xFF800000 : f32")
    w(f"  %scale = arith.constant {scale!r} : f32")
    w(f"  %ekt = tensor.empty(%bh, %t) : tensor<?x{D}x?x{T}>")
    w(f"  %kt = linalg.transpose ins(%k : {t3}) outs(%ekt : tensor<?x{D}x?x{T}>) permutation = [0, 2, 1]")
    S = "tensor<?x?x?xf32>"
    w(f"  %es = tensor.empty(%bh, %s, %t) : {S}")
    w(f"  %sz = linalg.fill ins(%zero : f32) outs(%es : {S}) -> {S}")
    w(f"  %sc = linalg.batch_matmul ins(%q, %kt : {t3}, tensor<?x{D}x?x{T}>) outs(%sz : {S}) -> {S}")
    w(f"  %x0 = linalg.generic {{indexing_maps = [#id, #id], iterator_types = [\"parallel\", \"parallel\", \"parallel\"]}} ins(%sc : {S}) outs(%es : {S}) {{")
    w("  ^bb0(%x: f32, %o: f32):")
    w("    %y = arith.mulf %x, %scale : f32")
    w("    linalg.yield %y : f32")
    w(f"  }} -> {S}")
    x = "%x0"
    if SCORE_OPS[op]:
        if bias:
            w(f"  %x1 = linalg.generic {{indexing_maps = [#id, #bias, #id], iterator_types = [\"parallel\", \"parallel\", \"parallel\"]}} ins(%x0, %bias : {S}, tensor<?x?xf32>) outs(%es : {S}) {{")
            w("  ^bb0(%x: f32, %b: f32, %o: f32):")
        else:
            w(f"  %x1 = linalg.generic {{indexing_maps = [#id, #id], iterator_types = [\"parallel\", \"parallel\", \"parallel\"]}} ins(%x0 : {S}) outs(%es : {S}) {{")
            w("  ^bb0(%x: f32, %o: f32):")
        w(SCORE_OPS[op])
        w("    linalg.yield %y : f32")
        w(f"  }} -> {S}")
        x = "%x1"
    R = "tensor<?x?xf32>"
    w(f"  %er = tensor.empty(%bh, %s) : {R}")
    w(f"  %mi = linalg.fill ins(%ninf : f32) outs(%er : {R}) -> {R}")
    w(f"  %mx = linalg.reduce ins({x} : {S}) outs(%mi : {R}) dimensions = [2]")
    w("    (%a: f32, %acc: f32) {")
    w("      %m = arith.maximumf %a, %acc : f32")
    w("      linalg.yield %m : f32")
    w("    }")
    w(f"  %ex = linalg.generic {{indexing_maps = [#id, #row, #id], iterator_types = [\"parallel\", \"parallel\", \"parallel\"]}} ins({x}, %mx : {S}, {R}) outs(%es : {S}) {{")
    w("  ^bb0(%a: f32, %m: f32, %o: f32):")
    w("    %d = arith.subf %a, %m : f32")
    w("    %e = math.exp %d : f32")
    w("    linalg.yield %e : f32")
    w(f"  }} -> {S}")
    w(f"  %si = linalg.fill ins(%zero : f32) outs(%er : {R}) -> {R}")
    w(f"  %sum = linalg.reduce ins(%ex : {S}) outs(%si : {R}) dimensions = [2]")
    w("    (%a: f32, %acc: f32) {")
    w("      %m = arith.addf %a, %acc : f32")
    w("      linalg.yield %m : f32")
    w("    }")
    P = f"tensor<?x?x?x{T}>"
    w(f"  %ep = tensor.empty(%bh, %s, %t) : {P}")
    w(f"  %p = linalg.generic {{indexing_maps = [#id, #row, #id], iterator_types = [\"parallel\", \"parallel\", \"parallel\"]}} ins(%ex, %sum : {S}, {R}) outs(%ep : {P}) {{")
    w(f"  ^bb0(%a: f32, %l: f32, %o: {T}):")
    w("    %d = arith.divf %a, %l : f32")
    w(f"    %h = arith.truncf %d : f32 to {T}")
    w(f"    linalg.yield %h : {T}")
    w(f"  }} -> {P}")
    w(f"  %eo = tensor.empty(%bh, %s) : {t3}")
    w(f"  %oz = linalg.fill ins(%zt : {T}) outs(%eo : {t3}) -> {t3}")
    w(f"  %o = linalg.batch_matmul ins(%p, %v : {P}, {t3}) outs(%oz : {t3}) -> {t3}")
    w(f"  return %o : {t3}")
    w("}")
    return "\n".join(lines)


def main():
    maps = ("#id = affine_map<(b, i, j) -> (b, i, j)>\n"
            "#row = affine_map<(b, i, j) -> (b, i)>\n"
            "#bias = affine_map<(b, i, j) -> (i, j)>\n")
    src = maps + "\n".join(function(*f) for f in FUNCTIONS) + "\n"
    mlir_opt = os.environ.get("MLIR_OPT", "/usr/lib/llvm-22/bin/mlir-opt")
    res = subprocess.run([mlir_opt, f"--pass-pipeline={PIPELINE}"],
                         input=src, capture_output=True, text=True)
    if res.returncode:
        sys.exit(res.stderr)
    version = subprocess.run([mlir_opt, "--version"], capture_output=True,
                             text=True).stdout
    version = next((l.strip() for l in version.splitlines()
                    if "version" in l), "unknown")
    print("// GENERATED by test/Integration/GPU/gen_linalg_attention.py; do not edit.")
    print("// Attention in linalg with dynamic [B*H, S, D] extents, bufferized by")
    print(f"// upstream mlir-opt ({version}):")
    print(f"//   {PIPELINE}")
    print("// croq-fuse-linalg-attention makes each chain the flash kernel but the")
    print("// one with D = 96, which compiles as separate kernels.")
    print("// RUN: croq-opt --croq-fuse-linalg-attention=remarks %s -o /dev/null 2>&1 | FileCheck %s")
    print("// The fused kernels assemble (ptxas) and are the flash kernel: wgmma")
    print("// from registers for P V, the score op on the accumulator.")
    print("// REQUIRES: ptxas")
    print("// UNSUPPORTED: sanitizers")
    print("// (under sanitizers: croq's passes on this input in sanitized-inputs.test)")
    print("// RUN: croq-translate --croq-to-ptx %s -o %t.ptx")
    print("// RUN: rm -rf %t.d && split-file %t.ptx %t.d")
    for i, kernel in enumerate(["plain_bf16_d64", "causal_f16_d128",
                                "bias_bf16_d128", "softcap_f16_d128",
                                "alibi_f16_d128"]):
        print(f"// RUN: %ptxas -arch=sm_90a %t.d/{kernel}_kernel.ptx -o %t.{i}.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s")
    print("// RUN: FileCheck %s --check-prefix=SOFTCAP < %t.d/softcap_f16_d128_kernel.ptx")
    print("// PTXAS-NOT: warning")
    print("// PTXAS-NOT: error")
    print("// SOFTCAP-LABEL: .entry softcap_f16_d128_kernel")
    print("// SOFTCAP: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16")
    # math.tanh lowers to exponentials: twice the plain kernel's ex2.
    print("// SOFTCAP: ex2.approx")
    print("// SOFTCAP: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}")
    for op, T, D in FUNCTIONS:
        if D == 96:
            print("// CHECK: remark: not fused as attention: a head dimension other than 64 or 128")
            print("// CHECK: remark: not fused as attention: the scores are not f32")
        else:
            causal = " (causal)" if op == "causal" else ""
            n = 0 if op in ("plain", "causal") else 2
            print(f"// CHECK: remark: fused as attention{causal} with {n} op(s) on the scores")
    print(res.stdout, end="")


if __name__ == "__main__":
    main()
