// RUN: croq-opt %s --croq-assign-layouts -verify-diagnostics

// Two copies into one buffer that ask for different layouts.
func.func @conflicting_swizzles(%a: memref<64x64xf16>) {
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = auto>
    croq.copy dma swizzle = 64 %a -> %t : memref<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = auto>
    // expected-error @+1 {{'croq.copy' op asks for swizzle 128 but another copy of the same buffer asks for 64}}
    croq.copy dma swizzle = 128 %a -> %t : memref<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = auto>
  }
  return
}
