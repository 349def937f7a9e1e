// RUN: croq-opt %s --croq-assign-layouts --croq-normalize-views --croq-wait-async-stores --croq-distribute-copies --croq-plan-tma-boxes --croq-emit-tensor-maps --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-plan-registers --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu --canonicalize --cse -split-input-file | FileCheck %s --implicit-check-not=croq. --implicit-check-not=nvgpu.device_async

// A 128B-swizzled tile whose rows (256 bytes) are wider than the span is
// stored as two 128-byte-wide slabs of 64 x 64 f16, 8192 bytes apart: one
// box per slab, the second 64 columns further in the tensor; the trigger
// expects the whole tile.
// CHECK-LABEL: func.func @tma_load_slabs
// CHECK: gpu.launch
// CHECK: %[[COL:.*]] = arith.muli %{{.*}}, %c128 : index
// CHECK-DAG: %[[S0:.*]] = memref.view %{{.*}}[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[S1:.*]] = memref.view %{{.*}}[%c8192][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[COL1:.*]] = arith.addi %[[COL]], %c64 : index
// CHECK: scf.if %[[USABLE:.*]] {
// CHECK-NEXT: nvgpu.tma.async.load %[[MAP:.*]][%[[COL]], %{{.*}}], %{{.*}} to %[[S0]]
// CHECK-NEXT: nvgpu.tma.async.load %[[MAP]][%[[COL1]], %{{.*}}], %{{.*}} to %[[S1]]
// CHECK: arith.select %[[USABLE]], %c16384, %c0
// CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%c0]
func.func @tma_load_slabs(%a: memref<?x?xf16>, %gn: index) {
  croq.parallel (%j) in [%gn] : block {
    %c0 = arith.constant 0 : index
    %t = croq.alloc : !croq.tile<64x128xf16, shared, swizzle = 128>
    %v = croq.subspan %a [64, 128] at [%c0, %j] : memref<?x?xf16> -> !croq.view<64x128xf16>
    croq.copy tma %v -> %t : !croq.view<64x128xf16> -> !croq.tile<64x128xf16, shared, swizzle = 128>
  }
  return
}

// -----

// Element accesses and dma copies address the slabs the same way: column c
// lies in slab c / 64 (8192 bytes each) at column c mod 64.
// CHECK-LABEL: func.func @dma_into_slabs
// CHECK: gpu.launch
// CHECK: arith.divui %{{.*}}, %c64 : index
// CHECK: arith.remui %{{.*}}, %c64 : index
// CHECK: arith.muli %{{.*}}, %c8192 : index
// CHECK: arith.shrui %{{.*}}, %c7 : index
// CHECK: arith.xori
func.func @dma_into_slabs(%a: memref<64x128xf16>) {
  croq.parallel (%j) in [1] : block {
    %t = croq.alloc : !croq.tile<64x128xf16, shared, swizzle = 128>
    croq.copy dma %a -> %t : memref<64x128xf16> -> !croq.tile<64x128xf16, shared, swizzle = 128>
  }
  return
}

// -----

// A tile taller than 256 rows moves as 256-row boxes, one after another.
// CHECK-LABEL: func.func @tma_load_tall
// CHECK: gpu.launch
// CHECK-DAG: %[[B0:.*]] = memref.view %{{.*}}[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256x64xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[B1:.*]] = memref.view %{{.*}}[%c32768][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256x64xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.tma.async.load %[[MAP:.*]][%c0, %c0], %{{.*}} to %[[B0]]
// CHECK-NEXT: nvgpu.tma.async.load %[[MAP]][%c0, %c256], %{{.*}} to %[[B1]]
func.func @tma_load_tall(%a: memref<1024x64xf16>) {
  croq.parallel (%j) in [1] : block {
    %t = croq.alloc : !croq.tile<512x64xf16, shared, swizzle = 128>
    %c0 = arith.constant 0 : index
    %v = croq.subspan %a [512, 64] at [%c0, %c0] : memref<1024x64xf16> -> !croq.view<512x64xf16>
    croq.copy tma %v -> %t : !croq.view<512x64xf16> -> !croq.tile<512x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

// A middle dimension above 256: boxes of one 256 x 32 plane each, outer
// indices and the two halves of the middle dimension in order.
// CHECK-LABEL: func.func @tma_store_middle_split
// CHECK: call @croqRtTensorMapGetStrided(%c0_i32, %c3_i32
// CHECK: gpu.launch
// CHECK-DAG: memref.view %{{.*}}[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x256x32xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.view %{{.*}}[%c32768][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x256x32xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.view %{{.*}}[%c65536][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x256x32xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.view %{{.*}}[%c98304][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x256x32xf32, #gpu.address_space<workgroup>>
// CHECK: nvgpu.tma.async.store %{{.*}} to %{{.*}}[%c0, %c0, %c0]
// CHECK-NEXT: nvgpu.tma.async.store %{{.*}} to %{{.*}}[%c0, %c256, %c0]
// CHECK-NEXT: nvgpu.tma.async.store %{{.*}} to %{{.*}}[%c0, %c0, %c1]
// CHECK-NEXT: nvgpu.tma.async.store %{{.*}} to %{{.*}}[%c0, %c256, %c1]
func.func @tma_store_middle_split(%a: memref<2x512x32xf32>) {
  croq.parallel (%j) in [1] : block {
    %t = croq.alloc : !croq.tile<2x512x32xf32, shared>
    croq.copy tma %t -> %a : !croq.tile<2x512x32xf32, shared> -> memref<2x512x32xf32>
  }
  return
}

// -----

// wgmma reads K-major operands from slabs too: the first four K steps of 16
// move 32 bytes along the first slab, the next four start 8192 bytes (one
// slab) further.
// CHECK-LABEL: func.func @mma_k_slabs
// CHECK: gpu.launch
// CHECK: nvvm.wgmma.mma_async
// CHECK: arith.addi %{{.*}}, %c32_i64 : i64
// CHECK: nvvm.wgmma.mma_async
// CHECK: arith.addi %{{.*}}, %c96_i64 : i64
// CHECK: nvvm.wgmma.mma_async
// CHECK: arith.addi %{{.*}}, %c8192_i64 : i64
// CHECK: arith.addi %{{.*}}, %c8192_i64 : i64
// CHECK: nvvm.wgmma.mma_async
// CHECK: arith.addi %{{.*}}, %c8224_i64 : i64
func.func @mma_k_slabs(%x: f32, %out: memref<64x64xf32>) {
  croq.parallel (%i) in [1] : block {
    %a = croq.alloc : !croq.tile<64x128xf16, shared, swizzle = 128>
    %b = croq.alloc : !croq.tile<64x128xf16, shared, swizzle = 128>
    %acc = croq.mma.fill %x : !croq.acc<64x64xf32>
    %ma = croq.mma.load %a : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
    %mb = croq.mma.load %b : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
    %r = croq.mma row row %acc, %ma, %mb : !croq.frag<64x128xf16>, !croq.frag<64x128xf16> -> !croq.acc<64x64xf32>
    croq.mma.store %r -> %out : !croq.acc<64x64xf32> -> memref<64x64xf32>
  }
  return
}
