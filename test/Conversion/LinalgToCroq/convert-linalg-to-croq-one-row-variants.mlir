// RUN: croq-opt %s --convert-linalg-to-croq="variants=-1,-1,3" | FileCheck %s
// RUN: not croq-opt %s --convert-linalg-to-croq="variants=3" 2>&1 | FileCheck %s --check-prefix=COUNT

// Compile on first call: a product whose A stored K x M may be one column
// and whose B may be too is three products (convert-linalg-to-croq-one-row
// .mlir), the one-row forms' first. A specialization for a call of several
// rows and columns keeps no kernels in the one-row forms' branches (the
// call fails there if it takes one: products 0 and 1 were compiled with
// none) and the variant of its shape class (3, the whole 128x192 tile) in
// the last else-branch.
// CHECK-LABEL: func.func @dynamic
// CHECK:       scf.if
// CHECK:         memref.reinterpret_cast
// CHECK-NOT:     croq.parallel
// CHECK:         call @croqRtRequireVariant(%c0_i64{{.*}}, %{{.*}}, %c-1_i64)
// CHECK-NEXT:  } else {
// CHECK:         scf.if
// CHECK:           memref.reinterpret_cast
// CHECK-NOT:       croq.parallel
// CHECK:           call @croqRtRequireVariant(%c1_i64{{.*}}, %{{.*}}, %c-1_i64)
// CHECK-NEXT:    } else {
// CHECK-NOT:       memref.reinterpret_cast
// CHECK:           call @croqRtRequireVariant(%c2_i64{{.*}}, %{{.*}}, %c3_i64)
// CHECK:         croq.parallel
// CHECK:         croq.mma.fill {{.*}} : !croq.acc<128x192xf32>
// CHECK-NOT:     croq.parallel
// CHECK:       return

// A list of one variant names one product: the module has three.
// COUNT: error: 'linalg.matmul' op convert-linalg-to-croq: variants lists 1 products, but this is product 1 whose variant the host code chooses
func.func @dynamic(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<?x?xf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
  return
}
