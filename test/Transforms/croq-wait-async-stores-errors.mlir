// RUN: croq-opt %s --croq-wait-async-stores -split-input-file -verify-diagnostics

// Async tma stores croq-wait-async-stores cannot make safe.

// An async tma store left in flight by a warpgroup, whose tile the whole
// block then writes: the block's other threads cannot know when the
// warpgroup's store has read the tile.
func.func @async_tma_store_tile_written_by_other_group(%a: memref<?x?xf16>, %out: memref<?x?xf16>) {
  croq.parallel (%b) in [1] : block {
    %c0 = arith.constant 0 : index
    %t = croq.alloc : !croq.tile<64x64xf16, shared>
    %v = croq.subspan %a [64, 64] at [%c0, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
    // expected-error @+1 {{'croq.copy' op writes a shared tile that an async tma store of another group may still be reading; write it in the group that stores it}}
    croq.copy dma %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared>
    croq.parallel (%w) in [1] : warpgroup {
      %o = croq.subspan %out [64, 64] at [%c0, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
      %f = croq.copy tma async %t -> %o : !croq.tile<64x64xf16, shared> -> !croq.view<64x64xf16>
    }
  }
  return
}

// -----
// Two groups leave async tma stores of one allocation in flight.
func.func @async_tma_store_two_groups(%out: memref<?x?xf16>) {
  croq.parallel (%b) in [1] : block {
    %c0 = arith.constant 0 : index
    %t = croq.alloc : !croq.tile<64x64xf16, shared>
    %o = croq.subspan %out [64, 64] at [%c0, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
    %f = croq.copy tma async %t -> %o : !croq.tile<64x64xf16, shared> -> !croq.view<64x64xf16>
    croq.parallel (%w) in [1] : warpgroup {
      // expected-error @+1 {{'croq.copy' op stores a shared tile that an async tma store of another group also stores; async stores of one allocation must be issued by one group}}
      %g = croq.copy tma async %t -> %o : !croq.tile<64x64xf16, shared> -> !croq.view<64x64xf16>
    }
  }
  return
}
