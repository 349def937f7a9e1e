// RUN: croq-opt %s --convert-linalg-to-croq="tile-m=128 tile-n=128 split-k=1 cluster-m=1" --canonicalize -split-input-file | FileCheck %s --implicit-check-not=linalg.
// RUN: croq-opt %s --convert-linalg-to-croq="tile-m=128 tile-n=128 split-k=1 cluster-m=1 f8-promote-steps=4" --canonicalize -split-input-file | FileCheck %s --check-prefix=GROUP
// RUN: croq-opt %s --convert-linalg-to-croq="tile-m=128 tile-n=128 split-k=1 cluster-m=1 f8-promote-steps=0" --canonicalize -split-input-file | FileCheck %s --check-prefix=NONE
// RUN: croq-opt %s --convert-linalg-to-croq -split-input-file | FileCheck %s --check-prefix=CHOSEN
// RUN: croq-opt %s --convert-linalg-to-croq="split-k=3" --canonicalize -split-input-file | FileCheck %s --check-prefix=SPLIT
// RUN: croq-opt %s --croq-specialize-contractions -split-input-file | FileCheck %s --check-prefix=SPECIALIZE

// 8-bit float products: wgmma accumulates each K step (128 elements) into a
// partial sum, which is added into the f32 main accumulator every
// f8-promote-steps steps (wgmma's f8 accumulator keeps fewer mantissa bits
// than f32).

// The default: a partial of one K step, from zeros, added once complete.
// CHECK-LABEL: func.func @e4m3
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[INIT:.*]] = croq.mma.fill %[[ZERO]] : !croq.acc<128x128xf32>
// CHECK: %[[ACC:.*]] = scf.for %{{.*}} iter_args(%[[MAIN:.*]] = %[[INIT]]) -> (!croq.acc<128x128xf32>)
// CHECK: %[[FRESH:.*]] = croq.mma.fill %[[ZERO]] : !croq.acc<128x128xf32>
// CHECK: %[[P:.*]] = croq.mma row row %[[FRESH]], %{{.*}}, %{{.*}} : !croq.frag<128x128xf8E4M3FN>, !croq.frag<128x128xf8E4M3FN> -> !croq.acc<128x128xf32>
// CHECK: %[[DONE:.*]] = croq.mma.commit %[[P]] : !croq.acc<128x128xf32>
// CHECK: %[[SUM:.*]] = croq.mma.map %[[MAIN]], %[[DONE]] (%{{.*}}, %{{.*}}, %[[X:.*]], %[[Y:.*]]) : !croq.acc<128x128xf32>, !croq.acc<128x128xf32> {
// CHECK: %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK: croq.yield %[[S]] : f32
// CHECK: scf.yield %[[SUM]] : !croq.acc<128x128xf32>
// CHECK: croq.mma.store %[[ACC]]
// A partial of four steps: added and zeroed after every fourth step and
// after the last.
// GROUP-LABEL: func.func @e4m3
// GROUP-DAG: %[[C4:.*]] = arith.constant 4 : index
// GROUP: %[[R:.*]]:2 = scf.for %[[IV:.*]] = %c0 to %[[KS:.*]] step %c1 iter_args(%[[MAIN:.*]] = %{{.*}}, %[[PART:.*]] = %{{.*}}) -> (!croq.acc<128x128xf32>, !croq.acc<128x128xf32>)
// GROUP: %[[P:.*]] = croq.mma row row %[[PART]]
// GROUP: %[[DONE:.*]] = croq.mma.commit %[[P]]
// GROUP: %[[NEXT:.*]] = arith.addi %[[IV]], %c1 : index
// GROUP: %[[REM:.*]] = arith.remui %[[NEXT]], %[[C4]] : index
// GROUP: %[[END:.*]] = arith.cmpi eq, %[[REM]], %c0 : index
// GROUP: %[[LAST:.*]] = arith.cmpi eq, %[[NEXT]], %[[KS]] : index
// GROUP: %[[NOW:.*]] = arith.ori %[[END]], %[[LAST]] : i1
// GROUP: %[[IF:.*]]:2 = scf.if %[[NOW]]
// GROUP: %[[SUM:.*]] = croq.mma.map %[[MAIN]], %[[DONE]]
// GROUP: arith.addf
// GROUP: %[[FRESH:.*]] = croq.mma.fill
// GROUP: scf.yield %[[SUM]], %[[FRESH]]
// GROUP: } else {
// GROUP: scf.yield %[[MAIN]], %[[DONE]]
// GROUP: scf.yield %[[IF]]#0, %[[IF]]#1
// GROUP: croq.mma.store %[[R]]#0
// wgmma's own accumulation over the whole K loop.
// NONE-LABEL: func.func @e4m3
// NONE: scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (!croq.acc<128x128xf32>)
// NONE: %[[P:.*]] = croq.mma row row %[[ACC]]
// NONE-NOT: croq.mma.map
// NONE: croq.mma.store
// The cost model takes tiles of at most 192 columns (two accumulators in
// registers).
// CHOSEN-LABEL: func.func @e4m3
// CHOSEN-NOT: !croq.acc<128x256xf32>
// CHOSEN-NOT: !croq.acc<128x224xf32>
// CHOSEN: croq.mma.map
// CHOSEN-NOT: !croq.acc<128x256xf32>
// CHOSEN-NOT: !croq.acc<128x224xf32>
// The split K loop promotes within each split.
// SPLIT-LABEL: func.func @e4m3
// SPLIT: scf.for
// SPLIT: croq.mma.fill
// SPLIT: croq.mma row row
// SPLIT: croq.mma.commit
// SPLIT: croq.mma.map
func.func @e4m3(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<?x?xf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf16>)
  return
}

// -----

// Block-scaled (DeepSeek-V3): A's f32 scales per row and 128-element group
// of K, B's per 128 x 128 block. Each step's partial is scaled as it is
// added: main += partial * sa[row, step] * sb[blockN, step], the scales of
// the next step read ahead (a rows vector; B's scale one element per
// block). The extents of the scales are checked on the host.
// CHECK-LABEL: func.func @block_scaled
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf8E4M3FN>, %[[SA:.*]]: memref<?x?xf32>, %[[B:.*]]: memref<?x?xf8E4M3FN>, %[[SB:.*]]: memref<?x?xf32>, %[[C:.*]]: memref<?x?xf32>)
// CHECK-DAG: %[[C6:.*]] = arith.constant 6 : i32
// CHECK: %[[KB:.*]] = arith.ceildivui %{{.*}}, %c128 : index
// CHECK: call @croqRtRequireEqualExtents(%{{.*}}, %{{.*}}, %[[C6]], %c1_i32)
// CHECK: call @croqRtRequireEqualExtents(%{{.*}}, %{{.*}}, %[[C6]], %c1_i32)
// CHECK: call @croqRtRequireEqualExtents(%{{.*}}, %{{.*}}, %[[C6]], %c3_i32)
// CHECK: call @croqRtRequireEqualExtents(%{{.*}}, %{{.*}}, %[[C6]], %c3_i32)
// CHECK: croq.parallel (%[[BM:.*]], %[[BN:.*]]) in
// CHECK: %[[SB0:.*]] = croq.subspan %[[SB]] [1, 1] at [%[[BN]], %c0] : memref<?x?xf32> -> !croq.view<1x1xf32>
// CHECK: %[[SA0:.*]] = croq.subspan %[[SA]] [128, 1] at [%[[BM]], %c0] : memref<?x?xf32> -> !croq.view<128x1xf32>
// CHECK: %[[FIRST:.*]] = croq.vec.map
// CHECK: scf.for %[[IV:.*]] = %c0 to %{{.*}} step %c1 iter_args(%[[MAIN:.*]] = %{{.*}}, %[[SCALES:.*]] = %[[FIRST]]) -> (!croq.acc<128x128xf32>, !croq.vec<128xf32, rows>)
// CHECK: croq.subspan %[[A]] [128, 128] at [%[[BM]], %[[IV]]]
// CHECK: croq.subspan %[[B]] [128, 128] at [%[[BN]], %[[IV]]]
// CHECK: %[[NEXT:.*]] = arith.addi %[[IV]], %c1 : index
// CHECK: %[[SBV:.*]] = croq.subspan %[[SB]] [1, 1] at [%[[BN]], %[[NEXT]]] : memref<?x?xf32> -> !croq.view<1x1xf32>
// CHECK: %[[SAV:.*]] = croq.subspan %[[SA]] [128, 1] at [%[[BM]], %[[NEXT]]] : memref<?x?xf32> -> !croq.view<128x1xf32>
// CHECK: %[[NS:.*]] = croq.vec.map %{{.*}} (%[[ROW:.*]], %{{.*}}) : !croq.vec<128xf32, rows> {
// CHECK: %[[RA:.*]] = croq.read %[[SAV]][%[[ROW]], %c0] : !croq.view<128x1xf32>
// CHECK: %[[RB:.*]] = croq.read %[[SBV]][%c0, %c0] : !croq.view<1x1xf32>
// CHECK: %[[RS:.*]] = arith.mulf %[[RA]], %[[RB]] : f32
// CHECK: croq.yield %[[RS]] : f32
// CHECK: %[[FRESH:.*]] = croq.mma.fill
// CHECK: %[[P:.*]] = croq.mma row row %[[FRESH]]
// CHECK: %[[DONE:.*]] = croq.mma.commit %[[P]]
// CHECK: %[[SUM:.*]] = croq.mma.map %[[MAIN]], %[[DONE]], %[[SCALES]] (%{{.*}}, %{{.*}}, %[[X:.*]], %[[Y:.*]], %[[S:.*]]) : !croq.acc<128x128xf32>, !croq.acc<128x128xf32>, !croq.vec<128xf32, rows> {
// CHECK: %[[T:.*]] = math.fma %[[Y]], %[[S]], %[[X]] : f32
// CHECK: croq.yield %[[T]] : f32
// CHECK: scf.yield %[[SUM]], %[[NS]]
// CHECK: croq.mma.store
// GROUP-LABEL: func.func @block_scaled
// GROUP-NOT: scf.if
// GROUP: croq.mma.map
// NONE-LABEL: func.func @block_scaled
// NONE: croq.mma.map
// Block-scaled products take tiles of 128 columns.
// CHOSEN-LABEL: func.func @block_scaled
// CHOSEN-NOT: !croq.acc<128x192xf32>
// CHOSEN-NOT: !croq.acc<128x256xf32>
// CHOSEN: croq.mma.map
// SPLIT-LABEL: func.func @block_scaled
// SPLIT: croq.vec.map
// SPLIT: croq.mma.map
// croq-specialize-contractions leaves the block-scaled product to
// convert-linalg-to-croq: no copy of its 8-bit operands.
// SPECIALIZE-LABEL: func.func @block_scaled
// SPECIALIZE-NOT: memref.alloc
// SPECIALIZE: linalg.generic
// SPECIALIZE-SAME: ins(%arg0, %arg1, %arg2, %arg3 :
// SPECIALIZE-NOT: memref.alloc
#a = affine_map<(m, n, k) -> (m, k)>
#sa = affine_map<(m, n, k) -> (m, k floordiv 128)>
#b = affine_map<(m, n, k) -> (n, k)>
#sb = affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @block_scaled(%a: memref<?x?xf8E4M3FN>, %sa: memref<?x?xf32>, %b: memref<?x?xf8E4M3FN>, %sb: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#a, #sa, #b, #sb, #c], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %sa, %b, %sb : memref<?x?xf8E4M3FN>, memref<?x?xf32>, memref<?x?xf8E4M3FN>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f8E4M3FN, %s: f32, %y: f8E4M3FN, %t: f32, %acc: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %xs = arith.mulf %xf, %s : f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %ys = arith.mulf %yf, %t : f32
    %p = arith.mulf %xs, %ys : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// The same product written with the inputs in another order, the
// multiplications' operands swapped and e5m2 operands: static extents,
// K not a multiple of 128 (the last group is partial).
// CHECK-LABEL: func.func @block_scaled_e5m2_static
// CHECK-NOT: croqRtRequireEqualExtents
// CHECK: croq.mma row row %{{.*}} : !croq.frag<128x128xf8E5M2>, !croq.frag<128x128xf8E5M2> -> !croq.acc<128x128xf32>
// CHECK: croq.mma.map
#b2 = affine_map<(m, n, k) -> (n, k)>
#sb2 = affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>
#a2 = affine_map<(m, n, k) -> (m, k)>
#sa2 = affine_map<(m, n, k) -> (m, k floordiv 128)>
#c2 = affine_map<(m, n, k) -> (m, n)>
func.func @block_scaled_e5m2_static(%b: memref<384x1000xf8E5M2>, %sb: memref<3x8xf32>, %a: memref<256x1000xf8E5M2>, %sa: memref<256x8xf32>, %c: memref<256x384xf32>) {
  linalg.generic {indexing_maps = [#b2, #sb2, #a2, #sa2, #c2], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%b, %sb, %a, %sa : memref<384x1000xf8E5M2>, memref<3x8xf32>, memref<256x1000xf8E5M2>, memref<256x8xf32>) outs(%c : memref<256x384xf32>) {
  ^bb0(%y: f8E5M2, %t: f32, %x: f8E5M2, %s: f32, %acc: f32):
    %yf = arith.extf %y : f8E5M2 to f32
    %ys = arith.mulf %t, %yf : f32
    %xf = arith.extf %x : f8E5M2 to f32
    %xs = arith.mulf %s, %xf : f32
    %p = arith.mulf %ys, %xs : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  }
  return
}
