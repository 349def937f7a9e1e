// REQUIRES: ptxas
// RUN: croq-translate --croq-to-ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: croq-translate --croq-to-host-llvmir %s | FileCheck %s --check-prefix=HOST

// The kernel receives each tensor map as a 128-byte, 64-byte aligned
// parameter (CUDA's `const __grid_constant__ CUtensorMap`) and the bulk
// copies read it at its generic address; a load and a store of different
// tensors get one map each.
// CHECK: .param .align 64 .b8 [[LOADMAP:tma_copy_kernel_param_[0-9]+]][128]
// CHECK: .param .align 64 .b8 [[STOREMAP:tma_copy_kernel_param_[0-9]+]][128]
// CHECK-DAG: mov.b64 %[[L:rd[0-9]+]], [[LOADMAP]];
// CHECK-DAG: cvta.param.u64 %[[LG:rd[0-9]+]], %[[L]];
// CHECK-DAG: mov.b64 %[[S:rd[0-9]+]], [[STOREMAP]];
// CHECK-DAG: cvta.param.u64 %[[SG:rd[0-9]+]], %[[S]];
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%{{.*}}], [%[[LG]], {
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%[[SG]], {

// The host asks the runtime for each map and passes its bytes by value: the
// launch's argument buffer holds the 128 bytes (128-byte aligned) and the
// parameter array points at them, as cuLaunchKernel takes a by-value
// parameter. The loaded tensor, which the kernel only reads, may be staged
// (croqRtTensorMapGetStaged, on the stream the function takes last); its
// staging buffer is released on that stream after the launch.
// HOST-DAG: declare i32 @croqRtTensorMapGetStrided(i32, i32, ptr, ptr, ptr, ptr, i32, ptr)
// HOST-DAG: declare i32 @croqRtTensorMapGetStaged(i32, i32, ptr, ptr, ptr, ptr, i32, ptr, ptr, ptr)
// HOST-DAG: declare void @croqRtTensorMapReleaseStaged(ptr, ptr)
// HOST: define i32 @tma_copy({{.*}}, ptr %[[STREAM:[0-9]+]])
// HOST: %[[OK:.*]] = call i32 @croqRtTensorMapGetStaged(i32 2, i32 2, ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}}, i32 3, ptr %[[STREAM]], ptr %[[SLOT:.*]], ptr %[[STAGING:.*]])
// HOST: %[[MAPPTR:.*]] = load ptr, ptr %[[SLOT]], align 8
// HOST: %[[MAP:.*]] = load <16 x i64>, ptr %[[MAPPTR]], align 64
// HOST: call i32 @croqRtTensorMapGetStrided(i32 2, i32 2,
// HOST: load <16 x i64>, ptr %{{.*}}, align 64
// HOST: %[[ARGS:.*]] = alloca %{{.*}}, align 128
// HOST: %[[PARAMS:.*]] = alloca ptr, i64 {{[0-9]+}}, align 8
// HOST: store <16 x i64> %[[MAP]], ptr %[[FIELD:.*]], align 128
// HOST-NEXT: %[[AT:.*]] = getelementptr ptr, ptr %[[PARAMS]], i32 {{[0-9]+}}
// HOST-NEXT: store ptr %[[FIELD]], ptr %[[AT]], align 8
// HOST: store i32 %[[OK]], ptr
// HOST: call void @mgpuLaunchKernel({{.*}}, ptr %[[STREAM]], ptr %{{.*}}, ptr null, i64 {{[0-9]+}})
// HOST-NOT: mgpuStream
// HOST: %[[HANDLE:.*]] = load ptr, ptr %[[STAGING]], align 8
// HOST-NEXT: call void @croqRtTensorMapReleaseStaged(ptr %[[HANDLE]], ptr %[[STREAM]])
func.func @tma_copy(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %gm: index, %gn: index) {
  croq.parallel (%i, %j) in [%gm, %gn] : block {
    %t = croq.alloc : !croq.tile<64x64xbf16, shared, swizzle = 128>
    %v = croq.subspan %a [64, 64] at [%i, %j] : memref<?x?xbf16> -> !croq.view<64x64xbf16>
    croq.copy tma %v -> %t : !croq.view<64x64xbf16> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
    %w = croq.subspan %b [64, 64] at [%i, %j] : memref<?x?xbf16> -> !croq.view<64x64xbf16>
    croq.copy tma %t -> %w : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.view<64x64xbf16>
  }
  return
}
