// Kernels that need a feature sm_90a has and sm_80 lacks, one per split
// (second-target.mlir): a tma copy, wgmma, an event wait, a role that sets
// its register count, and more shared memory than sm_80 gives a block.

func.func @tma(%a: memref<64x64xf32>) {
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    croq.copy tma %a -> %t : memref<64x64xf32> -> !croq.tile<64x64xf32, shared>
  }
  return
}

// -----

func.func @wgmma(%a: memref<64x16xf16>, %b: memref<64x16xf16>) {
  croq.parallel (%i) in [1] : block {
    %ta = croq.alloc : !croq.tile<64x16xf16, shared, swizzle = 32>
    %tb = croq.alloc : !croq.tile<64x16xf16, shared, swizzle = 32>
    croq.parallel (%w) in [1] : warpgroup {
      %zero = arith.constant 0.0 : f32
      %acc = croq.mma.fill %zero : !croq.acc<64x64xf32>
      %fa = croq.mma.load %ta : !croq.tile<64x16xf16, shared, swizzle = 32> -> !croq.frag<64x16xf16>
      %fb = croq.mma.load %tb : !croq.tile<64x16xf16, shared, swizzle = 32> -> !croq.frag<64x16xf16>
      %r = croq.mma row row %acc, %fa, %fb : !croq.frag<64x16xf16>, !croq.frag<64x16xf16> -> !croq.acc<64x64xf32>
    }
  }
  return
}

// -----

func.func @event_wait() {
  croq.parallel (%i) in [1] : block {
    %c0 = arith.constant 0 : index
    %e = croq.event.alloc : !croq.events<1>
    croq.event.trigger %e[%c0] : !croq.events<1>
    croq.event.wait %e[%c0] : !croq.events<1>
  }
  return
}

// -----

func.func @setmaxnreg() {
  croq.parallel (%i) in [1] : block {
    croq.parallel (%w) in [2] : warpgroup {
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %w, %c0 : index
      croq.inthreads async %first registers = 56 {
      }
    }
  }
  return
}

// -----

func.func @clusters() {
  croq.parallel (%i) in [4] : block cluster [2] {
    croq.cluster.barrier
  }
  return
}

// -----

func.func @shared_memory() {
  croq.parallel (%i) in [1] : block {
    %a = croq.alloc : !croq.tile<100x512xf32, shared>
  }
  return
}
