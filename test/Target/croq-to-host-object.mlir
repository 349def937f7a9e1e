// RUN: croq-translate --croq-to-host-object %s -o %t.o
// RUN: llvm-nm %t.o | FileCheck %s

// The host side as an object: the C-interface entry point, the embedded
// kernel and the runtime functions it calls.
// CHECK-DAG: T _mlir_ciface_fill
// CHECK-DAG: U mgpuLaunchKernel
// CHECK-DAG: U mgpuModuleLoad
// CHECK-DAG: r fill_kernel_binary

func.func @fill(%a: memref<1024xi32>, %x: i32) {
  croq.parallel (%i) in [8] : block {
    %v = croq.subspan %a [128] at [%i] : memref<1024xi32> -> !croq.view<128xi32>
    croq.foreach (%k) in [128] {
      croq.write %x, %v[%k] : !croq.view<128xi32>
    }
  }
  return
}
