"""Regenerates the ptxas RUN lines of a GPU integration test (one per kernel
file of croq-translate --croq-to-ptx, in order) and, for linalg_matmul.mlir,
the kernel files its CLUSTER, SMALL, PARTIAL and REDUCE checks read.
Usage: regen-ptxas-runs.py KERNELS.ptx TEST.mlir"""
import re, sys
from pathlib import Path
ptx = Path(sys.argv[1]).read_text()
names = re.findall(r"^//--- (\S+)\.ptx$", ptx, re.M)
p = Path(sys.argv[2])
lines = p.read_text().split("\n")
out, done = [], False
def kernels_of(fn):
    return [n for n in names if re.fullmatch(fn + r"_kernel(_\d+)?", n)]
which = {}
if p.name == "linalg_matmul.mlir":
    f16 = kernels_of("linalg_mm_f16")
    splitk = kernels_of("linalg_mm_splitk_f16")
    # SMALL reads the 64x128 tile's kernel: the first of 256 threads.
    bodies = dict(re.findall(r"^//--- (\S+)\.ptx\n(.*?)(?=^//--- |\Z)", ptx,
                             re.M | re.S))
    small = next(n for n in f16 if ".maxntid 256," in bodies[n])
    which = {"CLUSTER": f16[1], "SMALL": small, "PARTIAL": splitk[0],
             "REDUCE": splitk[1]}
print(len(names), which, file=sys.stderr)
for line in lines:
    if line.startswith("// RUN: %ptxas"):
        if not done:
            for i, n in enumerate(names):
                out.append(f"// RUN: %ptxas -arch=sm_90a %t.d/{n}.ptx -o %t.{i}.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s")
            done = True
        continue
    m = re.match(r"// RUN: FileCheck %s --check-prefix=(\w+) < %t.d/(\S+)\.ptx$", line)
    if m and m.group(1) in which:
        line = f"// RUN: FileCheck %s --check-prefix={m.group(1)} < %t.d/{which[m.group(1)]}.ptx"
    out.append(line)
p.write_text("\n".join(out))
