// RUN: croq-opt %s --convert-linalg-to-croq | FileCheck %s --check-prefix=ALL
// RUN: croq-opt %s --convert-linalg-to-croq="variants=3" | FileCheck %s --check-prefix=ONE
// RUN: croq-opt %s --convert-linalg-to-croq="variants=-1" | FileCheck %s --check-prefix=NONE
// RUN: croq-opt %s --convert-linalg-to-croq="classify=true" | FileCheck %s --check-prefix=CLASSIFY

// Compile on first call. A dynamic f16 GEMM has 22 variants (tiles, their
// clusters, split, stream-K and cluster-split forms; 37 kernels): by
// default the host code chooses among all of them.
// ALL-LABEL: func.func @gemm
// ALL-NOT: croqRtRequireVariant
// ALL: scf.index_switch
// ALL-COUNT-21: case
// ALL-NOT: case
// ALL-NOT: croqRtRequireVariant

// variants=3 keeps variant 3 (the whole 128x192 tile): the host code checks
// that the call's extents chose it, then launches its one kernel.
// ONE-DAG: func.func private @croqRtRequireVariant(i64, i64, i64) -> i32
// ONE-LABEL: func.func @gemm
// ONE-NOT: scf.index_switch
// ONE: call @croqRtRequireVariant(%c0_i64, %{{.*}}, %c3_i64) : (i64, i64, i64) -> i32
// ONE: croq.parallel
// ONE-SAME: : block
// ONE-NOT: croq.acc<128x256
// ONE: croq.mma.fill {{.*}} : !croq.acc<128x192xf32>
// ONE-NOT: croq.parallel {{.*}} : block

// variants=-1 keeps none: every call fails in the check.
// NONE-LABEL: func.func @gemm
// NONE: call @croqRtRequireVariant(%c0_i64, %{{.*}}, %c-1_i64)
// NONE-NOT: croq.parallel

// The classifier launches nothing: it reports the choice and stays an entry
// point (croq.entry).
// CLASSIFY-DAG: func.func private @croqRtReportVariant(i64, i64, i64)
// CLASSIFY-LABEL: func.func @gemm
// CLASSIFY-SAME: attributes {croq.entry}
// First the count of products alone (product -1), then the choice.
// CLASSIFY: %[[COUNTONLY:.*]] = arith.index_cast %{{.*}} : index to i64
// CLASSIFY-NEXT: call @croqRtReportVariant(%c-1_i64, %c1_i64, %[[COUNTONLY]]) : (i64, i64, i64) -> ()
// CLASSIFY: call @croqRtRequireEqualExtents
// CLASSIFY: call @croqRtReportVariant(%c0_i64, %c1_i64{{.*}}, %{{.*}}) : (i64, i64, i64) -> ()
// CLASSIFY-NEXT: return
// CLASSIFY-NOT: croq.parallel
// CLASSIFY-NOT: linalg.
func.func @gemm(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>)
  return
}
