// RUN: croq-opt %s --convert-linalg-to-croq -split-input-file | FileCheck %s --implicit-check-not=linalg.

// An RMS norm as a frontend's fused linalg writes it (a sum of squares per
// row from a zero fill, then the normalized row) is one kernel: 1000
// columns take groups of 128 threads (about 8 elements a thread), two rows
// a block. The reduction folds each thread's columns in chunks of 8 f16
// (one vector read where the chunk is inside the row and aligned, element
// by element otherwise), combines each warp by shuffles and the group's
// four warps through a shared tile, and its first thread writes the row's
// sum (starting from the fill's 0); after a barrier the elementwise op
// computes the row in chunks of 8 f16, reading the row's sum.
// CHECK-LABEL: func.func @rms_norm
// CHECK: croq.parallel (%{{.*}}) in [32] : block {
// CHECK-NEXT: %[[SCRATCH:.*]] = croq.alloc : !croq.tile<8xf32, shared>
// CHECK-NEXT: croq.parallel (%[[T:.*]]) in [256] : thread {
// CHECK: scf.for %{{.*}} = %{{.*}} to %c1000 step %c1024
// CHECK: croq.is_aligned %arg0, 16
// CHECK: croq.read %arg0[%{{.*}}, %{{.*}}] in_bounds : memref<64x1000xf16> -> vector<8xf16>
// CHECK: } else {
// CHECK: croq.read %arg0[%{{.*}}, %{{.*}}] in_bounds : memref<64x1000xf16>{{$}}
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK: croq.write %{{.*}}, %[[SCRATCH]][%{{.*}}] in_bounds : !croq.tile<8xf32, shared>
// CHECK: croq.barrier block
// CHECK: croq.read %[[SCRATCH]]
// CHECK: scf.for %{{.*}} = %c1{{.*}} to %c4 step %c1
// CHECK: croq.write %{{.*}}, %[[SUMS:.*]][%{{.*}}] in_bounds : memref<64xf32>
// CHECK: croq.barrier block
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1024
// CHECK: croq.read %arg0[%{{.*}}, %{{.*}}] in_bounds : memref<64x1000xf16> -> vector<8xf16>
// CHECK: croq.read %[[SUMS]]
// CHECK: croq.write %{{.*}}, %arg2[%{{.*}}, %{{.*}}] in_bounds : memref<64x1000xf16> -> vector<8xf16>
// CHECK-NOT: croq.parallel
// CHECK: return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>
func.func @rms_norm(%x: memref<64x1000xf16>, %w: memref<1000xf16>, %out: memref<64x1000xf16>) {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 1.0e-3 : f32
  %ss = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%ss : memref<64xf32>)
  linalg.generic {indexing_maps = [#id2, #red], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x1000xf16>) outs(%ss : memref<64xf32>) {
  ^bb0(%in: f16, %acc: f32):
    %v = arith.extf %in : f16 to f32
    %sq = arith.mulf %v, %v : f32
    %r = arith.addf %sq, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #red, affine_map<(d0, d1) -> (d1)>, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %w : memref<64x1000xf16>, memref<64xf32>, memref<1000xf16>) outs(%out : memref<64x1000xf16>) {
  ^bb0(%in: f16, %s: f32, %g: f16, %o: f16):
    %v = arith.extf %in : f16 to f32
    %ms = arith.mulf %s, %inv : f32
    %rs = math.rsqrt %ms : f32
    %y = arith.mulf %v, %rs : f32
    %h = arith.truncf %y : f32 to f16
    linalg.yield %h : f16
  }
  memref.dealloc %ss : memref<64xf32>
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>

// An op over other rows between a reduction and the op that reads its
// result ends the chain: the reduction, the fill and the elementwise op are
// kernels of their own. (A copy of the same rows would have joined it.)
// CHECK-LABEL: func.func @broken
// CHECK: croq.parallel
// CHECK: gpu.shuffle
// CHECK: croq.parallel
// CHECK: croq.parallel
// CHECK-NOT: croq.barrier
// CHECK: return
func.func @broken(%x: memref<64x256xf32>, %y: memref<64x256xf32>, %other: memref<32x8xf32>, %sums: memref<64xf32>, %out: memref<64x256xf32>) {
  linalg.generic {indexing_maps = [#id2, #red], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x256xf32>) outs(%sums : memref<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  }
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%other : memref<32x8xf32>)
  linalg.generic {indexing_maps = [#id2, #red, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%y, %sums : memref<64x256xf32>, memref<64xf32>) outs(%out : memref<64x256xf32>) {
  ^bb0(%in: f32, %s: f32, %o: f32):
    %q = arith.divf %in, %s : f32
    linalg.yield %q : f32
  }
  return
}
