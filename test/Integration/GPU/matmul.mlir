// REQUIRES: ptxas
// RUN: croq-translate --croq-to-ptx %s -o %t.ptx
// RUN: rm -rf %t.d && split-file %t.ptx %t.d
// RUN: %ptxas -arch=sm_90a %t.d/matmul_ws_f16_kernel.ptx -o %t.0.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/matmul_ws_bf16_kernel.ptx -o %t.1.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/matmul_ws_f16_f32out_kernel.ptx -o %t.2.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/matmul_ws_kn_f16_kernel.ptx -o %t.3.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/matmul_plain_f16_kernel.ptx -o %t.4.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/matmul_pipelined_f16_kernel.ptx -o %t.5.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/matmul_pipelined_inplace_f16_kernel.ptx -o %t.6.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/matmul_pipelined_bf16_kernel.ptx -o %t.7.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: FileCheck %s --check-prefix=SYNC < %t.d/matmul_plain_f16_kernel.ptx
// RUN: FileCheck %s --check-prefix=RING < %t.d/matmul_pipelined_f16_kernel.ptx
// RUN: %ptxas -arch=sm_90a %t.d/matmul_ws2_f16_kernel.ptx -o %t.p0.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/matmul_ws2_bf16_kernel.ptx -o %t.p1.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/matmul_ws1_pending_f16_kernel.ptx -o %t.p2.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/matmul_persistent_f16_kernel.ptx -o %t.p3.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/matmul_persistent_bf16_kernel.ptx -o %t.p4.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/matmul_persistent_e4m3_kernel.ptx -o %t.e4m3.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/matmul_persistent_e5m2_kernel.ptx -o %t.e5m2.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/matmul_persistent_tma_store_f16_kernel.ptx -o %t.p5.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/matmul_persistent_tma_store_bf16_kernel.ptx -o %t.p6.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: FileCheck %s --check-prefix=TMASTORE < %t.d/matmul_persistent_tma_store_f16_kernel.ptx
// RUN: %ptxas -v -arch=sm_90a %t.d/matmul_persistent_epilogue_f16_kernel.ptx -o %t.p7.cubin 2>&1 | FileCheck --check-prefix=EPILOGUE-PTXAS %s
// RUN: FileCheck %s --check-prefix=EPILOGUE < %t.d/matmul_persistent_epilogue_f16_kernel.ptx
// RUN: FileCheck %s < %t.d/matmul_ws_f16_kernel.ptx
// RUN: FileCheck %s --check-prefix=WS2 < %t.d/matmul_ws2_f16_kernel.ptx
// RUN: %ptxas -v -arch=sm_90a %t.d/matmul_seeds_bf16_kernel.ptx -o %t.seeds.cubin 2>&1 | FileCheck --check-prefix=SEEDS-PTXAS %s
// RUN: FileCheck %s --check-prefix=SEEDS < %t.d/matmul_seeds_bf16_kernel.ptx

// ptxas does not serialize the wgmma pipeline (C7514/C7517 warnings).
// PTXAS-NOT: C75{{1[0-8]|2[0-9]}}
// PTXAS-NOT: warning

// The producer's loads complete on the `full` slot; the consumer waits on
// it, runs wgmma on descriptors of the swizzled stages, and frees the slot.
// CHECK: mbarrier.init.shared.b64
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
// CHECK: mbarrier.arrive.expect_tx.shared.b64 _, [{{.*}}], {{.*}};
// CHECK: mbarrier.try_wait.parity.shared.b64
// CHECK: wgmma.fence.sync.aligned;
// CHECK: mbarrier.try_wait.parity.shared.b64
// croq-pipeline-loops keeps one group of the consumer's wgmma in flight
// (a ring written by hand): the consumer waits for all but the last group
// and frees the previous iteration's slot.
// CHECK-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK-NEXT: wgmma.wait_group.sync.aligned 1;
// CHECK: mbarrier.arrive.shared.b64

// croq.stages = 1: the plain loop stays synchronous, one warpgroup.
// SYNC: .maxntid 128, 1, 1
// SYNC-NOT: setmaxnreg

// Left to croq-pipeline-loops and croq-split-accumulators: a producer and
// two consumer warpgroups, each on 64 rows of the 128x128 accumulator; the
// roles trade registers.
// RING: .maxntid 384, 1, 1
// RING-DAG: setmaxnreg.inc.sync.aligned.u32 224;
// RING-DAG: setmaxnreg.dec.sync.aligned.u32 56;
// RING-DAG: mbarrier.arrive.expect_tx.shared.b64
// RING-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16

// Warp-specialized roles trade registers: the producer gives them up, the
// two consumers take 224 each (the roles' blocks come in either order);
// ptxas knows the count at entry. Each consumer runs m64n256k16 and waits
// for all but the last group.
// WS2: .maxntid 384, 1, 1
// WS2: .minnctapersm 1
// WS2-DAG: setmaxnreg.dec.sync.aligned.u32 56;
// WS2-DAG: setmaxnreg.inc.sync.aligned.u32 224;
// WS2-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// WS2-DAG: wgmma.wait_group.sync.aligned 1;

// The seeds' style (the issue's kernel): bf16, 64x256 tiles, a ring of 3
// stages of 64B-swizzled K steps of 32, one consumer warpgroup whose loop
// commits and frees its stage, the accumulator stored straight to global
// memory. A ring of 3 stages stays as written (croq-pipeline-loops keeps
// a group in flight from 4 stages: with it this kernel ran 20% slower),
// so the consumer waits for each group; ptxas runs the wgmma pipelined (no
// C7510-C7529 report but C7519's injected warpgroup.arrive).
// SEEDS-PTXAS-NOT: C75{{1[0-8]|2[0-9]}}
// SEEDS-PTXAS: Compiling entry function 'matmul_seeds_bf16_kernel'
// SEEDS: .maxntid 256, 1, 1
// SEEDS: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// SEEDS: wgmma.commit_group.sync.aligned;
// SEEDS-NEXT: wgmma.wait_group.sync.aligned 0;
// SEEDS-NOT: wgmma.wait_group.sync.aligned 1;

//===- matmul.mlir - GPU test: events, wgmma and the pipelined GEMM -------===//
//
// output = lhs * rhs^T (rhs [N, K]) or lhs * rhs (rhs [K, N]) for any M, N,
// K: edges are zero-filled by the tma loads and masked on the store.
//===----------------------------------------------------------------------===//

// Warp-specialized 4-stage TMA ring, 128x128x64 tiles, f16 in and out.
func.func @matmul_ws_f16(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
                  %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 128 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xf16>
  %grid_m = arith.ceildivui %m, %cbm : index
  %grid_n = arith.ceildivui %n, %cbn : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %full = croq.event.alloc : !croq.events<4>
    %empty = croq.event.alloc ready : !croq.events<4>
    %lhs_s = croq.alloc : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
    %output_s = croq.alloc : !croq.tile<128x128xf16, shared>
    croq.parallel (%p) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi eq, %p, %c1 : index
      croq.inthreads async %is_producer {
        scf.for %iv_k = %c0 to %k_tiles step %c1 {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %empty[%stage] : !croq.events<4>
          %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %b = croq.subspan %rhs [128, 64] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<4>
        }
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %mc0 = croq.mma.fill %zero : !croq.acc<128x128xf32>
        %mc = scf.for %iv_k = %c0 to %k_tiles step %c1
            iter_args(%acc = %mc0) -> (!croq.acc<128x128xf32>) {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %full[%stage] : !croq.events<4>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %sum = scf.for %iv_warp = %c0 to %c4 step %c1
              iter_args(%part = %acc) -> (!croq.acc<128x128xf32>) {
            %ak = croq.chunkat %as[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
            %ma = croq.mma.load %ak : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
            %bk = croq.chunkat %bs[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
            %mb = croq.mma.load %bk : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
            %next = croq.mma row row %part, %ma, %mb : !croq.frag<128x16xf16>, !croq.frag<128x16xf16> -> !croq.acc<128x128xf32>
            scf.yield %next : !croq.acc<128x128xf32>
          }
          %done = croq.mma.commit %sum : !croq.acc<128x128xf32>
          croq.event.trigger %empty[%stage] : !croq.events<4>
          scf.yield %done : !croq.acc<128x128xf32>
        }
        croq.mma.store %mc -> %output_s : !croq.acc<128x128xf32> -> !croq.tile<128x128xf16, shared>
        %out_tile = croq.subspan %output [128, 128] at [%block_m, %block_n] : memref<?x?xf16> -> !croq.view<128x128xf16>
        croq.copy dma %output_s -> %out_tile : !croq.tile<128x128xf16, shared> -> !croq.view<128x128xf16>
      }
    }
  }
  return
}

// The same for bf16.
func.func @matmul_ws_bf16(%lhs: memref<?x?xbf16>, %rhs: memref<?x?xbf16>,
                  %output: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 128 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xbf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xbf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xbf16>
  %grid_m = arith.ceildivui %m, %cbm : index
  %grid_n = arith.ceildivui %n, %cbn : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %full = croq.event.alloc : !croq.events<4>
    %empty = croq.event.alloc ready : !croq.events<4>
    %lhs_s = croq.alloc : !croq.tiles<4 x 128x64xbf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<4 x 128x64xbf16, shared, swizzle = 128>
    %output_s = croq.alloc : !croq.tile<128x128xbf16, shared>
    croq.parallel (%p) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi eq, %p, %c1 : index
      croq.inthreads async %is_producer {
        scf.for %iv_k = %c0 to %k_tiles step %c1 {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %empty[%stage] : !croq.events<4>
          %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xbf16> -> !croq.view<128x64xbf16>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<4 x 128x64xbf16, shared, swizzle = 128>
          %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x64xbf16> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
          %b = croq.subspan %rhs [128, 64] at [%block_n, %iv_k] : memref<?x?xbf16> -> !croq.view<128x64xbf16>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<4 x 128x64xbf16, shared, swizzle = 128>
          %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<128x64xbf16> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
          croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<4>
        }
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %mc0 = croq.mma.fill %zero : !croq.acc<128x128xf32>
        %mc = scf.for %iv_k = %c0 to %k_tiles step %c1
            iter_args(%acc = %mc0) -> (!croq.acc<128x128xf32>) {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %full[%stage] : !croq.events<4>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<4 x 128x64xbf16, shared, swizzle = 128>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<4 x 128x64xbf16, shared, swizzle = 128>
          %sum = scf.for %iv_warp = %c0 to %c4 step %c1
              iter_args(%part = %acc) -> (!croq.acc<128x128xf32>) {
            %ak = croq.chunkat %as[_, %iv_warp] of [1, 4] : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.view<128x16xbf16, shared, swizzle = 128>
            %ma = croq.mma.load %ak : !croq.view<128x16xbf16, shared, swizzle = 128> -> !croq.frag<128x16xbf16>
            %bk = croq.chunkat %bs[_, %iv_warp] of [1, 4] : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.view<128x16xbf16, shared, swizzle = 128>
            %mb = croq.mma.load %bk : !croq.view<128x16xbf16, shared, swizzle = 128> -> !croq.frag<128x16xbf16>
            %next = croq.mma row row %part, %ma, %mb : !croq.frag<128x16xbf16>, !croq.frag<128x16xbf16> -> !croq.acc<128x128xf32>
            scf.yield %next : !croq.acc<128x128xf32>
          }
          %done = croq.mma.commit %sum : !croq.acc<128x128xf32>
          croq.event.trigger %empty[%stage] : !croq.events<4>
          scf.yield %done : !croq.acc<128x128xf32>
        }
        croq.mma.store %mc -> %output_s : !croq.acc<128x128xf32> -> !croq.tile<128x128xbf16, shared>
        %out_tile = croq.subspan %output [128, 128] at [%block_m, %block_n] : memref<?x?xbf16> -> !croq.view<128x128xbf16>
        croq.copy dma %output_s -> %out_tile : !croq.tile<128x128xbf16, shared> -> !croq.view<128x128xbf16>
      }
    }
  }
  return
}

// f16 in, the f32 accumulator stored straight to global memory (masked at the edges).
func.func @matmul_ws_f16_f32out(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
                  %output: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 128 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xf16>
  %grid_m = arith.ceildivui %m, %cbm : index
  %grid_n = arith.ceildivui %n, %cbn : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %full = croq.event.alloc : !croq.events<4>
    %empty = croq.event.alloc ready : !croq.events<4>
    %lhs_s = croq.alloc : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi eq, %p, %c1 : index
      croq.inthreads async %is_producer {
        scf.for %iv_k = %c0 to %k_tiles step %c1 {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %empty[%stage] : !croq.events<4>
          %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %b = croq.subspan %rhs [128, 64] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<4>
        }
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %mc0 = croq.mma.fill %zero : !croq.acc<128x128xf32>
        %mc = scf.for %iv_k = %c0 to %k_tiles step %c1
            iter_args(%acc = %mc0) -> (!croq.acc<128x128xf32>) {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %full[%stage] : !croq.events<4>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %sum = scf.for %iv_warp = %c0 to %c4 step %c1
              iter_args(%part = %acc) -> (!croq.acc<128x128xf32>) {
            %ak = croq.chunkat %as[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
            %ma = croq.mma.load %ak : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
            %bk = croq.chunkat %bs[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
            %mb = croq.mma.load %bk : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
            %next = croq.mma row row %part, %ma, %mb : !croq.frag<128x16xf16>, !croq.frag<128x16xf16> -> !croq.acc<128x128xf32>
            scf.yield %next : !croq.acc<128x128xf32>
          }
          %done = croq.mma.commit %sum : !croq.acc<128x128xf32>
          croq.event.trigger %empty[%stage] : !croq.events<4>
          scf.yield %done : !croq.acc<128x128xf32>
        }
        %out_tile = croq.subspan %output [128, 128] at [%block_m, %block_n] : memref<?x?xf32> -> !croq.view<128x128xf32>
        croq.mma.store %mc -> %out_tile : !croq.acc<128x128xf32> -> !croq.view<128x128xf32>
      }
    }
  }
  return
}

// B given as [K, N] (MN-major, 'col'), 128x64 tiles.
func.func @matmul_ws_kn_f16(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
                  %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 64 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xf16>
  %n = memref.dim %rhs, %c1 : memref<?x?xf16>
  %grid_m = arith.ceildivui %m, %cbm : index
  %grid_n = arith.ceildivui %n, %cbn : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %full = croq.event.alloc : !croq.events<4>
    %empty = croq.event.alloc ready : !croq.events<4>
    %lhs_s = croq.alloc : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<4 x 64x64xf16, shared, swizzle = 128>
    %output_s = croq.alloc : !croq.tile<128x64xf16, shared>
    croq.parallel (%p) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi eq, %p, %c1 : index
      croq.inthreads async %is_producer {
        scf.for %iv_k = %c0 to %k_tiles step %c1 {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %empty[%stage] : !croq.events<4>
          %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %b = croq.subspan %rhs [64, 64] at [%iv_k, %block_n] : memref<?x?xf16> -> !croq.view<64x64xf16>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<4 x 64x64xf16, shared, swizzle = 128>
          %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<4>
        }
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %mc0 = croq.mma.fill %zero : !croq.acc<128x64xf32>
        %mc = scf.for %iv_k = %c0 to %k_tiles step %c1
            iter_args(%acc = %mc0) -> (!croq.acc<128x64xf32>) {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %full[%stage] : !croq.events<4>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<4 x 64x64xf16, shared, swizzle = 128>
          %sum = scf.for %iv_warp = %c0 to %c4 step %c1
              iter_args(%part = %acc) -> (!croq.acc<128x64xf32>) {
            %ak = croq.chunkat %as[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
            %ma = croq.mma.load %ak : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
            %bk = croq.chunkat %bs[%iv_warp, _] of [4, 1] : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<16x64xf16, shared, swizzle = 128>
            %mb = croq.mma.load %bk : !croq.view<16x64xf16, shared, swizzle = 128> -> !croq.frag<16x64xf16>
            %next = croq.mma row col %part, %ma, %mb : !croq.frag<128x16xf16>, !croq.frag<16x64xf16> -> !croq.acc<128x64xf32>
            scf.yield %next : !croq.acc<128x64xf32>
          }
          %done = croq.mma.commit %sum : !croq.acc<128x64xf32>
          croq.event.trigger %empty[%stage] : !croq.events<4>
          scf.yield %done : !croq.acc<128x64xf32>
        }
        croq.mma.store %mc -> %output_s : !croq.acc<128x64xf32> -> !croq.tile<128x64xf16, shared>
        %out_tile = croq.subspan %output [128, 64] at [%block_m, %block_n] : memref<?x?xf16> -> !croq.view<128x64xf16>
        croq.copy dma %output_s -> %out_tile : !croq.tile<128x64xf16, shared> -> !croq.view<128x64xf16>
      }
    }
  }
  return
}

// The unpipelined GEMM: one warpgroup, synchronous tma loads, then wgmma
// (croq.stages = 1 keeps croq-pipeline-loops away).
func.func @matmul_plain_f16(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
                  %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xf16>
  %grid_m = arith.ceildivui %m, %c128 : index
  %grid_n = arith.ceildivui %n, %c128 : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %lhs_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %output_s = croq.alloc : !croq.tile<128x128xf16, shared>
    %zero = arith.constant 0.0 : f32
    %mc0 = croq.mma.fill %zero : !croq.acc<128x128xf32>
    %mc = scf.for %iv_k = %c0 to %k_tiles step %c1
        iter_args(%acc = %mc0) -> (!croq.acc<128x128xf32>) {
      %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
      croq.copy tma zfill swizzle = 128 %a -> %lhs_s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      %b = croq.subspan %rhs [128, 64] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
      croq.copy tma zfill swizzle = 128 %b -> %rhs_s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      %sum = scf.for %iv_warp = %c0 to %c4 step %c1
          iter_args(%part = %acc) -> (!croq.acc<128x128xf32>) {
        %ak = croq.chunkat %lhs_s[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
        %ma = croq.mma.load %ak : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
        %bk = croq.chunkat %rhs_s[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
        %mb = croq.mma.load %bk : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
        %next = croq.mma row row %part, %ma, %mb : !croq.frag<128x16xf16>, !croq.frag<128x16xf16> -> !croq.acc<128x128xf32>
        scf.yield %next : !croq.acc<128x128xf32>
      }
      %done = croq.mma.commit %sum : !croq.acc<128x128xf32>
      scf.yield %done : !croq.acc<128x128xf32>
    } {croq.stages = 1 : i64}
    croq.mma.store %mc -> %output_s : !croq.acc<128x128xf32> -> !croq.tile<128x128xf16, shared>
    %out_tile = croq.subspan %output [128, 128] at [%block_m, %block_n] : memref<?x?xf16> -> !croq.view<128x128xf16>
    croq.copy dma %output_s -> %out_tile : !croq.tile<128x128xf16, shared> -> !croq.view<128x128xf16>
  }
  return
}

// The same loop left to croq-pipeline-loops: a producer warpgroup and as
// many stages as fit.
func.func @matmul_pipelined_f16(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
                  %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xf16>
  %grid_m = arith.ceildivui %m, %c128 : index
  %grid_n = arith.ceildivui %n, %c128 : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %lhs_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %output_s = croq.alloc : !croq.tile<128x128xf16, shared>
    %zero = arith.constant 0.0 : f32
    %mc0 = croq.mma.fill %zero : !croq.acc<128x128xf32>
    %mc = scf.for %iv_k = %c0 to %k_tiles step %c1
        iter_args(%acc = %mc0) -> (!croq.acc<128x128xf32>) {
      %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
      croq.copy tma zfill swizzle = 128 %a -> %lhs_s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      %b = croq.subspan %rhs [128, 64] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
      croq.copy tma zfill swizzle = 128 %b -> %rhs_s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      %sum = scf.for %iv_warp = %c0 to %c4 step %c1
          iter_args(%part = %acc) -> (!croq.acc<128x128xf32>) {
        %ak = croq.chunkat %lhs_s[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
        %ma = croq.mma.load %ak : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
        %bk = croq.chunkat %rhs_s[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
        %mb = croq.mma.load %bk : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
        %next = croq.mma row row %part, %ma, %mb : !croq.frag<128x16xf16>, !croq.frag<128x16xf16> -> !croq.acc<128x128xf32>
        scf.yield %next : !croq.acc<128x128xf32>
      }
      %done = croq.mma.commit %sum : !croq.acc<128x128xf32>
      scf.yield %done : !croq.acc<128x128xf32>
    }
    croq.mma.store %mc -> %output_s : !croq.acc<128x128xf32> -> !croq.tile<128x128xf16, shared>
    %out_tile = croq.subspan %output [128, 128] at [%block_m, %block_n] : memref<?x?xf16> -> !croq.view<128x128xf16>
    croq.copy dma %output_s -> %out_tile : !croq.tile<128x128xf16, shared> -> !croq.view<128x128xf16>
  }
  return
}

// Pipelined in place: 3 stages, the block's one warpgroup issues the loads
// two iterations ahead.
func.func @matmul_pipelined_inplace_f16(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
                  %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xf16>
  %grid_m = arith.ceildivui %m, %c128 : index
  %grid_n = arith.ceildivui %n, %c128 : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %lhs_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %output_s = croq.alloc : !croq.tile<128x128xf16, shared>
    %zero = arith.constant 0.0 : f32
    %mc0 = croq.mma.fill %zero : !croq.acc<128x128xf32>
    %mc = scf.for %iv_k = %c0 to %k_tiles step %c1
        iter_args(%acc = %mc0) -> (!croq.acc<128x128xf32>) {
      %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
      croq.copy tma zfill swizzle = 128 %a -> %lhs_s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      %b = croq.subspan %rhs [128, 64] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
      croq.copy tma zfill swizzle = 128 %b -> %rhs_s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      %sum = scf.for %iv_warp = %c0 to %c4 step %c1
          iter_args(%part = %acc) -> (!croq.acc<128x128xf32>) {
        %ak = croq.chunkat %lhs_s[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
        %ma = croq.mma.load %ak : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
        %bk = croq.chunkat %rhs_s[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
        %mb = croq.mma.load %bk : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
        %next = croq.mma row row %part, %ma, %mb : !croq.frag<128x16xf16>, !croq.frag<128x16xf16> -> !croq.acc<128x128xf32>
        scf.yield %next : !croq.acc<128x128xf32>
      }
      %done = croq.mma.commit %sum : !croq.acc<128x128xf32>
      scf.yield %done : !croq.acc<128x128xf32>
    } {croq.stages = 3 : i64, croq.warp_specialize = false}
    croq.mma.store %mc -> %output_s : !croq.acc<128x128xf32> -> !croq.tile<128x128xf16, shared>
    %out_tile = croq.subspan %output [128, 128] at [%block_m, %block_n] : memref<?x?xf16> -> !croq.view<128x128xf16>
    croq.copy dma %output_s -> %out_tile : !croq.tile<128x128xf16, shared> -> !croq.view<128x128xf16>
  }
  return
}

// The warp-specialized ring for bf16.
func.func @matmul_pipelined_bf16(%lhs: memref<?x?xbf16>, %rhs: memref<?x?xbf16>,
                  %output: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xbf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xbf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xbf16>
  %grid_m = arith.ceildivui %m, %c128 : index
  %grid_n = arith.ceildivui %n, %c128 : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %lhs_s = croq.alloc : !croq.tile<128x64xbf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tile<128x64xbf16, shared, swizzle = 128>
    %output_s = croq.alloc : !croq.tile<128x128xbf16, shared>
    %zero = arith.constant 0.0 : f32
    %mc0 = croq.mma.fill %zero : !croq.acc<128x128xf32>
    %mc = scf.for %iv_k = %c0 to %k_tiles step %c1
        iter_args(%acc = %mc0) -> (!croq.acc<128x128xf32>) {
      %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xbf16> -> !croq.view<128x64xbf16>
      croq.copy tma zfill swizzle = 128 %a -> %lhs_s : !croq.view<128x64xbf16> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
      %b = croq.subspan %rhs [128, 64] at [%block_n, %iv_k] : memref<?x?xbf16> -> !croq.view<128x64xbf16>
      croq.copy tma zfill swizzle = 128 %b -> %rhs_s : !croq.view<128x64xbf16> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
      %sum = scf.for %iv_warp = %c0 to %c4 step %c1
          iter_args(%part = %acc) -> (!croq.acc<128x128xf32>) {
        %ak = croq.chunkat %lhs_s[_, %iv_warp] of [1, 4] : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.view<128x16xbf16, shared, swizzle = 128>
        %ma = croq.mma.load %ak : !croq.view<128x16xbf16, shared, swizzle = 128> -> !croq.frag<128x16xbf16>
        %bk = croq.chunkat %rhs_s[_, %iv_warp] of [1, 4] : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.view<128x16xbf16, shared, swizzle = 128>
        %mb = croq.mma.load %bk : !croq.view<128x16xbf16, shared, swizzle = 128> -> !croq.frag<128x16xbf16>
        %next = croq.mma row row %part, %ma, %mb : !croq.frag<128x16xbf16>, !croq.frag<128x16xbf16> -> !croq.acc<128x128xf32>
        scf.yield %next : !croq.acc<128x128xf32>
      }
      %done = croq.mma.commit %sum : !croq.acc<128x128xf32>
      scf.yield %done : !croq.acc<128x128xf32>
    }
    croq.mma.store %mc -> %output_s : !croq.acc<128x128xf32> -> !croq.tile<128x128xbf16, shared>
    %out_tile = croq.subspan %output [128, 128] at [%block_m, %block_n] : memref<?x?xbf16> -> !croq.view<128x128xbf16>
    croq.copy dma %output_s -> %out_tile : !croq.tile<128x128xbf16, shared> -> !croq.view<128x128xbf16>
  }
  return
}

// Two consumer warpgroups (64 rows each) on a 128x256 tile, wgmma kept one group ahead (commit pending = 1), f16, stored straight to global memory.
func.func @matmul_ws2_f16(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
                  %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %cnk = arith.constant 4 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 256 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xf16>
  %grid_m = arith.ceildivui %m, %cbm : index
  %grid_n = arith.ceildivui %n, %cbn : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %full = croq.event.alloc : !croq.events<4>
    %empty = croq.event.alloc ready : !croq.events<4>
    %lhs_s = croq.alloc : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<4 x 256x64xf16, shared, swizzle = 128>
    %block_m2 = arith.muli %block_m, %c2 : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %iv_k = %c0 to %k_tiles step %c1 {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %empty[%stage] : !croq.events<4>
          %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %b = croq.subspan %rhs [256, 64] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<256x64xf16>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<4 x 256x64xf16, shared, swizzle = 128>
          %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<256x64xf16> -> !croq.tile<256x64xf16, shared, swizzle = 128>
          croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<4>
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %row_block = arith.addi %block_m2, %half : index
        %zero = arith.constant 0.0 : f32
        %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
        %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
            iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %full[%stage] : !croq.events<4>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<4 x 256x64xf16, shared, swizzle = 128>
          %sum = scf.for %iv_warp = %c0 to %cnk step %c1
              iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
            %ak = croq.subspan %as [64, 16] at [%half, %iv_warp] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<64x16xf16, shared, swizzle = 128>
            %ma = croq.mma.load %ak : !croq.view<64x16xf16, shared, swizzle = 128> -> !croq.frag<64x16xf16>
            %bk = croq.chunkat %bs[_, %iv_warp] of [1, 4] : !croq.tile<256x64xf16, shared, swizzle = 128> -> !croq.view<256x16xf16, shared, swizzle = 128>
            %mb = croq.mma.load %bk : !croq.view<256x16xf16, shared, swizzle = 128> -> !croq.frag<256x16xf16>
            %next = croq.mma row row %part, %ma, %mb : !croq.frag<64x16xf16>, !croq.frag<256x16xf16> -> !croq.acc<64x256xf32>
            scf.yield %next : !croq.acc<64x256xf32>
          }
          %done = croq.mma.commit %sum pending = 1 : !croq.acc<64x256xf32>
          // The mma of the previous iteration has completed: free its stage.
          %has_prev = arith.cmpi ugt, %iv_k, %c0 : index
          scf.if %has_prev {
            %prev_k = arith.subi %iv_k, %c1 : index
            %prev = arith.remui %prev_k, %c4 : index
            croq.event.trigger %empty[%prev] : !croq.events<4>
          }
          scf.yield %done : !croq.acc<64x256xf32>
        }
        %mc = croq.mma.commit %mc_pending : !croq.acc<64x256xf32>
        %out_tile = croq.subspan %output [64, 256] at [%row_block, %block_n] : memref<?x?xf16> -> !croq.view<64x256xf16>
        croq.mma.store %mc -> %out_tile : !croq.acc<64x256xf32> -> !croq.view<64x256xf16>
      }
    }
  }
  return
}

// The same for bf16.
func.func @matmul_ws2_bf16(%lhs: memref<?x?xbf16>, %rhs: memref<?x?xbf16>,
                  %output: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %cnk = arith.constant 4 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 256 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xbf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xbf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xbf16>
  %grid_m = arith.ceildivui %m, %cbm : index
  %grid_n = arith.ceildivui %n, %cbn : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %full = croq.event.alloc : !croq.events<4>
    %empty = croq.event.alloc ready : !croq.events<4>
    %lhs_s = croq.alloc : !croq.tiles<4 x 128x64xbf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<4 x 256x64xbf16, shared, swizzle = 128>
    %block_m2 = arith.muli %block_m, %c2 : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %iv_k = %c0 to %k_tiles step %c1 {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %empty[%stage] : !croq.events<4>
          %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xbf16> -> !croq.view<128x64xbf16>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<4 x 128x64xbf16, shared, swizzle = 128>
          %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x64xbf16> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
          %b = croq.subspan %rhs [256, 64] at [%block_n, %iv_k] : memref<?x?xbf16> -> !croq.view<256x64xbf16>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<4 x 256x64xbf16, shared, swizzle = 128>
          %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<256x64xbf16> -> !croq.tile<256x64xbf16, shared, swizzle = 128>
          croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<4>
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %row_block = arith.addi %block_m2, %half : index
        %zero = arith.constant 0.0 : f32
        %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
        %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
            iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %full[%stage] : !croq.events<4>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<4 x 128x64xbf16, shared, swizzle = 128>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<4 x 256x64xbf16, shared, swizzle = 128>
          %sum = scf.for %iv_warp = %c0 to %cnk step %c1
              iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
            %ak = croq.subspan %as [64, 16] at [%half, %iv_warp] : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.view<64x16xbf16, shared, swizzle = 128>
            %ma = croq.mma.load %ak : !croq.view<64x16xbf16, shared, swizzle = 128> -> !croq.frag<64x16xbf16>
            %bk = croq.chunkat %bs[_, %iv_warp] of [1, 4] : !croq.tile<256x64xbf16, shared, swizzle = 128> -> !croq.view<256x16xbf16, shared, swizzle = 128>
            %mb = croq.mma.load %bk : !croq.view<256x16xbf16, shared, swizzle = 128> -> !croq.frag<256x16xbf16>
            %next = croq.mma row row %part, %ma, %mb : !croq.frag<64x16xbf16>, !croq.frag<256x16xbf16> -> !croq.acc<64x256xf32>
            scf.yield %next : !croq.acc<64x256xf32>
          }
          %done = croq.mma.commit %sum pending = 1 : !croq.acc<64x256xf32>
          // The mma of the previous iteration has completed: free its stage.
          %has_prev = arith.cmpi ugt, %iv_k, %c0 : index
          scf.if %has_prev {
            %prev_k = arith.subi %iv_k, %c1 : index
            %prev = arith.remui %prev_k, %c4 : index
            croq.event.trigger %empty[%prev] : !croq.events<4>
          }
          scf.yield %done : !croq.acc<64x256xf32>
        }
        %mc = croq.mma.commit %mc_pending : !croq.acc<64x256xf32>
        %out_tile = croq.subspan %output [64, 256] at [%row_block, %block_n] : memref<?x?xbf16> -> !croq.view<64x256xbf16>
        croq.mma.store %mc -> %out_tile : !croq.acc<64x256xf32> -> !croq.view<64x256xbf16>
      }
    }
  }
  return
}

// One consumer warpgroup on a 128x128 tile with commit pending = 1.
func.func @matmul_ws1_pending_f16(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
                  %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %cnk = arith.constant 4 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 128 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xf16>
  %grid_m = arith.ceildivui %m, %cbm : index
  %grid_n = arith.ceildivui %n, %cbn : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %full = croq.event.alloc : !croq.events<4>
    %empty = croq.event.alloc ready : !croq.events<4>
    %lhs_s = croq.alloc : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
    %block_m2 = arith.muli %block_m, %c2 : index
    croq.parallel (%p) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %iv_k = %c0 to %k_tiles step %c1 {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %empty[%stage] : !croq.events<4>
          %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %b = croq.subspan %rhs [128, 64] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<4>
        }
      }
      croq.inthreads async %is_consumer {

        %zero = arith.constant 0.0 : f32
        %mc0 = croq.mma.fill %zero : !croq.acc<128x128xf32>
        %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
            iter_args(%acc = %mc0) -> (!croq.acc<128x128xf32>) {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %full[%stage] : !croq.events<4>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %sum = scf.for %iv_warp = %c0 to %cnk step %c1
              iter_args(%part = %acc) -> (!croq.acc<128x128xf32>) {
            %ak = croq.chunkat %as[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
            %ma = croq.mma.load %ak : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
            %bk = croq.chunkat %bs[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
            %mb = croq.mma.load %bk : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
            %next = croq.mma row row %part, %ma, %mb : !croq.frag<128x16xf16>, !croq.frag<128x16xf16> -> !croq.acc<128x128xf32>
            scf.yield %next : !croq.acc<128x128xf32>
          }
          %done = croq.mma.commit %sum pending = 1 : !croq.acc<128x128xf32>
          // The mma of the previous iteration has completed: free its stage.
          %has_prev = arith.cmpi ugt, %iv_k, %c0 : index
          scf.if %has_prev {
            %prev_k = arith.subi %iv_k, %c1 : index
            %prev = arith.remui %prev_k, %c4 : index
            croq.event.trigger %empty[%prev] : !croq.events<4>
          }
          scf.yield %done : !croq.acc<128x128xf32>
        }
        %mc = croq.mma.commit %mc_pending : !croq.acc<128x128xf32>
        %out_tile = croq.subspan %output [128, 128] at [%block_m, %block_n] : memref<?x?xf16> -> !croq.view<128x128xf16>
        croq.mma.store %mc -> %out_tile : !croq.acc<128x128xf32> -> !croq.view<128x128xf16>
      }
    }
  }
  return
}

// Persistent: one block per SM (132) walks the 128x256 tiles in groups of 8
// tile rows; one ring over all the block's tiles; epilogue through shared
// memory.
func.func @matmul_persistent_f16(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
                  %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %cnk = arith.constant 4 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 256 : index
  %csm = arith.constant 132 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xf16>
  %tiles_m = arith.ceildivui %m, %cbm : index
  %tiles_n = arith.ceildivui %n, %cbn : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %grid = arith.minui %tiles, %csm : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  %in_group = arith.muli %tiles_n, %c8 : index
  croq.parallel (%bid) in [%grid] : block {
    %full = croq.event.alloc : !croq.events<3>
    %empty = croq.event.alloc ready : !croq.events<3>
    %lhs_s = croq.alloc : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
    %out_s = croq.alloc : !croq.tiles<2 x 64x256xf16, shared>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          scf.for %iv_k = %c0 to %k_tiles step %c1 {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %empty[%stage] : !croq.events<3>
            %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
            %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
            %b = croq.subspan %rhs [256, 64] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<256x64xf16>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
            %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<256x64xf16> -> !croq.tile<256x64xf16, shared, swizzle = 128>
            croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<3>
          }
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %os = croq.stage %out_s[%half] : !croq.tiles<2 x 64x256xf16, shared>
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          %block_m2 = arith.muli %block_m, %c2 : index
          %row_block = arith.addi %block_m2, %half : index
          %zero = arith.constant 0.0 : f32
          %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
          %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
              iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %full[%stage] : !croq.events<3>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
            %sum = scf.for %iv_warp = %c0 to %cnk step %c1
                iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
              %ak = croq.subspan %as [64, 16] at [%half, %iv_warp] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<64x16xf16, shared, swizzle = 128>
              %ma = croq.mma.load %ak : !croq.view<64x16xf16, shared, swizzle = 128> -> !croq.frag<64x16xf16>
              %bk = croq.chunkat %bs[_, %iv_warp] of [1, 4] : !croq.tile<256x64xf16, shared, swizzle = 128> -> !croq.view<256x16xf16, shared, swizzle = 128>
              %mb = croq.mma.load %bk : !croq.view<256x16xf16, shared, swizzle = 128> -> !croq.frag<256x16xf16>
              %next = croq.mma row row %part, %ma, %mb : !croq.frag<64x16xf16>, !croq.frag<256x16xf16> -> !croq.acc<64x256xf32>
              scf.yield %next : !croq.acc<64x256xf32>
            }
            %done = croq.mma.commit %sum pending = 1 : !croq.acc<64x256xf32>
            // The mma of the previous iteration, of this tile or of the
            // block's previous one, has completed: free its stage.
            %has_prev = arith.cmpi ugt, %g, %c0 : index
            scf.if %has_prev {
              %prev_g = arith.subi %g, %c1 : index
              %prev = arith.remui %prev_g, %c3 : index
              croq.event.trigger %empty[%prev] : !croq.events<3>
            }
            scf.yield %done : !croq.acc<64x256xf32>
          }
          %mc = croq.mma.commit %mc_pending : !croq.acc<64x256xf32>
          croq.mma.store %mc -> %os : !croq.acc<64x256xf32> -> !croq.tile<64x256xf16, shared>
          %out_tile = croq.subspan %output [64, 256] at [%row_block, %block_n] : memref<?x?xf16> -> !croq.view<64x256xf16>
          croq.copy dma %os -> %out_tile : !croq.tile<64x256xf16, shared> -> !croq.view<64x256xf16>
        }
      }
    }
  }
  return
}

// The epilogue of the TMA-store kernel: wait until the previous tile's
// store has read the shared tile, 16 stmatrix.x4 of the 64x256 half, a
// proxy fence, the first thread's four slab stores in one bulk group and
// no wait; before the block returns its bulk groups have read their tiles.
// TMASTORE: cp.async.bulk.wait_group.read 0;
// TMASTORE-COUNT-16: stmatrix.sync.aligned.m8n8.x4.shared.b16
// TMASTORE: fence.proxy.async.shared::cta;
// TMASTORE-COUNT-4: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// TMASTORE-NEXT: cp.async.bulk.commit_group;
// TMASTORE-NOT: cp.async.bulk.wait_group
// TMASTORE: cp.async.bulk.wait_group.read 0;
// TMASTORE-NEXT: bar.sync 0;
// TMASTORE-NEXT: ret;

// The persistent kernel with its epilogue stored by TMA, left in flight: each
// consumer's first thread issues the bulk store of its 64x256 shared tile and
// the warpgroup goes on to the next tile's wgmma; before its next mma.store
// into that tile the compiler makes it wait until the store has read it.
func.func @matmul_persistent_tma_store_f16(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
                  %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %cnk = arith.constant 4 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 256 : index
  %csm = arith.constant 132 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xf16>
  %tiles_m = arith.ceildivui %m, %cbm : index
  %tiles_n = arith.ceildivui %n, %cbn : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %grid = arith.minui %tiles, %csm : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  %in_group = arith.muli %tiles_n, %c8 : index
  croq.parallel (%bid) in [%grid] : block {
    %full = croq.event.alloc : !croq.events<3>
    %empty = croq.event.alloc ready : !croq.events<3>
    %lhs_s = croq.alloc : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
    %out_s = croq.alloc : !croq.tiles<2 x 64x256xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          scf.for %iv_k = %c0 to %k_tiles step %c1 {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %empty[%stage] : !croq.events<3>
            %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
            %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
            %b = croq.subspan %rhs [256, 64] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<256x64xf16>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
            %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<256x64xf16> -> !croq.tile<256x64xf16, shared, swizzle = 128>
            croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<3>
          }
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %os = croq.stage %out_s[%half] : !croq.tiles<2 x 64x256xf16, shared, swizzle = 128>
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          %block_m2 = arith.muli %block_m, %c2 : index
          %row_block = arith.addi %block_m2, %half : index
          %zero = arith.constant 0.0 : f32
          %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
          %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
              iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %full[%stage] : !croq.events<3>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
            %sum = scf.for %iv_warp = %c0 to %cnk step %c1
                iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
              %ak = croq.subspan %as [64, 16] at [%half, %iv_warp] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<64x16xf16, shared, swizzle = 128>
              %ma = croq.mma.load %ak : !croq.view<64x16xf16, shared, swizzle = 128> -> !croq.frag<64x16xf16>
              %bk = croq.chunkat %bs[_, %iv_warp] of [1, 4] : !croq.tile<256x64xf16, shared, swizzle = 128> -> !croq.view<256x16xf16, shared, swizzle = 128>
              %mb = croq.mma.load %bk : !croq.view<256x16xf16, shared, swizzle = 128> -> !croq.frag<256x16xf16>
              %next = croq.mma row row %part, %ma, %mb : !croq.frag<64x16xf16>, !croq.frag<256x16xf16> -> !croq.acc<64x256xf32>
              scf.yield %next : !croq.acc<64x256xf32>
            }
            %done = croq.mma.commit %sum pending = 1 : !croq.acc<64x256xf32>
            // The mma of the previous iteration, of this tile or of the
            // block's previous one, has completed: free its stage.
            %has_prev = arith.cmpi ugt, %g, %c0 : index
            scf.if %has_prev {
              %prev_g = arith.subi %g, %c1 : index
              %prev = arith.remui %prev_g, %c3 : index
              croq.event.trigger %empty[%prev] : !croq.events<3>
            }
            scf.yield %done : !croq.acc<64x256xf32>
          }
          %mc = croq.mma.commit %mc_pending : !croq.acc<64x256xf32>
          croq.mma.store %mc -> %os : !croq.acc<64x256xf32> -> !croq.tile<64x256xf16, shared, swizzle = 128>
          %out_tile = croq.subspan %output [64, 256] at [%row_block, %block_n] : memref<?x?xf16> -> !croq.view<64x256xf16>
          %stored = croq.copy tma async swizzle = 128 %os -> %out_tile : !croq.tile<64x256xf16, shared, swizzle = 128> -> !croq.view<64x256xf16>
        }
      }
    }
  }
  return
}

// The persistent TMA-store kernel with a fused epilogue computed on the
// accumulator in registers (croq.mma.map) before the store:
// out = relu(0.5 * (lhs x rhs^T) + bias[col]). Each consumer thread scales,
// adds its 128 registers between the last wgmma wait and the stmatrix
// stores, reading the bias from global memory (64 loads: the two rows of a
// column share one); the clamp is left to the conversion to f16
// (croq-fold-store-relu: cvt.rn.relu.f16x2.f32, one a pair of registers,
// no max); no more spills than the kernel without the epilogue (20 bytes,
// as @matmul_persistent_tma_store_f16; 8 before croq-unswitch-tma-fallbacks
// gave the producer a second version of its tile loop).
// EPILOGUE: wgmma.wait_group.sync.aligned 0;
// EPILOGUE-NOT: max.NaN.f32
// EPILOGUE-COUNT-64: cvt.rn.relu.f16x2.f32
// EPILOGUE-NOT: max.NaN.f32
// EPILOGUE: stmatrix.sync.aligned.m8n8.x4.shared.b16
// EPILOGUE-PTXAS: 24 bytes stack frame, 20 bytes spill stores, 20 bytes spill loads
func.func @matmul_persistent_epilogue_f16(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
                  %bias: memref<?xf32>, %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %cnk = arith.constant 4 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 256 : index
  %csm = arith.constant 132 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xf16>
  %tiles_m = arith.ceildivui %m, %cbm : index
  %tiles_n = arith.ceildivui %n, %cbn : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %grid = arith.minui %tiles, %csm : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  %in_group = arith.muli %tiles_n, %c8 : index
  croq.parallel (%bid) in [%grid] : block {
    %full = croq.event.alloc : !croq.events<3>
    %empty = croq.event.alloc ready : !croq.events<3>
    %lhs_s = croq.alloc : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
    %out_s = croq.alloc : !croq.tiles<2 x 64x256xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          scf.for %iv_k = %c0 to %k_tiles step %c1 {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %empty[%stage] : !croq.events<3>
            %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
            %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
            %b = croq.subspan %rhs [256, 64] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<256x64xf16>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
            %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<256x64xf16> -> !croq.tile<256x64xf16, shared, swizzle = 128>
            croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<3>
          }
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %os = croq.stage %out_s[%half] : !croq.tiles<2 x 64x256xf16, shared, swizzle = 128>
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          %block_m2 = arith.muli %block_m, %c2 : index
          %row_block = arith.addi %block_m2, %half : index
          %zero = arith.constant 0.0 : f32
          %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
          %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
              iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %full[%stage] : !croq.events<3>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
            %sum = scf.for %iv_warp = %c0 to %cnk step %c1
                iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
              %ak = croq.subspan %as [64, 16] at [%half, %iv_warp] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<64x16xf16, shared, swizzle = 128>
              %ma = croq.mma.load %ak : !croq.view<64x16xf16, shared, swizzle = 128> -> !croq.frag<64x16xf16>
              %bk = croq.chunkat %bs[_, %iv_warp] of [1, 4] : !croq.tile<256x64xf16, shared, swizzle = 128> -> !croq.view<256x16xf16, shared, swizzle = 128>
              %mb = croq.mma.load %bk : !croq.view<256x16xf16, shared, swizzle = 128> -> !croq.frag<256x16xf16>
              %next = croq.mma row row %part, %ma, %mb : !croq.frag<64x16xf16>, !croq.frag<256x16xf16> -> !croq.acc<64x256xf32>
              scf.yield %next : !croq.acc<64x256xf32>
            }
            %done = croq.mma.commit %sum pending = 1 : !croq.acc<64x256xf32>
            // The mma of the previous iteration, of this tile or of the
            // block's previous one, has completed: free its stage.
            %has_prev = arith.cmpi ugt, %g, %c0 : index
            scf.if %has_prev {
              %prev_g = arith.subi %g, %c1 : index
              %prev = arith.remui %prev_g, %c3 : index
              croq.event.trigger %empty[%prev] : !croq.events<3>
            }
            scf.yield %done : !croq.acc<64x256xf32>
          }
          %mc = croq.mma.commit %mc_pending : !croq.acc<64x256xf32>
          // The epilogue in registers: out = relu(0.5 * acc + bias[col]),
          // bias read only inside the tensor (columns past N read bias[0]).
          %col_base = arith.muli %block_n, %cbn : index
          %half_f = arith.constant 0.5 : f32
          %ep = croq.mma.map %mc (%i, %j, %x) : !croq.acc<64x256xf32> {
            %col = arith.addi %col_base, %j : index
            %inside = arith.cmpi ult, %col, %n : index
            %at = arith.select %inside, %col, %c0 : index
            %bv = croq.read %bias[%at] : memref<?xf32>
            %scaled = arith.mulf %x, %half_f : f32
            %sum = arith.addf %scaled, %bv : f32
            %relu = arith.maximumf %sum, %zero : f32
            croq.yield %relu : f32
          }
          croq.mma.store %ep -> %os : !croq.acc<64x256xf32> -> !croq.tile<64x256xf16, shared, swizzle = 128>
          %out_tile = croq.subspan %output [64, 256] at [%row_block, %block_n] : memref<?x?xf16> -> !croq.view<64x256xf16>
          %stored = croq.copy tma async swizzle = 128 %os -> %out_tile : !croq.tile<64x256xf16, shared, swizzle = 128> -> !croq.view<64x256xf16>
        }
      }
    }
  }
  return
}

// The same for bf16.
func.func @matmul_persistent_tma_store_bf16(%lhs: memref<?x?xbf16>, %rhs: memref<?x?xbf16>,
                  %output: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %cnk = arith.constant 4 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 256 : index
  %csm = arith.constant 132 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xbf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xbf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xbf16>
  %tiles_m = arith.ceildivui %m, %cbm : index
  %tiles_n = arith.ceildivui %n, %cbn : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %grid = arith.minui %tiles, %csm : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  %in_group = arith.muli %tiles_n, %c8 : index
  croq.parallel (%bid) in [%grid] : block {
    %full = croq.event.alloc : !croq.events<3>
    %empty = croq.event.alloc ready : !croq.events<3>
    %lhs_s = croq.alloc : !croq.tiles<3 x 128x64xbf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<3 x 256x64xbf16, shared, swizzle = 128>
    %out_s = croq.alloc : !croq.tiles<2 x 64x256xbf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          scf.for %iv_k = %c0 to %k_tiles step %c1 {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %empty[%stage] : !croq.events<3>
            %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xbf16> -> !croq.view<128x64xbf16>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 128x64xbf16, shared, swizzle = 128>
            %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x64xbf16> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
            %b = croq.subspan %rhs [256, 64] at [%block_n, %iv_k] : memref<?x?xbf16> -> !croq.view<256x64xbf16>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x64xbf16, shared, swizzle = 128>
            %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<256x64xbf16> -> !croq.tile<256x64xbf16, shared, swizzle = 128>
            croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<3>
          }
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %os = croq.stage %out_s[%half] : !croq.tiles<2 x 64x256xbf16, shared, swizzle = 128>
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          %block_m2 = arith.muli %block_m, %c2 : index
          %row_block = arith.addi %block_m2, %half : index
          %zero = arith.constant 0.0 : f32
          %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
          %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
              iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %full[%stage] : !croq.events<3>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 128x64xbf16, shared, swizzle = 128>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x64xbf16, shared, swizzle = 128>
            %sum = scf.for %iv_warp = %c0 to %cnk step %c1
                iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
              %ak = croq.subspan %as [64, 16] at [%half, %iv_warp] : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.view<64x16xbf16, shared, swizzle = 128>
              %ma = croq.mma.load %ak : !croq.view<64x16xbf16, shared, swizzle = 128> -> !croq.frag<64x16xbf16>
              %bk = croq.chunkat %bs[_, %iv_warp] of [1, 4] : !croq.tile<256x64xbf16, shared, swizzle = 128> -> !croq.view<256x16xbf16, shared, swizzle = 128>
              %mb = croq.mma.load %bk : !croq.view<256x16xbf16, shared, swizzle = 128> -> !croq.frag<256x16xbf16>
              %next = croq.mma row row %part, %ma, %mb : !croq.frag<64x16xbf16>, !croq.frag<256x16xbf16> -> !croq.acc<64x256xf32>
              scf.yield %next : !croq.acc<64x256xf32>
            }
            %done = croq.mma.commit %sum pending = 1 : !croq.acc<64x256xf32>
            // The mma of the previous iteration, of this tile or of the
            // block's previous one, has completed: free its stage.
            %has_prev = arith.cmpi ugt, %g, %c0 : index
            scf.if %has_prev {
              %prev_g = arith.subi %g, %c1 : index
              %prev = arith.remui %prev_g, %c3 : index
              croq.event.trigger %empty[%prev] : !croq.events<3>
            }
            scf.yield %done : !croq.acc<64x256xf32>
          }
          %mc = croq.mma.commit %mc_pending : !croq.acc<64x256xf32>
          croq.mma.store %mc -> %os : !croq.acc<64x256xf32> -> !croq.tile<64x256xbf16, shared, swizzle = 128>
          %out_tile = croq.subspan %output [64, 256] at [%row_block, %block_n] : memref<?x?xbf16> -> !croq.view<64x256xbf16>
          %stored = croq.copy tma async swizzle = 128 %os -> %out_tile : !croq.tile<64x256xbf16, shared, swizzle = 128> -> !croq.view<64x256xbf16>
        }
      }
    }
  }
  return
}

func.func @matmul_persistent_bf16(%lhs: memref<?x?xbf16>, %rhs: memref<?x?xbf16>,
                  %output: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %cnk = arith.constant 4 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 256 : index
  %csm = arith.constant 132 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xbf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xbf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xbf16>
  %tiles_m = arith.ceildivui %m, %cbm : index
  %tiles_n = arith.ceildivui %n, %cbn : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %grid = arith.minui %tiles, %csm : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  %in_group = arith.muli %tiles_n, %c8 : index
  croq.parallel (%bid) in [%grid] : block {
    %full = croq.event.alloc : !croq.events<3>
    %empty = croq.event.alloc ready : !croq.events<3>
    %lhs_s = croq.alloc : !croq.tiles<3 x 128x64xbf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<3 x 256x64xbf16, shared, swizzle = 128>
    %out_s = croq.alloc : !croq.tiles<2 x 64x256xbf16, shared>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          scf.for %iv_k = %c0 to %k_tiles step %c1 {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %empty[%stage] : !croq.events<3>
            %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xbf16> -> !croq.view<128x64xbf16>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 128x64xbf16, shared, swizzle = 128>
            %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x64xbf16> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
            %b = croq.subspan %rhs [256, 64] at [%block_n, %iv_k] : memref<?x?xbf16> -> !croq.view<256x64xbf16>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x64xbf16, shared, swizzle = 128>
            %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<256x64xbf16> -> !croq.tile<256x64xbf16, shared, swizzle = 128>
            croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<3>
          }
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %os = croq.stage %out_s[%half] : !croq.tiles<2 x 64x256xbf16, shared>
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          %block_m2 = arith.muli %block_m, %c2 : index
          %row_block = arith.addi %block_m2, %half : index
          %zero = arith.constant 0.0 : f32
          %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
          %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
              iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %full[%stage] : !croq.events<3>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 128x64xbf16, shared, swizzle = 128>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x64xbf16, shared, swizzle = 128>
            %sum = scf.for %iv_warp = %c0 to %cnk step %c1
                iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
              %ak = croq.subspan %as [64, 16] at [%half, %iv_warp] : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.view<64x16xbf16, shared, swizzle = 128>
              %ma = croq.mma.load %ak : !croq.view<64x16xbf16, shared, swizzle = 128> -> !croq.frag<64x16xbf16>
              %bk = croq.chunkat %bs[_, %iv_warp] of [1, 4] : !croq.tile<256x64xbf16, shared, swizzle = 128> -> !croq.view<256x16xbf16, shared, swizzle = 128>
              %mb = croq.mma.load %bk : !croq.view<256x16xbf16, shared, swizzle = 128> -> !croq.frag<256x16xbf16>
              %next = croq.mma row row %part, %ma, %mb : !croq.frag<64x16xbf16>, !croq.frag<256x16xbf16> -> !croq.acc<64x256xf32>
              scf.yield %next : !croq.acc<64x256xf32>
            }
            %done = croq.mma.commit %sum pending = 1 : !croq.acc<64x256xf32>
            // The mma of the previous iteration, of this tile or of the
            // block's previous one, has completed: free its stage.
            %has_prev = arith.cmpi ugt, %g, %c0 : index
            scf.if %has_prev {
              %prev_g = arith.subi %g, %c1 : index
              %prev = arith.remui %prev_g, %c3 : index
              croq.event.trigger %empty[%prev] : !croq.events<3>
            }
            scf.yield %done : !croq.acc<64x256xf32>
          }
          %mc = croq.mma.commit %mc_pending : !croq.acc<64x256xf32>
          croq.mma.store %mc -> %os : !croq.acc<64x256xf32> -> !croq.tile<64x256xbf16, shared>
          %out_tile = croq.subspan %output [64, 256] at [%row_block, %block_n] : memref<?x?xbf16> -> !croq.view<64x256xbf16>
          croq.copy dma %os -> %out_tile : !croq.tile<64x256xbf16, shared> -> !croq.view<64x256xbf16>
        }
      }
    }
  }
  return
}

// The persistent kernel on f8E4M3FN operands (K tiles of 128, wgmma k32),
// 128x128 tiles in a ring of 5 stages, f16 output: each K step's partial
// sum is added into the f32 accumulator once complete (two 64x128 f32
// accumulators per consumer; two of 64x256 would not fit in registers), as
// cuBLAS promotes: wgmma's f8 accumulator keeps fewer mantissa bits.
func.func @matmul_persistent_e4m3(%lhs: memref<?x?xf8E4M3FN>, %rhs: memref<?x?xf8E4M3FN>,
                  %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 128 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 128 : index
  %csm = arith.constant 132 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf8E4M3FN>
  %k = memref.dim %lhs, %c1 : memref<?x?xf8E4M3FN>
  %n = memref.dim %rhs, %c0 : memref<?x?xf8E4M3FN>
  %tiles_m = arith.ceildivui %m, %cbm : index
  %tiles_n = arith.ceildivui %n, %cbn : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %grid = arith.minui %tiles, %csm : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  %in_group = arith.muli %tiles_n, %c8 : index
  croq.parallel (%bid) in [%grid] : block {
    %full = croq.event.alloc : !croq.events<5>
    %empty = croq.event.alloc ready : !croq.events<5>
    %lhs_s = croq.alloc : !croq.tiles<5 x 128x128xf8E4M3FN, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<5 x 128x128xf8E4M3FN, shared, swizzle = 128>
    %out_s = croq.alloc : !croq.tiles<2 x 64x128xf16, shared>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          scf.for %iv_k = %c0 to %k_tiles step %c1 {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c5 : index
            croq.event.wait %empty[%stage] : !croq.events<5>
            %a = croq.subspan %lhs [128, 128] at [%block_m, %iv_k] : memref<?x?xf8E4M3FN> -> !croq.view<128x128xf8E4M3FN>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<5 x 128x128xf8E4M3FN, shared, swizzle = 128>
            %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x128xf8E4M3FN> -> !croq.tile<128x128xf8E4M3FN, shared, swizzle = 128>
            %b = croq.subspan %rhs [128, 128] at [%block_n, %iv_k] : memref<?x?xf8E4M3FN> -> !croq.view<128x128xf8E4M3FN>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<5 x 128x128xf8E4M3FN, shared, swizzle = 128>
            %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<128x128xf8E4M3FN> -> !croq.tile<128x128xf8E4M3FN, shared, swizzle = 128>
            croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<5>
          }
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %os = croq.stage %out_s[%half] : !croq.tiles<2 x 64x128xf16, shared>
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          %block_m2 = arith.muli %block_m, %c2 : index
          %row_block = arith.addi %block_m2, %half : index
          %zero = arith.constant 0.0 : f32
          %mc0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
          %mc = scf.for %iv_k = %c0 to %k_tiles step %c1
              iter_args(%acc = %mc0) -> (!croq.acc<64x128xf32>) {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c5 : index
            croq.event.wait %full[%stage] : !croq.events<5>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<5 x 128x128xf8E4M3FN, shared, swizzle = 128>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<5 x 128x128xf8E4M3FN, shared, swizzle = 128>
            %ak = croq.subspan %as [64, 128] at [%half, %c0] : !croq.tile<128x128xf8E4M3FN, shared, swizzle = 128> -> !croq.view<64x128xf8E4M3FN, shared, swizzle = 128>
            %ma = croq.mma.load %ak : !croq.view<64x128xf8E4M3FN, shared, swizzle = 128> -> !croq.frag<64x128xf8E4M3FN>
            %mb = croq.mma.load %bs : !croq.tile<128x128xf8E4M3FN, shared, swizzle = 128> -> !croq.frag<128x128xf8E4M3FN>
            // The K step's partial sum, from zeros (wgmma's scale-d = 0),
            // added into the f32 accumulator once complete: wgmma's f8
            // accumulator keeps fewer mantissa bits than f32.
            %fresh = croq.mma.fill %zero : !croq.acc<64x128xf32>
            %part = croq.mma row row %fresh, %ma, %mb : !croq.frag<64x128xf8E4M3FN>, !croq.frag<128x128xf8E4M3FN> -> !croq.acc<64x128xf32>
            %done = croq.mma.commit %part : !croq.acc<64x128xf32>
            croq.event.trigger %empty[%stage] : !croq.events<5>
            %sum = croq.mma.map %acc, %done (%r, %c, %x, %y) : !croq.acc<64x128xf32>, !croq.acc<64x128xf32> {
              %s = arith.addf %x, %y : f32
              croq.yield %s : f32
            }
            scf.yield %sum : !croq.acc<64x128xf32>
          }
          croq.mma.store %mc -> %os : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared>
          %out_tile = croq.subspan %output [64, 128] at [%row_block, %block_n] : memref<?x?xf16> -> !croq.view<64x128xf16>
          croq.copy dma %os -> %out_tile : !croq.tile<64x128xf16, shared> -> !croq.view<64x128xf16>
        }
      }
    }
  }
  return
}

// The persistent kernel on f8E5M2 operands, as @matmul_persistent_e4m3.
func.func @matmul_persistent_e5m2(%lhs: memref<?x?xf8E5M2>, %rhs: memref<?x?xf8E5M2>,
                  %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 128 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 128 : index
  %csm = arith.constant 132 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf8E5M2>
  %k = memref.dim %lhs, %c1 : memref<?x?xf8E5M2>
  %n = memref.dim %rhs, %c0 : memref<?x?xf8E5M2>
  %tiles_m = arith.ceildivui %m, %cbm : index
  %tiles_n = arith.ceildivui %n, %cbn : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %grid = arith.minui %tiles, %csm : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  %in_group = arith.muli %tiles_n, %c8 : index
  croq.parallel (%bid) in [%grid] : block {
    %full = croq.event.alloc : !croq.events<5>
    %empty = croq.event.alloc ready : !croq.events<5>
    %lhs_s = croq.alloc : !croq.tiles<5 x 128x128xf8E5M2, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<5 x 128x128xf8E5M2, shared, swizzle = 128>
    %out_s = croq.alloc : !croq.tiles<2 x 64x128xf16, shared>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          scf.for %iv_k = %c0 to %k_tiles step %c1 {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c5 : index
            croq.event.wait %empty[%stage] : !croq.events<5>
            %a = croq.subspan %lhs [128, 128] at [%block_m, %iv_k] : memref<?x?xf8E5M2> -> !croq.view<128x128xf8E5M2>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<5 x 128x128xf8E5M2, shared, swizzle = 128>
            %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x128xf8E5M2> -> !croq.tile<128x128xf8E5M2, shared, swizzle = 128>
            %b = croq.subspan %rhs [128, 128] at [%block_n, %iv_k] : memref<?x?xf8E5M2> -> !croq.view<128x128xf8E5M2>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<5 x 128x128xf8E5M2, shared, swizzle = 128>
            %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<128x128xf8E5M2> -> !croq.tile<128x128xf8E5M2, shared, swizzle = 128>
            croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<5>
          }
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %os = croq.stage %out_s[%half] : !croq.tiles<2 x 64x128xf16, shared>
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          %block_m2 = arith.muli %block_m, %c2 : index
          %row_block = arith.addi %block_m2, %half : index
          %zero = arith.constant 0.0 : f32
          %mc0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
          %mc = scf.for %iv_k = %c0 to %k_tiles step %c1
              iter_args(%acc = %mc0) -> (!croq.acc<64x128xf32>) {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c5 : index
            croq.event.wait %full[%stage] : !croq.events<5>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<5 x 128x128xf8E5M2, shared, swizzle = 128>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<5 x 128x128xf8E5M2, shared, swizzle = 128>
            %ak = croq.subspan %as [64, 128] at [%half, %c0] : !croq.tile<128x128xf8E5M2, shared, swizzle = 128> -> !croq.view<64x128xf8E5M2, shared, swizzle = 128>
            %ma = croq.mma.load %ak : !croq.view<64x128xf8E5M2, shared, swizzle = 128> -> !croq.frag<64x128xf8E5M2>
            %mb = croq.mma.load %bs : !croq.tile<128x128xf8E5M2, shared, swizzle = 128> -> !croq.frag<128x128xf8E5M2>
            // The K step's partial sum, from zeros (wgmma's scale-d = 0),
            // added into the f32 accumulator once complete: wgmma's f8
            // accumulator keeps fewer mantissa bits than f32.
            %fresh = croq.mma.fill %zero : !croq.acc<64x128xf32>
            %part = croq.mma row row %fresh, %ma, %mb : !croq.frag<64x128xf8E5M2>, !croq.frag<128x128xf8E5M2> -> !croq.acc<64x128xf32>
            %done = croq.mma.commit %part : !croq.acc<64x128xf32>
            croq.event.trigger %empty[%stage] : !croq.events<5>
            %sum = croq.mma.map %acc, %done (%r, %c, %x, %y) : !croq.acc<64x128xf32>, !croq.acc<64x128xf32> {
              %s = arith.addf %x, %y : f32
              croq.yield %s : f32
            }
            scf.yield %sum : !croq.acc<64x128xf32>
          }
          croq.mma.store %mc -> %os : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared>
          %out_tile = croq.subspan %output [64, 128] at [%row_block, %block_n] : memref<?x?xf16> -> !croq.view<64x128xf16>
          croq.copy dma %os -> %out_tile : !croq.tile<64x128xf16, shared> -> !croq.view<64x128xf16>
        }
      }
    }
  }
  return
}

// The seeds' style, the issue's kernel: bf16, 64x256 block tiles, a ring
// of 3 stages of 64B-swizzled 64x32 and 256x32 K steps, one consumer
// warpgroup that commits every K step and frees its stage, the
// accumulator stored straight to global memory.
func.func @matmul_seeds_bf16(%lhs: memref<?x?xbf16>, %rhs: memref<?x?xbf16>,
                             %output: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xbf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xbf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xbf16>
  %grid_m = arith.ceildivui %m, %c64 : index
  %grid_n = arith.ceildivui %n, %c256 : index
  %k_tiles = arith.ceildivui %k, %c32 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %full = croq.event.alloc : !croq.events<3>
    %empty = croq.event.alloc ready : !croq.events<3>
    %lhs_s = croq.alloc : !croq.tiles<3 x 64x32xbf16, shared, swizzle = 64>
    %rhs_s = croq.alloc : !croq.tiles<3 x 256x32xbf16, shared, swizzle = 64>
    croq.parallel (%p) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi eq, %p, %c1 : index
      croq.inthreads async %is_producer {
        scf.for %iv_k = %c0 to %k_tiles step %c1 {
          %stage = arith.remui %iv_k, %c3 : index
          croq.event.wait %empty[%stage] : !croq.events<3>
          %a = croq.subspan %lhs [64, 32] at [%block_m, %iv_k] : memref<?x?xbf16> -> !croq.view<64x32xbf16>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 64x32xbf16, shared, swizzle = 64>
          %fa = croq.copy tma async zfill swizzle = 64 %a -> %as : !croq.view<64x32xbf16> -> !croq.tile<64x32xbf16, shared, swizzle = 64>
          %b = croq.subspan %rhs [256, 32] at [%block_n, %iv_k] : memref<?x?xbf16> -> !croq.view<256x32xbf16>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x32xbf16, shared, swizzle = 64>
          %fb = croq.copy tma async zfill swizzle = 64 %b -> %bs : !croq.view<256x32xbf16> -> !croq.tile<256x32xbf16, shared, swizzle = 64>
          croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<3>
        }
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
        %mc = scf.for %iv_k = %c0 to %k_tiles step %c1
            iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
          %stage = arith.remui %iv_k, %c3 : index
          croq.event.wait %full[%stage] : !croq.events<3>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 64x32xbf16, shared, swizzle = 64>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x32xbf16, shared, swizzle = 64>
          %sum = scf.for %iv_w = %c0 to %c2 step %c1
              iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
            %ak = croq.chunkat %as[_, %iv_w] of [1, 2] : !croq.tile<64x32xbf16, shared, swizzle = 64> -> !croq.view<64x16xbf16, shared, swizzle = 64>
            %ma = croq.mma.load %ak : !croq.view<64x16xbf16, shared, swizzle = 64> -> !croq.frag<64x16xbf16>
            %bk = croq.chunkat %bs[_, %iv_w] of [1, 2] : !croq.tile<256x32xbf16, shared, swizzle = 64> -> !croq.view<256x16xbf16, shared, swizzle = 64>
            %mb = croq.mma.load %bk : !croq.view<256x16xbf16, shared, swizzle = 64> -> !croq.frag<256x16xbf16>
            %next = croq.mma row row %part, %ma, %mb : !croq.frag<64x16xbf16>, !croq.frag<256x16xbf16> -> !croq.acc<64x256xf32>
            scf.yield %next : !croq.acc<64x256xf32>
          }
          %done = croq.mma.commit %sum : !croq.acc<64x256xf32>
          croq.event.trigger %empty[%stage] : !croq.events<3>
          scf.yield %done : !croq.acc<64x256xf32>
        }
        %out_tile = croq.subspan %output [64, 256] at [%block_m, %block_n] : memref<?x?xbf16> -> !croq.view<64x256xbf16>
        croq.mma.store %mc -> %out_tile : !croq.acc<64x256xf32> -> !croq.view<64x256xbf16>
      }
    }
  }
  return
}
