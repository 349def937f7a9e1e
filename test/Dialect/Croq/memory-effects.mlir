// RUN: croq-opt %s -split-input-file --cse | FileCheck %s --check-prefix=CSE
// RUN: croq-opt %s -split-input-file --loop-invariant-code-motion | FileCheck %s --check-prefix=LICM
// RUN: croq-opt %s -split-input-file --canonicalize | FileCheck %s --check-prefix=CANON

// croq ops declare what they read and write. wgmma reads its operands from
// shared memory when it runs, so croq.mma.load and croq.mma read memory and
// are not Pure: generic passes that an embedding compiler runs before croq's
// lowering (CSE, LICM) must not merge or hoist them across a write to their
// tiles. Views only compute addresses and stay Pure, so canonicalization
// still folds and removes them.

// Two identical products separated by a copy that overwrites the A tile:
// the second reads the new contents, so CSE keeps both (and both loads).
// CSE-LABEL: func.func @cse_keeps_mma_across_copy
// CSE-COUNT-2: croq.mma.load %{{.*}} : !croq.tile<64x64xf16
// CSE: croq.mma row row
// CSE: croq.copy dma
// CSE: croq.mma.load %{{.*}} : !croq.tile<64x64xf16
// CSE: croq.mma row row
func.func @cse_keeps_mma_across_copy(%src: memref<64x64xf16>, %acc: !croq.acc<64x128xf32>,
                                     %out: memref<64x128xf32>) {
  croq.parallel (%p) in [1] : block {
    %ta = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %tb = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %a0 = croq.mma.load %ta : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
    %b0 = croq.mma.load %tb : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
    %r0 = croq.mma row row %acc, %a0, %b0 : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
    %c0 = croq.mma.commit %r0 : !croq.acc<64x128xf32>
    croq.mma.store %c0 -> %out : !croq.acc<64x128xf32> -> memref<64x128xf32>
    croq.copy dma %src -> %ta : memref<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    %a1 = croq.mma.load %ta : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
    %b1 = croq.mma.load %tb : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
    %r1 = croq.mma row row %acc, %a1, %b1 : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
    %c1 = croq.mma.commit %r1 : !croq.acc<64x128xf32>
    croq.mma.store %c1 -> %out : !croq.acc<64x128xf32> -> memref<64x128xf32>
  }
  return
}

// -----

// An mma in a loop whose A tile is rewritten every iteration reads a new
// tile each time: LICM leaves the load and the mma in the loop.
// LICM-LABEL: func.func @licm_keeps_mma_in_loop
// LICM: scf.for
// LICM: croq.copy dma
// LICM: croq.mma.load
// LICM: croq.mma row row
// LICM: scf.yield
func.func @licm_keeps_mma_in_loop(%src: memref<?x64xf16>, %acc: !croq.acc<64x128xf32>,
                                  %n: index, %out: memref<64x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  croq.parallel (%p) in [1] : block {
    %ta = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %tb = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %b = croq.mma.load %tb : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%c = %acc) -> !croq.acc<64x128xf32> {
      %v = croq.subspan %src [64, 64] at [%k, %c0] : memref<?x64xf16> -> !croq.view<64x64xf16>
      croq.copy dma %v -> %ta : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
      %a = croq.mma.load %ta : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
      %m = croq.mma row row %acc, %a, %b : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
      %d = croq.mma.commit %m : !croq.acc<64x128xf32>
      scf.yield %d : !croq.acc<64x128xf32>
    }
    croq.mma.store %r -> %out : !croq.acc<64x128xf32> -> memref<64x128xf32>
  }
  return
}

// -----

// What is really pure still folds: a view nobody uses is removed, and a
// chain of views folds into one croq.view; the accumulator fill is pure
// too. The copy, the wait and the store stay.
// CANON-LABEL: func.func @canonicalize_folds_views
// CANON-NOT: croq.mma.fill
// CANON-NOT: croq.chunkat
// CANON: croq.view %{{.*}} [64, 64]
// CANON-NOT: croq.view %
// CANON: croq.copy
// CANON: croq.wait
func.func @canonicalize_folds_views(%src: memref<256x256xf16>, %i: index, %z: f32) {
  croq.parallel (%p) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared>
    %unused = croq.chunkat %src[%i, %i] of [4, 4] : memref<256x256xf16> -> !croq.view<64x64xf16>
    %acc = croq.mma.fill %z : !croq.acc<64x128xf32>
    %outer = croq.chunkat %src[%i, _] of [2, 1] : memref<256x256xf16> -> !croq.view<128x256xf16>
    %inner = croq.chunkat %outer[%i, %i] of [2, 4] : !croq.view<128x256xf16> -> !croq.view<64x64xf16>
    %f = croq.copy dma async %inner -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared>
    croq.wait %f
  }
  return
}

// -----

// A croq.mma.map that only computes is pure (its body decides): CSE merges
// two identical ones. One that reads memory is not: a write between two
// identical maps keeps both.
// CSE-LABEL: func.func @cse_mma_map
// CSE: arith.mulf
// CSE-NOT: arith.mulf
// CSE: croq.read
// CSE: croq.write
// CSE: croq.read
// CSE: return %[[A:.*]], %[[A]], %
func.func @cse_mma_map(%acc: !croq.acc<64x64xf32>, %bias: memref<64xf32>, %v: f32)
    -> (!croq.acc<64x64xf32>, !croq.acc<64x64xf32>, !croq.acc<64x64xf32>, !croq.acc<64x64xf32>) {
  %two = arith.constant 2.0 : f32
  %a = croq.mma.map %acc (%i, %j, %x) : !croq.acc<64x64xf32> {
    %y = arith.mulf %x, %two : f32
    croq.yield %y : f32
  }
  %b = croq.mma.map %acc (%i, %j, %x) : !croq.acc<64x64xf32> {
    %y = arith.mulf %x, %two : f32
    croq.yield %y : f32
  }
  %c = croq.mma.map %acc (%i, %j, %x) : !croq.acc<64x64xf32> {
    %w = croq.read %bias[%j] : memref<64xf32>
    %y = arith.addf %x, %w : f32
    croq.yield %y : f32
  }
  %c0 = arith.constant 0 : index
  croq.write %v, %bias[%c0] : memref<64xf32>
  %d = croq.mma.map %acc (%i, %j, %x) : !croq.acc<64x64xf32> {
    %w = croq.read %bias[%j] : memref<64xf32>
    %y = arith.addf %x, %w : f32
    croq.yield %y : f32
  }
  return %a, %b, %c, %d : !croq.acc<64x64xf32>, !croq.acc<64x64xf32>, !croq.acc<64x64xf32>, !croq.acc<64x64xf32>
}

// -----

// Row reductions, conversions and vector maps only compute: CSE merges
// identical ones. A column reduction writes and reads its scratch tile: two
// identical ones stay, and a loop does not hoist one.
// CSE-LABEL: func.func @cse_register_ops
// CSE-COUNT-1: croq.mma.reduce max
// CSE-COUNT-1: croq.mma.convert
// CSE-COUNT-1: croq.vec.map
// CSE-COUNT-2: croq.mma.reduce sum
// CSE: return %[[M:.*]], %[[M]], %[[P:.*]], %[[P]], %[[V:.*]], %[[V]], %[[C:.*]], %[[D:.*]] :
func.func @cse_register_ops(%s: !croq.acc<64x64xf32>, %t: !croq.tile<4x64xf32, shared>)
    -> (!croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>,
        !croq.frag<64x64xf16, registers>, !croq.frag<64x64xf16, registers>,
        !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>,
        !croq.vec<64xf32, cols>, !croq.vec<64xf32, cols>) {
  %m1 = croq.mma.reduce max %s : !croq.acc<64x64xf32> -> !croq.vec<64xf32, rows>
  %m2 = croq.mma.reduce max %s : !croq.acc<64x64xf32> -> !croq.vec<64xf32, rows>
  %p1 = croq.mma.convert %s : !croq.acc<64x64xf32> -> !croq.frag<64x64xf16, registers>
  %p2 = croq.mma.convert %s : !croq.acc<64x64xf32> -> !croq.frag<64x64xf16, registers>
  %v1 = croq.vec.map %m1 (%i, %x) : !croq.vec<64xf32, rows> {
    %y = arith.negf %x : f32
    croq.yield %y : f32
  }
  %v2 = croq.vec.map %m1 (%i, %x) : !croq.vec<64xf32, rows> {
    %y = arith.negf %x : f32
    croq.yield %y : f32
  }
  %c1 = croq.mma.reduce sum %s scratch %t : !croq.acc<64x64xf32>, !croq.tile<4x64xf32, shared> -> !croq.vec<64xf32, cols>
  %c2 = croq.mma.reduce sum %s scratch %t : !croq.acc<64x64xf32>, !croq.tile<4x64xf32, shared> -> !croq.vec<64xf32, cols>
  return %m1, %m2, %p1, %p2, %v1, %v2, %c1, %c2 : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>,
      !croq.frag<64x64xf16, registers>, !croq.frag<64x64xf16, registers>,
      !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>,
      !croq.vec<64xf32, cols>, !croq.vec<64xf32, cols>
}

// -----

// LICM-LABEL: func.func @licm_column_reduce
// LICM: scf.for
// LICM-NEXT: croq.mma.reduce sum
func.func @licm_column_reduce(%s: !croq.acc<64x64xf32>, %t: !croq.tile<4x64xf32, shared>,
                              %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %c = croq.mma.reduce sum %s scratch %t : !croq.acc<64x64xf32>, !croq.tile<4x64xf32, shared> -> !croq.vec<64xf32, cols>
  }
  return
}

// -----

// The phase bits a thread starts with are a constant (merged by CSE); a
// phased wait blocks on the mbarrier, so two identical waits stay two (each
// waits for its own phase) and a wait in a loop is not hoisted.
// CSE-LABEL: func.func @phased_waits
// CSE:       %[[P:.*]] = croq.event.phases ready
// CSE-NOT:   croq.event.phases
// CSE:       croq.event.wait %{{.*}} phases %[[P]]
// CSE:       croq.event.wait %{{.*}} phases %[[P]]
// LICM-LABEL: func.func @phased_waits
// LICM:      scf.for
// LICM:        croq.event.wait
func.func @phased_waits(%e: !croq.events<2>, %n: index) -> (!croq.phases<2>, !croq.phases<2>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = croq.event.phases ready : !croq.phases<2>
  %q = croq.event.phases ready : !croq.phases<2>
  %a = croq.event.wait %e[%c0] phases %p : !croq.events<2>
  %b = croq.event.wait %e[%c0] phases %q : !croq.events<2>
  scf.for %i = %c0 to %n step %c1 {
    %x = croq.event.wait %e[%c1] phases %p : !croq.events<2>
  }
  return %a, %b : !croq.phases<2>, !croq.phases<2>
}

// -----

// croq.mma.cluster_sum reads and writes shared memory of the cluster's
// blocks (and synchronizes with them): two identical sums are two.
// CSE-LABEL: func.func @cse_keeps_cluster_sums
// CSE-COUNT-2: croq.mma.cluster_sum
func.func @cse_keeps_cluster_sums(%out: memref<64x128xf32>) {
  croq.parallel (%i) in [2] : block cluster [2] {
    %s = croq.alloc : !croq.tile<64x128xf32, shared>
    %z = arith.constant 1.0 : f32
    %acc = croq.mma.fill %z : !croq.acc<64x128xf32>
    %x = croq.mma.cluster_sum %acc scratch %s : !croq.acc<64x128xf32>, !croq.tile<64x128xf32, shared>
    %y = croq.mma.cluster_sum %acc scratch %s : !croq.acc<64x128xf32>, !croq.tile<64x128xf32, shared>
    croq.mma.store %x -> %out : !croq.acc<64x128xf32> -> memref<64x128xf32>
    croq.mma.store %y -> %out : !croq.acc<64x128xf32> -> memref<64x128xf32>
  }
  return
}

// -----

// croq.mma.accumulate reads and writes its destination, and the turn ops
// order memory: a read of the workspace before them is not reused after.
// CSE-LABEL: func.func @cse_keeps_reads_across_accumulate
// CSE: croq.read %[[W:.*]][
// CSE: croq.turn.wait
// CSE: croq.read %[[W]][
// CSE: croq.mma.accumulate
// CSE: croq.read %[[W]][
// CSE: croq.turn.pass
// CSE: croq.read %[[W]][
func.func @cse_keeps_reads_across_accumulate(%ws: memref<64x64xf32>, %turns: memref<?xi32>,
                                             %out: memref<4xf32>, %i: index) {
  croq.parallel (%p) in [1] : block {
    %z = arith.constant 0.0 : f32
    %acc = croq.mma.fill %z : !croq.acc<64x64xf32>
    %a = croq.read %ws[%i, %i] : memref<64x64xf32>
    croq.turn.wait %turns[%i] until %i : memref<?xi32>
    %b = croq.read %ws[%i, %i] : memref<64x64xf32>
    croq.mma.accumulate %acc -> %ws : !croq.acc<64x64xf32> -> memref<64x64xf32>
    %c = croq.read %ws[%i, %i] : memref<64x64xf32>
    croq.turn.pass %turns[%i] : memref<?xi32>
    %d = croq.read %ws[%i, %i] : memref<64x64xf32>
    croq.write %a, %out[%i] : memref<4xf32>
    croq.write %b, %out[%i] : memref<4xf32>
    croq.write %c, %out[%i] : memref<4xf32>
    croq.write %d, %out[%i] : memref<4xf32>
  }
  return
}
// -----

// croq.bulk_add reads its tile and reads and writes its destination: a read
// of either before it is not reused after, and a write to the tile before
// it stays.
// CSE-LABEL: func.func @cse_keeps_reads_across_bulk_add
// CSE: croq.read %[[T:.*]][
// CSE: croq.read %[[W:.*]][
// CSE: croq.bulk_add
// CSE: croq.read %[[W]][
// LICM-LABEL: func.func @cse_keeps_reads_across_bulk_add
// LICM: scf.for
// LICM:   croq.write
// LICM:   croq.bulk_add
func.func @cse_keeps_reads_across_bulk_add(%ws: memref<256xf32>, %out: memref<4xf32>,
                                           %i: index, %n: index) {
  croq.parallel (%p) in [1] : block {
    %t = croq.alloc : !croq.tile<16x16xf32, shared>
    %a = croq.read %t[%i, %i] : !croq.tile<16x16xf32, shared>
    %b = croq.read %ws[%i] : memref<256xf32>
    croq.bulk_add %t -> %ws : !croq.tile<16x16xf32, shared> -> memref<256xf32>
    %c = croq.read %ws[%i] : memref<256xf32>
    croq.write %a, %out[%i] : memref<4xf32>
    croq.write %b, %out[%i] : memref<4xf32>
    croq.write %c, %out[%i] : memref<4xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %k = %c0 to %n step %c1 {
      %z = arith.constant 0.0 : f32
      croq.write %z, %t[%c0, %c0] : !croq.tile<16x16xf32, shared>
      croq.bulk_add %t -> %ws : !croq.tile<16x16xf32, shared> -> memref<256xf32>
    }
  }
  return
}
