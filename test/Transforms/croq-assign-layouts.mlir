// RUN: croq-opt %s --croq-assign-layouts -split-input-file | FileCheck %s

// Rows of 128 bytes (64 x f16) take the 128-byte swizzle; views and stages
// derived from the buffer follow.
// CHECK-LABEL: func.func @rows_of_128_bytes
// CHECK: croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
// CHECK: croq.chunkat %{{.*}}[_, %{{.*}}] of [1, 2] : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x32xf16, shared, swizzle = 128>
func.func @rows_of_128_bytes(%k: index, %out: memref<64x32xf16>) {
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = auto>
    %v = croq.chunkat %t[_, %k] of [1, 2] : !croq.tile<64x64xf16, shared, swizzle = auto> -> !croq.view<64x32xf16, shared, swizzle = auto>
    croq.copy dma %v -> %out : !croq.view<64x32xf16, shared, swizzle = auto> -> memref<64x32xf16>
  }
  return
}

// -----

// 32 x f16 = 64-byte rows take the 64-byte swizzle; 8 x f32 = 32-byte rows
// the 32-byte one; 12-byte rows none.
// CHECK-LABEL: func.func @narrower_rows
// CHECK: croq.alloc : !croq.tile<64x32xf16, shared, swizzle = 64>
// CHECK: croq.alloc : !croq.tile<16x8xf32, shared, swizzle = 32>
// CHECK: croq.alloc : !croq.tile<16x3xf32, shared>
func.func @narrower_rows() {
  croq.parallel (%b) in [1] : block {
    %a = croq.alloc : !croq.tile<64x32xf16, shared, swizzle = auto>
    %c = croq.alloc : !croq.tile<16x8xf32, shared, swizzle = auto>
    %d = croq.alloc : !croq.tile<16x3xf32, shared, swizzle = auto>
  }
  return
}

// -----

// A copy that states the swizzle fixes it; the stage array's stages follow.
// CHECK-LABEL: func.func @fixed_by_copy
// CHECK: croq.alloc : !croq.tiles<2 x 64x64xf16, shared, swizzle = 64>
// CHECK: croq.stage %{{.*}}[%{{.*}}] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 64>
// CHECK: croq.copy dma swizzle = 64 %{{.*}} -> %{{.*}} : memref<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 64>
func.func @fixed_by_copy(%a: memref<64x64xf16>, %i: index) {
  croq.parallel (%b) in [1] : block {
    %ring = croq.alloc : !croq.tiles<2 x 64x64xf16, shared, swizzle = auto>
    %s = croq.stage %ring[%i] : !croq.tiles<2 x 64x64xf16, shared, swizzle = auto>
    croq.copy dma swizzle = 64 %a -> %s : memref<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = auto>
  }
  return
}

// -----

// A stage must hold whole swizzle patterns: 4 rows of 128 bytes are half a
// 128-byte pattern, so the stages get the 64-byte swizzle (4 x 128 = 512).
// CHECK-LABEL: func.func @stage_holds_whole_patterns
// CHECK: croq.alloc : !croq.tiles<3 x 4x64xf16, shared, swizzle = 64>
func.func @stage_holds_whole_patterns() {
  croq.parallel (%b) in [1] : block {
    %ring = croq.alloc : !croq.tiles<3 x 4x64xf16, shared, swizzle = auto>
  }
  return
}
