// RUN: croq-opt %s --croq-plan-tma-boxes -split-input-file | FileCheck %s
// RUN: croq-opt %s --croq-plan-tma-boxes -split-input-file | croq-opt -split-input-file | FileCheck %s

// A tile that fits its swizzle span moves as one box, the whole tile.
// CHECK-LABEL: func.func @one_box
// CHECK: croq.copy tma %{{.*}} -> %{{.*}} boxes [64, 64] at {{\[\[0, 0\]\]}} :
func.func @one_box(%a: memref<128x64xf16>) {
  croq.parallel (%i) in [2] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %v = croq.subspan %a [64, 64] at [%i, %i] : memref<128x64xf16> -> !croq.view<64x64xf16>
    croq.copy tma %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

// 128 f16 columns under a 64-byte swizzle: four 32-column slabs, one box
// each, in slab order. A store is planned the same way.
// CHECK-LABEL: func.func @slabs
// CHECK: croq.copy tma %{{.*}} -> %{{.*}} boxes [64, 32] at {{\[\[0, 0\], \[0, 32\], \[0, 64\], \[0, 96\]\]}} :
// CHECK: croq.copy tma %{{.*}} -> %{{.*}} boxes [64, 32] at {{\[\[0, 0\], \[0, 32\], \[0, 64\], \[0, 96\]\]}} :
func.func @slabs(%a: memref<128x128xf16>, %o: memref<128x128xf16>) {
  croq.parallel (%i) in [2] : block {
    %t = croq.alloc : !croq.tile<64x128xf16, shared, swizzle = 64>
    %c0 = arith.constant 0 : index
    %v = croq.subspan %a [64, 128] at [%i, %c0] : memref<128x128xf16> -> !croq.view<64x128xf16>
    croq.copy tma %v -> %t : !croq.view<64x128xf16> -> !croq.tile<64x128xf16, shared, swizzle = 64>
    %w = croq.subspan %o [64, 128] at [%i, %c0] : memref<128x128xf16> -> !croq.view<64x128xf16>
    croq.copy tma %t -> %w : !croq.tile<64x128xf16, shared, swizzle = 64> -> !croq.view<64x128xf16>
  }
  return
}

// -----

// An unswizzled tile with 512 rows: a dimension above 256 is cut into
// boxes of 256.
// CHECK-LABEL: func.func @tall
// CHECK: croq.copy tma %{{.*}} -> %{{.*}} boxes [256, 8] at {{\[\[0, 0\], \[256, 0\]\]}} :
func.func @tall(%a: memref<1024x8xf32>) {
  croq.parallel (%i) in [2] : block {
    %t = croq.alloc : !croq.tile<512x8xf32, shared>
    %c0 = arith.constant 0 : index
    %v = croq.subspan %a [512, 8] at [%i, %c0] : memref<1024x8xf32> -> !croq.view<512x8xf32>
    croq.copy tma %v -> %t : !croq.view<512x8xf32> -> !croq.tile<512x8xf32, shared>
  }
  return
}

// -----

// Copies that have boxes keep them; dma copies get none.
// CHECK-LABEL: func.func @planned_and_dma
// CHECK: croq.copy tma %{{.*}} -> %{{.*}} boxes [64, 64] at {{\[\[0, 0\]\]}} :
// CHECK: croq.copy dma %{{.*}} -> %{{.*}} : !croq.view
func.func @planned_and_dma(%a: memref<128x64xf16>) {
  croq.parallel (%i) in [2] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %v = croq.subspan %a [64, 64] at [%i, %i] : memref<128x64xf16> -> !croq.view<64x64xf16>
    croq.copy tma %v -> %t boxes [64, 64] at [[0, 0]] : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.copy dma %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

// A multicast copy in clusters of 2: its boxes divide between the two
// blocks. The 128x64 tile (one box when a block moves it alone) moves as
// two 64x64 boxes, one per block; the 64x256 tile's four slab boxes
// already divide.
// CHECK-LABEL: func.func @multicast
// CHECK: croq.copy tma multicast %{{.*}} -> %{{.*}} boxes [64, 64] at {{\[\[0, 0\], \[64, 0\]\]}} :
// CHECK: croq.copy tma multicast %{{.*}} -> %{{.*}} boxes [64, 64] at {{\[\[0, 0\], \[0, 64\], \[0, 128\], \[0, 192\]\]}} :
func.func @multicast(%a: memref<1024x64xf16>, %b: memref<64x1024xf16>) {
  croq.parallel (%i) in [8] : block cluster [2] {
    %t = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %c0 = arith.constant 0 : index
    %v = croq.subspan %a [128, 64] at [%c0, %c0] : memref<1024x64xf16> -> !croq.view<128x64xf16>
    croq.copy tma multicast %v -> %t : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
    %u = croq.alloc : !croq.tile<64x256xf16, shared, swizzle = 128>
    %w = croq.subspan %b [64, 256] at [%c0, %i] : memref<64x1024xf16> -> !croq.view<64x256xf16>
    croq.copy tma multicast %w -> %u : !croq.view<64x256xf16> -> !croq.tile<64x256xf16, shared, swizzle = 128>
  }
  return
}

// -----

// In clusters of 4 the 64x256 tile's four boxes are one per block, and the
// 128x64 tile's box is cut in four of 32 rows (4 KiB apart, on 1024-byte
// swizzle atoms).
// CHECK-LABEL: func.func @multicast_four
// CHECK: croq.copy tma multicast %{{.*}} -> %{{.*}} boxes [32, 64] at {{\[\[0, 0\], \[32, 0\], \[64, 0\], \[96, 0\]\]}} :
func.func @multicast_four(%a: memref<1024x64xf16>) {
  croq.parallel (%i) in [8] : block cluster [4] {
    %t = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %c0 = arith.constant 0 : index
    %v = croq.subspan %a [128, 64] at [%c0, %c0] : memref<1024x64xf16> -> !croq.view<128x64xf16>
    croq.copy tma multicast %v -> %t : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  }
  return
}
