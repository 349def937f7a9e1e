// RUN: croq-opt %s --convert-linalg-to-croq="variants=-1,12,-1,-1" | FileCheck %s --check-prefix=TWO
// RUN: croq-opt %s --convert-linalg-to-croq="classify=true" | FileCheck %s --check-prefix=CLASSIFY
// RUN: not croq-opt %s --convert-linalg-to-croq="variants=-1,3" 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: not croq-opt %s --convert-linalg-to-croq="variants=-1,3,-1,3,3" 2>&1 | FileCheck %s --check-prefix=LONG
// RUN: not croq-opt %s --convert-linalg-to-croq="variants=-1,3,-1,21" 2>&1 | FileCheck %s --check-prefix=RANGE

// Products are numbered in program order among those whose variant the host
// code chooses: the static product (its variant chosen here) and the
// elementwise ops are not counted, and each dynamic product is two, the
// one-row form of N = 1 (in the then-branch of an scf.if) and the product
// as stored (in the else-branch).

// variants=-1,12,-1,-1: the first product in its split 128x128 form (a
// workspace, two kernels), its one-row form and both of the third product
// without kernels, the static product and the elementwise ops as always.
// TWO-LABEL: func.func @two_products
// TWO: call @croqRtRequireVariant(%c0_i64{{.*}}, %{{.*}}, %c-1_i64{{.*}})
// TWO: call @croqRtRequireVariant(%c1_i64{{.*}}, %{{.*}}, %c12_i64{{.*}})
// TWO: gpu.alloc
// TWO: croq.parallel {{.*}} : block
// TWO: croq.mma.fill {{.*}} : !croq.acc<128x128xf32>
// TWO: croq.parallel {{.*}} : block
// TWO: gpu.dealloc
// TWO: croq.parallel {{.*}} in [4, 2] : block
// TWO: call @croqRtRequireVariant(%c2_i64{{.*}}, %{{.*}}, %c-1_i64{{.*}})
// TWO: call @croqRtRequireVariant(%c3_i64{{.*}}, %{{.*}}, %c-1_i64{{.*}})
// TWO: croq.parallel {{.*}} : block
// TWO: croq.parallel {{.*}} : block
// TWO-NOT: croq.parallel {{.*}} : block
// TWO: return

// The classifier reports products 0 to 3 of 4 and drops every kernel, the
// static product's and the elementwise ones', and the temporary only they
// used.
// CLASSIFY-LABEL: func.func @two_products
// CLASSIFY-SAME: attributes {croq.entry}
// CLASSIFY: call @croqRtReportVariant(%c-1_i64{{.*}}, %c4_i64{{.*}}, %{{.*}})
// CLASSIFY: call @croqRtReportVariant(%c0_i64{{.*}}, %c4_i64{{.*}}, %{{.*}})
// CLASSIFY: call @croqRtReportVariant(%c1_i64{{.*}}, %c4_i64{{.*}}, %{{.*}})
// CLASSIFY: call @croqRtReportVariant(%c2_i64{{.*}}, %c4_i64{{.*}}, %{{.*}})
// CLASSIFY: call @croqRtReportVariant(%c3_i64{{.*}}, %c4_i64{{.*}}, %{{.*}})
// CLASSIFY-NOT: memref.alloc
// CLASSIFY-NOT: croq.parallel
// CLASSIFY-NOT: linalg.
// CLASSIFY: return
func.func @two_products(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                        %c: memref<?x?xf32>, %s: memref<256x256xf16>,
                        %t: memref<256x256xf32>, %d: memref<?x?xbf16>,
                        %e: memref<?x?xf32>, %x: memref<?xf32>,
                        %y: memref<?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>)
  linalg.matmul ins(%s, %s : memref<256x256xf16>, memref<256x256xf16>) outs(%t : memref<256x256xf32>)
  // SHORT: :[[# @LINE + 4]]:3: error: 'linalg.matmul' op convert-linalg-to-croq: variants lists 2 products, but this is product 2 whose variant the host code chooses
  // LONG: :[[# @LINE + 3]]:3: error: convert-linalg-to-croq: variants lists 5 products; the module has 4 whose variant the host code chooses
  // The bf16 GEMM has 21 variants (accumulated: no 192-row tile).
  // RANGE: :[[# @LINE + 1]]:3: error: 'linalg.matmul' op convert-linalg-to-croq: variants gives product 3 variant 21; it has 21 (0 to 20, or -1 for none)
  linalg.matmul ins(%d, %d : memref<?x?xbf16>, memref<?x?xbf16>) outs(%e : memref<?x?xf32>)
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %tmp = memref.alloc(%n) : memref<?xf32>
  linalg.exp ins(%x : memref<?xf32>) outs(%tmp : memref<?xf32>)
  linalg.add ins(%tmp, %x : memref<?xf32>, memref<?xf32>) outs(%y : memref<?xf32>)
  memref.dealloc %tmp : memref<?xf32>
  return
}

// A function without products reports the module's count all the same, so
// that its caller knows not to compile the other functions' variants.
// CLASSIFY-LABEL: func.func @no_products
// CLASSIFY-SAME: attributes {croq.entry}
// CLASSIFY: call @croqRtReportVariant(%c-1_i64{{.*}}, %c4_i64{{.*}}, %{{.*}})
// CLASSIFY-NOT: croq.parallel
// CLASSIFY: return
// TWO-LABEL: func.func @no_products
// TWO: croq.parallel {{.*}} : block
func.func @no_products(%x: memref<?xf32>, %y: memref<?xf32>) {
  linalg.exp ins(%x : memref<?xf32>) outs(%y : memref<?xf32>)
  return
}
