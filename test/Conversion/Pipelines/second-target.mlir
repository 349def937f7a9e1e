// REQUIRES: ptxas
// The target description has a second row, sm_80 (Ampere): kernels of dma
// copies, cp.async and element-wise code compile for it and ptxas assembles
// them for sm_80; what needs a Hopper feature is refused by name.
//
// RUN: croq-translate --croq-to-ptx --croq-chip=sm_80 %s -o %t.ptx
// RUN: rm -rf %t.d && split-file %t.ptx %t.d
// RUN: %ptxas -arch=sm_80 %t.d/copy_async_kernel.ptx -o %t.cubin
// RUN: FileCheck %s < %t.d/copy_async_kernel.ptx
// RUN: not croq-opt %S/Inputs/hopper-features.mlir --croq-to-nvvm="chip=sm_80 format=none" -split-input-file 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: not croq-opt %S/Inputs/hopper-features.mlir --croq-set-target=chip=sm_80 --croq-plan-shared-memory -split-input-file 2>&1 | FileCheck %s --check-prefix=SMEM
// RUN: croq-opt %S/Inputs/hopper-features.mlir --croq-set-target=chip=sm_90a --croq-plan-shared-memory -split-input-file | FileCheck %s --check-prefix=SMEM90

// CHECK: .target sm_80
// CHECK: cp.async.cg.shared.global
// CHECK-NOT: setmaxnreg

// REFUSED: 'croq.copy' op needs the tensor memory accelerator, which sm_80 does not have
// REFUSED: 'croq.mma' op needs warpgroup mma, which sm_80 does not have
// REFUSED: 'croq.event.wait' op needs mbarrier try-wait on a phase parity, which sm_80 does not have
// REFUSED: 'croq.inthreads' op sets its register count with setmaxnreg, which sm_80 does not have
// REFUSED-DAG: 'croq.parallel' op needs thread block clusters, which sm_80 does not have
// REFUSED-DAG: 'croq.cluster.barrier' op needs thread block clusters, which sm_80 does not have

// 200 KB of shared tiles fit sm_90a's 227 KB and not sm_80's 163 KB.
// SMEM: error: 'croq.parallel' op needs 204800 bytes of shared memory, more than the 166912 bytes a block can have
// SMEM90: shared_memory = 204800

func.func @copy_async(%a: memref<?x?xf32>, %out: memref<?x?xf32>, %n: index) {
  croq.parallel (%i) in [%n] : block {
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    %c0 = arith.constant 0 : index
    %v = croq.subspan %a [64, 64] at [%i, %c0] : memref<?x?xf32> -> !croq.view<64x64xf32>
    %f = croq.copy dma async %v -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    croq.wait %f
    %w = croq.subspan %out [64, 64] at [%i, %c0] : memref<?x?xf32> -> !croq.view<64x64xf32>
    croq.copy dma %t -> %w : !croq.tile<64x64xf32, shared> -> !croq.view<64x64xf32>
  }
  return
}
