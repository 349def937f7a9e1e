// REQUIRES: ptxas
// RUN: croq-translate --croq-to-ptx %s -o %t.ptx
// RUN: rm -rf %t.d && split-file %t.ptx %t.d
// RUN: %ptxas -arch=sm_90a %t.d/swizzle_128_kernel.ptx -o %t.1.cubin
// RUN: %ptxas -arch=sm_90a %t.d/swizzle_64_kernel.ptx -o %t.2.cubin
// RUN: %ptxas -arch=sm_90a %t.d/swizzle_32_kernel.ptx -o %t.3.cubin
// RUN: %ptxas -arch=sm_90a %t.d/swizzle_auto_kernel.ptx -o %t.4.cubin

//===- swizzle.mlir - GPU test: swizzled shared tiles ---------------------===//
//
// out = in^T, M x N f16 in 64x64 tiles, through a swizzled shared tile:
// the tile is filled by a dma copy (16-byte vector stores of whole rows,
// swizzled addresses), read back element by element in transposed order
// (scalar loads, swizzled addresses) and written out. Any disagreement
// between the vector and scalar address computations, or a swizzle that is
// not a permutation of the tile, gives a wrong transpose. One kernel per
// swizzle (128, 64, 32 bytes) and one whose swizzle croq-assign-layouts
// chooses (auto: 128 for 128-byte rows).
//
//===----------------------------------------------------------------------===//

func.func @swizzle_128(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x?xf16>
  %n = memref.dim %in, %c1 : memref<?x?xf16>
  %gm = arith.ceildivui %m, %c64 : index
  %gn = arith.ceildivui %n, %c64 : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 64] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<64x64xf16>
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.copy dma %src -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    %dst = croq.subspan %out [64, 64] at [%bn, %bm] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.foreach (%i, %j) in [64, 64] {
      %x = croq.read %t[%j, %i] : !croq.tile<64x64xf16, shared, swizzle = 128>
      croq.write %x, %dst[%i, %j] : !croq.view<64x64xf16>
    }
  }
  return
}

func.func @swizzle_64(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x?xf16>
  %n = memref.dim %in, %c1 : memref<?x?xf16>
  %gm = arith.ceildivui %m, %c64 : index
  %gn = arith.ceildivui %n, %c64 : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 64] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<64x64xf16>
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 64>
    croq.copy dma %src -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 64>
    %dst = croq.subspan %out [64, 64] at [%bn, %bm] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.foreach (%i, %j) in [64, 64] {
      %x = croq.read %t[%j, %i] : !croq.tile<64x64xf16, shared, swizzle = 64>
      croq.write %x, %dst[%i, %j] : !croq.view<64x64xf16>
    }
  }
  return
}

func.func @swizzle_32(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x?xf16>
  %n = memref.dim %in, %c1 : memref<?x?xf16>
  %gm = arith.ceildivui %m, %c64 : index
  %gn = arith.ceildivui %n, %c64 : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 64] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<64x64xf16>
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 32>
    croq.copy dma %src -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 32>
    %dst = croq.subspan %out [64, 64] at [%bn, %bm] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.foreach (%i, %j) in [64, 64] {
      %x = croq.read %t[%j, %i] : !croq.tile<64x64xf16, shared, swizzle = 32>
      croq.write %x, %dst[%i, %j] : !croq.view<64x64xf16>
    }
  }
  return
}

func.func @swizzle_auto(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x?xf16>
  %n = memref.dim %in, %c1 : memref<?x?xf16>
  %gm = arith.ceildivui %m, %c64 : index
  %gn = arith.ceildivui %n, %c64 : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 64] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<64x64xf16>
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = auto>
    croq.copy dma %src -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = auto>
    %dst = croq.subspan %out [64, 64] at [%bn, %bm] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.foreach (%i, %j) in [64, 64] {
      %x = croq.read %t[%j, %i] : !croq.tile<64x64xf16, shared, swizzle = auto>
      croq.write %x, %dst[%i, %j] : !croq.view<64x64xf16>
    }
  }
  return
}
