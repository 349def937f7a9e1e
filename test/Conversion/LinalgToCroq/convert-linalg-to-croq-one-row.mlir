// RUN: croq-opt %s --convert-linalg-to-croq --canonicalize -split-input-file | FileCheck %s
// RUN: croq-opt %s --convert-linalg-to-croq="classify=true" -split-input-file | FileCheck %s --check-prefix=CLASSIFY
// RUN: croq-opt %s --convert-linalg-to-croq="tile-m=64 tile-n=128" --canonicalize -split-input-file | FileCheck %s --check-prefix=FORCED
// RUN: croq-opt %S/Inputs/frontend/matmul_tn_dyn.generalized.mlir --croq-specialize-contractions --convert-linalg-to-croq | FileCheck %s --check-prefix=UPSTREAM

// What upstream's passes make of tosa.transpose + tosa.matmul with a
// dynamic M (Inputs/frontend/matmul_tn_dyn.generalized.mlir: a generic
// reading A through a transposed map, its unit batch collapsed by
// croq-specialize-contractions) takes the one-row branch too.
// UPSTREAM-LABEL: func.func @matmul_tn_dyn
// UPSTREAM:       %[[A:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : memref<1x4096x?xf16> into memref<4096x?xf16>
// UPSTREAM:       %[[M:.*]] = memref.dim %[[A]], %c1 : memref<4096x?xf16>
// UPSTREAM:       %[[ONE:.*]] = arith.cmpi eq, %[[M]], %{{.*}} : index
// UPSTREAM:       scf.if %[[ONE]] {
// UPSTREAM:         memref.reinterpret_cast %[[A]] to offset: [0], sizes: [1, 4096], strides: [4096, 1]
// UPSTREAM:       } else {

// A product of one row whose A is stored K x M holds A as a column of K
// elements one apart, whose rows TMA cannot describe (one element, 2 bytes
// apart) and would stage by a device copy. The pass reads it as the 1 x K
// row it is (a reinterpret_cast whose stride along the one row is K rounded
// up to 64 elements: no element is read through it) and computes the
// product of A stored M x K: here in 64x16 tiles of C^T, whose B operand is
// the row.
// CHECK-LABEL: func.func @one_column
// CHECK-NOT:   scf.if
// CHECK:       %[[ROW:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [1, 8192], strides: [8192, 1] : memref<8192x1xf16> to memref<1x8192xf16, strided<[8192, 1]>>
// CHECK:       croq.parallel (%[[I:.*]], %[[J:.*]]) in [128, 1] : block
// CHECK:       croq.subspan %[[ROW]] [16, 64] at [%[[J]], %{{.*}}] : memref<1x8192xf16, strided<[8192, 1]>> -> !croq.view<16x64xf16>
// CHECK:       croq.mma col row {{.*}} -> !croq.acc<64x16xf32>
// CHECK-NOT:   croq.subspan %arg0
// FORCED-LABEL: func.func @one_column
// FORCED:       %[[ROW:.*]] = memref.reinterpret_cast %arg0
// FORCED:       croq.subspan %[[ROW]] [64, 64]
// FORCED:       croq.mma row col {{.*}} -> !croq.acc<64x128xf32>
func.func @one_column(%a: memref<8192x1xf16>, %b: memref<8192x8192xf16>, %c: memref<1x8192xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<1x8192xf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<8192x1xf16>, memref<8192x8192xf16>) outs(%c : memref<1x8192xf16>)
  return
}

// -----

// More than one column: A is read as stored.
// CHECK-LABEL: func.func @sixteen_columns
// CHECK-NOT:   memref.reinterpret_cast
// CHECK-NOT:   scf.if
// CHECK:       croq.subspan %arg0 [64, 64]
func.func @sixteen_columns(%a: memref<8192x16xf16>, %b: memref<8192x8192xf16>, %c: memref<16x8192xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<16x8192xf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<8192x16xf16>, memref<8192x8192xf16>) outs(%c : memref<16x8192xf16>)
  return
}

// -----

// M dynamic: the host code takes the one-row form when the call's M is 1,
// choosing among the variants that suit one row (the 64x128 tile whole,
// with its K loop split, and split in clusters; the 64x16 tile of C^T
// whole and split in clusters: five, four cases), and the form of A
// stored K x M otherwise (among all its variants). With the identity
// layout, A's stride along K is M: the condition is M = 1.
// CHECK-LABEL: func.func @dynamic
// CHECK:       %[[M:.*]] = memref.dim %arg0, %c1 : memref<?x?xf16>
// CHECK:       %[[ONE:.*]] = arith.cmpi eq, %[[M]], %c1 : index
// CHECK:       scf.if %[[ONE]] {
// CHECK:         %[[ROW:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [1, %{{.*}}], strides: [%{{.*}}, 1] : memref<?x?xf16> to memref<1x?xf16, strided<[?, 1]>>
// CHECK:         scf.index_switch
// CHECK-COUNT-4: case
// CHECK-NOT:     case
// CHECK:         default {
// CHECK:       } else {
// CHECK-NOT:     memref.reinterpret_cast
// CHECK:         scf.index_switch
// CHECK-COUNT-20: case
// CHECK:         default {
// CHECK:       return
// The classifier reports two products: the one-row form's choice (0) in
// the then-branch, the other's (1) in the else-branch.
// CLASSIFY-LABEL: func.func @dynamic
// CLASSIFY:       call @croqRtReportVariant(%c-1_i64, %c2_i64
// CLASSIFY:       scf.if
// CLASSIFY:         call @croqRtReportVariant(%c0_i64, %c2_i64
// CLASSIFY:       } else {
// CLASSIFY:         call @croqRtReportVariant(%c1_i64, %c2_i64
func.func @dynamic(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<?x?xf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
  return
}

// -----

// A strided view: one column is contiguous where A's stride along K is 1
// as well; the row keeps A's offset.
// CHECK-LABEL: func.func @strided
// CHECK:       %[[M:.*]] = memref.dim %arg0, %c1
// CHECK:       %[[MONE:.*]] = arith.cmpi eq, %[[M]], %c1 : index
// CHECK:       %{{.*}}, %{{.*}}, %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %arg0
// CHECK:       %[[UNIT:.*]] = arith.cmpi eq, %[[STRIDES]]#0, %c1 : index
// CHECK:       %[[BOTH:.*]] = arith.andi %[[MONE]], %[[UNIT]] : i1
// CHECK:       scf.if %[[BOTH]] {
// CHECK:         %{{.*}}, %[[OFFSET:.*]], %{{.*}}:2, %{{.*}}:2 = memref.extract_strided_metadata %arg0
// CHECK:         memref.reinterpret_cast %arg0 to offset: [%[[OFFSET]]], sizes: [1, %{{.*}}], strides: [%{{.*}}, 1] : memref<?x?xf16, strided<[?, 1], offset: ?>> to memref<1x?xf16, strided<[?, 1], offset: ?>>
func.func @strided(%a: memref<?x?xf16, strided<[?, 1], offset: ?>>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<?x?xf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xf16, strided<[?, 1], offset: ?>>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
  return
}

// -----

// A batch of matrices is read as stored.
// CHECK-LABEL: func.func @batched
// CHECK-NOT:   memref.reinterpret_cast
// CHECK-NOT:   scf.if
func.func @batched(%a: memref<4x8192x1xf16>, %b: memref<4x8192x256xf16>, %c: memref<4x1x256xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<4x1x256xf16>)
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%a, %b : memref<4x8192x1xf16>, memref<4x8192x256xf16>) outs(%c : memref<4x1x256xf16>)
  return
}
