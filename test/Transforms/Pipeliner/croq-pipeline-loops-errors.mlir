// RUN: croq-opt %s --croq-pipeline-loops -split-input-file -verify-diagnostics

// A loop's croq.stages must give a ring of 2 to 64 stages (one event slot
// per stage). A huge count made a stage array whose size overflowed
// (found by croq-fuzz); the dialect now rejects it when it verifies the
// attribute, before the pass runs.
func.func @too_many_stages(%src: memref<?x64xf32>, %dst: memref<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    // expected-error @+1 {{'scf.for' op expects 'croq.stages' to be 1 (not pipelined) or 2 to 64 stages, got 4611686018427387904}}
    scf.for %i = %c0 to %n step %c1 {
      %v = croq.subspan %src [64, 64] at [%i, %c0] : memref<?x64xf32> -> !croq.view<64x64xf32>
      croq.copy tma %v -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
      %x = croq.read %t[%c0, %c0] : !croq.tile<64x64xf32, shared>
      croq.write %x, %dst[%i] : memref<64xf32>
    } {croq.stages = 4611686018427387904 : i64}
  }
  return
}

// -----

func.func @no_stages(%src: memref<?x64xf32>, %dst: memref<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    // expected-error @+1 {{'scf.for' op expects 'croq.stages' to be 1 (not pipelined) or 2 to 64 stages, got 0}}
    scf.for %i = %c0 to %n step %c1 {
      %v = croq.subspan %src [64, 64] at [%i, %c0] : memref<?x64xf32> -> !croq.view<64x64xf32>
      croq.copy tma %v -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
      %x = croq.read %t[%c0, %c0] : !croq.tile<64x64xf32, shared>
      croq.write %x, %dst[%i] : memref<64xf32>
    } {croq.stages = 0 : i64}
  }
  return
}

// -----

// A loop inside the tile loop of a persistent block is pipelined
// warp-specialized only: in place, the first iteration of each tile would
// issue the prologue of a ring that runs across tiles.
func.func @persistent_in_place(%lhs: memref<?x?xf16>, %tiles: index, %grid: index, %kt: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  croq.parallel (%bid) in [%grid] : block {
    %a_s = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    scf.for %t = %bid to %tiles step %grid {
      // expected-warning @+1 {{not pipelined: a loop in a tile loop is pipelined warp-specialized only}}
      scf.for %k = %c0 to %kt step %c1 {
        %a = croq.subspan %lhs [64, 64] at [%t, %k] : memref<?x?xf16> -> !croq.view<64x64xf16>
        croq.copy tma swizzle = 128 %a -> %a_s : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %fa = croq.mma.load %a_s : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
      } {croq.stages = 3 : i64, croq.warp_specialize = false}
    }
  }
  return
}
