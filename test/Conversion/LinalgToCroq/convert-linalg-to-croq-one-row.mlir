// RUN: croq-opt %s --convert-linalg-to-croq --canonicalize -split-input-file | FileCheck %s
// RUN: croq-opt %s --convert-linalg-to-croq="classify=true" -split-input-file | FileCheck %s --check-prefix=CLASSIFY
// RUN: croq-opt %s --convert-linalg-to-croq="tile-m=64 tile-n=128" --canonicalize -split-input-file | FileCheck %s --check-prefix=FORCED
// RUN: croq-opt %S/Inputs/frontend/matmul_tn_dyn.generalized.mlir --croq-specialize-contractions --convert-linalg-to-croq | FileCheck %s --check-prefix=UPSTREAM
// RUN: croq-opt %S/Inputs/frontend/matvec_dyn.generalized.mlir --croq-specialize-contractions --convert-linalg-to-croq | FileCheck %s --check-prefix=MATVEC

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

// tosa.matmul of a dynamic N, generalized and lowered by upstream's passes
// (Inputs/frontend/matvec_dyn.generalized.mlir: its unit batch collapsed
// by croq-specialize-contractions), takes the matrix-vector form where the
// call's N is 1: B's and C's columns read as rows, in 64x16 tiles of C^T
// split in clusters (M and K are static: the choice is made here).
// MATVEC-LABEL: func.func @matvec_dyn
// MATVEC:       %[[B:.*]] = memref.collapse_shape %arg1
// MATVEC:       %[[C:.*]] = memref.collapse_shape %arg2
// MATVEC:       %[[N:.*]] = memref.dim %[[B]], %c1
// MATVEC:       arith.cmpi eq, %[[N]]
// MATVEC:       scf.if
// MATVEC:         memref.reinterpret_cast %[[B]] to offset: [0], sizes: [1, 4096], strides: [4096, 1]
// MATVEC:         memref.reinterpret_cast %[[C]] to offset: [0], sizes: [1, 4096], strides: [4096, 1]
// MATVEC:         croq.parallel {{.*}} in [128, 1] : block cluster [2, 1]
// MATVEC:       } else {

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
// N may be 1 as well: the else-branch holds the one-row form of a
// matrix-vector product (the same five variants) where N is 1 and C's
// stride along M 1 too, and the product as stored otherwise.
// CHECK:       } else {
// CHECK:         %[[N:.*]] = memref.dim %arg1, %c1 : memref<?x?xf16>
// CHECK:         %[[NONE:.*]] = arith.cmpi eq, %[[N]], %c1 : index
// CHECK:         %[[CN:.*]] = memref.dim %arg2, %c1 : memref<?x?xf16>
// CHECK:         %[[CUNIT:.*]] = arith.cmpi eq, %[[CN]], %c1 : index
// CHECK:         %[[COLB:.*]] = arith.andi %[[NONE]], %[[CUNIT]] : i1
// CHECK:         scf.if %[[COLB]] {
// CHECK:           memref.reinterpret_cast %arg1
// CHECK:           memref.reinterpret_cast %arg2
// CHECK:           scf.index_switch
// CHECK-COUNT-4:   case
// CHECK-NOT:       case
// CHECK:           default {
// CHECK:         } else {
// CHECK-NOT:       memref.reinterpret_cast
// CHECK:           scf.index_switch
// CHECK-COUNT-26:  case
// CHECK:           default {
// CHECK:       return
// The classifier reports three products: the one-row form's choice (0) in
// the then-branch, the matrix-vector form's (1) and the other's (2) in the
// else-branch.
// CLASSIFY-LABEL: func.func @dynamic
// CLASSIFY:       call @croqRtReportVariant(%c-1_i64{{.*}}, %c3_i64
// CLASSIFY:       scf.if
// CLASSIFY:         call @croqRtReportVariant(%c0_i64{{.*}}, %c3_i64
// CLASSIFY:       } else {
// CLASSIFY:         scf.if
// CLASSIFY:           call @croqRtReportVariant(%c1_i64{{.*}}, %c3_i64
// CLASSIFY:         } else {
// CLASSIFY:           call @croqRtReportVariant(%c2_i64{{.*}}, %c3_i64
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

// -----

// A matrix-vector product (N = 1): B's one column and C's are rows of
// elements one apart, which TMA cannot describe as stored (rows of one
// element, 2 bytes apart). The pass computes C^T = B^T A^T, a product of
// one row: B read as its 1 x K row is its A, A (stored M x K) its B, read
// N x K (`row`), and C read as its 1 x M row its output; here in 64x16
// tiles of C^T, whose A operand is A's K steps and whose result C's rows.
// CHECK-LABEL: func.func @one_column_b
// CHECK-NOT:   scf.if
// CHECK-DAG:   %[[BROW:.*]] = memref.reinterpret_cast %arg1 to offset: [0], sizes: [1, 4096], strides: [4096, 1] : memref<4096x1xf16> to memref<1x4096xf16, strided<[4096, 1]>>
// CHECK-DAG:   %[[CROW:.*]] = memref.reinterpret_cast %arg2 to offset: [0], sizes: [1, 8192], strides: [8192, 1] : memref<8192x1xf16> to memref<1x8192xf16, strided<[8192, 1]>>
// CHECK:       croq.parallel (%[[I:.*]], %[[J:.*]]) in [128, 1] : block
// CHECK:       croq.subspan %arg0 [64, 64] at [%[[I]], %{{.*}}] : memref<8192x4096xf16> -> !croq.view<64x64xf16>
// CHECK:       croq.subspan %[[BROW]] [16, 64] at [%[[J]], %{{.*}}]
// CHECK:       croq.mma row row {{.*}} -> !croq.acc<64x16xf32>
// CHECK:       croq.subspan %[[CROW]] [16, 64] at [%[[J]], %[[I]]]
// CHECK:       croq.mma.store transpose
// CHECK-NOT:   croq.subspan %arg1
// CHECK-NOT:   croq.subspan %arg2
// A forced tile computes the product as written.
// FORCED-LABEL: func.func @one_column_b
// FORCED-NOT:   memref.reinterpret_cast
// FORCED:       croq.subspan %arg1 [64, 128]
func.func @one_column_b(%a: memref<8192x4096xf16>, %b: memref<4096x1xf16>, %c: memref<8192x1xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<8192x1xf16>)
  linalg.matmul ins(%a, %b : memref<8192x4096xf16>, memref<4096x1xf16>) outs(%c : memref<8192x1xf16>)
  return
}

// -----

// B stored N x K is a row already; it is read through the same cast, whose
// stride TMA takes whatever K is (here K = 4100: rows of 8200 bytes).
// CHECK-LABEL: func.func @one_row_b
// CHECK:       memref.reinterpret_cast %arg1 to offset: [0], sizes: [1, 4100], strides: [4160, 1] : memref<1x4100xbf16> to memref<1x4100xbf16, strided<[4160, 1]>>
// CHECK:       memref.reinterpret_cast %arg2 to offset: [0], sizes: [1, 8192], strides: [8192, 1] : memref<8192x1xbf16> to memref<1x8192xbf16, strided<[8192, 1]>>
// CHECK:       croq.mma row row
func.func @one_row_b(%a: memref<8192x4100xbf16>, %b: memref<1x4100xbf16>, %c: memref<8192x1xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%c : memref<8192x1xbf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<8192x4100xbf16>, memref<1x4100xbf16>) outs(%c : memref<8192x1xbf16>)
  return
}

// -----

// A stored K x M with N = 1: A is read K x N (`col`) as the product of one
// row's B.
// CHECK-LABEL: func.func @one_column_b_a_transposed
// CHECK:       memref.reinterpret_cast %arg1
// CHECK:       croq.subspan %arg0 [64, 64]
// CHECK:       croq.mma col row
func.func @one_column_b_a_transposed(%a: memref<4096x8192xf16>, %b: memref<4096x1xf16>, %c: memref<8192x1xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<8192x1xf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<4096x8192xf16>, memref<4096x1xf16>) outs(%c : memref<8192x1xf16>)
  return
}

// -----

// C's rows not one element apart (a column of a wider buffer, stride 8):
// C cannot be read as a row, and the product is computed as written.
// CHECK-LABEL: func.func @strided_c
// CHECK-NOT:   memref.reinterpret_cast
// CHECK-NOT:   scf.if
// CHECK:       croq.subspan %arg1
func.func @strided_c(%a: memref<8192x4096xf16>, %b: memref<4096x1xf16>, %c: memref<8192x1xf16, strided<[8, 1]>>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<8192x1xf16, strided<[8, 1]>>)
  linalg.matmul ins(%a, %b : memref<8192x4096xf16>, memref<4096x1xf16>) outs(%c : memref<8192x1xf16, strided<[8, 1]>>)
  return
}

// -----

// With a consumer fused in the epilogue (a bias added, indexed by C's
// column) the product is computed as written, whatever N is.
// CHECK-LABEL: func.func @one_column_b_bias
// CHECK-NOT:   memref.reinterpret_cast
// CHECK:       scf.index_switch
// CHECK:       croq.subspan %arg1
func.func @one_column_b_bias(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %bias: memref<?xf32>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf16>
  %n = memref.dim %b, %c1 : memref<?x?xf16>
  %tmp = memref.alloc(%m, %n) : memref<?x?xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%tmp : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%tmp : memref<?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%tmp, %bias : memref<?x?xf32>, memref<?xf32>) outs(%out : memref<?x?xf16>) {
  ^bb0(%x: f32, %y: f32, %o: f16):
    %s = arith.addf %x, %y : f32
    %r = arith.truncf %s : f32 to f16
    linalg.yield %r : f16
  }
  memref.dealloc %tmp : memref<?x?xf32>
  return
}
