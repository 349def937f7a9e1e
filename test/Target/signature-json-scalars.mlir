// RUN: croq-translate --croq-to-signature-json %s -split-input-file -verify-diagnostics | FileCheck %s

// Scalar arguments are described by their type and "scalar": true (no
// shape, never written); the calling convention that passes them by
// reference is 3.

// CHECK: "abi": 3
// CHECK-LABEL: "arguments": [
// CHECK:         "element_type": "f32",
// CHECK:         "element_type": "f32",
// CHECK-NEXT:    "offset": 0,
// CHECK-NEXT:    "scalar": true,
// CHECK-NEXT:    "shape": [],
// CHECK-NEXT:    "strides": [],
// CHECK-NEXT:    "written": false
// CHECK:         "element_type": "index",
// CHECK-NEXT:    "offset": 0,
// CHECK-NEXT:    "scalar": true,
// CHECK:         "element_type": "i1",
// CHECK-NEXT:    "offset": 0,
// CHECK-NEXT:    "scalar": true,
// CHECK:       "name": "scaled"
func.func @scaled(%a: memref<?xf32>, %s: f32, %n: index, %flag: i1) {
  croq.parallel (%i) in [%n] : block {
  }
  return
}

// -----

// expected-error @+1 {{entry point argument 1 has type 'bf16'; entry points take memrefs and scalars of type i1, i8, i16, i32, i64, index, f32 or f64}}
func.func @half(%a: memref<?xf32>, %s: bf16) {
  croq.parallel (%i) in [1] : block {
  }
  return
}
