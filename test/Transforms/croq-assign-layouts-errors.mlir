// RUN: croq-opt %s --croq-assign-layouts -split-input-file -verify-diagnostics

// Two copies into one buffer that ask for different layouts.
func.func @conflicting_swizzles(%a: memref<64x64xf16>) {
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = auto>
    // expected-note @+1 {{the layout was fixed here}}
    croq.copy dma swizzle = 64 %a -> %t : memref<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = auto>
    // expected-error @+1 {{'croq.copy' op asks for swizzle 128 but another copy of the same buffer asks for 64}}
    croq.copy dma swizzle = 128 %a -> %t : memref<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = auto>
  }
  return
}

// -----

// A copy writes the buffer with one layout and an mma load reads it with
// another: the tensor cores would read the bytes in the wrong places.
func.func @copy_and_mma_load_disagree(%a: memref<64x64xf16>) {
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = auto>
    // expected-note @+1 {{the layout was fixed here}}
    croq.copy tma swizzle = 128 %a -> %t : memref<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = auto>
    // expected-error @+1 {{'croq.mma.load' op asks for swizzle 64 but a croq.copy of the same buffer asks for 128}}
    %f = croq.mma.load swizzle = 64 %t : !croq.tile<64x64xf16, shared, swizzle = auto> -> !croq.frag<64x64xf16>
  }
  return
}

// -----

// An mma load that names the layout fixes it for the copies that follow.
func.func @mma_load_then_copy_disagree(%a: memref<64x64xf16>) {
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = auto>
    // expected-note @+1 {{the layout was fixed here}}
    %f = croq.mma.load swizzle = 64 %t : !croq.tile<64x64xf16, shared, swizzle = auto> -> !croq.frag<64x64xf16>
    // expected-error @+1 {{'croq.copy' op asks for swizzle 32 but a croq.mma.load of the same buffer asks for 64}}
    croq.copy dma swizzle = 32 %a -> %t : memref<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = auto>
  }
  return
}
