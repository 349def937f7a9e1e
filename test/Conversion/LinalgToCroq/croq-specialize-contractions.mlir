// RUN: croq-opt %s --croq-specialize-contractions -split-input-file | FileCheck %s

// Contractions in the forms frontends and upstream's passes leave them
// become named products whose operands are laid out as the GEMM kernel
// reads them.

// The named products' indexing maps follow from their operand types: B
// of N x K elements is read (n, k).

// A plain product written as a generic (a frontend's generalized
// batch_matmul of batch 1, B stored N x K): the unit loop is dropped and
// the operands are views.
// CHECK-LABEL: func.func @generic_product
// CHECK-DAG: %[[A:.*]] = memref.collapse_shape %arg0 {{\[}}[0, 1], [2]] : memref<1x128x64xf16> into memref<128x64xf16>
// CHECK-DAG: %[[B:.*]] = memref.collapse_shape %arg1 {{\[}}[0, 1], [2]] : memref<1x256x64xf16> into memref<256x64xf16>
// CHECK-DAG: %[[C:.*]] = memref.collapse_shape %arg2 {{\[}}[0, 1], [2]] : memref<1x128x256xf32> into memref<128x256xf32>
// CHECK: linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%[[A]], %[[B]] : memref<128x64xf16>, memref<256x64xf16>) outs(%[[C]] : memref<128x256xf32>)
// CHECK-NOT: linalg.generic
func.func @generic_product(%a: memref<1x128x64xf16>, %b: memref<1x256x64xf16>, %c: memref<1x128x256xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<1x128x64xf16>, memref<1x256x64xf16>) outs(%c : memref<1x128x256xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A bias add and ReLU fused into the product's first factor (as upstream's
// linalg-fuse-elementwise-ops leaves them): the factor is written to a
// temporary first; the batch and row loops merge into the rows; the fill
// before the product moves onto the output's view.
// CHECK-LABEL: func.func @fused_producer
// CHECK: %[[T:.*]] = memref.alloc() : memref<4x128x512xf16>
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 : memref<4x128x512xf16>, memref<512xf16>) outs(%[[T]] : memref<4x128x512xf16>)
// CHECK: arith.addf
// CHECK: %[[R:.*]] = arith.maximumf
// CHECK: linalg.yield %[[R]] : f16
// CHECK: %[[A:.*]] = memref.collapse_shape %[[T]] {{\[}}[0, 1], [2]] : memref<4x128x512xf16> into memref<512x512xf16>
// CHECK: %[[C:.*]] = memref.collapse_shape %arg3 {{\[}}[0, 1], [2]] : memref<4x128x256xf32> into memref<512x256xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[C]] : memref<512x256xf32>)
// CHECK-NEXT: linalg.matmul ins(%[[A]], %arg2 : memref<512x512xf16>, memref<512x256xf16>) outs(%[[C]] : memref<512x256xf32>)
// CHECK-NOT: linalg.generic
func.func @fused_producer(%h: memref<4x128x512xf16>, %bias: memref<512xf16>, %w: memref<512x256xf16>, %out: memref<4x128x256xf32>) {
  %zero = arith.constant 0.0 : f16
  %zf = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%out : memref<4x128x256xf32>) {
  ^bb0(%o: f32):
    linalg.yield %zf : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%h, %bias, %w : memref<4x128x512xf16>, memref<512xf16>, memref<512x256xf16>) outs(%out : memref<4x128x256xf32>) {
  ^bb0(%x: f16, %c: f16, %y: f16, %acc: f32):
    %s = arith.addf %x, %c : f16
    %r = arith.maximumf %s, %zero : f16
    %p = arith.mulf %r, %y : f16
    %e = arith.extf %p : f16 to f32
    %sum = arith.addf %acc, %e : f32
    linalg.yield %sum : f32
  }
  return
}

// -----

// Attention scores with the heads in the middle of Q and K: the batch loop
// (heads) is not outermost in them, so both are copied into batch-major
// temporaries; the output is batch-major already.
// CHECK-LABEL: func.func @heads
// CHECK: %[[Q:.*]] = memref.alloc() : memref<4x128x64xf16>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], {{.*}} ins(%arg0 : memref<128x4x64xf16>) outs(%[[Q]]
// CHECK: %[[K:.*]] = memref.alloc() : memref<4x128x64xf16>
// CHECK: linalg.generic {{.*}} ins(%arg1 : memref<128x4x64xf16>) outs(%[[K]]
// CHECK: linalg.batch_matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%[[Q]], %[[K]] : {{.*}}) outs(%arg2 : memref<4x128x128xf32>)
func.func @heads(%q: memref<128x4x64xf16>, %k: memref<128x4x64xf16>, %s: memref<4x128x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (i, h, d)>, affine_map<(h, i, j, d) -> (j, h, d)>, affine_map<(h, i, j, d) -> (h, i, j)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : memref<128x4x64xf16>, memref<128x4x64xf16>) outs(%s : memref<4x128x128xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %sum = arith.addf %acc, %p : f32
    linalg.yield %sum : f32
  }
  return
}

// -----

// An output indexed (n, m): the product goes to a row-major temporary,
// which the output is copied into first and back from after.
// CHECK-LABEL: func.func @permuted_output
// CHECK: %[[T:.*]] = memref.alloc() : memref<64x48xf16>
// CHECK: linalg.generic {{.*}} ins(%arg2 : memref<48x64xf16>) outs(%[[T]] : memref<64x48xf16>)
// CHECK: linalg.matmul ins(%arg0, %arg1 : memref<64x32xf16>, memref<32x48xf16>) outs(%[[T]] : memref<64x48xf16>)
// CHECK: linalg.generic {{.*}} ins(%[[T]] : memref<64x48xf16>) outs(%arg2 : memref<48x64xf16>)
func.func @permuted_output(%a: memref<64x32xf16>, %b: memref<32x48xf16>, %c: memref<48x64xf16>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (n, m)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x32xf16>, memref<32x48xf16>) outs(%c : memref<48x64xf16>) {
  ^bb0(%x: f16, %y: f16, %acc: f16):
    %p = arith.mulf %x, %y : f16
    %sum = arith.addf %acc, %p : f16
    linalg.yield %sum : f16
  }
  return
}

// -----

// f32 operands (tf32 on the tensor cores, which read them K-major only):
// the named matmul's B, stored K x N, is transposed into a temporary of
// the run-time extents.
// CHECK-LABEL: func.func @tf32
// CHECK-DAG: %[[N:.*]] = memref.dim %arg1, %c1
// CHECK-DAG: %[[K:.*]] = memref.dim %arg0, %c1
// CHECK: %[[T:.*]] = memref.alloc(%[[N]], %[[K]]) : memref<?x?xf32>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], {{.*}} ins(%arg1 : memref<?x?xf32>) outs(%[[T]] : memref<?x?xf32>)
// CHECK: linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%arg0, %[[T]] : memref<?x?xf32>, memref<?x?xf32>) outs(%arg2 : memref<?x?xf32>)
func.func @tf32(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// An 8-bit integer batch_matmul of batch 1 (as TOSA's matmul lowers): a
// matmul over views, with B transposed into a temporary (K-major), the
// zero fill right before it.
// CHECK-LABEL: func.func @int8
// CHECK: %[[A:.*]] = memref.collapse_shape %arg0 {{.*}} into memref<128x64xi8>
// CHECK: %[[T:.*]] = memref.alloc() : memref<256x64xi8>
// CHECK: linalg.generic {{.*}} ins(%arg1 : memref<1x64x256xi8>) outs(%[[T]] : memref<256x64xi8>)
// CHECK: %[[C:.*]] = memref.collapse_shape %arg2 {{.*}} into memref<128x256xi32>
// CHECK: linalg.fill ins(%{{.*}} : i32) outs(%[[C]] : memref<128x256xi32>)
// CHECK-NEXT: linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%[[A]], %[[T]] : memref<128x64xi8>, memref<256x64xi8>) outs(%[[C]] : memref<128x256xi32>)
func.func @int8(%a: memref<1x128x64xi8>, %b: memref<1x64x256xi8>, %c: memref<1x128x256xi32>) {
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%c : memref<1x128x256xi32>)
  linalg.batch_matmul ins(%a, %b : memref<1x128x64xi8>, memref<1x64x256xi8>) outs(%c : memref<1x128x256xi32>)
  return
}

// -----

// A named f16 matmul is left as it is.
// CHECK-LABEL: func.func @f16_kept
// CHECK-NEXT: linalg.matmul ins(%arg0, %arg1 : memref<64x32xf16>, memref<32x48xf16>) outs(%arg2 : memref<64x48xf32>)
// CHECK-NEXT: return
func.func @f16_kept(%a: memref<64x32xf16>, %b: memref<32x48xf16>, %c: memref<64x48xf32>) {
  linalg.matmul ins(%a, %b : memref<64x32xf16>, memref<32x48xf16>) outs(%c : memref<64x48xf32>)
  return
}

// -----

// A matrix-vector product has no column loop: it is generalized and left
// to the reduction kernel.
// CHECK-LABEL: func.func @matvec
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK-NOT: linalg.matmul
func.func @matvec(%a: memref<64x32xf16>, %x: memref<32xf16>, %y: memref<64xf16>) {
  linalg.matvec ins(%a, %x : memref<64x32xf16>, memref<32xf16>) outs(%y : memref<64xf16>)
  return
}

// -----

// A sum of squares reads one input in both factors: not a product.
// CHECK-LABEL: func.func @square
// CHECK: linalg.generic
// CHECK-NOT: linalg.matmul
func.func @square(%a: memref<64x32xf32>, %y: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<64x32xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %p = arith.mulf %x, %x : f32
    %sum = arith.addf %acc, %p : f32
    linalg.yield %sum : f32
  }
  return
}

// -----

// A factor that reads loop indices (a mask on A's rows and columns): the
// index ops follow the loops into the temporary's generic.
// CHECK-LABEL: func.func @masked
// CHECK: %[[T:.*]] = memref.alloc() : memref<64x32xf16>
// CHECK: linalg.generic {{.*}} ins(%arg0 : memref<64x32xf16>) outs(%[[T]] : memref<64x32xf16>)
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[J:.*]] = linalg.index 1 : index
// CHECK: arith.cmpi ule, %[[J]], %[[I]] : index
// CHECK: linalg.matmul ins(%[[T]], %arg1 : memref<64x32xf16>, memref<32x48xf16>) outs(%arg2 : memref<64x48xf32>)
func.func @masked(%a: memref<64x32xf16>, %b: memref<32x48xf16>, %c: memref<64x48xf32>) {
  %zero = arith.constant 0.0 : f16
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x32xf16>, memref<32x48xf16>) outs(%c : memref<64x48xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 2 : index
    %keep = arith.cmpi ule, %j, %i : index
    %xm = arith.select %keep, %x, %zero : f16
    %p = arith.mulf %xm, %y : f16
    %e = arith.extf %p : f16 to f32
    %sum = arith.addf %acc, %e : f32
    linalg.yield %sum : f32
  }
  return
}

// -----

// A 16-bit batch_matmul of one matrix (TOSA's matmul as tosa-to-linalg
// lowers it) is a plain product of views without the batch dimension: the
// zero fill moves onto C's view, right before the product.
// CHECK-LABEL: func.func @unit_batch
// CHECK-DAG: %[[A:.*]] = memref.collapse_shape %arg0 {{\[}}[0, 1], [2]] : memref<1x128x64xf16> into memref<128x64xf16>
// CHECK-DAG: %[[B:.*]] = memref.collapse_shape %arg1 {{\[}}[0, 1], [2]] : memref<1x64x256xf16> into memref<64x256xf16>
// CHECK-DAG: %[[C:.*]] = memref.collapse_shape %arg2 {{\[}}[0, 1], [2]] : memref<1x128x256xf32> into memref<128x256xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[C]] : memref<128x256xf32>)
// CHECK-NEXT: linalg.matmul ins(%[[A]], %[[B]] : memref<128x64xf16>, memref<64x256xf16>) outs(%[[C]] : memref<128x256xf32>)
// CHECK-NOT: batch_matmul
func.func @unit_batch(%a: memref<1x128x64xf16>, %b: memref<1x64x256xf16>, %c: memref<1x128x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1x128x256xf32>)
  linalg.batch_matmul ins(%a, %b : memref<1x128x64xf16>, memref<1x64x256xf16>) outs(%c : memref<1x128x256xf32>)
  return
}

// -----

// Its indexing maps carry over without the batch: B stored N x K (read
// (b, n, k)) and A broadcast over the batch (a matrix, read (m, k)); a
// dynamic M stays dynamic. A fill that is not right before it stays.
// CHECK-DAG: #[[AM:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[BM:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[CM:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @unit_batch_maps
// CHECK: linalg.fill ins(%{{.*}} : f16) outs(%arg2 : memref<1x?x256xf16>)
// CHECK-DAG: %[[B:.*]] = memref.collapse_shape %arg1 {{\[}}[0, 1], [2]] : memref<1x256x64xf16> into memref<256x64xf16>
// CHECK-DAG: %[[C:.*]] = memref.collapse_shape %arg2 {{\[}}[0, 1], [2]] : memref<1x?x256xf16> into memref<?x256xf16>
// CHECK: linalg.matmul indexing_maps = [#[[AM]], #[[BM]], #[[CM]]] ins(%arg0, %[[B]] : memref<?x64xf16>, memref<256x64xf16>) outs(%[[C]] : memref<?x256xf16>)
func.func @unit_batch_maps(%a: memref<?x64xf16>, %b: memref<1x256x64xf16>, %c: memref<1x?x256xf16>, %d: memref<4xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<1x?x256xf16>)
  linalg.fill ins(%zero : f16) outs(%d : memref<4xf16>)
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %b : memref<?x64xf16>, memref<1x256x64xf16>) outs(%c : memref<1x?x256xf16>)
  return
}

// -----

// A batch of two, or of a dynamic extent, stays a batch.
// CHECK-LABEL: func.func @batches_kept
// CHECK: linalg.batch_matmul ins(%arg0, %arg1 : memref<2x128x64xf16>, memref<2x64x256xf16>)
// CHECK: linalg.batch_matmul ins(%arg3, %arg4 : memref<?x128x64xf16>, memref<?x64x256xf16>)
// CHECK-NOT: collapse_shape
func.func @batches_kept(%a: memref<2x128x64xf16>, %b: memref<2x64x256xf16>, %c: memref<2x128x256xf32>,
                        %x: memref<?x128x64xf16>, %y: memref<?x64x256xf16>, %z: memref<?x128x256xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x128x64xf16>, memref<2x64x256xf16>) outs(%c : memref<2x128x256xf32>)
  linalg.batch_matmul ins(%x, %y : memref<?x128x64xf16>, memref<?x64x256xf16>) outs(%z : memref<?x128x256xf32>)
  return
}

// -----

// A matrix-vector product of one matrix (TOSA's matmul of one column)
// stays a product of one column, which convert-linalg-to-croq computes as
// a product of one row (C^T = B^T A^T).
// CHECK-LABEL: func.func @unit_batch_one_column
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<4096x4096xf16>, memref<4096x1xf16>) outs(%{{.*}} : memref<4096x1xf16>)
func.func @unit_batch_one_column(%a: memref<1x4096x4096xf16>, %b: memref<1x4096x1xf16>, %c: memref<1x4096x1xf16>) {
  linalg.batch_matmul ins(%a, %b : memref<1x4096x4096xf16>, memref<1x4096x1xf16>) outs(%c : memref<1x4096x1xf16>)
  return
}

// -----

// A quantized product (zero points subtracted from the factors) is a
// contraction in its generic form only: generalized, its factors are
// computed into i32 temporaries and the product is a linalg.matmul of them
// (which convert-linalg-to-croq then declines by its operands' type).
// CHECK-LABEL: func.func @quantized
// CHECK-NOT: linalg.quantized_matmul
// CHECK: arith.subi
// CHECK: linalg.matmul {{.*}}ins({{.*}} : memref<64x128xi32>, memref<{{.*}}xi32>) outs(%arg2 : memref<64x64xi32>)
func.func @quantized(%a: memref<64x128xi8>, %b: memref<128x64xi8>, %c: memref<64x64xi32>) {
  %za = arith.constant 3 : i32
  %zb = arith.constant -2 : i32
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%c : memref<64x64xi32>)
  linalg.quantized_matmul ins(%a, %b, %za, %zb : memref<64x128xi8>, memref<128x64xi8>, i32, i32) outs(%c : memref<64x64xi32>)
  return
}

// -----

// Factors zero-extended (cast_unsigned) are left as they are: a product of
// their i32 temporaries would be one croq declines by type, not by what
// it is.
// CHECK-LABEL: func.func @unsigned
// CHECK-NOT: linalg.matmul
// CHECK: linalg.generic
// CHECK: arith.extui
func.func @unsigned(%a: memref<64x32xi8>, %b: memref<32x64xi8>, %c: memref<64x64xi32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x32xi8>, memref<32x64xi8>) outs(%c : memref<64x64xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xe = arith.extui %x : i8 to i32
    %ye = arith.extui %y : i8 to i32
    %p = arith.muli %xe, %ye : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }
  return
}
