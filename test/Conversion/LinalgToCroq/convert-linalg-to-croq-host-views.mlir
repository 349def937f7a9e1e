// RUN: croq-opt %s --croq-set-target --convert-linalg-to-croq -split-input-file | FileCheck %s
// RUN: croq-opt %s --croq-to-nvvm="format=none" -split-input-file -o /dev/null

// Buffers of rank 0 (a scalar a frontend keeps in a buffer: x.sum(),
// x.mean()) are read and written as views with a dimension of extent 1. A
// reduction to a scalar is a row reduction of one row: a leading loop of
// extent 1 indexes a leading unit dimension of its input and output, and
// the fill before it, on the same view, is the reduction's starting value
// (one kernel).
// CHECK-LABEL: func.func @sum_to_scalar
// CHECK-DAG: %[[X:.*]] = memref.expand_shape %arg0 {{\[}}[0, 1]] output_shape [1, 4096] : memref<4096xf32> into memref<1x4096xf32>
// CHECK-DAG: %[[S:.*]] = memref.expand_shape %arg1 [] output_shape [1] : memref<f32> into memref<1xf32>
// CHECK: croq.parallel (%[[ROW:.*]]) in [1] : block {
// CHECK: croq.read %[[X]][%{{.*}}, %{{.*}}] in_bounds : memref<1x4096xf32>
// CHECK: croq.write %{{.*}}, %[[S]][%{{.*}}] in_bounds : memref<1xf32>
// CHECK-NOT: croq.parallel
// CHECK: return
func.func @sum_to_scalar(%x: memref<4096xf32>, %s: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%s : memref<f32>)
  linalg.reduce ins(%x : memref<4096xf32>) outs(%s : memref<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  return
}

// -----

// An op of no loops on scalars gets one loop of extent 1.
// CHECK-LABEL: func.func @scalar_ops
// CHECK-DAG: %[[O:.*]] = memref.expand_shape %arg1 [] output_shape [1] : memref<f32> into memref<1xf32>
// CHECK-DAG: %[[I:.*]] = memref.expand_shape %arg0 [] output_shape [1] : memref<f32> into memref<1xf32>
// CHECK: croq.parallel
// CHECK: croq.read %[[I]]
// CHECK: arith.divf
// CHECK: croq.write %{{.*}}, %[[O]]
func.func @scalar_ops(%s: memref<f32>, %o: memref<f32>) {
  %n = arith.constant 8.0 : f32
  linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%s : memref<f32>) outs(%o : memref<f32>) {
  ^bb0(%v: f32, %out: f32):
    %d = arith.divf %v, %n : f32
    linalg.yield %d : f32
  }
  return
}

// -----

// An op with loops reads a scalar input at 0 of its view of one element.
// CHECK-LABEL: func.func @scalar_input
// CHECK: %[[S:.*]] = memref.expand_shape %arg1 [] output_shape [1] : memref<f32> into memref<1xf32>
// CHECK: croq.parallel
// CHECK: croq.read %[[S]][%c0{{.*}}] in_bounds : memref<1xf32>
// CHECK: arith.subf
func.func @scalar_input(%x: memref<64x128xf32>, %s: memref<f32>, %o: memref<64x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<64x128xf32>, memref<f32>) outs(%o : memref<64x128xf32>) {
  ^bb0(%v: f32, %c: f32, %out: f32):
    %d = arith.subf %v, %c : f32
    linalg.yield %d : f32
  }
  return
}

// -----

// A reshape that splits one dimension into two of dynamic extent (torch's
// nn.Linear on a dynamic batch x sequence, its rows expanded back), which
// upstream's expand-strided-metadata crashes on, is the same buffer
// reinterpreted with row-major strides: the same type.
// CHECK-LABEL: func.func @dynamic_expand
// CHECK-NOT: memref.expand_shape
// CHECK: %[[STRIDE:.*]] = arith.muli %c64, %arg2
// CHECK: memref.reinterpret_cast %arg0 to offset: [0], sizes: [%arg1, %arg2, 64], strides: [%[[STRIDE]], 64, 1] : memref<?x64xf16> to memref<?x?x64xf16>
func.func @dynamic_expand(%x: memref<?x64xf16>, %d0: index, %d1: index, %o: memref<?x?x64xf16>) {
  %e = memref.expand_shape %x [[0, 1], [2]] output_shape [%d0, %d1, 64] : memref<?x64xf16> into memref<?x?x64xf16>
  memref.copy %e, %o : memref<?x?x64xf16> to memref<?x?x64xf16>
  return
}

// -----

// A view whose innermost stride is not 1 (x[:, ::2]) is read element by
// element, though the buffer it views is contiguous.
// CHECK-LABEL: func.func @strided_columns
// CHECK: %[[V:.*]] = memref.subview
// CHECK-NOT: croq.read %[[V]]{{.*}} -> vector
// CHECK: croq.read %[[V]][%{{.*}}, %{{.*}}] in_bounds : memref<64x128xf16, strided<[256, 2]>>{{$}}
// CHECK-NOT: croq.read %[[V]]{{.*}} -> vector
// CHECK: return
func.func @strided_columns(%a: memref<64x256xf16>, %b: memref<64x128xf16>) {
  %s = memref.subview %a[0, 0] [64, 128] [1, 2] : memref<64x256xf16> to memref<64x128xf16, strided<[256, 2]>>
  memref.copy %s, %b : memref<64x128xf16, strided<[256, 2]>> to memref<64x128xf16>
  return
}

// -----

// A result computed into a temporary and copied whole into the
// out-parameter at the end (buffer-results-to-out-params without
// hoist-static-allocs, then buffer-deallocation-pipeline): the temporary
// is the out-parameter; no copy kernel, no temporary.
// CHECK-LABEL: func.func @copy_out_elided
// CHECK-NOT: memref.alloc
// CHECK: %[[OUT:.*]] = memref.collapse_shape %arg1 {{\[}}[0, 1]] : memref<64x128xf32> into memref<8192xf32>
// CHECK: croq.parallel
// CHECK: croq.write %{{.*}}, %[[OUT]][
// CHECK-NOT: croq.parallel
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @copy_out_elided(%x: memref<64x128xf32>, %out: memref<64x128xf32>) {
  %t = memref.alloc() : memref<64x128xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x128xf32>) outs(%t : memref<64x128xf32>) {
  ^bb0(%v: f32, %o: f32):
    %e = math.exp %v : f32
    linalg.yield %e : f32
  }
  memref.copy %t, %out : memref<64x128xf32> to memref<64x128xf32>
  memref.dealloc %t : memref<64x128xf32>
  return
}

// -----

// The temporary copied through a reshape (linalg-fold-unit-extent-dims'
// 2-d result expanded back to the function's 1 x M x N): the temporary is
// the out-parameter collapsed.
// CHECK-LABEL: func.func @copy_out_reshaped
// CHECK-NOT: memref.alloc
// CHECK: %[[V:.*]] = memref.collapse_shape %arg1 {{\[}}[0, 1], [2]] : memref<1x64x128xf32> into memref<64x128xf32>
// CHECK: %[[OUT:.*]] = memref.collapse_shape %[[V]] {{\[}}[0, 1]] : memref<64x128xf32> into memref<8192xf32>
// CHECK: croq.parallel
// CHECK: croq.write %{{.*}}, %[[OUT]][
// CHECK-NOT: croq.parallel
// CHECK: return
func.func @copy_out_reshaped(%x: memref<64x128xf32>, %out: memref<1x64x128xf32>) {
  %t = memref.alloc() : memref<64x128xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x128xf32>) outs(%t : memref<64x128xf32>) {
  ^bb0(%v: f32, %o: f32):
    %e = math.exp %v : f32
    linalg.yield %e : f32
  }
  %e = memref.expand_shape %t [[0, 1], [2]] output_shape [1, 64, 128] : memref<64x128xf32> into memref<1x64x128xf32>
  memref.copy %e, %out : memref<1x64x128xf32> to memref<1x64x128xf32>
  return
}

// -----

// The out-parameter is read while the temporary is computed (here it is
// also the input): the temporary and the copy stay.
// CHECK-LABEL: func.func @copy_out_target_read
// CHECK: memref.alloc
// CHECK: croq.parallel
// CHECK: croq.parallel
// CHECK: return
func.func @copy_out_target_read(%out: memref<64x64xf32>) {
  %t = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%out : memref<64x64xf32>) outs(%t : memref<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %e = math.exp %v : f32
    linalg.yield %e : f32
  }
  memref.copy %t, %out : memref<64x64xf32> to memref<64x64xf32>
  return
}
