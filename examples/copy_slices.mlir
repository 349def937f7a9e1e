// copy_slices.mlir - a kernel that accepts slices of larger tensors.
//
// An argument declared `memref<?x?xf16>` has the identity layout: the
// tensor must be dense and row-major, and the Python call refuses a row
// slice (`big[5:155, 64:564]`), an output slice or a transposed view with
// an ArgumentError. An argument declared with a strided layout,
// `strided<[?, 1], offset: ?>`, takes any row stride and start: the call
// passes the slice's real strides and offset, the TMA copies read and write
// through tensor maps encoded with those strides, and where TMA cannot
// describe the slice (a start or a row stride that is not a multiple of 16
// bytes) the input is staged into an aligned copy and the output goes
// through the kernel's software copy. A unit inner stride is still required
// (`1`): a transposed view is refused, copy it with `.contiguous()` or take
// a `strided<[1, ?]>` argument.
//
// From Python:
//
//   m = croq.load(croq.compile("examples/copy_slices.mlir"))
//   big_in = torch.randn(200, 1024, device="cuda", dtype=torch.float16)
//   big_out = torch.zeros_like(big_in)
//   m.copy_slices(big_in[5:155, 64:568], big_out[5:155, 64:568])
//   # big_out[5:155, 64:568] == big_in[5:155, 64:568]; the rest untouched

func.func @copy_slices(%input: memref<?x?xf16, strided<[?, 1], offset: ?>>,
                       %output: memref<?x?xf16, strided<[?, 1], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %m = memref.dim %input, %c0 : memref<?x?xf16, strided<[?, 1], offset: ?>>
  %n = memref.dim %input, %c1 : memref<?x?xf16, strided<[?, 1], offset: ?>>
  %grid_m = arith.ceildivui %m, %c64 : index
  %grid_n = arith.ceildivui %n, %c64 : index
  croq.parallel (%bm, %bn) in [%grid_m, %grid_n] : block {
    %src = croq.subspan %input [64, 64] at [%bm, %bn] : memref<?x?xf16, strided<[?, 1], offset: ?>> -> !croq.view<64x64xf16>
    %tile = croq.alloc : !croq.tile<64x64xf16, shared>
    croq.copy tma %src -> %tile : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared>
    %dst = croq.subspan %output [64, 64] at [%bm, %bn] : memref<?x?xf16, strided<[?, 1], offset: ?>> -> !croq.view<64x64xf16>
    croq.copy tma %tile -> %dst : !croq.tile<64x64xf16, shared> -> !croq.view<64x64xf16>
  }
  return
}
