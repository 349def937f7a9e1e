// RUN: croq-opt %s --croq-lower-tma-futures -split-input-file -verify-diagnostics

// A tma load that triggers no event is waited for by the whole block; in a
// warpgroup region it would need a barrier of the warpgroup alone.
func.func @tma_load_in_a_warpgroup(%a: memref<64x64xf16>) {
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.parallel (%w) in [1] : warpgroup {
      // expected-error @+1 {{'croq.copy' op tma loads that trigger no event are lowered for block-level groups (the whole block waits for them): issue it directly in a 'croq.parallel ... : block' region, or trigger an event after it}}
      croq.copy tma %a -> %t : memref<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    }
  }
  return
}

// -----

func.func @tma_load_outside_a_kernel(%a: memref<64x64xf16>, %t: !croq.tile<64x64xf16, shared, swizzle = 128>) {
  // expected-error @+1 {{'croq.copy' op tma loads that trigger no event are lowered for block-level groups (the whole block waits for them): issue it directly in a 'croq.parallel ... : block' region, or trigger an event after it}}
  croq.copy tma %a -> %t : memref<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
  return
}
