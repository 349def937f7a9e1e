// RUN: croq-opt %s --croq-allocate-on-device -split-input-file | FileCheck %s --implicit-check-not="memref.alloc(" --implicit-check-not=memref.dealloc

// A temporary of host code without a release (as one-shot-bufferize leaves
// it) is allocated in device memory and released at the end of its block.
// CHECK-LABEL: func.func @temporary
// CHECK: %[[T:.*]] = gpu.alloc  (%{{.*}}) : memref<?xf32>
// CHECK: croq.parallel
// CHECK: croq.write %{{.*}}, %[[T]]
// CHECK: gpu.dealloc  %[[T]] : memref<?xf32>
// CHECK-NEXT: return
func.func @temporary(%n: index, %x: f32) {
  %t = memref.alloc(%n) : memref<?xf32>
  croq.parallel (%i) in [1] : block {
    croq.foreach (%k) in [128] {
      croq.write %x, %t[%k] : memref<?xf32>
    }
  }
  return
}

// -----

// A release of its own becomes a gpu.dealloc where it is; no other.
// CHECK-LABEL: func.func @released
// CHECK: %[[T:.*]] = gpu.alloc  () : memref<64xf32>
// CHECK: gpu.dealloc  %[[T]] : memref<64xf32>
// CHECK-NEXT: arith.constant
// CHECK-NOT: gpu.dealloc
// CHECK: return
func.func @released() {
  %t = memref.alloc() : memref<64xf32>
  memref.dealloc %t : memref<64xf32>
  %c = arith.constant 0 : index
  return
}

// -----

// A buffer that leaves its block (returned) is its caller's to release.
// CHECK-LABEL: func.func @returned
// CHECK: %[[T:.*]] = gpu.alloc  () : memref<64xf32>
// CHECK-NOT: gpu.dealloc
// CHECK: return %[[T]]
func.func @returned() -> memref<64xf32> {
  %t = memref.alloc() : memref<64xf32>
  return %t : memref<64xf32>
}

// -----

// Buffers inside kernels are not host code's.
// CHECK-LABEL: func.func @in_kernel
// CHECK-NOT: gpu.alloc
// CHECK: memref.alloca()
func.func @in_kernel() {
  croq.parallel (%i) in [1] : block {
    %t = memref.alloca() : memref<4xf32>
  }
  return
}

// -----

// A global constant the kernels read (not a splat, which they fold) is
// copied into device memory where it is read, and released at the end of
// the block; the kernels read the copy.
memref.global "private" constant @table : memref<8xf16> = dense<[0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5]>
// CHECK-LABEL: func.func @constant_table
// CHECK: %[[G:.*]] = memref.get_global @table : memref<8xf16>
// CHECK-NEXT: %[[D:.*]] = gpu.alloc  () : memref<8xf16>
// CHECK-NEXT: gpu.memcpy  %[[D]], %[[G]] : memref<8xf16>, memref<8xf16>
// CHECK: croq.read %[[D]]
// CHECK: gpu.dealloc  %[[D]] : memref<8xf16>
// CHECK-NEXT: return
func.func @constant_table(%out: memref<8xf16>) {
  %t = memref.get_global @table : memref<8xf16>
  croq.parallel (%i) in [1] : block {
    croq.foreach (%k) in [8] {
      %v = croq.read %t[%k] : memref<8xf16>
      croq.write %v, %out[%k] : memref<8xf16>
    }
  }
  return
}
