// RUN: croq-opt %s --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu --canonicalize --cse -split-input-file | FileCheck %s --implicit-check-not=croq.

// An im2col load of a 4-d NHWC f16 tensor. Before the kernel the host asks
// the runtime for the im2col map: element type f16 (1), rank 4, the address
// of element 0, the sizes and byte strides (outermost first), the corners
// and the traversal strides (outermost first), 64 channels, 128 pixels,
// swizzle 128B (3); a map it cannot make refuses the launch
// (croqRtTensorMapRequireIm2col). In the kernel, thread 0 issues one
// cp.async.bulk.tensor in im2col mode: the tile's shared address, the map's
// bytes as the descriptor pointer, the coordinates (C, W, H, N: innermost
// first, as i32), the slot's mbarrier and the offsets (W, H, as i16). The
// trigger expects the whole tile's 16384 bytes.
// CHECK-LABEL: func.func @im2col_load
// CHECK-DAG: %[[MINUS3:.*]] = llvm.mlir.constant(-3 : i32) : i32
// CHECK-DAG: %[[MINUS1:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK-DAG: %[[MINUS2:.*]] = llvm.mlir.constant(-2 : i32) : i32
// CHECK: %[[STEPS:.*]] = llvm.alloca %{{.*}} x i64 : (i64) -> !llvm.ptr
// CHECK-NEXT: %[[UPPER:.*]] = llvm.alloca %{{.*}} x i32 : (i64) -> !llvm.ptr
// CHECK-NEXT: %[[LOWER:.*]] = llvm.alloca %{{.*}} x i32 : (i64) -> !llvm.ptr
// CHECK-NEXT: %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.ptr : (i64) -> !llvm.ptr
// CHECK-NEXT: %[[STRIDES:.*]] = llvm.alloca %{{.*}} x i64 : (i64) -> !llvm.ptr
// CHECK-NEXT: %[[SIZES:.*]] = llvm.alloca %{{.*}} x i64 : (i64) -> !llvm.ptr
// CHECK: memref.extract_strided_metadata %arg0
// CHECK: llvm.store %[[MINUS2]], %[[LOWER]] : i32, !llvm.ptr
// CHECK-NEXT: %[[LOWER1:.*]] = llvm.getelementptr %[[LOWER]][1]
// CHECK-NEXT: llvm.store %[[MINUS1]], %[[LOWER1]] : i32, !llvm.ptr
// CHECK-NEXT: llvm.store %[[MINUS3]], %[[UPPER]] : i32, !llvm.ptr
// CHECK-NEXT: %[[UPPER1:.*]] = llvm.getelementptr %[[UPPER]][1]
// CHECK-NEXT: llvm.store %[[MINUS1]], %[[UPPER1]] : i32, !llvm.ptr
// CHECK-NEXT: llvm.store %[[TWO:.*]], %[[STEPS]] : i64, !llvm.ptr
// CHECK-NEXT: %[[STEPS1:.*]] = llvm.getelementptr %[[STEPS]][1]
// CHECK-NEXT: llvm.store %[[ONE:.*]], %[[STEPS1]] : i64, !llvm.ptr
// CHECK: %[[OK:.*]] = call @croqRtTensorMapGetIm2col(%c1_i32, %c4_i32, %{{.*}}, %[[SIZES]], %[[STRIDES]], %[[LOWER]], %[[UPPER]], %[[STEPS]], %c64_i32, %c128_i32, %c3_i32, %[[SLOT]]) : (i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, i32, i32, !llvm.ptr) -> i32
// CHECK-NEXT: call @croqRtTensorMapRequireIm2col(%[[OK]]) : (i32) -> i32
// CHECK-NEXT: %[[MAPPTR:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[BYTES:.*]] = llvm.load %[[MAPPTR]] {alignment = 64 : i64} : !llvm.ptr -> vector<16xi64>
// CHECK: gpu.launch blocks(%[[BX:[^,]*]], %{{.*}}, %{{.*}}) in
// CHECK: %[[BAR:.*]] = nvgpu.mbarrier.create
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %c0 : index
// CHECK: %[[SMEM:.*]] = gpu.dynamic_shared_memory
// CHECK: %[[SBASE:.*]] = memref.extract_aligned_pointer_as_index %[[SMEM]]
// CHECK: %[[TILE:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// CHECK-NEXT: %[[DESC:.*]] = builtin.unrealized_conversion_cast %[[BYTES]] : vector<16xi64> to !llvm.ptr
// CHECK-NEXT: %[[SLOTS:.*]] = builtin.unrealized_conversion_cast %[[BAR]] : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
// CHECK: %[[MBAR:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// CHECK-NEXT: %[[N:.*]] = arith.index_cast %[[BX]] : index to i32
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: %[[DST:.*]] = llvm.addrspacecast %[[TILE]] : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST]], %[[DESC]], %[[MBAR]], box[%c0_i32, %c2_i32, %c1_i32, %[[N]]] im2col[%c1_i16, %c2_i16] {mode = #nvvm.tma_load_mode<im2col>} : !llvm.ptr<7>, !llvm.ptr
// CHECK-NEXT: }
// CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %[[BAR]][%c0], %c16384, predicate = %[[FIRST]]
// CHECK-NEXT: nvgpu.mbarrier.try_wait.parity %[[BAR]][%c0], %false
func.func @im2col_load(%x: memref<?x?x?x?xf16>, %out: memref<?x?xf16>, %tiles: index) {
  %m = croq.im2col_map %x pixels 128 channels 64 lower [-2, -1] upper [-3, -1] strides [2, 1] swizzle = 128 : memref<?x?x?x?xf16>
  croq.parallel (%i) in [%tiles] : block {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %t = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    croq.im2col %x[%i, %c1, %c2, %c0] offsets [%c2, %c1] -> %t map %m : memref<?x?x?x?xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
    %v = croq.read %t[%c0, %c0] : !croq.tile<128x64xf16, shared, swizzle = 128>
    croq.write %v, %out[%i, %c0] : memref<?x?xf16>
  }
  return
}

