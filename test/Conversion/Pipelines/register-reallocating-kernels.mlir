// RUN: croq-opt %s --pass-pipeline="builtin.module(gpu.module(croq-register-reallocating-kernels))" | FileCheck %s

// Kernels that change their register count with setmaxnreg get
// nvvm.minctasm = 1 (PTX .minnctapersm 1), so ptxas knows the register count
// at entry. Kernels without setmaxnreg, and device functions, are untouched.

// CHECK-LABEL: gpu.module @kernels
// CHECK: llvm.func @warp_specialized() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 384, 1, 1>, nvvm.minctasm = 1 : i32}
// CHECK: llvm.func @plain()
// CHECK-NOT: nvvm.minctasm
// CHECK-SAME: {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>}
// CHECK: llvm.func @helper()
// CHECK-NOT: nvvm.minctasm
// CHECK: }
gpu.module @kernels {
  llvm.func @warp_specialized() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 384, 1, 1>} {
    nvvm.setmaxregister decrease 40
    llvm.return
  }
  llvm.func @plain() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>} {
    llvm.return
  }
  llvm.func @helper() {
    nvvm.setmaxregister increase 232
    llvm.return
  }
}
