// RUN: croq-opt %s --convert-linalg-to-croq -split-input-file -verify-diagnostics

// Every op no croq kernel computes is declined by name, with the reason,
// before anything is lowered.

// (The rules of the convolutions croq computes are in
// convert-linalg-to-croq-conv-errors.mlir.)
func.func @convolution(%in: memref<1x10x10x8xf16>, %f: memref<3x3x8xf16>, %out: memref<1x8x8x8xf16>) {
  // expected-error @+1 {{'linalg.depthwise_conv_2d_nhwc_hwc' op is a depthwise convolution, which croq does not compile}}
  linalg.depthwise_conv_2d_nhwc_hwc ins(%in, %f : memref<1x10x10x8xf16>, memref<3x3x8xf16>) outs(%out : memref<1x8x8x8xf16>)
  return
}

// -----

func.func @generic_contraction(%a: memref<64x32xf16>, %b: memref<32x64xf16>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{'linalg.generic' op is a matrix product written as a linalg.generic, which convert-linalg-to-croq takes once croq-specialize-contractions has made it a linalg.matmul or linalg.batch_matmul (croq-to-nvvm runs that pass first)}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x32xf16>, memref<32x64xf16>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %p = arith.mulf %x, %y : f16
    %w = arith.extf %p : f16 to f32
    %s = arith.addf %acc, %w : f32
    linalg.yield %s : f32
  }
  return
}

// -----

func.func @shifted_map(%a: memref<65xf32>, %b: memref<64xf32>) {
  // expected-error @+1 {{'linalg.generic' op cannot be computed elementwise by croq: input 0 is indexed by (d0) -> (d0 + 1); croq takes loops and constant 0s as indices}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 + 1)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : memref<65xf32>) outs(%b : memref<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

func.func @reduced_output(%a: memref<64x64xf32>, %b: memref<64xf32>) {
  // expected-error @+1 {{'linalg.generic' op cannot be computed as a reduction by croq: output 0 is indexed by (d0, d1) -> (d0); croq takes outputs indexed by each parallel loop once}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["reduction", "parallel"]}
      ins(%a : memref<64x64xf32>) outs(%b : memref<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

func.func @host_store(%a: memref<64xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'memref.store' op reads or writes a buffer's elements on the host; croq buffers live in device memory, where only kernels reach them}}
  memref.store %x, %a[%c0] : memref<64xf32>
  return
}

// -----

func.func @stack(%out: memref<4xf32>) {
  // expected-error @+1 {{'memref.alloca' op allocates on the host's stack, where croq kernels cannot reach it: use memref.alloc}}
  %t = memref.alloca() : memref<4xf32>
  memref.copy %t, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

func.func @on_tensors(%a: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{'linalg.exp' op works on tensors; convert-linalg-to-croq takes host code on memrefs (bufferize first: croq-to-nvvm does, with one-shot-bufferize)}}
  %e = linalg.exp ins(%a : tensor<64xf32>) outs(%a : tensor<64xf32>) -> tensor<64xf32>
  return %e : tensor<64xf32>
}

// -----

// The bookkeeping of buffer-deallocation-pipeline (pointers and ownership
// flags stored into host buffers) is named as such.
func.func @ownership(%x: memref<4xf32>, %flag: i1) {
  %c0 = arith.constant 0 : index
  %flags = memref.alloc() : memref<2xi1>
  // expected-error @+1 {{'memref.store' op reads or writes a buffer of pointers or flags on the host (as buffer-deallocation-pipeline's ownership-based deallocation does, or a branch on a condition kept in a tensor<i1>); croq buffers live in device memory, where only kernels reach them, and croq releases temporaries itself (croq-allocate-on-device): lower without that pipeline, and pass conditions as scalars}}
  memref.store %flag, %flags[%c0] : memref<2xi1>
  return
}

// -----

// 8-bit floats are read by matrix products only.
func.func @f8_elementwise(%q: memref<?x?xf8E4M3FN>, %out: memref<?x?xf32>) {
  // expected-error @+1 {{'linalg.generic' op cannot be computed elementwise by croq: it reads, writes or computes 8-bit floats, which croq's elementwise and reduction kernels do not take yet (only matrix products read them)}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%q : memref<?x?xf8E4M3FN>) outs(%out : memref<?x?xf32>) {
  ^bb0(%v: f8E4M3FN, %o: f32):
    %e = arith.extf %v : f8E4M3FN to f32
    linalg.yield %e : f32
  }
  return
}

// -----

// An i8 product whose factors are zero-extended (a linalg.matmul with
// cast_unsigned, generalized): croq-specialize-contractions leaves it a
// generic, declined by what it is.
func.func @unsigned_contraction(%a: memref<64x32xi8>, %b: memref<32x64xi8>, %c: memref<64x64xi32>) {
  // expected-error @+1 {{'linalg.generic' op is a product of unsigned integers (its factors are extended by arith.extui, as linalg.matmul's cast_unsigned makes them), which croq does not compute: its integer products take signed 8-bit operands}}
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
