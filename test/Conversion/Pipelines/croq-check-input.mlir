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
