// RUN: croq-opt %s --convert-linalg-to-croq -split-input-file | FileCheck %s --implicit-check-not=linalg.

// An elementwise generic with a bias broadcast through a constant-0 map:
// one kernel of 256-thread blocks, each thread a chunk of 8 f16 columns.
// Where the rows are whole chunks and every operand is aligned (the same
// for every thread), the chunks go as they come, all as 16-byte vectors;
// otherwise each row is peeled to the first aligned chunk of the output
// (its misalignment from the buffer's address), a thread per slot of
// max(cdiv(N, 8), min(N, 14)) a row: full chunk `slot` as vectors (inputs
// misaligned otherwise than the output read element by element), then
// head or tail column `slot` alone. The bias is read at row 0. Dynamic
// extents are checked on the host before the launch.
// CHECK-LABEL: func.func @bias_tanh
// CHECK: call @croqRtRequireEqualExtents
// CHECK: %[[CHUNKS:.*]] = arith.ceildivui %[[N:.*]], %c8 : index
// CHECK: %[[EDGES:.*]] = arith.minui %[[N]], %c14 : index
// CHECK: %[[SLOTS:.*]] = arith.maxui %[[CHUNKS]], %[[EDGES]] : index
// CHECK: croq.parallel (%[[BX:.*]]) in [%{{.*}}] : block {
// CHECK: croq.parallel (%[[T:.*]]) in [256] : thread {
// CHECK: %[[WHOLE:.*]] = arith.remui %[[N]], %{{.*}} : index
// CHECK: croq.is_aligned %arg0, 16 : memref<?x?xf16>
// CHECK: croq.is_aligned %arg1, 16 : memref<1x?xf16>
// CHECK: %[[ALIGNED:.*]] = croq.is_aligned %arg2, 16 : memref<?x?xf16>
// CHECK: %[[FAST:.*]] = arith.andi %{{.*}}, %[[ALIGNED]] : i1
// CHECK: scf.if %[[FAST]] {
// CHECK-NOT: croq.is_aligned
// CHECK: croq.read %arg0[%[[ROW:.*]], %[[COL:.*]]] in_bounds : memref<?x?xf16> -> vector<8xf16>
// CHECK: croq.read %arg1[%{{.*}}, %[[COL]]] in_bounds : memref<1x?xf16> -> vector<8xf16>
// CHECK-COUNT-8: math.tanh
// CHECK: vector.from_elements
// CHECK-NEXT: croq.write %{{.*}}, %arg2[%[[ROW]], %[[COL]]] in_bounds : memref<?x?xf16> -> vector<8xf16>
// CHECK-NEXT: }
// CHECK-NEXT: } else {
// CHECK: %[[PROW:.*]] = arith.divui %{{.*}}, %[[SLOTS]] : index
// CHECK: %[[SLOT:.*]] = arith.remui %{{.*}}, %[[SLOTS]] : index
// CHECK: %{{.*}} = memref.extract_strided_metadata %arg2
// CHECK: memref.extract_aligned_pointer_as_index %arg2
// CHECK: %[[SHIFT:.*]] = arith.remui %{{.*}}, %c8{{.*}} : index
// CHECK: %[[HEAD:.*]] = arith.minui %{{.*}}, %[[N]] : index
// CHECK: %[[M:.*]] = arith.divui %{{.*}}, %c8{{.*}} : index
// CHECK: %[[TAIL:.*]] = arith.addi %[[HEAD]], %{{.*}} : index
// CHECK: %[[NEDGES:.*]] = arith.addi %[[HEAD]], %{{.*}} : index
// CHECK: %[[INCHUNK:.*]] = arith.cmpi ult, %[[SLOT]], %[[M]] : index
// CHECK: scf.if %[[INCHUNK]] {
// CHECK: memref.extract_aligned_pointer_as_index %arg0
// CHECK: %[[X_OK:.*]] = arith.cmpi eq, %{{.*}}, %[[SHIFT]] : index
// CHECK: memref.extract_aligned_pointer_as_index %arg1
// CHECK: %[[B_OK:.*]] = arith.cmpi eq, %{{.*}}, %[[SHIFT]] : index
// CHECK: %[[PCOL:.*]] = arith.addi %[[HEAD]], %{{.*}} : index
// CHECK: scf.if %[[X_OK]] -> (vector<8xf16>) {
// CHECK-NEXT: croq.read %arg0[%[[PROW]], %[[PCOL]]] in_bounds : memref<?x?xf16> -> vector<8xf16>
// CHECK: } else {
// CHECK-COUNT-8: croq.read %arg0[%[[PROW]], %{{.*}}] in_bounds : memref<?x?xf16>{{$}}
// CHECK: scf.if %[[B_OK]] -> (vector<8xf16>) {
// CHECK: croq.read %arg1[%{{.*}}, %[[PCOL]]] in_bounds : memref<1x?xf16> -> vector<8xf16>
// CHECK-COUNT-8: math.tanh
// CHECK: croq.write %{{.*}}, %arg2[%[[PROW]], %[[PCOL]]] in_bounds : memref<?x?xf16> -> vector<8xf16>
// CHECK: %[[INEDGE:.*]] = arith.cmpi ult, %[[SLOT]], %[[NEDGES]] : index
// CHECK: scf.if %[[INEDGE]] {
// CHECK: %[[ISHEAD:.*]] = arith.cmpi ult, %[[SLOT]], %[[HEAD]] : index
// CHECK: %[[ECOL:.*]] = arith.select %[[ISHEAD]], %[[SLOT]], %{{.*}} : index
// CHECK: croq.read %arg0[%[[PROW]], %[[ECOL]]] in_bounds : memref<?x?xf16>{{$}}
// CHECK: croq.read %arg1[%{{.*}}, %[[ECOL]]] in_bounds : memref<1x?xf16>{{$}}
// CHECK: math.tanh
// CHECK: croq.write %{{.*}}, %arg2[%[[PROW]], %[[ECOL]]] in_bounds : memref<?x?xf16>{{$}}
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

// Rows of 2047 f16 elements (not whole chunks): the form of aligned rows
// folds away, leaving only the peeled rows; a per-row operand (indexed
// without the columns) is read once per chunk.
// CHECK-LABEL: func.func @odd_rows_scale
// CHECK-NOT: call
// CHECK: croq.parallel (%{{.*}}) in [33] : block {
// CHECK-NOT: croq.is_aligned
// CHECK: memref.extract_aligned_pointer_as_index %arg2
// CHECK: scf.if
// CHECK: scf.if %{{.*}} -> (vector<8xf16>) {
// CHECK: croq.read %arg0[%{{.*}}, %{{.*}}] in_bounds : memref<33x2047xf16> -> vector<8xf16>
// CHECK: croq.read %arg1[%{{.*}}, %c0{{.*}}] in_bounds : memref<33x1xf16>{{$}}
// CHECK-COUNT-8: arith.mulf
// CHECK: croq.write %{{.*}}, %arg2[%{{.*}}, %{{.*}}] in_bounds : memref<33x2047xf16> -> vector<8xf16>
// CHECK: scf.if
// CHECK: arith.mulf
// CHECK: croq.write %{{.*}}, %arg2[%{{.*}}, %{{.*}}] in_bounds : memref<33x2047xf16>{{$}}
func.func @odd_rows_scale(%x: memref<33x2047xf16>, %s: memref<33x1xf16>, %out: memref<33x2047xf16>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<33x2047xf16>, memref<33x1xf16>) outs(%out : memref<33x2047xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %m = arith.mulf %a, %b : f16
    linalg.yield %m : f16
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
