// One im2col load per block into a shared tile, written out by the block:
// the host asks for one im2col map before the kernel (host-code-im2col.test).
func.func @load_im2col(%x: memref<?x?x?x?xf16>, %out: memref<?x?xf16>) {
  %m = croq.im2col_map %x pixels 64 channels 64 lower [-1, -1] upper [-1, -1] strides [1, 1] swizzle = 128 : memref<?x?x?x?xf16>
  croq.parallel (%b) in [4] : block {
    %c0 = arith.constant 0 : index
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.im2col %x[%c0, %c0, %b, %c0] offsets [%c0, %c0] -> %t map %m : memref<?x?x?x?xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    %dst = croq.subspan %out [64, 64] at [%b, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy dma %t -> %dst : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x64xf16>
  }
  return
}
