// RUN: croq-opt %s --convert-linalg-to-croq -split-input-file -verify-diagnostics

func.func @on_tensors(%a: tensor<128x64xf16>, %b: tensor<64x128xf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  // expected-error @+1 {{'linalg.matmul' op works on tensors; convert-linalg-to-croq takes host code on memrefs (bufferize first: croq-to-nvvm does, with one-shot-bufferize)}}
  %r = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x128xf16>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

func.func @f64_operands(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  // expected-error @+1 {{'linalg.matmul' op convert-linalg-to-croq takes f16, bf16, f8E4M3FN, f8E5M2, f32 (as tf32) or i8 operands of one type, got 'f64' and 'f64'}}
  linalg.matmul ins(%a, %b : memref<?x?xf64>, memref<?x?xf64>) outs(%c : memref<?x?xf64>)
  return
}

// -----

// wgmma reads tf32 operands K-major only: B stored K x N is declined (a
// pass before convert-linalg-to-croq may transpose it).
func.func @tf32_b_not_transposed(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{'linalg.matmul' op convert-linalg-to-croq takes products of 'f32' operands with A indexed (m, k) and B indexed (n, k): wgmma reads tf32 operands K-major only}}
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// -----

func.func @tf32_a_transposed(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{'linalg.matmul' op convert-linalg-to-croq takes products of 'f32' operands with A indexed (m, k) and B indexed (n, k): wgmma reads tf32 operands K-major only}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// -----

func.func @s8_b_not_transposed(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  // expected-error @+1 {{'linalg.matmul' op convert-linalg-to-croq takes products of 'i8' operands with A indexed (m, k) and B indexed (n, k): wgmma reads s8 operands K-major only}}
  linalg.matmul ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>)
  return
}

// -----

func.func @s8_i8_result(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi8>) {
  // expected-error @+1 {{'linalg.matmul' op convert-linalg-to-croq writes i32 results of i8 products (s8 wgmma, s32 accumulator), got 'i8'}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi8>)
  return
}

// -----

// wgmma.s8 sign-extends its operands: a product of unsigned bytes is
// declined.
func.func @u8_product(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>) {
  // expected-error @+1 {{'linalg.matmul' op convert-linalg-to-croq takes i8 products that sign-extend their operands (cast_signed); this one zero-extends them}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    {cast = #linalg.type_fn<cast_unsigned>}
    ins(%a, %b : memref<?x?xi8>, memref<?x?xi8>) outs(%c : memref<?x?xi32>)
  return
}

// -----

func.func @i16_operands(%a: memref<?x?xi16>, %b: memref<?x?xi16>, %c: memref<?x?xi32>) {
  // expected-error @+1 {{'linalg.matmul' op convert-linalg-to-croq takes f16, bf16, f8E4M3FN, f8E5M2, f32 (as tf32) or i8 operands of one type, got 'i16' and 'i16'}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xi16>, memref<?x?xi16>) outs(%c : memref<?x?xi32>)
  return
}

// -----

func.func @mixed_operands(%a: memref<?x?xf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{'linalg.matmul' op convert-linalg-to-croq takes f16, bf16, f8E4M3FN, f8E5M2, f32 (as tf32) or i8 operands of one type, got 'f16' and 'bf16'}}
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xbf16>) outs(%c : memref<?x?xf32>)
  return
}

// -----

func.func @f64_result(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf64>) {
  // expected-error @+1 {{'linalg.matmul' op convert-linalg-to-croq writes f16, bf16 or f32 results of float products, got 'f64'}}
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf64>)
  return
}

// -----

func.func @a_broadcast(%a: memref<?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{'linalg.matmul' op convert-linalg-to-croq takes A indexed (m, k) or (k, m), got affine_map<(d0, d1, d2) -> (d2)>}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>)
  return
}

// -----

func.func @transposed_output(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{'linalg.matmul' op convert-linalg-to-croq takes a product whose output is indexed (m, n)}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (n, m)>]
    ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>)
  return
}

// -----

func.func @inside_kernel(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) {
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{'linalg.matmul' op is inside a croq kernel; convert-linalg-to-croq takes the linalg ops of host code}}
    linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf32>)
  }
  return
}

// -----

func.func @f8_b_not_transposed(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf16>) {
  // expected-error @+1 {{'linalg.matmul' op convert-linalg-to-croq takes products of 'f8E4M3FN' operands with A indexed (m, k) and B indexed (n, k): wgmma reads 8-bit float operands K-major only}}
  linalg.matmul ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf16>)
  return
}

// -----

func.func @f8_a_transposed(%a: memref<?x?xf8E5M2>, %b: memref<?x?xf8E5M2>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{'linalg.matmul' op convert-linalg-to-croq takes products of 'f8E5M2' operands with A indexed (m, k) and B indexed (n, k): wgmma reads 8-bit float operands K-major only}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xf8E5M2>, memref<?x?xf8E5M2>) outs(%c : memref<?x?xf32>)
  return
}

// -----

func.func @batch_broadcast_a(%a: memref<?x?xf16>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf32>) {
  // expected-error @+1 {{'linalg.batch_matmul' op convert-linalg-to-croq takes A indexed (b, m, k) or (b, k, m), got affine_map<(d0, d1, d2, d3) -> (d1, d3)>}}
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%a, %b : memref<?x?xf16>, memref<?x?x?xf16>) outs(%c : memref<?x?x?xf32>)
  return
}

// -----

func.func @batch_f32(%a: memref<?x?x?xf32>, %b: memref<?x?x?xf32>, %c: memref<?x?x?xf32>) {
  // expected-error @+1 {{'linalg.batch_matmul' op convert-linalg-to-croq takes products of 'f32' operands with A indexed (b, m, k) and B indexed (b, n, k): wgmma reads tf32 operands K-major only}}
  linalg.batch_matmul ins(%a, %b : memref<?x?x?xf32>, memref<?x?x?xf32>) outs(%c : memref<?x?x?xf32>)
  return
}
