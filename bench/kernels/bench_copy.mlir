//===- bench_copy.mlir - dma copy kernels for bench/bench_dma.py ----------===//
//
// Global -> shared -> global copies of an M x N f32 tensor by tiles, on the
// 16-byte vector path (cp.async for the async variants): one tile per block,
// no pipelining. bench_dma.py times them against torch's device-to-device
// copy (dst.copy_(src)).
//   @copy_64x64          64x64 tiles (16 KB of shared memory), 128 threads
//   @copy_64x64_async    the same with cp.async + croq.wait
//   @copy_128x128_256t   128x128 tiles (64 KB, above the 48 KB default),
//                        256 threads
//   @copy_128x128_async_256t  the same with cp.async
//
//===----------------------------------------------------------------------===//

func.func @copy_64x64(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %th = arith.constant 64 : index
  %tw = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x?xf32>
  %n = memref.dim %in, %c1 : memref<?x?xf32>
  %gm = arith.ceildivui %m, %th : index
  %gn = arith.ceildivui %n, %tw : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 64] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x64xf32>
    %tile = croq.alloc : !croq.tile<64x64xf32, shared>
    croq.copy dma %src -> %tile : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    %dst = croq.subspan %out [64, 64] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x64xf32>
    croq.copy dma %tile -> %dst : !croq.tile<64x64xf32, shared> -> !croq.view<64x64xf32>
  }
  return
}

func.func @copy_64x64_async(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %th = arith.constant 64 : index
  %tw = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x?xf32>
  %n = memref.dim %in, %c1 : memref<?x?xf32>
  %gm = arith.ceildivui %m, %th : index
  %gn = arith.ceildivui %n, %tw : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 64] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x64xf32>
    %tile = croq.alloc : !croq.tile<64x64xf32, shared>
    %f = croq.copy dma async %src -> %tile : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    croq.wait %f
    %dst = croq.subspan %out [64, 64] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x64xf32>
    croq.copy dma %tile -> %dst : !croq.tile<64x64xf32, shared> -> !croq.view<64x64xf32>
  }
  return
}

func.func @copy_128x128_256t(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %th = arith.constant 128 : index
  %tw = arith.constant 128 : index
  %m = memref.dim %in, %c0 : memref<?x?xf32>
  %n = memref.dim %in, %c1 : memref<?x?xf32>
  %gm = arith.ceildivui %m, %th : index
  %gn = arith.ceildivui %n, %tw : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    // An empty thread region sizes the block: 256 threads.
    croq.parallel (%t) in [256] : thread {
    }
    %src = croq.subspan %in [128, 128] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<128x128xf32>
    %tile = croq.alloc : !croq.tile<128x128xf32, shared>
    croq.copy dma %src -> %tile : !croq.view<128x128xf32> -> !croq.tile<128x128xf32, shared>
    %dst = croq.subspan %out [128, 128] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<128x128xf32>
    croq.copy dma %tile -> %dst : !croq.tile<128x128xf32, shared> -> !croq.view<128x128xf32>
  }
  return
}

func.func @copy_128x128_async_256t(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %th = arith.constant 128 : index
  %tw = arith.constant 128 : index
  %m = memref.dim %in, %c0 : memref<?x?xf32>
  %n = memref.dim %in, %c1 : memref<?x?xf32>
  %gm = arith.ceildivui %m, %th : index
  %gn = arith.ceildivui %n, %tw : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    // An empty thread region sizes the block: 256 threads.
    croq.parallel (%t) in [256] : thread {
    }
    %src = croq.subspan %in [128, 128] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<128x128xf32>
    %tile = croq.alloc : !croq.tile<128x128xf32, shared>
    %f = croq.copy dma async %src -> %tile : !croq.view<128x128xf32> -> !croq.tile<128x128xf32, shared>
    croq.wait %f
    %dst = croq.subspan %out [128, 128] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<128x128xf32>
    croq.copy dma %tile -> %dst : !croq.tile<128x128xf32, shared> -> !croq.view<128x128xf32>
  }
  return
}

// The same copy on the TMA engine: one bulk tensor load completing on an
// mbarrier and one bulk tensor store per 64x64 tile.
func.func @copy_tma_64x64(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x?xf32>
  %n = memref.dim %in, %c1 : memref<?x?xf32>
  %gm = arith.ceildivui %m, %c64 : index
  %gn = arith.ceildivui %n, %c64 : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 64] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x64xf32>
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    croq.copy tma %src -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    %dst = croq.subspan %out [64, 64] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x64xf32>
    croq.copy tma %t -> %dst : !croq.tile<64x64xf32, shared> -> !croq.view<64x64xf32>
  }
  return
}
