// RUN: croq-opt %s --croq-assign-layouts --croq-normalize-views --croq-wait-async-stores --croq-distribute-copies --croq-plan-tma-boxes --croq-emit-tensor-maps --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-plan-registers --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu -split-input-file | FileCheck %s --check-prefixes=CHECK,AUTO --implicit-check-not=croq.
// RUN: croq-opt %s --croq-assign-layouts --croq-normalize-views --croq-wait-async-stores --croq-distribute-copies --croq-plan-tma-boxes --croq-emit-tensor-maps=tma-fallback=always --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-plan-registers --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu -split-input-file | FileCheck %s --check-prefixes=CHECK,ALWAYS --implicit-check-not=croq.
// RUN: croq-opt %s --croq-assign-layouts --croq-normalize-views --croq-wait-async-stores --croq-distribute-copies --croq-plan-tma-boxes --croq-emit-tensor-maps=tma-fallback=never --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-plan-registers --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu -split-input-file | FileCheck %s --check-prefixes=CHECK,NEVER --implicit-check-not=croq.
// RUN: croq-opt %s --croq-assign-layouts --croq-normalize-views --croq-wait-async-stores --croq-distribute-copies --croq-plan-tma-boxes --croq-emit-tensor-maps="tma-fallback=auto stage-misaligned-inputs=false" --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-plan-registers --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu -split-input-file | FileCheck %s --check-prefixes=CHECK,NOSTAGE --implicit-check-not=croq.
// RUN: not croq-opt %s --croq-assign-layouts --croq-normalize-views --croq-wait-async-stores --croq-distribute-copies --croq-plan-tma-boxes --croq-emit-tensor-maps=tma-fallback=sometimes --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-plan-registers --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu 2>&1 | FileCheck %s --check-prefix=BADOPT

// Where a tma copy carries the software copy that runs when the runtime
// cannot give its tensor a map (tma-fallback): `always`; `never`, where the
// host instead makes the launch fail with the runtime's reason
// (croqRtTensorMapRequire) and the kernel moves the tile by TMA
// unconditionally; or `auto`, the default, where static facts do not prove
// the map usable. A tensor the kernel only reads, with a static shape and
// contiguous rows, is proven: the runtime stages it where its address or row
// strides break a rule (so not with stage-misaligned-inputs=false).

// BADOPT: for the --tma-fallback option: Cannot find option named 'sometimes'!

// CHECK-LABEL: func.func @static_input
// AUTO: %[[OK:.*]] = call @croqRtTensorMapGetStaged(
// AUTO: call @croqRtTensorMapRequire(%[[OK]]) : (i32) -> i32
// AUTO: gpu.launch
// AUTO-NOT: scf.if
// AUTO: nvgpu.tma.async.load
// AUTO-NOT: vector.store
// AUTO: gpu.terminator
// NEVER: %[[OK:.*]] = call @croqRtTensorMapGetStaged(
// NEVER: call @croqRtTensorMapRequire(%[[OK]]) : (i32) -> i32
// NEVER: gpu.launch
// NEVER-NOT: scf.if
// NEVER: nvgpu.tma.async.load
// NEVER-NOT: vector.store
// NEVER: gpu.terminator
// ALWAYS-NOT: croqRtTensorMapRequire
// ALWAYS: gpu.launch
// ALWAYS: scf.if
// ALWAYS: nvgpu.tma.async.load
// ALWAYS: } else {
// ALWAYS: vector.store
// NOSTAGE-NOT: croqRtTensorMapRequire
// NOSTAGE: call @croqRtTensorMapGetStrided(
// NOSTAGE: scf.if
// NOSTAGE: } else {
func.func @static_input(%a: memref<256x64xf32>, %out: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%i) in [4] : block {
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    %v = croq.chunkat %a[%i, %c0] of [4, 1] : memref<256x64xf32> -> !croq.view<64x64xf32>
    croq.copy tma %v -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    %x = croq.read %t[%c0, %c0] : !croq.tile<64x64xf32, shared>
    croq.write %x, %out[%i, %c0] : memref<64x64xf32>
  }
  return
}

// -----

// A dynamic shape proves nothing: the software copy stays unless `never`.
// CHECK-LABEL: func.func @dynamic_input
// AUTO-NOT: croqRtTensorMapRequire
// AUTO: scf.if
// AUTO: } else {
// NEVER: call @croqRtTensorMapRequire
// NEVER-NOT: } else {
// NEVER: gpu.terminator
func.func @dynamic_input(%a: memref<?x64xf32>, %out: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%i) in [4] : block {
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    %v = croq.subspan %a [64, 64] at [%i, %c0] : memref<?x64xf32> -> !croq.view<64x64xf32>
    croq.copy tma %v -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    %x = croq.read %t[%c0, %c0] : !croq.tile<64x64xf32, shared>
    croq.write %x, %out[%i, %c0] : memref<64x64xf32>
  }
  return
}

// -----

// A store's tensor is an output: its address is a fact of the call and it
// is not staged, so even a static shape keeps the software copy under auto.
// CHECK-LABEL: func.func @static_output
// AUTO-NOT: croqRtTensorMapRequire
// AUTO: nvvm.fence.proxy
// AUTO: scf.if
// AUTO: } else {
// NEVER: call @croqRtTensorMapRequire
// NEVER-NOT: } else {
// NEVER: nvgpu.tma.async.store
// NEVER: gpu.terminator
func.func @static_output(%out: memref<256x64xf32>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%i) in [4] : block {
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    %v = croq.chunkat %out[%i, %c0] of [4, 1] : memref<256x64xf32> -> !croq.view<64x64xf32>
    croq.copy tma %t -> %v : !croq.tile<64x64xf32, shared> -> !croq.view<64x64xf32>
  }
  return
}

// -----

// Rows that are not contiguous (a column stride of 2) cannot be staged.
// CHECK-LABEL: func.func @strided_input
// AUTO-NOT: croqRtTensorMapRequire
// AUTO: } else {
func.func @strided_input(%a: memref<256x64xf32, strided<[128, 2]>>, %out: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%i) in [4] : block {
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    %v = croq.chunkat %a[%i, %c0] of [4, 1] : memref<256x64xf32, strided<[128, 2]>> -> !croq.view<64x64xf32>
    croq.copy tma %v -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    %x = croq.read %t[%c0, %c0] : !croq.tile<64x64xf32, shared>
    croq.write %x, %out[%i, %c0] : memref<64x64xf32>
  }
  return
}
