// RUN: croq-opt %s --convert-croq-to-gpu --convert-croq-regions-to-gpu | FileCheck %s --implicit-check-not=croq.

// A croq.foreach whose extents multiply past 64 bits: the number of points
// to distribute over the threads is no longer folded into one (overflowed)
// constant; the product stays an index multiplication. Found by croq-fuzz
// with its edge-integer mutator (UBSan: signed overflow in product(),
// lib/Conversion/CroqToGPU/LoweringUtils.cpp).

// CHECK-LABEL: func.func @huge_foreach
// CHECK: gpu.launch
// CHECK: %[[BIG:.*]] = arith.constant 4611686018427387905 : index
// CHECK: arith.muli %[[BIG]], %{{.*}} : index
func.func @huge_foreach(%out: memref<32x32xf32>, %x: f32) {
  croq.parallel (%b) in [1] : block {
    croq.foreach (%i, %j) in [32, 4611686018427387905] {
      croq.write %x, %out[%i, %j] : memref<32x32xf32>
    }
  }
  return
}
