// A kernel for the host-code tests: 16 blocks each move 256 elements of a
// 4096-element f32 tensor through shared memory with tma copies.
func.func @copy_tma(%a: memref<?xf32>, %b: memref<?xf32>) {
  croq.parallel (%i) in [16] : block {
    %t = croq.alloc : !croq.tile<256xf32, shared>
    %v = croq.subspan %a [256] at [%i] : memref<?xf32> -> !croq.view<256xf32>
    croq.copy tma %v -> %t : !croq.view<256xf32> -> !croq.tile<256xf32, shared>
    %w = croq.subspan %b [256] at [%i] : memref<?xf32> -> !croq.view<256xf32>
    croq.copy tma %t -> %w : !croq.tile<256xf32, shared> -> !croq.view<256xf32>
  }
  return
}
