// RUN: croq-opt %s --croq-assign-layouts --croq-normalize-views --croq-wait-async-stores --croq-distribute-copies --croq-plan-tma-boxes --croq-emit-tensor-maps --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-plan-registers --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu --canonicalize --cse -split-input-file | FileCheck %s --implicit-check-not=croq. --implicit-check-not=nvgpu.device_async
// RUN: croq-opt %s --croq-assign-layouts --croq-normalize-views --croq-wait-async-stores --croq-distribute-copies --croq-plan-tma-boxes --croq-emit-tensor-maps=stage-misaligned-inputs=false --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-plan-registers --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu -split-input-file | FileCheck %s --check-prefix=NOSTAGE

// A tma load. Before the kernel the host asks the runtime for the tensor
// map: element type f32 (0), rank 2, the address of element 0, the sizes,
// the byte strides (the outer one from the memref's stride, the inner one
// the element size) and the box, outermost first, swizzle none (0); the
// runtime answers whether TMA can move the tensor and points the slot at the
// cached map, whose 128 bytes are loaded and captured by the kernel. The
// kernel only reads %a, so the call is croqRtTensorMapGetStaged, which may
// stage a misaligned tensor into a buffer it names in the staging slot;
// after the launch the host releases that buffer. In the kernel the bytes
// are the descriptor. The load completes on the one-slot event that
// croq-lower-tma-futures gave it: after a barrier (earlier readers of the
// tile are done), if the runtime said yes, thread 0 issues the bulk copy
// (coordinates innermost first) on the slot's mbarrier; if not, the block
// copies the tile itself (zero-filling past the edge) and fences it for the
// async proxy. Thread 0 then arrives expecting the box's 16384 bytes (0 on
// the software path) and every thread waits for the slot's first phase:
// its phase bits are SSA values, so the parity folds to a constant.
// CHECK-LABEL: func.func @tma_load
// CHECK-DAG: %[[C64:.*]] = llvm.mlir.constant(64 : i64) : i64
// CHECK-DAG: %[[SIZES:.*]] = llvm.alloca %[[TWO:.*]] x i64 : (i64) -> !llvm.ptr
// CHECK-DAG: %[[STRIDES:.*]] = llvm.alloca %[[TWO]] x i64 : (i64) -> !llvm.ptr
// CHECK-DAG: %[[BOXES:.*]] = llvm.alloca %[[TWO]] x i64 : (i64) -> !llvm.ptr
// CHECK-DAG: %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.ptr : (i64) -> !llvm.ptr
// CHECK-DAG: %[[STAGING:.*]] = llvm.alloca %{{.*}} x !llvm.ptr : (i64) -> !llvm.ptr
// CHECK: %[[BASE:.*]], %[[OFFSET:.*]], %[[DIMS:.*]]:2, %[[STR:.*]]:2 = memref.extract_strided_metadata %arg0
// CHECK: %[[D0:.*]] = arith.index_cast %[[DIMS]]#0 : index to i64
// CHECK: llvm.store %[[D0]], %[[SIZES]] : i64, !llvm.ptr
// CHECK: %[[S0B:.*]] = arith.muli %[[STR]]#0, %c4 : index
// CHECK: %[[S0:.*]] = arith.index_cast %[[S0B]] : index to i64
// CHECK: llvm.store %[[S0]], %[[STRIDES]] : i64, !llvm.ptr
// CHECK: llvm.store %[[C64]], %[[BOXES]] : i64, !llvm.ptr
// CHECK: %[[S1AT:.*]] = llvm.getelementptr %[[STRIDES]][1]
// CHECK: llvm.store %c4_i64, %[[S1AT]] : i64, !llvm.ptr
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: %[[ADDR:.*]] = llvm.inttoptr
// Without croq-host-entries the function has no stream: staging is queued
// on the default stream (null).
// CHECK: %[[OK:.*]] = call @croqRtTensorMapGetStaged(%c0_i32, %c2_i32, %[[ADDR]], %[[SIZES]], %[[STRIDES]], %[[BOXES]], %c0_i32, %[[NULL:.*]], %[[SLOT]], %[[STAGING]])
// CHECK: %[[MAPPTR:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[BYTES:.*]] = llvm.load %[[MAPPTR]] {alignment = 64 : i64} : !llvm.ptr -> vector<16xi64>
// CHECK: gpu.launch
// CHECK: %[[BAR:.*]] = nvgpu.mbarrier.create
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %c0
// CHECK: nvgpu.mbarrier.init %[[BAR]][%c0], %c1, predicate = %[[FIRST]]
// CHECK-NEXT: gpu.barrier
// CHECK: %[[BOX:.*]] = memref.view %{{.*}}[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x64xf32, #gpu.address_space<workgroup>>
// CHECK: %[[ROW:.*]] = arith.muli %{{.*}}, %c64 : index
// CHECK: %[[COL:.*]] = arith.muli %{{.*}}, %c64 : index
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[MAP:.*]] = builtin.unrealized_conversion_cast %[[BYTES]] : vector<16xi64> to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf32, #gpu.address_space<workgroup>>, swizzle = none, l2promo = none, oob = zero, interleave = none>
// CHECK-NEXT: %[[USABLE:.*]] = arith.cmpi ne, %[[OK]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[USABLE]] {
// CHECK-NEXT: nvgpu.tma.async.load %[[MAP]][%[[COL]], %[[ROW]]], %[[BAR]][%c0] to %[[BOX]], predicate = %[[FIRST]]
// CHECK-NEXT: } else {
// CHECK: vector.store %{{.*}}, %[[BOX]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: }
// CHECK-NEXT: %[[EXPECT:.*]] = arith.select %[[USABLE]], %c16384, %c0 : index
// CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %[[BAR]][%c0], %[[EXPECT]], predicate = %[[FIRST]]
// CHECK-NEXT: nvgpu.mbarrier.try_wait.parity %[[BAR]][%c0], %false, %{{.*}}
// CHECK: gpu.terminator
// CHECK-NEXT: }
// CHECK-NEXT: %[[HANDLE:.*]] = llvm.load %[[STAGING]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: call @croqRtTensorMapReleaseStaged(%[[HANDLE]], %[[NULL]]) : (!llvm.ptr, !llvm.ptr) -> ()
// NOSTAGE-LABEL: func.func @tma_load
// NOSTAGE: call @croqRtTensorMapGetStrided(
// NOSTAGE-NOT: croqRtTensorMapReleaseStaged
func.func @tma_load(%a: memref<?x?xf32>, %out: memref<?x?xf32>, %gm: index, %gn: index) {
  croq.parallel (%i, %j) in [%gm, %gn] : block {
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    %v = croq.subspan %a [64, 64] at [%i, %j] : memref<?x?xf32> -> !croq.view<64x64xf32>
    croq.copy tma %v -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    %w = croq.subspan %out [64, 64] at [%i, %j] : memref<?x?xf32> -> !croq.view<64x64xf32>
    croq.copy dma %t -> %w : !croq.tile<64x64xf32, shared> -> !croq.view<64x64xf32>
  }
  return
}

// -----

// A tma store of a 128B-swizzled tile (swizzle code 3): a proxy fence and a
// barrier make the threads' writes visible to the copy engine; with a usable
// map thread 0 issues the store and drains its bulk group before the tile
// may be reused, without one the block stores the tile itself.
// CHECK-LABEL: func.func @tma_store
// CHECK: %[[OK:.*]] = call @croqRtTensorMapGetStrided(%c1_i32, %c2_i32, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c3_i32, %{{.*}})
// CHECK: gpu.launch
// CHECK: builtin.unrealized_conversion_cast %{{.*}} : vector<16xi64> to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK: %[[USABLE:.*]] = arith.cmpi ne, %[[OK]], %c0_i32 : i32
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.if %[[USABLE]] {
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: nvgpu.tma.async.store %{{.*}} to %{{.*}}[%{{.*}}, %{{.*}}]
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT: }
// CHECK-NEXT: } else {
// CHECK: vector.store %{{.*}}, %arg1[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xf16>, vector<8xf16>
func.func @tma_store(%a: memref<?x?xf16>, %out: memref<?x?xf16>, %gm: index, %gn: index) {
  croq.parallel (%i, %j) in [%gm, %gn] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %v = croq.subspan %a [64, 64] at [%i, %j] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy dma %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    %w = croq.subspan %out [64, 64] at [%i, %j] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy tma %t -> %w : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x64xf16>
  }
  return
}

// -----

// An async tma load is issued where it stands; its croq.wait became a wait
// on its event slot, whether or not it took the TMA path (the software path
// arrives with no bytes expected).
// CHECK-LABEL: func.func @tma_load_async
// CHECK: %[[USABLE:.*]] = arith.cmpi ne, %{{.*}}, %c0_i32 : i32
// CHECK: scf.if %[[USABLE]] {
// CHECK: nvgpu.tma.async.load
// CHECK: nvgpu.mbarrier.arrive.expect_tx
// CHECK-NOT: nvgpu.mbarrier.try_wait.parity
// CHECK: arith.addf
// CHECK: memref.store
// CHECK-NEXT: nvgpu.mbarrier.try_wait.parity
func.func @tma_load_async(%a: memref<?x?xf32>, %out: memref<?x?xf32>, %gm: index, %x: f32) {
  croq.parallel (%i) in [%gm] : block {
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    %c0 = arith.constant 0 : index
    %v = croq.subspan %a [64, 64] at [%i, %c0] : memref<?x?xf32> -> !croq.view<64x64xf32>
    %f = croq.copy tma async %v -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    %y = arith.addf %x, %x : f32
    croq.write %y, %out[%i, %c0] : memref<?x?xf32>
    croq.wait %f
  }
  return
}

// -----

// Element types the upstream descriptor cannot name get croq's own codes:
// i8 (5), f8E4M3FN (3) and f8E5M2 (4); the descriptor the bulk copy takes
// keeps the tile's element type.
// CHECK-LABEL: func.func @tma_load_bytes
// CHECK: call @croqRtTensorMapGetStaged(%c5_i32, %c2_i32,
// CHECK: call @croqRtTensorMapGetStaged(%c3_i32, %c2_i32,
// CHECK: call @croqRtTensorMapGetStaged(%c4_i32, %c2_i32,
// CHECK: gpu.launch
// CHECK: nvgpu.tma.async.load {{.*}} -> memref<64x64xi8, #gpu.address_space<workgroup>>
// CHECK: nvgpu.tma.async.load {{.*}} -> memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
// CHECK: nvgpu.tma.async.load {{.*}} -> memref<64x64xf8E5M2, #gpu.address_space<workgroup>>
func.func @tma_load_bytes(%a: memref<?x?xi8>, %b: memref<?x?xf8E4M3FN>, %c: memref<?x?xf8E5M2>) {
  croq.parallel (%i) in [1] : block {
    %ta = croq.alloc : !croq.tile<64x64xi8, shared>
    %tb = croq.alloc : !croq.tile<64x64xf8E4M3FN, shared>
    %tc = croq.alloc : !croq.tile<64x64xf8E5M2, shared>
    %c0 = arith.constant 0 : index
    %va = croq.subspan %a [64, 64] at [%c0, %c0] : memref<?x?xi8> -> !croq.view<64x64xi8>
    croq.copy tma %va -> %ta : !croq.view<64x64xi8> -> !croq.tile<64x64xi8, shared>
    %vb = croq.subspan %b [64, 64] at [%c0, %c0] : memref<?x?xf8E4M3FN> -> !croq.view<64x64xf8E4M3FN>
    croq.copy tma %vb -> %tb : !croq.view<64x64xf8E4M3FN> -> !croq.tile<64x64xf8E4M3FN, shared>
    %vc = croq.subspan %c [64, 64] at [%c0, %c0] : memref<?x?xf8E5M2> -> !croq.view<64x64xf8E5M2>
    croq.copy tma %vc -> %tc : !croq.view<64x64xf8E5M2> -> !croq.tile<64x64xf8E5M2, shared>
  }
  return
}

// -----

// A strided tensor: its map gets the memref's real strides, in bytes
// (4 * 96 for the rows of this f32 window), and its address is the aligned
// pointer plus the offset.
// CHECK-LABEL: func.func @tma_load_strided
// CHECK: llvm.alloca
// CHECK: %[[STRIDES:.*]] = llvm.alloca
// CHECK: %[[BASE:.*]], %[[OFFSET:.*]], %{{.*}}:2, %[[STR:.*]]:2 = memref.extract_strided_metadata %arg0 : memref<64x64xf32, strided<[96, 1], offset: ?>>
// CHECK: llvm.store %c384_i64, %[[STRIDES]] : i64, !llvm.ptr
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: %[[OFFB:.*]] = arith.muli %[[OFFSET]], %c4 : index
// CHECK: %[[START:.*]] = arith.addi %[[PTR]], %[[OFFB]] : index
// CHECK: %[[START64:.*]] = arith.index_cast %[[START]] : index to i64
// CHECK: %[[ADDR:.*]] = llvm.inttoptr %[[START64]] : i64 to !llvm.ptr
// CHECK: call @croqRtTensorMapGetStaged(%c0_i32, %c2_i32, %[[ADDR]],
func.func @tma_load_strided(%a: memref<64x64xf32, strided<[96, 1], offset: ?>>) {
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    croq.copy tma %a -> %t : memref<64x64xf32, strided<[96, 1], offset: ?>> -> !croq.tile<64x64xf32, shared>
  }
  return
}

// -----

// Two loads of the same tensor, box and swizzle in one kernel share one
// host call; a different box gets its own.
// CHECK-LABEL: func.func @tma_maps_per_kernel
// CHECK-COUNT-2: call @croqRtTensorMapGetStaged
// CHECK-NOT: call @croqRtTensorMapGetStaged
// CHECK: gpu.launch
func.func @tma_maps_per_kernel(%a: memref<?x?xf16>) {
  croq.parallel (%i) in [1] : block {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = croq.alloc : !croq.tile<64x64xf16, shared>
    %u = croq.alloc : !croq.tile<32x64xf16, shared>
    %v0 = croq.subspan %a [64, 64] at [%c0, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy tma %v0 -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared>
    %v1 = croq.subspan %a [64, 64] at [%c1, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy tma %v1 -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared>
    %v2 = croq.subspan %a [32, 64] at [%c0, %c0] : memref<?x?xf16> -> !croq.view<32x64xf16>
    croq.copy tma %v2 -> %u : !croq.view<32x64xf16> -> !croq.tile<32x64xf16, shared>
  }
  return
}

// -----

// Only tensors the kernel never writes are staged: %a is also the
// destination of a croq.write, and %b is written through a view of a
// host-side subview of it, so both maps come from croqRtTensorMapGetStrided
// and nothing is released; %c is read through a copy and a croq.read only.
// CHECK-LABEL: func.func @tma_load_written
// CHECK: call @croqRtTensorMapGetStrided(
// CHECK: call @croqRtTensorMapGetStrided(
// CHECK: call @croqRtTensorMapGetStaged(
// CHECK-NOT: call @croqRtTensorMapGetStrided
// CHECK: gpu.launch
// CHECK: gpu.terminator
// CHECK-NEXT: }
// CHECK-NEXT: llvm.load
// CHECK-NEXT: call @croqRtTensorMapReleaseStaged
// CHECK-NOT: call @croqRtTensorMapReleaseStaged
// CHECK: return
func.func @tma_load_written(%a: memref<?x?xf32>, %b: memref<128x128xf32>, %c: memref<?x?xf32>, %x: f32) {
  %sub = memref.subview %b[0, 0] [64, 64] [1, 1] : memref<128x128xf32> to memref<64x64xf32, strided<[128, 1]>>
  croq.parallel (%i) in [1] : block {
    %c0 = arith.constant 0 : index
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    %va = croq.subspan %a [64, 64] at [%c0, %c0] : memref<?x?xf32> -> !croq.view<64x64xf32>
    croq.copy tma %va -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    croq.write %x, %a[%c0, %c0] : memref<?x?xf32>
    %vb = croq.subspan %b [64, 64] at [%c0, %c0] : memref<128x128xf32> -> !croq.view<64x64xf32>
    croq.copy tma %vb -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    croq.copy dma %t -> %sub : !croq.tile<64x64xf32, shared> -> memref<64x64xf32, strided<[128, 1]>>
    %vc = croq.subspan %c [64, 64] at [%c0, %c0] : memref<?x?xf32> -> !croq.view<64x64xf32>
    croq.copy tma %vc -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    %y = croq.read %c[%c0, %c0] : memref<?x?xf32>
    croq.write %y, %a[%c0, %c0] : memref<?x?xf32>
  }
  return
}

// -----

// An async tma store issued by a warpgroup and left in flight: the tile is
// fenced for the async proxy and the warpgroup synchronizes on its named
// barrier (1 + its index, 128 threads); its first thread issues the bulk
// store and commits the group without waiting. Before the tile is written
// again (the dma copy at the top of the next iteration) the threads wait
// until their bulk stores have read shared memory and synchronize; so does
// every thread at the end of the kernel.
// CHECK-LABEL: func.func @tma_store_async_warpgroup
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT: %[[ID:.*]] = arith.addi %{{.*}}, %c1 : index
// CHECK-NEXT: %[[ID32:.*]] = arith.index_cast %[[ID]] : index to i32
// CHECK-NEXT: nvvm.barrier id = %[[ID32]] number_of_threads = %c128_i32
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvvm.barrier id = %{{.*}} number_of_threads = %c128_i32
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: nvgpu.tma.async.store
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NEXT: }
// CHECK-NEXT: } else {
// CHECK-NOT: nvvm.cp.async.bulk.wait_group
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: gpu.terminator
func.func @tma_store_async_warpgroup(%a: memref<?x?xf16>, %out: memref<?x?xf16>, %n: index) {
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tiles<2 x 64x64xf16, shared>
    croq.parallel (%w) in [2] : warpgroup {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %tw = croq.stage %t[%w] : !croq.tiles<2 x 64x64xf16, shared>
      scf.for %j = %c0 to %n step %c1 {
        %v = croq.subspan %a [64, 64] at [%w, %j] : memref<?x?xf16> -> !croq.view<64x64xf16>
        croq.copy dma %v -> %tw : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared>
        %o = croq.subspan %out [64, 64] at [%w, %j] : memref<?x?xf16> -> !croq.view<64x64xf16>
        %f = croq.copy tma async %tw -> %o : !croq.tile<64x64xf16, shared> -> !croq.view<64x64xf16>
      }
    }
  }
  return
}

// -----

// Waiting for an async tma store's future: every thread of the group waits
// for its bulk stores to complete, then the group synchronizes.
// CHECK-LABEL: func.func @tma_store_async_waited
// CHECK: nvgpu.tma.async.store
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK: arith.addf
// CHECK: nvvm.cp.async.bulk.wait_group 0
// CHECK-NEXT: gpu.barrier
func.func @tma_store_async_waited(%a: memref<?x?xf16>, %out: memref<?x?xf16>, %x: f32, %r: memref<1xf32>) {
  croq.parallel (%i) in [1] : block {
    %c0 = arith.constant 0 : index
    %t = croq.alloc : !croq.tile<64x64xf16, shared>
    %v = croq.subspan %a [64, 64] at [%c0, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy dma %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared>
    %o = croq.subspan %out [64, 64] at [%c0, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
    %f = croq.copy tma async %t -> %o : !croq.tile<64x64xf16, shared> -> !croq.view<64x64xf16>
    %y = arith.addf %x, %x : f32
    croq.write %y, %r[%c0] : memref<1xf32>
    croq.wait %f
  }
  return
}
