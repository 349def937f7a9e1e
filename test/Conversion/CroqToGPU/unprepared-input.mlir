// RUN: croq-opt %s --convert-croq-to-gpu -split-input-file -verify-diagnostics

// convert-croq-to-gpu runs on the output of the stages before it and plans
// nothing itself: input they have not prepared gets an error naming the
// pass to run first.

func.func @views_not_normalized(%a: memref<256xf32>) {
  croq.parallel (%i) in [2] : block {
    %t = croq.alloc offset = 0 : !croq.tile<128xf32, shared>
    // expected-error @+1 {{'croq.chunkat' op is lowered once croq-normalize-views has resolved it to a croq.view: run croq-normalize-views first}}
    %v = croq.chunkat %a[%i] of [2] : memref<256xf32> -> !croq.view<128xf32>
    %x = croq.read %v[%i] : !croq.view<128xf32>
  }
  return
}

// -----

func.func @layout_not_assigned() {
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{'croq.alloc' op has no layout yet (swizzle = auto): run croq-assign-layouts first}}
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = auto>
  }
  return
}

// -----

func.func @shared_memory_not_planned(%a: memref<128xf32>) {
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{'croq.alloc' op shared buffer has no offset in the block's shared memory: run croq-plan-shared-memory first}}
    %t = croq.alloc : !croq.tile<128xf32, shared>
  }
  return
}

// -----

func.func @tensor_map_not_emitted(%a: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%i) in [1] : block attributes {shared_memory = 16384 : i64} {
    %t = croq.alloc offset = 0 : !croq.tile<64x64xf32, shared>
    %v = croq.view %a [64, 64] from [%c0, %c0] : memref<?x?xf32> -> !croq.view<64x64xf32>
    // expected-error @+1 {{'croq.copy' op has no tensor map: run croq-emit-tensor-maps first}}
    croq.copy tma %v -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
  }
  return
}

// -----

// An arrival count written by hand does not lift the limit croq-plan-events
// checks: a thread's phases of an array are one 64-bit mask.
func.func @too_many_event_slots() {
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{'croq.event.alloc' op event arrays of more than 64 slots are not lowered, got 1099511627776}}
    %e = croq.event.alloc arrivals = 1 : !croq.events<1099511627776>
  }
  return
}

// -----

func.func @copy_not_distributed(%a: memref<128xf32>) {
  croq.parallel (%i) in [1] : block {
    croq.parallel (%t) in [128] : thread {
    }
    %t = croq.alloc offset = 0 : !croq.tile<128xf32, shared>
    // expected-error @+1 {{'croq.copy' op is not distributed over threads: run croq-distribute-copies first}}
    croq.copy dma %a -> %t : memref<128xf32> -> !croq.tile<128xf32, shared>
  }
  return
}

// -----

func.func @pad_not_distributed(%a: memref<8xf32>, %x: f32) {
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc offset = 0 : !croq.tile<10xf32, shared>
    // expected-error @+1 {{'croq.pad' op is not distributed over threads: run croq-distribute-copies first}}
    croq.pad low [1] high [1] interior [0] %a -> %t value %x : memref<8xf32> -> !croq.tile<10xf32, shared>
  }
  return
}
