// RUN: croq-opt %s --croq-persistent-blocks -split-input-file -verify-diagnostics
// RUN: not croq-opt %s --croq-persistent-blocks="group-rows=0" 2>&1 | FileCheck %s --check-prefix=ROWS

// ROWS: error: croq-persistent-blocks takes group-rows of 1 or more, got 0

// A block with events cannot walk tiles: their phases would carry over.
func.func @events() {
  // expected-error @+1 {{cannot make the block persistent: it allocates events, whose phases would run on across tiles}}
  croq.parallel (%bm, %bn) in [8, 8] : block attributes {croq.persistent = true} {
    %e = croq.event.alloc : !croq.events<2>
  }
  return
}

// -----

func.func @one_dimensional() {
  // expected-error @+1 {{cannot make the block persistent: its grid is not 2-D}}
  croq.parallel (%b) in [8] : block attributes {croq.persistent = true} {
  }
  return
}

// -----

// The tiles are walked a cluster at a time: a grid extent known only at
// run time must be whole clusters by construction.
func.func @clusters(%n: index) {
  // expected-error @+1 {{cannot make the block persistent: it is launched in clusters over an extent known only at run time that is not a multiple of the cluster's size by construction}}
  croq.parallel (%bm, %bn) in [%n, 8] : block cluster [2, 1] attributes {croq.persistent = true} {
  }
  return
}

// -----

// A load multicast along one dimension of a 2-D cluster cannot be named in
// the persistent grid, whose cluster has one dimension.
func.func @multicast_along(%v: !croq.view<64x64xf16>) {
  // expected-error @+1 {{cannot make the block persistent: its loads are multicast along one dimension of its cluster, and the cluster of a persistent grid has one dimension}}
  croq.parallel (%bm, %bn) in [4, 8] : block cluster [2, 4] attributes {croq.persistent = true} {
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.copy tma multicast along 1 %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
  }
  return
}
