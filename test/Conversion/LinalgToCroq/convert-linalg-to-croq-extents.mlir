// RUN: croq-opt %s --convert-linalg-to-croq="tile-m=128 tile-n=128 split-k=1" --canonicalize -split-input-file | FileCheck %s

// Dynamic extents are checked on the host before the kernels: A's K
// against B's (check 2), A's rows against the output's (0), B's columns
// against the output's (1). The runtime fails the call, naming them, and
// refuses its launches when they differ.
// CHECK-LABEL: func.func private @croqRtRequireEqualExtents(i64, i64, i32, i32) -> i32
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf16>, %[[B:.*]]: memref<?x?xf16>, %[[C:.*]]: memref<?x?xf32>)
// CHECK: %[[M:.*]] = memref.dim %[[A]], %c0
// CHECK-NEXT: %[[K:.*]] = memref.dim %[[A]], %c1
// CHECK-NEXT: %[[N:.*]] = memref.dim %[[B]], %c1
// CHECK: %[[KB:.*]] = memref.dim %[[B]], %c0
// CHECK-NEXT: %[[K64:.*]] = arith.index_cast %[[K]] : index to i64
// CHECK-NEXT: %[[KB64:.*]] = arith.index_cast %[[KB]] : index to i64
// CHECK-NEXT: call @croqRtRequireEqualExtents(%[[K64]], %[[KB64]], %c2_i32, %c0_i32)
// CHECK-NEXT: %[[CM:.*]] = memref.dim %[[C]], %c0
// CHECK-NEXT: %[[M64:.*]] = arith.index_cast %[[M]] : index to i64
// CHECK-NEXT: %[[CM64:.*]] = arith.index_cast %[[CM]] : index to i64
// CHECK-NEXT: call @croqRtRequireEqualExtents(%[[M64]], %[[CM64]], %c0_i32, %c0_i32)
// CHECK-NEXT: %[[CN:.*]] = memref.dim %[[C]], %c1
// CHECK-NEXT: %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK-NEXT: %[[CN64:.*]] = arith.index_cast %[[CN]] : index to i64
// CHECK-NEXT: call @croqRtRequireEqualExtents(%[[N64]], %[[CN64]], %c1_i32, %c0_i32)
// CHECK: croq.parallel
func.func @dynamic(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// Static extents need no check (linalg's verifier checked them); where
// only some are dynamic, only those are checked: here the output's rows.
// CHECK-LABEL: func.func @static
// CHECK-NOT: call
// CHECK: croq.parallel
func.func @static(%a: memref<256x128xf16>, %b: memref<128x256xf16>, %c: memref<256x256xf32>) {
  linalg.matmul ins(%a, %b : memref<256x128xf16>, memref<128x256xf16>) outs(%c : memref<256x256xf32>)
  return
}

// CHECK-LABEL: func.func @mixed
// CHECK: %[[CM:.*]] = memref.dim %{{.*}}, %c0 : memref<?x256xf32>
// CHECK: %[[CM64:.*]] = arith.index_cast %[[CM]] : index to i64
// CHECK: call @croqRtRequireEqualExtents(%c256_i64, %[[CM64]], %c0_i32, %c0_i32)
// CHECK-NOT: call
// CHECK: croq.parallel
func.func @mixed(%a: memref<256x128xf16>, %b: memref<128x256xf16>, %c: memref<?x256xf32>) {
  linalg.matmul ins(%a, %b : memref<256x128xf16>, memref<128x256xf16>) outs(%c : memref<?x256xf32>)
  return
}

// -----

// A batched product also checks B's batch (3) and the output's (4), with
// B stored N x K: its K is dimension 2.
// CHECK-LABEL: func.func @batched
// CHECK-SAME: (%[[A:.*]]: memref<?x?x?xbf16>, %[[B:.*]]: memref<?x?x?xbf16>, %[[C:.*]]: memref<?x?x?xbf16>)
// CHECK: %[[KB:.*]] = memref.dim %[[B]], %c2
// CHECK: %[[KB64:.*]] = arith.index_cast %[[KB]] : index to i64
// CHECK-NEXT: call @croqRtRequireEqualExtents(%{{.*}}, %[[KB64]], %c2_i32, %c0_i32)
// CHECK: call @croqRtRequireEqualExtents(%{{.*}}, %{{.*}}, %c0_i32, %c0_i32)
// CHECK: call @croqRtRequireEqualExtents(%{{.*}}, %{{.*}}, %c1_i32, %c0_i32)
// CHECK: call @croqRtRequireEqualExtents(%{{.*}}, %{{.*}}, %c3_i32, %c0_i32)
// CHECK: call @croqRtRequireEqualExtents(%{{.*}}, %{{.*}}, %c4_i32, %c0_i32)
// CHECK: croq.parallel
func.func @batched(%a: memref<?x?x?xbf16>, %b: memref<?x?x?xbf16>, %c: memref<?x?x?xbf16>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%a, %b : memref<?x?x?xbf16>, memref<?x?x?xbf16>) outs(%c : memref<?x?x?xbf16>)
  return
}

// -----

// The fused generic's inputs (check 5, with the generic's operand number):
// the bias (operand 1) against the product's columns, the residual
// (operand 2) against its rows and columns. The generic's output is the
// output the M and N checks compare.
// CHECK-LABEL: func.func @fused
// CHECK-SAME: %[[BIAS:[a-z0-9]*]]: memref<?xf32>, %[[RES:[a-z0-9]*]]: memref<?x?xf16>, %[[OUT:[a-z0-9]*]]: memref<?x?xf16>
// CHECK: call @croqRtRequireEqualExtents(%{{.*}}, %{{.*}}, %c2_i32, %c0_i32)
// CHECK: call @croqRtRequireEqualExtents(%{{.*}}, %{{.*}}, %c0_i32, %c0_i32)
// CHECK: call @croqRtRequireEqualExtents(%{{.*}}, %{{.*}}, %c1_i32, %c0_i32)
// CHECK-NEXT: %[[BN:.*]] = memref.dim %[[BIAS]], %c0
// CHECK-NEXT: %[[BN64:.*]] = arith.index_cast %[[BN]] : index to i64
// CHECK-NEXT: arith.index_cast
// CHECK-NEXT: call @croqRtRequireEqualExtents(%[[BN64]], %{{.*}}, %c5_i32, %c1_i32)
// CHECK-NEXT: %[[RM:.*]] = memref.dim %[[RES]], %c0
// CHECK-NEXT: %[[RM64:.*]] = arith.index_cast %[[RM]] : index to i64
// CHECK-NEXT: arith.index_cast
// CHECK-NEXT: call @croqRtRequireEqualExtents(%[[RM64]], %{{.*}}, %c5_i32, %c2_i32)
// CHECK-NEXT: %[[RN:.*]] = memref.dim %[[RES]], %c1
// CHECK-NEXT: %[[RN64:.*]] = arith.index_cast %[[RN]] : index to i64
// CHECK-NEXT: arith.index_cast
// CHECK-NEXT: call @croqRtRequireEqualExtents(%[[RN64]], %{{.*}}, %c5_i32, %c2_i32)
// CHECK: croq.parallel
func.func @fused(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %bias: memref<?xf32>, %res: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf16>
  %n = memref.dim %b, %c1 : memref<?x?xf16>
  %tmp = memref.alloc(%m, %n) : memref<?x?xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%tmp : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%tmp : memref<?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%tmp, %bias, %res : memref<?x?xf32>, memref<?xf32>, memref<?x?xf16>) outs(%out : memref<?x?xf16>) {
  ^bb0(%x: f32, %bv: f32, %r: f16, %o: f16):
    %y = arith.addf %x, %bv : f32
    %rf = arith.extf %r : f16 to f32
    %s = arith.addf %y, %rf : f32
    %h = arith.truncf %s : f32 to f16
    linalg.yield %h : f16
  }
  memref.dealloc %tmp : memref<?x?xf32>
  return
}
