// RUN: croq-opt %s --croq-plan-registers -split-input-file -verify-diagnostics

// Plans written in the IR that croq-plan-registers refuses: each would hang
// or be ignored on the GPU. A block of one producer and two consumer
// warpgroups starts each thread with 168 registers.

// 128 x 32 + 256 x 240 = 65536, more than the block's 384 x 168: the
// consumers' setmaxnreg.inc would wait forever.
func.func @more_than_the_block_holds(%a: memref<?x?xf16>, %acc: !croq.acc<64x128xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{roles set 65536 registers in all, more than the 64512 their threads hold at entry (168 each): setmaxnreg.inc would wait forever for the rest}}
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %u = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %producer = arith.cmpi eq, %p, %c0 : index
      %consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %producer registers = 32 {
        %v = croq.subspan %a [128, 64] at [%c0, %c0] : memref<?x?xf16> -> !croq.view<128x64xf16>
        croq.copy tma %v -> %t : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      }
      croq.inthreads async %consumer registers = 240 {
        %fa = croq.mma.load %u : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %fb = croq.mma.load %t : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
        %r = croq.mma row row %acc, %fa, %fb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
      }
    }
  }
  return
}

// -----

// One role without a count: the block's roles set theirs all or none.
func.func @one_role_written(%a: memref<?x?xf16>, %acc: !croq.acc<64x128xf32>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %u = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %producer = arith.cmpi eq, %p, %c0 : index
      %consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %producer registers = 24 {
        %v = croq.subspan %a [128, 64] at [%c0, %c0] : memref<?x?xf16> -> !croq.view<128x64xf16>
        croq.copy tma %v -> %t : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      }
      // expected-error @+1 {{'croq.inthreads' op has no 'registers' where another role of its block sets them: a block's roles set their register counts all or none}}
      croq.inthreads async %consumer {
        %fa = croq.mma.load %u : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %fb = croq.mma.load %t : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
        %r = croq.mma row row %acc, %fa, %fb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
      }
    }
  }
  return
}

// -----

// A producer cannot raise its count with setmaxnreg.dec.
func.func @producer_raises(%a: memref<?x?xf16>, %acc: !croq.acc<64x128xf32>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %u = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %producer = arith.cmpi eq, %p, %c0 : index
      %consumer = arith.cmpi ne, %p, %c0 : index
      // expected-error @+1 {{'croq.inthreads' op sets 176 registers, more than the 168 its threads start with: setmaxnreg dec cannot raise them}}
      croq.inthreads async %producer registers = 176 {
        %v = croq.subspan %a [128, 64] at [%c0, %c0] : memref<?x?xf16> -> !croq.view<128x64xf16>
        croq.copy tma %v -> %t : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      }
      croq.inthreads async %consumer registers = 160 {
        %fa = croq.mma.load %u : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %fb = croq.mma.load %t : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
        %r = croq.mma row row %acc, %fa, %fb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
      }
    }
  }
  return
}

// -----

// A consumer cannot lower its count with setmaxnreg.inc.
func.func @consumer_lowers(%a: memref<?x?xf16>, %acc: !croq.acc<64x128xf32>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %u = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %producer = arith.cmpi eq, %p, %c0 : index
      %consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %producer registers = 56 {
        %v = croq.subspan %a [128, 64] at [%c0, %c0] : memref<?x?xf16> -> !croq.view<128x64xf16>
        croq.copy tma %v -> %t : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      }
      // expected-error @+1 {{'croq.inthreads' op sets 160 registers, fewer than the 168 its threads start with: setmaxnreg inc cannot lower them}}
      croq.inthreads async %consumer registers = 160 {
        %fa = croq.mma.load %u : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %fb = croq.mma.load %t : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
        %r = croq.mma row row %acc, %fa, %fb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
      }
    }
  }
  return
}
