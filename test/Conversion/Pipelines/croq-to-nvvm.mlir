// RUN: croq-opt %s --croq-to-nvvm="format=none" | FileCheck %s --implicit-check-not=croq.
// RUN: croq-opt %s --croq-to-nvvm | FileCheck %s --check-prefix=ISA
// RUN: croq-opt %s --croq-to-gpu | FileCheck %s --check-prefix=GPU --implicit-check-not=croq.

// The pipeline without binary: the kernel is an NVVM kernel in a gpu.module
// targeting sm_90a, its dynamic shared memory an aligned external global;
// the host function launches it on the stream it takes last, between the
// runtime's call bracket, and returns the call's status. The chip stays
// named in the IR (croq-set-target).
// CHECK: module attributes {croq.target = "sm_90a", gpu.container_module}
// CHECK: llvm.func @add(
// CHECK-SAME: %[[STREAM:arg[0-9]+]]: !llvm.ptr) -> i32
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK: llvm.call @croqRtCallBegin()
// CHECK: gpu.launch_func <%[[STREAM]] : !llvm.ptr> @add_kernel::@add_kernel blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) : i64 dynamic_shared_memory_size %{{.*}}
// CHECK: %[[STATUS:.*]] = llvm.call @croqRtCallEnd() : () -> i32
// CHECK-NEXT: llvm.return %[[STATUS]] : i32
// CHECK: llvm.func @_mlir_ciface_add(
// CHECK-SAME: -> i32
// CHECK: gpu.module @add_kernel [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">]
// CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.func @add_kernel(
// CHECK-SAME: nvvm.kernel
// CHECK: nvvm.barrier0

// croq-to-gpu stops after croq's own passes: the block is a gpu.launch on
// the stream the host function takes, not yet outlined, nothing lowered to
// NVVM or LLVM; the chip is named in the IR as above.
// GPU: module attributes {croq.target = "sm_90a"}
// GPU: func.func @add(
// GPU-SAME: %[[GSTREAM:arg[0-9]+]]: !llvm.ptr) -> i32
// GPU: call @croqRtCallBegin()
// GPU: %[[TOKEN:.*]] = builtin.unrealized_conversion_cast %[[GSTREAM]] : !llvm.ptr to !gpu.async.token
// GPU: gpu.launch async [%[[TOKEN]]]
// GPU: gpu.dynamic_shared_memory
// GPU: gpu.barrier
// GPU-NOT: gpu.module
// GPU-NOT: llvm.func

// With the default format the GPU module becomes PTX.
// ISA: gpu.binary @add_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">, properties = {{.*}}, assembly = "

func.func @add(%a: memref<?xi32>, %b: memref<?xi32>, %n: index) {
  croq.parallel (%i) in [%n] : block {
    %t = croq.alloc : !croq.tile<256xi32, shared>
    %va = croq.subspan %a [256] at [%i] : memref<?xi32> -> !croq.view<256xi32>
    croq.copy dma %va -> %t : !croq.view<256xi32> -> !croq.tile<256xi32, shared>
    %vb = croq.subspan %b [256] at [%i] : memref<?xi32> -> !croq.view<256xi32>
    croq.foreach (%k) in [256] {
      %x = croq.read %t[%k] : !croq.tile<256xi32, shared>
      %y = croq.read %vb[%k] : !croq.view<256xi32>
      %s = arith.addi %x, %y : i32
      croq.write %s, %vb[%k] : !croq.view<256xi32>
    }
  }
  return
}
