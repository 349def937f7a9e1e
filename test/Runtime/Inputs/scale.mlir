// A kernel for the host-code tests: 32 blocks of 128 threads double a
// 4096-element f32 tensor in place; the f16 argument is unused.
func.func @scale(%a: memref<4096xf32>, %b: memref<?xf16>) {
  croq.parallel (%i) in [32] : block {
    %v = croq.subspan %a [128] at [%i] : memref<4096xf32> -> !croq.view<128xf32>
    croq.foreach (%k) in [128] {
      %x = croq.read %v[%k] : !croq.view<128xf32>
      %y = arith.addf %x, %x : f32
      croq.write %y, %v[%k] : !croq.view<128xf32>
    }
  }
  return
}
