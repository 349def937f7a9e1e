// RUN: croq-opt %s --convert-linalg-to-croq -split-input-file -verify-diagnostics
// RUN: not croq-opt %s --convert-linalg-to-croq="tile-m=128 tile-n=256" -split-input-file 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: not croq-opt %s --convert-linalg-to-croq="tile-m=192 tile-n=192" -split-input-file 2>&1 | FileCheck %s --check-prefix=TALL
// RUN: not croq-opt %s --convert-linalg-to-croq="f8-promote-steps=-1" -split-input-file 2>&1 | FileCheck %s --check-prefix=NEGATIVE

// Block-scaled 8-bit float products that convert-linalg-to-croq declines,
// by name: other scale maps, bodies, types and extents. A 128x256 tile
// does not fit two f32 accumulators in registers (f8-promote-steps=0 takes
// it); a block-scaled product takes tiles of 128 columns only.
// TILE: error: 'linalg.matmul' op convert-linalg-to-croq computes 8-bit float products with promoted partial sums in tiles of at most 128x192 (two f32 accumulators in registers), got 128x256 (f8-promote-steps=0 takes it)
// TILE: error: 'linalg.generic' op convert-linalg-to-croq computes block-scaled products in tiles of at most 128 rows and 128 columns (one block of B's scales), got 128x256
// The 192-row tile's three consumers have 152 registers each: no room for
// two accumulators either.
// TALL: error: 'linalg.matmul' op convert-linalg-to-croq computes 8-bit float products with promoted partial sums in tiles of at most 128x192 (two f32 accumulators in registers), got 192x192 (f8-promote-steps=0 takes it)
// TALL: error: 'linalg.generic' op convert-linalg-to-croq computes block-scaled products in tiles of at most 128 rows and 128 columns (one block of B's scales), got 192x192
// NEGATIVE: error: 'linalg.matmul' op convert-linalg-to-croq takes f8-promote-steps >= 0, got -1


func.func @f8_wide_tile(%a: memref<?x?xf8E4M3FN>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf16>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xf8E4M3FN>, memref<?x?xf8E4M3FN>) outs(%c : memref<?x?xf16>)
  return
}

// -----

// Taken (the TILE run declines its 128x256 tile).
func.func @block_scaled_ok(%a: memref<?x?xf8E4M3FN>, %sa: memref<?x?xf32>, %b: memref<?x?xf8E4M3FN>, %sb: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (m, k floordiv 128)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %sa, %b, %sb : memref<?x?xf8E4M3FN>, memref<?x?xf32>, memref<?x?xf8E4M3FN>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f8E4M3FN, %s: f32, %y: f8E4M3FN, %t: f32, %acc: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %xs = arith.mulf %xf, %s : f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %ys = arith.mulf %yf, %t : f32
    %p = arith.mulf %xs, %ys : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A's scales per 64 elements of K.
func.func @scales_per_64(%a: memref<?x?xf8E4M3FN>, %sa: memref<?x?xf32>, %b: memref<?x?xf8E4M3FN>, %sb: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{'linalg.generic' op convert-linalg-to-croq takes block-scaled 8-bit float products out[m, n] += (extf(a[m, k]) * sa[m, k floordiv 128]) * (extf(b[n, k]) * sb[n floordiv 128, k floordiv 128]) with f32 scales and output: A's scale must be indexed (m, k floordiv 128), got affine_map<(d0, d1, d2) -> (d0, d2 floordiv 64)>}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (m, k floordiv 64)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %sa, %b, %sb : memref<?x?xf8E4M3FN>, memref<?x?xf32>, memref<?x?xf8E4M3FN>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f8E4M3FN, %s: f32, %y: f8E4M3FN, %t: f32, %acc: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %xs = arith.mulf %xf, %s : f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %ys = arith.mulf %yf, %t : f32
    %p = arith.mulf %xs, %ys : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// B's scales per row of B (n), not per 128 x 128 block.
func.func @b_scales_per_row(%a: memref<?x?xf8E4M3FN>, %sa: memref<?x?xf32>, %b: memref<?x?xf8E4M3FN>, %sb: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{'linalg.generic' op convert-linalg-to-croq takes block-scaled 8-bit float products out[m, n] += (extf(a[m, k]) * sa[m, k floordiv 128]) * (extf(b[n, k]) * sb[n floordiv 128, k floordiv 128]) with f32 scales and output: B's scale must be indexed (n floordiv 128, k floordiv 128), got affine_map<(d0, d1, d2) -> (d1, d2 floordiv 128)>}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (m, k floordiv 128)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (n, k floordiv 128)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %sa, %b, %sb : memref<?x?xf8E4M3FN>, memref<?x?xf32>, memref<?x?xf8E4M3FN>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f8E4M3FN, %s: f32, %y: f8E4M3FN, %t: f32, %acc: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %xs = arith.mulf %xf, %s : f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %ys = arith.mulf %yf, %t : f32
    %p = arith.mulf %xs, %ys : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// B stored K x N.
func.func @b_stored_k_by_n(%a: memref<?x?xf8E4M3FN>, %sa: memref<?x?xf32>, %b: memref<?x?xf8E4M3FN>, %sb: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{'linalg.generic' op convert-linalg-to-croq takes block-scaled 8-bit float products out[m, n] += (extf(a[m, k]) * sa[m, k floordiv 128]) * (extf(b[n, k]) * sb[n floordiv 128, k floordiv 128]) with f32 scales and output: A must be indexed (m, k) and B (n, k) (wgmma reads 8-bit floats K-major)}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (m, k floordiv 128)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %sa, %b, %sb : memref<?x?xf8E4M3FN>, memref<?x?xf32>, memref<?x?xf8E4M3FN>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f8E4M3FN, %s: f32, %y: f8E4M3FN, %t: f32, %acc: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %xs = arith.mulf %xf, %s : f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %ys = arith.mulf %yf, %t : f32
    %p = arith.mulf %xs, %ys : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// An f16 output.
func.func @f16_output(%a: memref<?x?xf8E4M3FN>, %sa: memref<?x?xf32>, %b: memref<?x?xf8E4M3FN>, %sb: memref<?x?xf32>, %c: memref<?x?xf16>) {
  // expected-error @+1 {{'linalg.generic' op convert-linalg-to-croq takes block-scaled 8-bit float products out[m, n] += (extf(a[m, k]) * sa[m, k floordiv 128]) * (extf(b[n, k]) * sb[n floordiv 128, k floordiv 128]) with f32 scales and output: the output must be f32, got 'f16'}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (m, k floordiv 128)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %sa, %b, %sb : memref<?x?xf8E4M3FN>, memref<?x?xf32>, memref<?x?xf8E4M3FN>, memref<?x?xf32>) outs(%c : memref<?x?xf16>) {
  ^bb0(%x: f8E4M3FN, %s: f32, %y: f8E4M3FN, %t: f32, %acc: f16):
    %xf = arith.extf %x : f8E4M3FN to f32
    %xs = arith.mulf %xf, %s : f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %ys = arith.mulf %yf, %t : f32
    %p = arith.mulf %xs, %ys : f32
    %pt = arith.truncf %p : f32 to f16
    %r = arith.addf %acc, %pt : f16
    linalg.yield %r : f16
  }
  return
}

// -----

// B's scale unused: the body is not the dequantized product.
func.func @unscaled_b(%a: memref<?x?xf8E4M3FN>, %sa: memref<?x?xf32>, %b: memref<?x?xf8E4M3FN>, %sb: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{'linalg.generic' op convert-linalg-to-croq takes block-scaled 8-bit float products out[m, n] += (extf(a[m, k]) * sa[m, k floordiv 128]) * (extf(b[n, k]) * sb[n floordiv 128, k floordiv 128]) with f32 scales and output: its body does not compute that}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (m, k floordiv 128)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %sa, %b, %sb : memref<?x?xf8E4M3FN>, memref<?x?xf32>, memref<?x?xf8E4M3FN>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f8E4M3FN, %s: f32, %y: f8E4M3FN, %t: f32, %acc: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %xs = arith.mulf %xf, %s : f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %ys = arith.addf %yf, %t : f32
    %p = arith.mulf %xs, %ys : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A's scales of the wrong static extent (K = 1000: 8 groups, not 9).
func.func @wrong_scale_extent(%a: memref<256x1000xf8E4M3FN>, %sa: memref<256x9xf32>, %b: memref<384x1000xf8E4M3FN>, %sb: memref<3x8xf32>, %c: memref<256x384xf32>) {
  // expected-error @+1 {{'linalg.generic' op convert-linalg-to-croq takes block-scaled 8-bit float products out[m, n] += (extf(a[m, k]) * sa[m, k floordiv 128]) * (extf(b[n, k]) * sb[n floordiv 128, k floordiv 128]) with f32 scales and output: A's scales must be M x ceil(K / 128), got 'memref<256x9xf32>'}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (m, k floordiv 128)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %sa, %b, %sb : memref<256x1000xf8E4M3FN>, memref<256x9xf32>, memref<384x1000xf8E4M3FN>, memref<3x8xf32>) outs(%c : memref<256x384xf32>) {
  ^bb0(%x: f8E4M3FN, %s: f32, %y: f8E4M3FN, %t: f32, %acc: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %xs = arith.mulf %xf, %s : f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %ys = arith.mulf %yf, %t : f32
    %p = arith.mulf %xs, %ys : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A in e4m3, B in e5m2.
func.func @mixed_types(%a: memref<?x?xf8E4M3FN>, %sa: memref<?x?xf32>, %b: memref<?x?xf8E5M2>, %sb: memref<?x?xf32>, %c: memref<?x?xf32>) {
  // expected-error @+1 {{'linalg.generic' op convert-linalg-to-croq takes block-scaled 8-bit float products out[m, n] += (extf(a[m, k]) * sa[m, k floordiv 128]) * (extf(b[n, k]) * sb[n floordiv 128, k floordiv 128]) with f32 scales and output: A and B must have one 8-bit float type, got 'f8E4M3FN' and 'f8E5M2'}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (m, k floordiv 128)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (n floordiv 128, k floordiv 128)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %sa, %b, %sb : memref<?x?xf8E4M3FN>, memref<?x?xf32>, memref<?x?xf8E5M2>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f8E4M3FN, %s: f32, %y: f8E5M2, %t: f32, %acc: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %xs = arith.mulf %xf, %s : f32
    %yf = arith.extf %y : f8E5M2 to f32
    %ys = arith.mulf %yf, %t : f32
    %p = arith.mulf %xs, %ys : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A product of 8-bit floats written as a generic with B stored K x N
// (linalg-generalize-named-ops' form of such a linalg.matmul):
// croq-specialize-contractions leaves it (it would have to copy B, and the
// elementwise kernels do not move 8-bit floats); the decline says so.
func.func @generic_f8_k_by_n(%a: memref<128x64xf8E4M3FN>, %b: memref<64x128xf8E4M3FN>, %c: memref<128x128xf32>) {
  // expected-error @+1 {{'linalg.generic' op is a product of 8-bit floats whose operands croq would have to copy to read them K-major (wgmma reads 8-bit floats K-major only, and croq's elementwise kernels do not move 8-bit floats): store A as M x K and B as N x K, or write it as a linalg.matmul with those maps}}
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<128x64xf8E4M3FN>, memref<64x128xf8E4M3FN>) outs(%c : memref<128x128xf32>) {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %acc: f32):
    %xf = arith.extf %x : f8E4M3FN to f32
    %yf = arith.extf %y : f8E4M3FN to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
