// RUN: croq-translate --croq-to-signature-json %s | FileCheck %s

// Each argument of --croq-to-signature-json says whether its memref has the
// identity layout: memref<?x?xf32> and strided<[?, 1], offset: ?> both
// report strides [-1, 1], but only the second takes a slice of a larger
// tensor; hosts (the croq Python package) must require a dense tensor for
// the first.

// CHECK-LABEL: "arguments": [
// CHECK:         "element_type": "f32",
// CHECK-NEXT:    "identity_layout": true,
// CHECK-NEXT:    "offset": 0,
// CHECK:         "strides": [
// CHECK-NEXT:      -1,
// CHECK-NEXT:      1
// CHECK:         "element_type": "f32",
// CHECK-NEXT:    "identity_layout": false,
// CHECK-NEXT:    "offset": -1,
// CHECK:         "strides": [
// CHECK-NEXT:      -1,
// CHECK-NEXT:      1
// CHECK:         "element_type": "bf16",
// CHECK-NEXT:    "identity_layout": false,
// CHECK-NEXT:    "offset": 3,
// CHECK:         "strides": [
// CHECK-NEXT:      1,
// CHECK-NEXT:      8
// CHECK:       "name": "layouts"

func.func @layouts(%dense: memref<?x?xf32>,
                   %slice: memref<?x?xf32, strided<[?, 1], offset: ?>>,
                   %cols: memref<8x4xbf16, strided<[1, 8], offset: 3>>) {
  croq.parallel (%i) in [1] : block {
  }
  return
}
