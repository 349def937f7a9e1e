// RUN: croq-opt %s --convert-linalg-to-croq="tile-m=128 tile-n=128 split-k=1 cluster-m=1" -split-input-file | FileCheck %s

// A product of one matrix computed on a view of its batch of one
// (croq-specialize-contractions makes TOSA's 3-D matmul so) is still read
// by its consumer as the 3-D buffer: through the batch's loop of extent 1,
// or through a constant 0 once croq-fuse-elementwise has folded the views.
// The consumer is made to read the product's view, and the GEMM's
// epilogue computes it.

// The consumer over (b, m, n) with b of extent 1, reading the product
// twice (as elementwise fusion leaves a value two ops read), a bias of
// 1 x 1 x N, into a temporary allocated between the product and it.
// CHECK-LABEL: func.func @batch_loop
// CHECK: croq.parallel
// CHECK: croq.mma.map
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @batch_loop(%a: memref<128x256xf16>, %b: memref<256x512xf16>, %bias: memref<1x1x512xf16>) -> memref<1x128x512xf16> {
  %zero = arith.constant 0.0 : f16
  %t = memref.alloc() : memref<1x128x512xf16>
  %tv = memref.collapse_shape %t [[0, 1], [2]] : memref<1x128x512xf16> into memref<128x512xf16>
  linalg.fill ins(%zero : f16) outs(%tv : memref<128x512xf16>)
  linalg.matmul ins(%a, %b : memref<128x256xf16>, memref<256x512xf16>) outs(%tv : memref<128x512xf16>)
  %out = memref.alloc() : memref<1x128x512xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%t, %bias, %t : memref<1x128x512xf16>, memref<1x1x512xf16>, memref<1x128x512xf16>) outs(%out : memref<1x128x512xf16>) {
  ^bb0(%x: f16, %c: f16, %y: f16, %o: f16):
    %s = arith.addf %x, %c : f16
    %p = arith.mulf %s, %y : f16
    linalg.yield %p : f16
  }
  memref.dealloc %t : memref<1x128x512xf16>
  return %out : memref<1x128x512xf16>
}

// -----

// The consumer folded to the product's loops (m, n), reading the buffer
// through (0, m, n) and writing the function's 1 x M x N result in place.
// CHECK-LABEL: func.func @folded
// CHECK: croq.mma.map
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @folded(%a: memref<128x256xf16>, %b: memref<256x512xf16>, %bias: memref<1x1x512xf16>, %c: memref<1x128x512xf16>) {
  %zero = arith.constant 0.0 : f16
  %cv = memref.collapse_shape %c [[0, 1], [2]] : memref<1x128x512xf16> into memref<128x512xf16>
  linalg.fill ins(%zero : f16) outs(%cv : memref<128x512xf16>)
  linalg.matmul ins(%a, %b : memref<128x256xf16>, memref<256x512xf16>) outs(%cv : memref<128x512xf16>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d0, d1)>, affine_map<(d0, d1) -> (0, 0, d1)>, affine_map<(d0, d1) -> (0, d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<1x128x512xf16>, memref<1x1x512xf16>) outs(%c : memref<1x128x512xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %s = arith.addf %x, %y : f16
    %r = arith.maximumf %s, %zero : f16
    linalg.yield %r : f16
  }
  return
}

// -----

// A consumer whose body reads the batch loop's index keeps it: not the
// product's loops, it stays an elementwise kernel of its own after the
// GEMM's.
// CHECK-LABEL: func.func @batch_index
// CHECK-NOT: croq.mma.map
// CHECK: croq.parallel
// CHECK-NOT: croq.mma.map
// CHECK: croq.parallel
// CHECK-NOT: croq.mma.map
// CHECK: return
func.func @batch_index(%a: memref<128x256xf16>, %b: memref<256x512xf16>, %c: memref<1x128x512xf16>) {
  %zero = arith.constant 0.0 : f16
  %cv = memref.collapse_shape %c [[0, 1], [2]] : memref<1x128x512xf16> into memref<128x512xf16>
  linalg.fill ins(%zero : f16) outs(%cv : memref<128x512xf16>)
  linalg.matmul ins(%a, %b : memref<128x256xf16>, memref<256x512xf16>) outs(%cv : memref<128x512xf16>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c : memref<1x128x512xf16>) outs(%c : memref<1x128x512xf16>) {
  ^bb0(%x: f16, %o: f16):
    %i = linalg.index 0 : index
    %j = arith.index_cast %i : index to i32
    %f = arith.sitofp %j : i32 to f16
    %s = arith.addf %x, %f : f16
    linalg.yield %s : f16
  }
  return
}

// -----

// TOSA's scalar operands are constant globals of 1 x 1 x 1 elements: read
// as their value in the consumer's body, which the epilogue then computes
// (a tanh-GELU's constants, here one of them).
memref.global "private" constant @half : memref<1x1x1xf16> = dense<5.000000e-01>
// CHECK-LABEL: func.func @splat_global
// CHECK: croq.mma.map
// CHECK: arith.constant 5.000000e-01 : f16
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @splat_global(%a: memref<128x256xf16>, %b: memref<256x512xf16>, %c: memref<1x128x512xf16>) {
  %zero = arith.constant 0.0 : f16
  %half = memref.get_global @half : memref<1x1x1xf16>
  %cv = memref.collapse_shape %c [[0, 1], [2]] : memref<1x128x512xf16> into memref<128x512xf16>
  linalg.fill ins(%zero : f16) outs(%cv : memref<128x512xf16>)
  linalg.matmul ins(%a, %b : memref<128x256xf16>, memref<256x512xf16>) outs(%cv : memref<128x512xf16>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %half : memref<1x128x512xf16>, memref<1x1x1xf16>) outs(%c : memref<1x128x512xf16>) {
  ^bb0(%x: f16, %h: f16, %o: f16):
    %p = arith.mulf %x, %h : f16
    linalg.yield %p : f16
  }
  return
}

// -----

// The same clean-up for a product of two dimensions into a temporary, its
// consumer's own temporary allocated between them (as bufferization places
// it) and copied into the result: that temporary is the result (the copy
// goes), the splat global is a value and the second read of the product
// through the same map is the first's, so the epilogue computes
// x * 0.5 + x into the result (the product's temporary and the consumer go
// away).
memref.global "private" constant @half2 : memref<1x1xf32> = dense<5.000000e-01>
// CHECK-LABEL: func.func @plain_temporary
// CHECK-NOT: memref.alloc
// CHECK: croq.parallel
// CHECK: croq.subspan %arg2 [128, 128]
// CHECK: croq.mma.map %{{.*}} (%{{.*}}, %{{.*}}, %[[X:.*]]) : !croq.acc<128x128xf32>
// CHECK: %[[H:.*]] = arith.constant 5.000000e-01 : f32
// CHECK: %[[P:.*]] = arith.mulf %[[X]], %[[H]] : f32
// CHECK: arith.addf %[[P]], %[[X]] : f32
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @plain_temporary(%a: memref<256x256xf16>, %b: memref<256x512xf16>, %out: memref<256x512xf16>) {
  %zero = arith.constant 0.0 : f32
  %half = memref.get_global @half2 : memref<1x1xf32>
  %t = memref.alloc() : memref<256x512xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<256x512xf32>)
  linalg.matmul ins(%a, %b : memref<256x256xf16>, memref<256x512xf16>) outs(%t : memref<256x512xf32>)
  %o = memref.alloc() : memref<256x512xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, 0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%t, %half, %t : memref<256x512xf32>, memref<1x1xf32>, memref<256x512xf32>) outs(%o : memref<256x512xf16>) {
  ^bb0(%x: f32, %h: f32, %y: f32, %o2: f16):
    %p = arith.mulf %x, %h : f32
    %s = arith.addf %p, %y : f32
    %r = arith.truncf %s : f32 to f16
    linalg.yield %r : f16
  }
  memref.dealloc %t : memref<256x512xf32>
  memref.copy %o, %out : memref<256x512xf16> to memref<256x512xf16>
  return
}

// -----

// A batch of two (not a view): its consumer in place reads TOSA's scalar
// as a value too.
memref.global "private" constant @scale3 : memref<1x1x1xf32> = dense<2.500000e-01>
// CHECK-LABEL: func.func @batched_splat
// CHECK: croq.mma.map
// CHECK: arith.constant 2.500000e-01 : f32
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @batched_splat(%a: memref<2x128x256xf16>, %b: memref<2x256x512xf16>, %c: memref<2x128x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %s = memref.get_global @scale3 : memref<1x1x1xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<2x128x512xf32>)
  linalg.batch_matmul ins(%a, %b : memref<2x128x256xf16>, memref<2x256x512xf16>) outs(%c : memref<2x128x512xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (0, 0, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %s : memref<2x128x512xf32>, memref<1x1x1xf32>) outs(%c : memref<2x128x512xf32>) {
  ^bb0(%x: f32, %h: f32, %o: f32):
    %p = arith.mulf %x, %h : f32
    linalg.yield %p : f32
  }
  return
}
