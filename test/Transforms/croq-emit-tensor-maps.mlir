// RUN: croq-opt %s --croq-plan-tma-boxes --croq-emit-tensor-maps -split-input-file | FileCheck %s
// RUN: croq-opt %s --croq-plan-tma-boxes --croq-emit-tensor-maps -split-input-file | croq-opt -split-input-file | FileCheck %s
// RUN: croq-opt %s --croq-plan-tma-boxes --croq-emit-tensor-maps=stage-misaligned-inputs=false -split-input-file | FileCheck %s --check-prefix=NOSTAGE
// RUN: croq-opt %s --croq-plan-tma-boxes --croq-emit-tensor-maps=tma-fallback=never -split-input-file | FileCheck %s --check-prefix=NEVER

// One map per tensor, box and swizzle, before the kernel: two loads of A
// (the same box) share one; the output's map is another. A, which the
// kernel only reads, is staged; the output is not. The tensors are dynamic,
// so every copy keeps its software copy (`if %ok`) under tma-fallback=auto.
// CHECK-LABEL: func.func @loads_and_store
// CHECK: %[[MA:.*]], %[[OKA:.*]] = croq.tensor_map %arg0 box [64, 64] swizzle = 128 staged : memref<?x?xf16>
// CHECK-NEXT: %[[MO:.*]], %[[OKO:.*]] = croq.tensor_map %arg1 box [64, 64] swizzle = 128 : memref<?x?xf16>
// CHECK-NEXT: croq.parallel
// CHECK: croq.copy tma swizzle = 128 %{{.*}} -> %{{.*}} map %[[MA]] if %[[OKA]] boxes [64, 64] at {{\[\[0, 0\]\]}} :
// CHECK: croq.copy tma swizzle = 128 %{{.*}} -> %{{.*}} map %[[MA]] if %[[OKA]] boxes [64, 64] at {{\[\[0, 0\]\]}} :
// CHECK: croq.copy tma %{{.*}} -> %{{.*}} map %[[MO]] if %[[OKO]] boxes [64, 64] at {{\[\[0, 0\]\]}} :
// Without staging A's map is plain.
// NOSTAGE-LABEL: func.func @loads_and_store
// NOSTAGE: croq.tensor_map %arg0 box [64, 64] swizzle = 128 : memref<?x?xf16>
// Without software copies every map is required and no copy takes `if`.
// NEVER-LABEL: func.func @loads_and_store
// NEVER: croq.tensor_map %arg0 box [64, 64] swizzle = 128 staged required : memref<?x?xf16>
// NEVER: croq.tensor_map %arg1 box [64, 64] swizzle = 128 required : memref<?x?xf16>
// NEVER-NOT: if %
// NEVER: return
func.func @loads_and_store(%a: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  croq.parallel (%i) in [4] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %u = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %va = croq.view %a [64, 64] from [%c0, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
    %vb = croq.view %a [64, 64] from [%c64, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy tma swizzle = 128 %va -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.copy tma swizzle = 128 %vb -> %u : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    %vo = croq.view %out [64, 64] from [%c0, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy tma %t -> %vo : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x64xf16>
  }
  return
}

// -----

// A tile wider than its 128-byte swizzle span moves as span-wide slabs: the
// map's box is one slab (64 f16 wide). A static input with contiguous rows
// is proven usable once staged: the copy has no software copy and the map
// is required.
// CHECK-LABEL: func.func @slabs_static
// CHECK: %[[M:.*]], %{{.*}} = croq.tensor_map %arg0 box [128, 64] swizzle = 128 staged required : memref<256x512xf16>
// CHECK: croq.copy tma %{{.*}} -> %{{.*}} map %[[M]] boxes {{.*}} :
func.func @slabs_static(%a: memref<256x512xf16>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%i) in [2] : block {
    %t = croq.alloc : !croq.tile<128x128xf16, shared, swizzle = 128>
    %v = croq.view %a [128, 128] from [%c0, %c0] : memref<256x512xf16> -> !croq.view<128x128xf16>
    croq.copy tma %v -> %t : !croq.view<128x128xf16> -> !croq.tile<128x128xf16, shared, swizzle = 128>
  }
  return
}
