// RUN: croq-opt %s -split-input-file -verify-diagnostics

// Padding so large that low + high + size + interior * (size - 1) does not
// fit in 64 bits is an error instead of a wrapped comparison. Found by code
// review, and by croq-fuzz on the code before the fix (UBSan: signed
// overflow in PadOp::verify).

func.func @pad_low_high_overflow(%m: memref<16xf32>, %x: f32) {
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<16xf32, shared>
    // expected-error @+1 {{'croq.pad' op padding of dimension 0 is too large: low + high + size + interior * (size - 1) does not fit in 64 bits}}
    croq.pad low [9223372036854775807] high [9223372036854775807] interior [0] %m -> %t value %x : memref<16xf32> -> !croq.tile<16xf32, shared>
  }
  return
}

// -----

func.func @pad_interior_overflow(%m: memref<16xf32>, %x: f32) {
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<16xf32, shared>
    // expected-error @+1 {{'croq.pad' op padding of dimension 0 is too large: low + high + size + interior * (size - 1) does not fit in 64 bits}}
    croq.pad low [0] high [0] interior [1152921504606846976] %m -> %t value %x : memref<16xf32> -> !croq.tile<16xf32, shared>
  }
  return
}
