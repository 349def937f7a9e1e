// REQUIRES: ptxas
// RUN: croq-translate --croq-to-ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: croq-translate --croq-to-cubin %s -o %t.cubin2
// RUN: od -A n -t x1 -N 4 %t.cubin2 | FileCheck %s --check-prefix=ELF

// A copy kernel compiled to sm_90a PTX: 16-byte vector loads and stores,
// dynamic shared memory as an aligned extern, and a cubin that is an ELF
// file.

// CHECK: //--- copy_kernel.ptx
// CHECK: .target sm_90a
// CHECK: .extern .shared .align 1024 .b8 __dynamic_shmem__0[];
// CHECK: .entry copy_kernel(
// CHECK: .maxntid 128, 1, 1
// CHECK: ld.global.v4.b32
// CHECK: st.shared.v4.b32
// CHECK: bar.sync 0;
// CHECK: ld.shared.v4.b32
// CHECK: st.global.v4.b32

// ELF: 7f 45 4c 46

func.func @copy(%a: memref<4096x4096xf32>, %b: memref<4096x4096xf32>) {
  croq.parallel (%i, %j) in [64, 64] : block {
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    %v = croq.subspan %a [64, 64] at [%i, %j] : memref<4096x4096xf32> -> !croq.view<64x64xf32>
    croq.copy dma %v -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    %w = croq.subspan %b [64, 64] at [%i, %j] : memref<4096x4096xf32> -> !croq.view<64x64xf32>
    croq.copy dma %t -> %w : !croq.tile<64x64xf32, shared> -> !croq.view<64x64xf32>
  }
  return
}
