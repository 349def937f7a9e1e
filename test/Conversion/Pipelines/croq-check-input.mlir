// RUN: croq-opt %s --croq-check-input -split-input-file -verify-diagnostics | FileCheck %s
// RUN: croq-opt %s --croq-to-nvvm="format=none" -split-input-file -verify-diagnostics

// tensor.pad's parser and verifier take -9223372036854775808
// (ShapedType::kDynamic) in a padding list for a dynamic entry without
// checking that an operand goes with it; one-shot-bufferize then reads
// past the op's operands (a crash the fuzzer found). The pass declines the
// op by name, alone and as the first pass of croq-to-nvvm.
func.func @sentinel_high(%x: tensor<2x13xf16>) -> tensor<2x16xf16> {
  %zero = arith.constant 0.0 : f16
  // expected-error @+1 {{'tensor.pad' op has 1 dynamic entries in its high padding (-9223372036854775808 is ShapedType::kDynamic) and 0 high operands}}
  %p = tensor.pad %x low[0, 2] high[0, -9223372036854775808] {
  ^bb0(%a: index, %b: index):
    tensor.yield %zero : f16
  } : tensor<2x13xf16> to tensor<2x16xf16>
  return %p : tensor<2x16xf16>
}

// -----

func.func @sentinel_low(%x: tensor<8xf32>) -> tensor<9xf32> {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{'tensor.pad' op has 1 dynamic entries in its low padding (-9223372036854775808 is ShapedType::kDynamic) and 0 low operands}}
  %p = tensor.pad %x low[-9223372036854775808] high[1] {
  ^bb0(%a: index):
    tensor.yield %zero : f32
  } : tensor<8xf32> to tensor<9xf32>
  return %p : tensor<9xf32>
}

// -----

// A dynamic padding with its operand passes the check unchanged.
// CHECK-LABEL: func.func @dynamic_high
// CHECK: tensor.pad %{{.*}} low[0] high[%{{.*}}]
func.func @dynamic_high(%x: tensor<8xf32>, %h: index) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0] high[%h] {
  ^bb0(%a: index):
    tensor.yield %zero : f32
  } : tensor<8xf32> to tensor<?xf32>
  return %p : tensor<?xf32>
}

// -----

// TOSA left in the input (here the tosa.apply_scale that tosa-to-arith
// leaves in the body tosa.rescale lowers to, unless told to lower it too)
// has no lowering in croq-to-nvvm: declined by name with the passes that
// lower it.
func.func @tosa_left(%x: memref<64xi32>, %y: memref<64xi32>) {
  %m = arith.constant 1073741824 : i32
  %s = arith.constant 30 : i8
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : memref<64xi32>) outs(%y : memref<64xi32>) {
  ^bb0(%a: i32, %o: i32):
    // expected-error @+1 {{'tosa.apply_scale' op is a TOSA op; croq takes linalg, tensor, arith and math: lower TOSA first (tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith{include-apply-rescale=true}, tosa-to-tensor)}}
    %r = tosa.apply_scale %a, %m, %s {rounding_mode = DOUBLE_ROUND} : (i32, i32, i8) -> i32
    linalg.yield %r : i32
  }
  return
}

// -----

// Float remainders and integer powers in a linalg body (a kernel's
// computation) have no lowering in croq's kernels.
func.func @remainder(%x: memref<64xf32>, %y: memref<64xf32>) {
  %d = arith.constant 3.0 : f32
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : memref<64xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    // expected-error @+1 {{'arith.remf' op is a floating-point remainder, which croq's kernels do not compute (the NVVM target has no instruction for it)}}
    %r = arith.remf %a, %d : f32
    linalg.yield %r : f32
  }
  return
}

// -----

func.func @integer_power(%x: memref<64xi32>, %y: memref<64xi32>) {
  %e = arith.constant 3 : i32
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : memref<64xi32>) outs(%y : memref<64xi32>) {
  ^bb0(%a: i32, %o: i32):
    // expected-error @+1 {{'math.ipowi' op is an integer power, which croq's kernels do not compute (math.fpowi and math.powf they do)}}
    %r = math.ipowi %a, %e : i32
    linalg.yield %r : i32
  }
  return
}

// -----

// On the host, a remainder is the host's to compute: not declined.
// CHECK-LABEL: func.func @host_remainder
func.func @host_remainder(%a: f32, %b: f32) -> f32 {
  %r = arith.remf %a, %b : f32
  return %r : f32
}

// -----

// A memref whose layout is an affine map of several results (not strided)
// has no lowering (the conversion to LLVM needs strides): declined at the
// function that takes it.
// expected-error @+1 {{'func.func' op takes or makes 'memref<64x128xf32, affine_map<(d0, d1) -> (d1, d0)>>', whose layout is not strided; croq takes memrefs of the identity layout or strided<...> ones}}
func.func @unstrided_argument(%a: memref<64x128xf32, affine_map<(d0, d1) -> (d1, d0)>>, %c: memref<64x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<64x128xf32, affine_map<(d0, d1) -> (d1, d0)>>) outs(%c : memref<64x128xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}
