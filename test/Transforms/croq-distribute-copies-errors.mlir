// RUN: croq-opt %s --croq-distribute-copies -split-input-file -verify-diagnostics

func.func @outside_parallel(%a: memref<16xf32>, %t: !croq.tile<16xf32, local>) {
  // expected-error @+1 {{'croq.copy' op must be inside a croq.parallel region to be distributed over threads}}
  croq.copy dma %a -> %t : memref<16xf32> -> !croq.tile<16xf32, local>
  return
}

// -----

func.func @view_argument(%v: !croq.view<16xf32>) {
  croq.parallel (%i) in [1] : block {
    croq.parallel (%t) in [32] : thread {
    }
    %t = croq.alloc : !croq.tile<16xf32, shared>
    // expected-error @+1 {{'croq.copy' op moves a view passed in as an argument, which cannot be distributed over threads: pass the tensor and select the view in the kernel}}
    croq.copy dma %v -> %t : !croq.view<16xf32> -> !croq.tile<16xf32, shared>
  }
  return
}

// -----

// Views must be one croq.view of a tensor or tile: croq-normalize-views
// runs first.
func.func @unnormalized_view(%a: memref<64x64xf32>) {
  croq.parallel (%i) in [1] : block {
    croq.parallel (%t) in [32] : thread {
    }
    %t = croq.alloc : !croq.tile<16x16xf32, shared>
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'croq.subspan' op views of views must be normalized before distribution (run croq-normalize-views)}}
    %v = croq.subspan %a [32, 32] at [%c0, %c0] : memref<64x64xf32> -> !croq.view<32x32xf32>
    %w = croq.view %v [16, 16] from [%c0, %c0] : !croq.view<32x32xf32> -> !croq.view<16x16xf32>
    croq.copy dma %w -> %t : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, shared>
  }
  return
}
