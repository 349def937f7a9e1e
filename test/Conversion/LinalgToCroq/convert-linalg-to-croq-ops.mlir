// RUN: croq-opt %s --convert-linalg-to-croq -split-input-file | FileCheck %s --implicit-check-not=linalg.

// An elementwise generic with a bias broadcast through a constant-0 map:
// one kernel of 256-thread blocks, each thread a chunk of 8 f16 columns,
// read and written as 16-byte vectors when the rows are a multiple of 8
// and every operand aligned, element by element otherwise; the bias is read
// at row 0. Dynamic extents are checked on the host before the launch.
// CHECK-LABEL: func.func @bias_tanh
// CHECK: call @croqRtRequireEqualExtents
// CHECK: croq.parallel (%[[BX:.*]]) in [%{{.*}}] : block {
// CHECK: croq.parallel (%[[T:.*]]) in [256] : thread {
// CHECK: %[[ALIGNED:.*]] = croq.is_aligned %arg0, 16 : memref<?x?xf16>
// CHECK: scf.if
// CHECK: croq.read %arg0[%[[ROW:.*]], %[[COL:.*]]] in_bounds : memref<?x?xf16> -> vector<8xf16>
// CHECK: croq.read %arg1[%{{.*}}, %[[COL]]] in_bounds : memref<1x?xf16> -> vector<8xf16>
// CHECK-COUNT-8: math.tanh
// CHECK: vector.from_elements
// CHECK: croq.write %{{.*}}, %arg2[%[[ROW]], %[[COL]]] in_bounds : memref<?x?xf16> -> vector<8xf16>
// CHECK: } else {
// CHECK: scf.if
// CHECK: croq.read %arg0[%[[ROW]], %{{.*}}] in_bounds : memref<?x?xf16>
// CHECK: croq.write %{{.*}}, %arg2[%[[ROW]], %{{.*}}] in_bounds : memref<?x?xf16>
func.func @bias_tanh(%x: memref<?x?xf16>, %bias: memref<1x?xf16>, %out: memref<?x?xf16>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias : memref<?x?xf16>, memref<1x?xf16>) outs(%out : memref<?x?xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    %t = math.tanh %s : f16
    linalg.yield %t : f16
  }
  return
}

// -----

// Named ops generalize: a fill is a kernel that writes the value, a copy
// one that reads and writes; a memref.copy becomes a linalg.copy first.
// Operands that are contiguous and indexed by the loops in order are seen
// as one row (memref.collapse_shape), so that the chunks run along the
// whole buffer. Static shapes need no host check.
// CHECK-LABEL: func.func @fill_and_copy
// CHECK-NOT: call
// CHECK: %[[A:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1]] : memref<64x128xf32> into memref<8192xf32>
// CHECK: croq.parallel (%{{.*}}) in [8] : block
// CHECK: croq.write %{{.*}}, %[[A]][%{{.*}}] in_bounds : memref<8192xf32> -> vector<4xf32>
// CHECK: %[[A2:.*]] = memref.collapse_shape %arg0
// CHECK: %[[B:.*]] = memref.collapse_shape %arg1
// CHECK: croq.parallel (%{{.*}}) in [8] : block
// CHECK: croq.read %[[A2]][%{{.*}}] in_bounds : memref<8192xf32> -> vector<4xf32>
// CHECK: croq.write %{{.*}}, %[[B]][%{{.*}}] in_bounds : memref<8192xf32> -> vector<4xf32>
// CHECK: return
func.func @fill_and_copy(%a: memref<64x128xf32>, %b: memref<64x128xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%a : memref<64x128xf32>)
  memref.copy %a, %b : memref<64x128xf32> to memref<64x128xf32>
  return
}

// -----

// A transpose: the output's innermost loop indexes the input's outer
// dimension, so the input is read element by element (strided).
// CHECK-LABEL: func.func @transpose
// CHECK: croq.parallel
// CHECK-COUNT-8: croq.read %arg0[%{{.*}}, %{{.*}}] in_bounds : memref<64x32xf16>{{$}}
// CHECK: croq.write %{{.*}}, %arg1[%{{.*}}, %{{.*}}] in_bounds : memref<32x64xf16> -> vector<8xf16>
func.func @transpose(%x: memref<64x32xf16>, %out: memref<32x64xf16>) {
  linalg.transpose ins(%x : memref<64x32xf16>) outs(%out : memref<32x64xf16>) permutation = [1, 0]
  return
}

// -----

// A row reduction whose combiner is one addf: a warp per row (8 per
// block), each lane folding every 32nd element from 0, five xor shuffles,
// and lane 0 adding the output's element.
// CHECK-LABEL: func.func @row_sum
// CHECK: croq.parallel (%{{.*}}) in [%{{.*}}] : block
// CHECK: croq.parallel (%[[T:.*]]) in [256] : thread
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c32{{.*}} iter_args(%[[P:.*]] = %[[ZERO]]) -> (f32)
// CHECK: %[[X:.*]] = croq.read %arg0
// CHECK: arith.addf %[[X]], %[[P]] : f32
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK: scf.if
// CHECK: croq.read %arg1
// CHECK: croq.write
func.func @row_sum(%x: memref<?x?xf32>, %out: memref<?xf32>) {
  linalg.reduce ins(%x : memref<?x?xf32>) outs(%out : memref<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// A column reduction (the reduced dimension is the outer one): a thread
// per output element, the body run over the rows in order from the
// output's element.
// CHECK-LABEL: func.func @column_max
// CHECK: croq.parallel (%{{.*}}) in [1] : block
// CHECK: %[[INIT:.*]] = croq.read %arg1[%{{.*}}] in_bounds : memref<200xf16>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[INIT]]) -> (f16)
// CHECK: arith.maximumf
// CHECK-NOT: gpu.shuffle
// CHECK: croq.write
func.func @column_max(%x: memref<100x200xf16>, %out: memref<200xf16>) {
  linalg.reduce ins(%x : memref<100x200xf16>) outs(%out : memref<200xf16>) dimensions = [0]
    (%in: f16, %acc: f16) {
      %m = arith.maximumf %in, %acc : f16
      linalg.yield %m : f16
    }
  return
}

// -----

// A global constant that is not a splat is read by the kernel like any
// buffer (croq-allocate-on-device copies it into device memory).
memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
// CHECK-LABEL: func.func @host_table
// CHECK: %[[T:.*]] = memref.get_global @table : memref<4xf32>
// CHECK: croq.parallel
// CHECK: croq.read %[[T]]
// CHECK: croq.write
func.func @host_table(%out: memref<4xf32>) {
  %t = memref.get_global @table : memref<4xf32>
  memref.copy %t, %out : memref<4xf32> to memref<4xf32>
  return
}
