// RUN: croq-opt %s --pass-pipeline="builtin.module(gpu.module(croq-prefetch-tensor-maps))" -split-input-file | FileCheck %s

// Each grid-constant 128-byte byval parameter of a kernel (a tensor map)
// is prefetched at entry by the block's first thread; other pointers are
// not.
// CHECK-LABEL: llvm.func @kernel(
// CHECK-SAME: %[[A:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %[[P:[^:]*]]: !llvm.ptr,
// CHECK-SAME: %[[B:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})
// CHECK-NEXT: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[FIRST:.*]] = llvm.icmp "eq" %[[TID]], %[[ZERO]] : i32
// CHECK-NEXT: nvvm.prefetch tensormap, %[[A]], predicate = %[[FIRST]] : !llvm.ptr, i1
// CHECK-NEXT: nvvm.prefetch tensormap, %[[B]], predicate = %[[FIRST]] : !llvm.ptr, i1
// CHECK-NEXT: llvm.load %[[A]]
// CHECK-NOT: nvvm.prefetch
gpu.module @kernels {
  llvm.func @kernel(%a: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %p: !llvm.ptr, %b: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}) attributes {nvvm.kernel} {
    %x = llvm.load %a : !llvm.ptr -> i64
    %y = llvm.load %p : !llvm.ptr -> i64
    %z = llvm.load %b : !llvm.ptr -> i64
    llvm.return
  }
}

// -----

// A kernel without tensor maps (a byval parameter of another size, a
// pointer that is not grid-constant), a function that is not a kernel and
// a kernel declaration stay as they are.
// CHECK-LABEL: llvm.func @no_maps(
// CHECK-NOT: nvvm.prefetch
// CHECK-LABEL: llvm.func @not_a_kernel(
// CHECK-NOT: nvvm.prefetch
// CHECK-LABEL: llvm.func @declared(
// CHECK-NOT: nvvm.prefetch
gpu.module @kernels {
  llvm.func @no_maps(%p: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>}, %s: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.array<64 x i8>, nvvm.grid_constant}) attributes {nvvm.kernel} {
    %x = llvm.load %p : !llvm.ptr -> i64
    %y = llvm.load %s : !llvm.ptr -> i64
    llvm.return
  }
  llvm.func @not_a_kernel(%a: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>}) {
    %x = llvm.load %a : !llvm.ptr -> i64
    llvm.return
  }
  llvm.func @declared(!llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}) attributes {nvvm.kernel}
}
