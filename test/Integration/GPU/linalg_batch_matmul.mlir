// REQUIRES: ptxas
// UNSUPPORTED: sanitizers
// (under sanitizers: croq's passes on this input in sanitized-inputs.test)
// RUN: croq-translate --croq-to-ptx %s -o %t.ptx
// RUN: rm -rf %t.d && split-file %t.ptx %t.d
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_f16_kernel.ptx -o %t.0.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_f16_kernel_0.ptx -o %t.1.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_f16_kernel_1.ptx -o %t.2.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_f16_kernel_2.ptx -o %t.3.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_f16_kernel_3.ptx -o %t.4.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_f16_kernel_4.ptx -o %t.5.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_f16_kernel_5.ptx -o %t.6.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_f16_kernel_6.ptx -o %t.7.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_f16_kernel_7.ptx -o %t.8.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_f16_kernel_8.ptx -o %t.9.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_f16_kernel_9.ptx -o %t.10.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_f16_kernel_10.ptx -o %t.11.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_f16_kernel_11.ptx -o %t.12.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_nt_bf16_kernel.ptx -o %t.13.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_nt_bf16_kernel_12.ptx -o %t.14.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_nt_bf16_kernel_13.ptx -o %t.15.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_nt_bf16_kernel_14.ptx -o %t.16.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_nt_bf16_kernel_15.ptx -o %t.17.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_nt_bf16_kernel_16.ptx -o %t.18.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_nt_bf16_kernel_17.ptx -o %t.19.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_nt_bf16_kernel_18.ptx -o %t.20.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_nt_bf16_kernel_19.ptx -o %t.21.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_nt_bf16_kernel_20.ptx -o %t.22.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_nt_bf16_kernel_21.ptx -o %t.23.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_nt_bf16_kernel_22.ptx -o %t.24.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_nt_bf16_kernel_23.ptx -o %t.25.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_tn_acc_f16_kernel.ptx -o %t.26.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_tn_acc_f16_kernel_24.ptx -o %t.27.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_tn_acc_f16_kernel_25.ptx -o %t.28.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_tn_acc_f16_kernel_26.ptx -o %t.29.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_tn_acc_f16_kernel_27.ptx -o %t.30.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_tn_acc_f16_kernel_28.ptx -o %t.31.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_tn_acc_f16_kernel_29.ptx -o %t.32.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_tn_acc_f16_kernel_30.ptx -o %t.33.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_tn_acc_f16_kernel_31.ptx -o %t.34.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_tn_acc_f16_kernel_32.ptx -o %t.35.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_tn_acc_f16_kernel_33.ptx -o %t.36.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_tn_acc_f16_kernel_34.ptx -o %t.37.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_nt_e4m3_kernel.ptx -o %t.38.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_nt_e4m3_kernel_35.ptx -o %t.39.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_nt_e4m3_kernel_36.ptx -o %t.40.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_nt_e4m3_kernel_37.ptx -o %t.41.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_nt_e4m3_kernel_38.ptx -o %t.42.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_nt_e4m3_kernel_39.ptx -o %t.43.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_nt_e4m3_kernel_40.ptx -o %t.44.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_nt_e4m3_kernel_41.ptx -o %t.45.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_nt_e4m3_kernel_42.ptx -o %t.46.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_nt_e4m3_kernel_43.ptx -o %t.47.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_bias_gelu_residual_bf16_kernel.ptx -o %t.48.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_bias_gelu_residual_bf16_kernel_44.ptx -o %t.49.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_bias_gelu_residual_bf16_kernel_45.ptx -o %t.50.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_bias_gelu_residual_bf16_kernel_46.ptx -o %t.51.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_bias_gelu_residual_bf16_kernel_47.ptx -o %t.52.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_bias_gelu_residual_bf16_kernel_48.ptx -o %t.53.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_bias_gelu_residual_bf16_kernel_49.ptx -o %t.54.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_bias_gelu_residual_bf16_kernel_50.ptx -o %t.55.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_bias_gelu_residual_bf16_kernel_51.ptx -o %t.56.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_bias_gelu_residual_bf16_kernel_52.ptx -o %t.57.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_bias_gelu_residual_bf16_kernel_53.ptx -o %t.58.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_bias_gelu_residual_bf16_kernel_54.ptx -o %t.59.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_bias_gelu_residual_bf16_kernel_55.ptx -o %t.60.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/linalg_bmm_static_f16_kernel.ptx -o %t.61.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: FileCheck %s < %t.d/linalg_bmm_f16_kernel.ptx
// RUN: FileCheck %s --check-prefix=STATIC < %t.d/linalg_bmm_static_f16_kernel.ptx
// RUN: FileCheck %s --check-prefix=EPILOGUE < %t.d/linalg_bmm_bias_gelu_residual_bf16_kernel.ptx

// Batched GEMMs handed to croq as linalg.batch_matmul, as a frontend
// bufferizes them: each operand a batch of matrices (its first dimension),
// B or A transposed through indexing_maps, zeroed by linalg.fill or
// accumulated into, or a zeroed temporary read by an elementwise
// linalg.generic over (b, m, n). convert-linalg-to-croq makes one grid of
// the tiles of every matrix, one matrix after another; each block copies
// its tiles out of its matrix by 3-D TMA boxes of 1 x rows x cols.
// run_gpu_tests.py checks them against float64 products.

// ptxas does not serialize the wgmma pipeline (C7514/C7517 warnings).
// PTXAS-NOT: C75{{1[0-8]|2[0-9]}}

// The first kernel of a function with dynamic shapes is the 128x256 tile:
// a persistent block of a producer and two consumer warpgroups, 3-D TMA
// loads of the operands' tiles and 3-D TMA stores of the result.
// CHECK: .entry linalg_bmm_f16_kernel
// CHECK: .maxntid 384, 1, 1
// CHECK-DAG: cp.async.bulk.tensor.3d.shared::cluster.global
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// CHECK-DAG: cp.async.bulk.tensor.3d.global.shared::cta

// Static shapes fold the cost model's choice: one kernel.
// STATIC: .entry linalg_bmm_static_f16_kernel
// STATIC-NOT: .entry
// STATIC: cp.async.bulk.tensor.3d.shared::cluster.global

// The epilogue reads the bias into registers and the residual from its
// matrix, computes tanh (by ex2.approx) and stores bf16.
// EPILOGUE: .entry linalg_bmm_bias_gelu_residual_bf16_kernel
// EPILOGUE: ex2.approx.ftz.f32
// EPILOGUE: cp.async.bulk.tensor.3d.global.shared::cta

// C[b] = A[b] * B[b] for each matrix b of a batch, f16, f16 result.
func.func @linalg_bmm_f16(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<?x?x?xf16>)
  linalg.batch_matmul ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16>) outs(%c : memref<?x?x?xf16>)
  return
}

// B transposed: C[b] = A[b] * B[b]^T, bf16 (attention's Q K^T).
func.func @linalg_bmm_nt_bf16(%a: memref<?x?x?xbf16>, %b: memref<?x?x?xbf16>, %c: memref<?x?x?xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%c : memref<?x?x?xbf16>)
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%a, %b : memref<?x?x?xbf16>, memref<?x?x?xbf16>) outs(%c : memref<?x?x?xbf16>)
  return
}

// A transposed (stored K x M per matrix), accumulated into an f32 output.
func.func @linalg_bmm_tn_acc_f16(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16>) outs(%c : memref<?x?x?xf32>)
  return
}

// 8-bit floats, B stored N x K per matrix, an f16 result.
func.func @linalg_bmm_nt_e4m3(%a: memref<?x?x?xf8E4M3FN>, %b: memref<?x?x?xf8E4M3FN>, %c: memref<?x?x?xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<?x?x?xf16>)
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%a, %b : memref<?x?x?xf8E4M3FN>, memref<?x?x?xf8E4M3FN>) outs(%c : memref<?x?x?xf16>)
  return
}

// A batched layer: the products in a zeroed f32 temporary, then an
// elementwise linalg.generic over (b, m, n): a bias per column (the same
// for every matrix), a residual tile per matrix, gelu (tanh form), cast to
// bf16. It runs in the epilogue; the temporary is gone.
func.func @linalg_bmm_bias_gelu_residual_bf16(%a: memref<?x?x?xbf16>, %b: memref<?x?x?xbf16>, %bias: memref<?xf32>, %res: memref<?x?x?xbf16>, %out: memref<?x?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %nb = memref.dim %a, %c0 : memref<?x?x?xbf16>
  %m = memref.dim %a, %c1 : memref<?x?x?xbf16>
  %n = memref.dim %b, %c2 : memref<?x?x?xbf16>
  %tmp = memref.alloc(%nb, %m, %n) : memref<?x?x?xf32>
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %k0 = arith.constant 0.7978845608 : f32
  %k1 = arith.constant 0.044715 : f32
  linalg.fill ins(%zero : f32) outs(%tmp : memref<?x?x?xf32>)
  linalg.batch_matmul ins(%a, %b : memref<?x?x?xbf16>, memref<?x?x?xbf16>) outs(%tmp : memref<?x?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (n)>, affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%tmp, %bias, %res : memref<?x?x?xf32>, memref<?xf32>, memref<?x?x?xbf16>) outs(%out : memref<?x?x?xbf16>) {
  ^bb0(%x: f32, %bv: f32, %r: bf16, %o: bf16):
    %y = arith.addf %x, %bv : f32
    %y2 = arith.mulf %y, %y : f32
    %y3 = arith.mulf %y2, %y : f32
    %t0 = arith.mulf %y3, %k1 : f32
    %t1 = arith.addf %y, %t0 : f32
    %t2 = arith.mulf %t1, %k0 : f32
    %t3 = math.tanh %t2 : f32
    %t4 = arith.addf %t3, %one : f32
    %t5 = arith.mulf %t4, %half : f32
    %g = arith.mulf %y, %t5 : f32
    %rf = arith.extf %r : bf16 to f32
    %s = arith.addf %g, %rf : f32
    %h = arith.truncf %s : f32 to bf16
    linalg.yield %h : bf16
  }
  memref.dealloc %tmp : memref<?x?x?xf32>
  return
}

// Static shapes: 12 matrices of 200 x 328 x 136 (odd tile counts at every
// edge); the cost model's choice folds to one kernel.
func.func @linalg_bmm_static_f16(%a: memref<12x200x136xf16>, %b: memref<12x136x328xf16>, %c: memref<12x200x328xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<12x200x328xf32>)
  linalg.batch_matmul ins(%a, %b : memref<12x200x136xf16>, memref<12x136x328xf16>) outs(%c : memref<12x200x328xf32>)
  return
}
