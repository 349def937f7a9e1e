// RUN: croq-opt %s --pass-pipeline="builtin.module(gpu.module(croq-extern-dynamic-shared-memory{alignment=256}))" | FileCheck %s
// RUN: not croq-opt %s --pass-pipeline="builtin.module(gpu.module(croq-extern-dynamic-shared-memory{alignment=48}))" 2>&1 | FileCheck %s --check-prefix=ERR

// Only the zero-sized shared-memory global becomes an aligned extern; other
// globals keep their linkage and alignment.
// CHECK-LABEL: gpu.module @kernels
// CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 256 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.mlir.global internal @static_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<4 x i8>
// CHECK: llvm.mlir.global internal @not_shared() {addr_space = 1 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>

// ERR: croq-extern-dynamic-shared-memory: alignment must be a power of two, got 48

gpu.module @kernels {
  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global internal @static_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<4 x i8>
  llvm.mlir.global internal @not_shared() {addr_space = 1 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
}
