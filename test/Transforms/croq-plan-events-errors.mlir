// RUN: croq-opt %s --croq-plan-events -split-input-file -verify-diagnostics

// Event arrays croq-plan-events cannot give an arrival count, each with the
// reason.

func.func @events() {
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{'croq.event.alloc' op is never triggered, so waiting on it would hang}}
    %e = croq.event.alloc : !croq.events<2>
    %c0 = arith.constant 0 : index
    croq.event.wait %e[%c0] : !croq.events<2>
  }
  return
}

// -----
func.func @event_trigger_in_thread_region() {
  croq.parallel (%i) in [1] : block {
    %e = croq.event.alloc : !croq.events<2>
    %c0 = arith.constant 0 : index
    croq.parallel (%t) in [32] : thread {
      // expected-error @+1 {{'croq.event.trigger' op events are triggered by warpgroups or blocks, not from thread-level regions: trigger after the thread region, in the enclosing group}}
      croq.event.trigger %e[%c0] : !croq.events<2>
    }
  }
  return
}

// -----
func.func @event_trigger_unknown_condition(%flag: i1) {
  croq.parallel (%i) in [1] : block {
    %e = croq.event.alloc : !croq.events<2>
    %c0 = arith.constant 0 : index
    croq.parallel (%w) in [2] : warpgroup {
      // expected-error @+1 {{'croq.inthreads' op encloses an event trigger, but whether its condition holds cannot be computed for each warp from the warpgroup indices, the thread index and constants, so the number of arrivals the event expects is unknown}}
      croq.inthreads async %flag {
        croq.event.trigger %e[%c0] : !croq.events<2>
      }
    }
  }
  return
}

// -----
func.func @event_too_many_slots() {
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{'croq.event.alloc' op event arrays of more than 64 slots are not lowered, got 65}}
    %e = croq.event.alloc : !croq.events<65>
  }
  return
}

// -----
func.func @event_trigger_after_dma(%a: memref<64x64xf32>) {
  croq.parallel (%i) in [1] : block {
    %e = croq.event.alloc : !croq.events<1>
    %c0 = arith.constant 0 : index
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    %f = croq.copy dma async %a -> %t : memref<64x64xf32> -> !croq.tile<64x64xf32, shared>
    // expected-error @+1 {{'croq.event.trigger' op is lowered after tma loads only; wait for a dma copy with croq.wait before triggering}}
    croq.event.trigger %e[%c0] after (%f) : !croq.events<1>
  }
  return
}

// -----

// The slots of one array count either every block's arrivals or this
// block's.
func.func @mixed_cluster_triggers() {
  %c0 = arith.constant 0 : index
  croq.parallel (%b) in [2] : block cluster [2] {
    %e = croq.event.alloc ready : !croq.events<2>
    // expected-error @+1 {{'croq.event.trigger' op mixes cluster and block triggers of one event array; its slots count the arrivals of one kind}}
    croq.event.trigger %e[%c0] cluster : !croq.events<2>
    croq.event.trigger %e[%c0] : !croq.events<2>
  }
  return
}

// -----

// A condition on the thread index that splits a warp: its threads would
// arrive apart, and the warp's arrival count is unknown.
func.func @event_trigger_splits_a_warp() {
  croq.parallel (%i) in [1] : block {
    %e = croq.event.alloc : !croq.events<1>
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    croq.parallel (%w) in [2] : warpgroup {
      %t = croq.thread_index warpgroup
      %half = arith.cmpi ult, %t, %c16 : index
      // expected-error @+1 {{'croq.inthreads' op encloses an event trigger, but whether its condition holds cannot be computed for each warp from the warpgroup indices, the thread index and constants}}
      croq.inthreads async %half {
        croq.event.trigger %e[%c0] : !croq.events<1>
      }
    }
  }
  return
}

// -----

// A trigger after tma loads arrives from its group's first thread, which
// the second warp alone does not have.
func.func @tma_trigger_off_the_first_warp(%a: memref<64x64xf16>) {
  croq.parallel (%i) in [1] : block {
    %e = croq.event.alloc : !croq.events<1>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.parallel (%w) in [1] : warpgroup {
      %tid = croq.thread_index warpgroup
      %from = arith.cmpi uge, %tid, %c32 : index
      %to = arith.cmpi ult, %tid, %c64 : index
      %second = arith.andi %from, %to : i1
      croq.inthreads async %second {
        %f = croq.copy tma async %a -> %t : memref<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        // expected-error @+1 {{'croq.event.trigger' op is issued by the first thread of its group, which does not run it: run it on the group's first warp}}
        croq.event.trigger %e[%c0] after (%f) : !croq.events<1>
      }
    }
  }
  return
}
