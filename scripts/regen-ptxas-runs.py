"""Regenerates the ptxas RUN lines of a GPU integration test (one per kernel
file of croq-translate --croq-to-ptx, in order) and, for linalg_matmul.mlir,
the kernel files its default, STORE, CLUSTER, SMALL, PARTIAL and REDUCE
checks read.
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
    # CLUSTER reads the first kernel whose blocks multicast in clusters.
    cluster = next(n for n in f16 if "multicast::cluster" in bodies[n])
    # The default prefix and STORE read the 128x256 tile's kernel, the
    # first of 384 threads running m64n256 (after the one-row form's).
    wide = next(n for n in f16 if ".maxntid 384," in bodies[n] and
                "m64n256k16" in bodies[n])
    which = {"CHECK": wide, "STORE": wide, "CLUSTER": cluster,
             "SMALL": small, "PARTIAL": splitk[0], "REDUCE": splitk[1]}
print(len(names), which, file=sys.stderr)
for line in lines:
    if line.startswith("// RUN: %ptxas"):
        if not done:
            for i, n in enumerate(names):
                out.append(f"// RUN: %ptxas -arch=sm_90a %t.d/{n}.ptx -o %t.{i}.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s")
            done = True
        continue
    m = re.match(r"// RUN: FileCheck %s( --check-prefix=(\w+))? < %t.d/(\S+)\.ptx$", line)
    prefix = (m.group(2) or "CHECK") if m else None
    if m and prefix in which:
        line = f"// RUN: FileCheck %s{m.group(1) or ''} < %t.d/{which[prefix]}.ptx"
    out.append(line)
p.write_text("\n".join(out))
