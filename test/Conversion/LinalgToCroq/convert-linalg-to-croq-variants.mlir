// RUN: croq-opt %s --convert-linalg-to-croq | FileCheck %s --check-prefix=ALL
// RUN: croq-opt %s --convert-linalg-to-croq="variants=-1,3" | FileCheck %s --check-prefix=ONE
// RUN: croq-opt %s --convert-linalg-to-croq="variants=-1,-1" | FileCheck %s --check-prefix=NONE
// RUN: croq-opt %s --convert-linalg-to-croq="classify=true" | FileCheck %s --check-prefix=CLASSIFY

// Compile on first call. A dynamic f16 GEMM into f32 is two products whose
// variant the host code chooses: first the one-row form of a
// matrix-vector product (N = 1, computed as C^T = B^T A^T; three
// variants: 64x128 tiles whole, split, split in clusters), then the
// product as stored, with 33 variants (tiles, their clusters, split,
// stream-K and cluster-split forms, the narrow tiles of few columns alone
// and in clusters, 64x64 also with fewer stages for two blocks to a
// multiprocessor; 48 kernels). By default the host code chooses among all
// of them.
// Before the model chooses, the host code asks the runtime for a variant
// its caller requested (croqRtRequestedVariant: product 0 of 3 variants,
// then product 1 of 33), taken where the model's cost for it is not
// "never"; the variant taken is reported (croqRtReportVariant) for an
// autotuner to tell a request taken from one refused.
// ALL-LABEL: func.func @gemm
// ALL-NOT: croqRtRequireVariant
// ALL: scf.if
// ALL: %[[REQ0:.*]] = func.call @croqRtRequestedVariant(%c0_i64, %c3_i64) : (i64, i64) -> i64
// ALL: %[[ASKED0:.*]] = arith.index_cast %[[REQ0]] : i64 to index
// ALL: %[[IS:.*]] = arith.cmpi eq, %[[ASKED0]], %{{.*}} : index
// ALL: %[[POSSIBLE:.*]] = arith.cmpi ult, %{{.*}}, %c1152921504606846976{{.*}} : index
// ALL: arith.andi %[[IS]], %[[POSSIBLE]] : i1
// ALL: %[[CHOICE0:.*]] = arith.select %{{.*}}, %[[ASKED0]], %{{.*}} : index
// ALL: %[[TAKEN0:.*]] = arith.index_cast %[[CHOICE0]] : index to i64
// ALL: func.call @croqRtReportVariant(%c0_i64{{.*}}, %c1_i64{{.*}}, %[[TAKEN0]])
// ALL: scf.index_switch %[[CHOICE0]]
// ALL-COUNT-2: case
// ALL: } else {
// ALL: func.call @croqRtRequestedVariant(%c1_i64{{.*}}, %c33_i64) : (i64, i64) -> i64
// ALL: func.call @croqRtReportVariant(%c1_i64{{.*}}, %c2_i64{{.*}}, %{{.*}})
// ALL: scf.index_switch
// ALL-COUNT-32: case
// ALL-NOT: case
// ALL-NOT: croqRtRequireVariant

// variants=-1,3 keeps no variant of the one-row form and variant 3 of the
// product (the whole 128x192 tile): the host code checks that the call's
// extents chose it, then launches its one kernel.
// ONE-DAG: func.func private @croqRtRequireVariant(i64, i64, i64) -> i32
// ONE-LABEL: func.func @gemm
// ONE-NOT: scf.index_switch
// ONE: call @croqRtRequireVariant(%c0_i64{{.*}}, %{{.*}}, %c-1_i64) : (i64, i64, i64) -> i32
// ONE-NOT: croq.parallel
// ONE: call @croqRtRequireVariant(%c1_i64{{.*}}, %{{.*}}, %c3_i64{{.*}}) : (i64, i64, i64) -> i32
// ONE: croq.parallel
// ONE-SAME: : block
// ONE-NOT: croq.acc<128x256
// ONE: croq.mma.fill {{.*}} : !croq.acc<128x192xf32>
// ONE-NOT: croq.parallel {{.*}} : block

// variants=-1,-1 keeps none: every call fails in a check.
// NONE-LABEL: func.func @gemm
// NONE: call @croqRtRequireVariant(%c0_i64{{.*}}, %{{.*}}, %c-1_i64)
// NONE: call @croqRtRequireVariant(%c1_i64{{.*}}, %{{.*}}, %c-1_i64)
// NONE-NOT: croq.parallel

// The classifier launches nothing: it reports the choice and stays an entry
// point (croq.entry).
// CLASSIFY-DAG: func.func private @croqRtReportVariant(i64, i64, i64)
// CLASSIFY-LABEL: func.func @gemm
// CLASSIFY-SAME: attributes {croq.entry}
// First the count of products alone (product -1), then the choice.
// CLASSIFY: %[[COUNTONLY:.*]] = arith.index_cast %{{.*}} : index to i64
// CLASSIFY-NEXT: call @croqRtReportVariant(%c-1_i64, %c2_i64, %[[COUNTONLY]]) : (i64, i64, i64) -> ()
// CLASSIFY: scf.if
// CLASSIFY: call @croqRtRequireEqualExtents
// CLASSIFY: call @croqRtReportVariant(%c0_i64{{.*}}, %c2_i64{{.*}}, %{{.*}}) : (i64, i64, i64) -> ()
// CLASSIFY: } else {
// CLASSIFY: call @croqRtRequireEqualExtents
// CLASSIFY: call @croqRtReportVariant(%c1_i64{{.*}}, %c2_i64{{.*}}, %{{.*}}) : (i64, i64, i64) -> ()
// CLASSIFY: return
// CLASSIFY-NOT: croq.parallel
// CLASSIFY-NOT: linalg.
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>)
  return
}
