// RUN: croq-opt %s --croq-plan-tma-boxes -split-input-file -verify-diagnostics

func.func @layout_not_assigned(%a: memref<128x64xf16>) {
  croq.parallel (%i) in [2] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = auto>
    %v = croq.subspan %a [64, 64] at [%i, %i] : memref<128x64xf16> -> !croq.view<64x64xf16>
    // expected-error @+1 {{'croq.copy' op its tile has no layout yet (swizzle = auto): run croq-assign-layouts first}}
    croq.copy tma %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = auto>
  }
  return
}

// -----

func.func @too_many_boxes(%a: memref<4x64x512xi8>) {
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<4x64x512xi8, shared>
    // expected-error @+1 {{'croq.copy' op needs 512 bulk copies of its largest legal box; a tma copy is made of at most 256: make the tile's inner dimensions at most 256 elements}}
    croq.copy tma %a -> %t : memref<4x64x512xi8> -> !croq.tile<4x64x512xi8, shared>
  }
  return
}

// -----

func.func @view_of_tile(%a: memref<128x64xf16>) {
  croq.parallel (%i) in [2] : block {
    %t = croq.alloc : !croq.tile<128x64xf16, shared>
    %c0 = arith.constant 0 : index
    %s = croq.view %t [64, 64] from [%c0, %c0] : !croq.tile<128x64xf16, shared> -> !croq.view<64x64xf16, shared>
    %v = croq.subspan %a [64, 64] at [%i, %i] : memref<128x64xf16> -> !croq.view<64x64xf16>
    // expected-error @+1 {{'croq.copy' op tma copies move between a global view and a whole shared tile, got '!croq.view<64x64xf16, shared>'}}
    croq.copy tma %v -> %s : !croq.view<64x64xf16> -> !croq.view<64x64xf16, shared>
  }
  return
}

// -----

// Shares of one 128-byte row in clusters of 8 would not start on the
// 1024-byte atoms of the 128-byte swizzle.
func.func @unshareable(%a: memref<64x64xf16>) {
  croq.parallel (%i) in [8] : block cluster [8] {
    %t = croq.alloc : !croq.tile<8x64xf16, shared, swizzle = 128>
    %c0 = arith.constant 0 : index
    %v = croq.subspan %a [8, 64] at [%c0, %c0] : memref<64x64xf16> -> !croq.view<8x64xf16>
    // expected-error @+1 {{'croq.copy' op cannot share its boxes equally among the 8 blocks of the cluster: the outer dimension of its box does not cut into equal shares that start on a swizzle atom}}
    croq.copy tma multicast %v -> %t : !croq.view<8x64xf16> -> !croq.tile<8x64xf16, shared, swizzle = 128>
  }
  return
}
