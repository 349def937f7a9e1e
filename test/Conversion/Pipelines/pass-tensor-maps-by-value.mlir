// RUN: croq-opt %s --pass-pipeline="builtin.module(gpu.module(croq-pass-tensor-maps-by-value))" -split-input-file | FileCheck %s

// A kernel parameter carrying a tensor map's 128 bytes, only cast (through
// the descriptor type) to the pointer the bulk copy reads, becomes a
// grid-constant byval parameter whose address is that pointer; the casts go.
// CHECK-LABEL: llvm.func @kernel(
// CHECK-SAME: %[[MAP:.*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %[[OTHER:.*]]: i32)
// CHECK-NOT: builtin.unrealized_conversion_cast
// CHECK: llvm.load %[[MAP]] : !llvm.ptr -> i64
// CHECK: llvm.load %[[MAP]] : !llvm.ptr -> i32
gpu.module @kernels {
  llvm.func @kernel(%map: vector<16xi64>, %other: i32) attributes {nvvm.kernel} {
    %d = builtin.unrealized_conversion_cast %map : vector<16xi64> to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf32, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
    %p = builtin.unrealized_conversion_cast %d : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf32, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none> to !llvm.ptr
    %q = builtin.unrealized_conversion_cast %map : vector<16xi64> to !llvm.ptr
    %x = llvm.load %p : !llvm.ptr -> i64
    %y = llvm.load %q : !llvm.ptr -> i32
    llvm.return
  }
}

// -----

// 128 bytes used as a value, or in a function that is not a kernel, stay
// as they are.
// CHECK-LABEL: llvm.func @kernel_value(
// CHECK-SAME: %{{.*}}: vector<16xi64>)
// CHECK: builtin.unrealized_conversion_cast
// CHECK-LABEL: llvm.func @not_a_kernel(
// CHECK-SAME: %{{.*}}: vector<16xi64>)
// CHECK: builtin.unrealized_conversion_cast
gpu.module @kernels {
  llvm.func @kernel_value(%map: vector<16xi64>) attributes {nvvm.kernel} {
    %p = builtin.unrealized_conversion_cast %map : vector<16xi64> to !llvm.ptr
    %x = llvm.load %p : !llvm.ptr -> i64
    %i = llvm.mlir.constant(0 : i32) : i32
    %e = llvm.extractelement %map[%i : i32] : vector<16xi64>
    llvm.return
  }
  llvm.func @not_a_kernel(%map: vector<16xi64>) {
    %p = builtin.unrealized_conversion_cast %map : vector<16xi64> to !llvm.ptr
    %x = llvm.load %p : !llvm.ptr -> i64
    llvm.return
  }
}
