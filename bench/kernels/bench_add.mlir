//===- bench_add.mlir - tiled add kernels for bench/bench_dma.py ----------===//
//
// c = a + b on M x N f32 tensors, as examples/tiled_add.mlir's
// @tiled_add_f32: both input tiles copied into shared memory (dma, 16-byte
// vectors), added element by element, written to global memory. Timed
// against torch.add(a, b, out=c).
//   @add_32x32   32x32 tiles (the example's)
//   @add_64x64   64x64 tiles
//
//===----------------------------------------------------------------------===//

func.func @add_32x32(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ct = arith.constant 32 : index
  %m = memref.dim %c, %c0 : memref<?x?xf32>
  %n = memref.dim %c, %c1 : memref<?x?xf32>
  %gm = arith.ceildivui %m, %ct : index
  %gn = arith.ceildivui %n, %ct : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %va = croq.subspan %a [32, 32] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<32x32xf32>
    %ta = croq.alloc : !croq.tile<32x32xf32, shared>
    croq.copy dma %va -> %ta : !croq.view<32x32xf32> -> !croq.tile<32x32xf32, shared>
    %vb = croq.subspan %b [32, 32] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<32x32xf32>
    %tb = croq.alloc : !croq.tile<32x32xf32, shared>
    croq.copy dma %vb -> %tb : !croq.view<32x32xf32> -> !croq.tile<32x32xf32, shared>
    %vc = croq.subspan %c [32, 32] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<32x32xf32>
    croq.foreach (%i, %j) in [32, 32] {
      %x = croq.read %ta[%i, %j] : !croq.tile<32x32xf32, shared>
      %y = croq.read %tb[%i, %j] : !croq.tile<32x32xf32, shared>
      %s = arith.addf %x, %y : f32
      croq.write %s, %vc[%i, %j] : !croq.view<32x32xf32>
    }
  }
  return
}

func.func @add_64x64(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ct = arith.constant 64 : index
  %m = memref.dim %c, %c0 : memref<?x?xf32>
  %n = memref.dim %c, %c1 : memref<?x?xf32>
  %gm = arith.ceildivui %m, %ct : index
  %gn = arith.ceildivui %n, %ct : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %va = croq.subspan %a [64, 64] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x64xf32>
    %ta = croq.alloc : !croq.tile<64x64xf32, shared>
    croq.copy dma %va -> %ta : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    %vb = croq.subspan %b [64, 64] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x64xf32>
    %tb = croq.alloc : !croq.tile<64x64xf32, shared>
    croq.copy dma %vb -> %tb : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    %vc = croq.subspan %c [64, 64] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x64xf32>
    croq.foreach (%i, %j) in [64, 64] {
      %x = croq.read %ta[%i, %j] : !croq.tile<64x64xf32, shared>
      %y = croq.read %tb[%i, %j] : !croq.tile<64x64xf32, shared>
      %s = arith.addf %x, %y : f32
      croq.write %s, %vc[%i, %j] : !croq.view<64x64xf32>
    }
  }
  return
}

// The tiled add with TMA: both input tiles arrive by bulk tensor loads
// (async, waited together), the sum is written to a shared tile and leaves
// by one bulk tensor store.
func.func @add_tma_64x64(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ct = arith.constant 64 : index
  %m = memref.dim %c, %c0 : memref<?x?xf32>
  %n = memref.dim %c, %c1 : memref<?x?xf32>
  %gm = arith.ceildivui %m, %ct : index
  %gn = arith.ceildivui %n, %ct : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %va = croq.subspan %a [64, 64] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x64xf32>
    %ta = croq.alloc : !croq.tile<64x64xf32, shared>
    %fa = croq.copy tma async %va -> %ta : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    %vb = croq.subspan %b [64, 64] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x64xf32>
    %tb = croq.alloc : !croq.tile<64x64xf32, shared>
    %fb = croq.copy tma async %vb -> %tb : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    croq.wait %fa
    croq.wait %fb
    %tc = croq.alloc : !croq.tile<64x64xf32, shared>
    croq.foreach (%i, %j) in [64, 64] {
      %x = croq.read %ta[%i, %j] : !croq.tile<64x64xf32, shared>
      %y = croq.read %tb[%i, %j] : !croq.tile<64x64xf32, shared>
      %s = arith.addf %x, %y : f32
      croq.write %s, %tc[%i, %j] : !croq.tile<64x64xf32, shared>
    }
    %vc = croq.subspan %c [64, 64] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x64xf32>
    croq.copy tma %tc -> %vc : !croq.tile<64x64xf32, shared> -> !croq.view<64x64xf32>
  }
  return
}
