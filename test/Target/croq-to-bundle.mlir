// One lowering, every artifact: the signature, the PTX, one cubin per kernel
// with ptxas's report, and the host object that embeds the cubins.
// REQUIRES: ptxas
// RUN: rm -rf %t && croq-translate --croq-to-bundle --croq-bundle-dir=%t \
// RUN:   --croq-bundle-name=fill --croq-ptxas=%ptxas %s | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=JSON < %t/fill.json
// RUN: FileCheck %s --check-prefix=PTX < %t/fill.ptx
// RUN: FileCheck %s --check-prefix=REPORT < %t/fill.ptxas.txt
// RUN: llvm-readelf -h %t/cubin/fill_kernel.cubin | FileCheck %s --check-prefix=CUBIN
// RUN: llvm-nm %t/fill.o | FileCheck %s --check-prefix=BIN
// The cubin in the object is the one in cubin/: ptxas ran once.
// RUN: llvm-objcopy -O binary --only-section=.rodata %t/fill.o %t/rodata
// RUN: %python -c "import sys; d = open(sys.argv[1], 'rb').read(); sys.exit(0 if d in open(sys.argv[2], 'rb').read() else 1)" %t/cubin/fill_kernel.cubin %t/rodata

// FILES: {{.*}}fill.json
// FILES-NEXT: {{.*}}fill.ptx
// FILES-NEXT: {{.*}}fill.ptxas.txt
// FILES-NEXT: {{.*}}fill.o
// JSON: "abi": 3
// JSON: "name": "fill"
// PTX: //--- fill_kernel.ptx
// PTX: .entry fill_kernel(
// REPORT: == fill_kernel (ptxas -v -arch=sm_90a)
// REPORT: Used {{[0-9]+}} registers
// CUBIN: Machine: NVIDIA CUDA architecture
// BIN-DAG: T _mlir_ciface_fill
// BIN-DAG: U mgpuModuleLoad{{$}}
// BIN-DAG: r fill_kernel_binary

// Format isa embeds the PTX (JIT-compiled when loaded) and runs no ptxas
// unless one is named.
// RUN: rm -rf %t.isa && croq-translate --croq-to-bundle --croq-bundle-dir=%t.isa \
// RUN:   --croq-binary-format=isa %s | FileCheck %s --check-prefix=ISA-FILES
// RUN: llvm-nm %t.isa/module.o | FileCheck %s --check-prefix=ISA
// ISA-FILES: module.json
// ISA-FILES-NOT: ptxas.txt
// ISA: U mgpuModuleLoadJIT

// RUN: not croq-translate --croq-to-bundle %s 2>&1 | FileCheck %s --check-prefix=NODIR
// NODIR: error: --croq-to-bundle needs --croq-bundle-dir
// RUN: not croq-translate --croq-to-bundle --croq-bundle-dir=%t.f \
// RUN:   --croq-binary-format=fatbin %s 2>&1 | FileCheck %s --check-prefix=FATBIN
// FATBIN: error: --croq-to-bundle embeds bin or isa objects, not 'fatbin'
// RUN: not croq-translate --croq-to-bundle --croq-bundle-dir=%t.f \
// RUN:   --croq-ptxas=%t.nonexistent %s 2>&1 | FileCheck %s --check-prefix=NOPTXAS
// NOPTXAS: error: --croq-ptxas: '{{.*}}nonexistent' is not an executable file
// RUN: not croq-translate --croq-to-bundle --croq-bundle-dir=%t.f \
// RUN:   --croq-ptxas=%S/Inputs/failing-ptxas.sh %s 2>&1 | FileCheck %s --check-prefix=FAIL
// FAIL: error: ptxas failed on kernel 'fill_kernel' (exit status 3):
// FAIL-NEXT: ptxas fatal   : Unresolved extern function (test)

func.func @fill(%a: memref<1024xi32>) {
  %c1 = arith.constant 1 : i32
  croq.parallel (%i) in [8] : block {
    %v = croq.subspan %a [128] at [%i] : memref<1024xi32> -> !croq.view<128xi32>
    croq.foreach (%k) in [128] {
      croq.write %c1, %v[%k] : !croq.view<128xi32>
    }
  }
  return
}
