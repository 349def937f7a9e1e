// RUN: croq-opt %s --croq-assign-layouts --croq-normalize-views --croq-wait-async-stores --croq-distribute-copies --croq-plan-tma-boxes --croq-emit-tensor-maps --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-plan-registers --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu -split-input-file -verify-diagnostics

// A tma copy that would need more bulk copies than the lowering issues: rows
// of 512 i8 without a swizzle move 256 elements per box, two boxes for each
// of the 4 x 64 rows.
func.func @tma_too_many_boxes(%a: memref<4x64x512xi8>) {
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<4x64x512xi8, shared>
    // expected-error @+1 {{'croq.copy' op needs 512 bulk copies of its largest legal box; a tma copy is made of at most 256: make the tile's inner dimensions at most 256 elements}}
    croq.copy tma %a -> %t : memref<4x64x512xi8> -> !croq.tile<4x64x512xi8, shared>
  }
  return
}

// -----

func.func @tma_store_in_threads(%a: memref<64x64xf16>) {
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.parallel (%w) in [128] : thread {
      // expected-error @+1 {{'croq.copy' op tma copies are lowered for blocks and warpgroups: issue them directly in a 'croq.parallel ... : block' or '... : warpgroup' region}}
      croq.copy tma %t -> %a : !croq.tile<64x64xf16, shared, swizzle = 128> -> memref<64x64xf16>
    }
  }
  return
}

// -----

func.func @mma_outside_warpgroup(%x: f32, %out: memref<64x64xf32>) {
  croq.parallel (%i) in [1] : block {
    croq.parallel (%t) in [256] : thread {
    }
    // expected-error @+1 {{'croq.mma.fill' op runs on the tensor cores of one warpgroup: put it in a 'croq.parallel ... : warpgroup' region, or in a block of 128 threads}}
    %acc = croq.mma.fill %x : !croq.acc<64x64xf32>
    // expected-error @+1 {{'croq.mma.store' op runs on the tensor cores of one warpgroup: put it in a 'croq.parallel ... : warpgroup' region, or in a block of 128 threads}}
    croq.mma.store %acc -> %out : !croq.acc<64x64xf32> -> memref<64x64xf32>
  }
  return
}

// -----

func.func @mma_f16_accumulator(%x: f16, %out: memref<64x64xf16>) {
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{'croq.mma.fill' op accumulators of 'f16' are not lowered yet; accumulate in f32}}
    %acc = croq.mma.fill %x : !croq.acc<64x64xf16>
    // expected-error @+1 {{'croq.mma.store' op accumulators of 'f16' are not lowered yet; accumulate in f32}}
    croq.mma.store %acc -> %out : !croq.acc<64x64xf16> -> memref<64x64xf16>
  }
  return
}

// -----

// An accumulator must fit wgmma's fragments and a thread's registers; the
// fuzzer found that a huge one used to abort the type conversion.
func.func @mma_acc_not_in_fragments(%x: f32) {
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{'croq.mma.fill' op accumulator '!croq.acc<32x64xf32>' is not held in wgmma fragments: rows must be a multiple of 64 and columns a multiple of 8 no larger than 256}}
    %a = croq.mma.fill %x : !croq.acc<32x64xf32>
    // expected-error @+1 {{'croq.mma.fill' op accumulator '!croq.acc<64x264xf32>' is not held in wgmma fragments}}
    %b = croq.mma.fill %x : !croq.acc<64x264xf32>
    // expected-error @+1 {{'croq.mma.fill' op accumulator '!croq.acc<128x256xf32>' needs 256 registers in each thread, more than the 255 a thread can hold}}
    %c = croq.mma.fill %x : !croq.acc<128x256xf32>
    // expected-error @+1 {{'croq.mma.fill' op accumulator '!croq.acc<4611686018427387904x64xf32>' needs}}
    %d = croq.mma.fill %x : !croq.acc<4611686018427387904x64xf32>
  }
  return
}

// -----

func.func @mma_store_to_local(%x: f32) {
  croq.parallel (%i) in [1] : block {
    %acc = croq.mma.fill %x : !croq.acc<64x64xf32>
    %t = croq.alloc : !croq.tile<64x64xf32, local>
    // expected-error @+1 {{'croq.mma.store' op stores accumulators to shared or global memory only}}
    croq.mma.store %acc -> %t : !croq.acc<64x64xf32> -> !croq.tile<64x64xf32, local>
  }
  return
}

// -----

func.func @mma_unswizzled_operand(%x: f32, %out: memref<64x64xf32>) {
  croq.parallel (%i) in [1] : block {
    %a = croq.alloc : !croq.tile<64x64xf16, shared>
    %b = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %acc = croq.mma.fill %x : !croq.acc<64x64xf32>
    %ma = croq.mma.load %a : !croq.tile<64x64xf16, shared> -> !croq.frag<64x64xf16>
    %mb = croq.mma.load %b : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
    // expected-error @+1 {{'croq.mma' op operand A is read from '!croq.tile<64x64xf16, shared>', which is not swizzled; wgmma reads row-major tiles through a 32, 64 or 128-byte swizzle: give the tile a swizzle}}
    %r = croq.mma row row %acc, %ma, %mb : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
    croq.mma.store %r -> %out : !croq.acc<64x64xf32> -> memref<64x64xf32>
  }
  return
}

// -----

func.func @mma_rows_wider_than_span(%x: f32, %out: memref<64x64xf32>) {
  croq.parallel (%i) in [1] : block {
    %a = croq.alloc : !croq.tile<64x48xf16, shared, swizzle = 64>
    %b = croq.alloc : !croq.tile<64x48xf16, shared, swizzle = 32>
    %acc = croq.mma.fill %x : !croq.acc<64x64xf32>
    %ma = croq.mma.load %a : !croq.tile<64x48xf16, shared, swizzle = 64> -> !croq.frag<64x48xf16>
    %mb = croq.mma.load %b : !croq.tile<64x48xf16, shared, swizzle = 32> -> !croq.frag<64x48xf16>
    // expected-error @+1 {{'croq.mma' op operand A is read from '!croq.tile<64x48xf16, shared, swizzle = 64>', whose rows are 96 bytes; wgmma needs rows of one 64-byte swizzle span (32 elements) or of a multiple of it}}
    %r = croq.mma row row %acc, %ma, %mb : !croq.frag<64x48xf16>, !croq.frag<64x48xf16> -> !croq.acc<64x64xf32>
    croq.mma.store %r -> %out : !croq.acc<64x64xf32> -> memref<64x64xf32>
  }
  return
}

// -----

func.func @four_dimensional_grid(%out: memref<2xindex>) {
  // expected-error @+1 {{'croq.parallel' op block-level regions have at most 3 dimensions (the grid's x, y and z), got 4}}
  croq.parallel (%a, %b, %c, %d) in [2, 2, 2, 2] : block {
    croq.write %a, %out[%b] : memref<2xindex>
  }
  return
}

// -----

// The error names each buffer where it is allocated, with its size and
// place (aligned for its swizzle).
func.func @too_much_shared_memory() {
  // expected-error @+1 {{'croq.parallel' op needs 238592 bytes of shared memory, more than the 232448 bytes a block can have}}
  croq.parallel (%i) in [1] : block {
    // expected-note @+1 {{'!croq.tiles<2 x 64x64xf16, shared>' takes 16384 bytes at offset 0}}
    %s = croq.alloc : !croq.tiles<2 x 64x64xf16, shared>
    // expected-note @+1 {{'!croq.tile<2x4xf32, shared>' takes 32 bytes at offset 16384}}
    %u = croq.alloc : !croq.tile<2x4xf32, shared>
    // expected-note @+1 {{'!croq.tile<96x1152xf16, shared, swizzle = 128>' takes 221184 bytes at offset 17408}}
    %t = croq.alloc : !croq.tile<96x1152xf16, shared, swizzle = 128>
  }
  return
}

// -----

func.func @view_argument(%v: !croq.view<16xf32>, %out: memref<16xf32>) {
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<16xf32, shared>
    // expected-error @+1 {{'croq.copy' op moves a view passed in as an argument, which cannot be distributed over threads: pass the tensor and select the view in the kernel}}
    croq.copy dma %v -> %t : !croq.view<16xf32> -> !croq.tile<16xf32, shared>
  }
  return
}

// -----

func.func @copy_outside_parallel(%a: memref<16xf32>, %b: memref<16xf32>) {
  %v = croq.view %a [16] from [0] : memref<16xf32> -> !croq.view<16xf32>
  // expected-error @+1 {{'croq.foreach' op must be inside a croq.parallel region to be lowered to a GPU kernel}}
  croq.foreach (%i) in [16] {
    // expected-error @+1 {{'croq.read' op must be inside a croq.parallel region to be lowered to a GPU kernel}}
    %x = croq.read %v[%i] : !croq.view<16xf32>
    // expected-error @+1 {{'croq.write' op must be inside a croq.parallel region to be lowered to a GPU kernel}}
    croq.write %x, %b[%i] : memref<16xf32>
  }
  return
}

// -----

func.func @thread_region_larger_than_warpgroup(%out: memref<256xindex>) {
  croq.parallel (%b) in [1] : block {
    croq.parallel (%w) in [1] : warpgroup {
      // expected-error @+1 {{'croq.parallel' op needs 256 threads but its group has 128}}
      croq.parallel (%t) in [256] : thread {
        croq.write %t, %out[%t] : memref<256xindex>
      }
    }
  }
  return
}

// -----

func.func @mma_map_outside_warpgroup(%acc: !croq.acc<64x8xf32>) {
  croq.parallel (%b) in [1] : block {
    croq.parallel (%t) in [256] : thread {
      // expected-error @+1 {{'croq.mma.map' op runs on the tensor cores of one warpgroup}}
      %r = croq.mma.map %acc (%i, %j, %x) : !croq.acc<64x8xf32> {
        croq.yield %x : f32
      }
    }
  }
  return
}

// -----

func.func @vec_not_along_fragments(%x: f32) {
  croq.parallel (%b) in [1] : block {
    // expected-error @+1 {{'croq.vec.fill' op vector '!croq.vec<32xf32, rows>' does not lie along wgmma fragments: rows vectors have a multiple of 64 elements, columns vectors a multiple of 8 no larger than 256}}
    %v = croq.vec.fill %x : !croq.vec<32xf32, rows>
  }
  return
}

// -----

func.func @vec_map_outside_warpgroup(%v: !croq.vec<64xf32, rows>) {
  croq.parallel (%b) in [1] : block {
    croq.parallel (%t) in [256] : thread {
      // expected-error @+1 {{'croq.vec.map' op runs on the tensor cores of one warpgroup}}
      %r = croq.vec.map %v (%i, %x) : !croq.vec<64xf32, rows> {
        croq.yield %x : f32
      }
    }
  }
  return
}

// -----

func.func @reduce_f16_accumulator(%acc: !croq.acc<64x8xf16>) {
  croq.parallel (%b) in [1] : block {
    // expected-error @+1 {{'croq.mma.reduce' op accumulators of 'f16' are not lowered yet; accumulate in f32}}
    %r = croq.mma.reduce max %acc : !croq.acc<64x8xf16> -> !croq.vec<64xf16, rows>
  }
  return
}

// -----

// wgmma reads its shared operands through descriptors of the tiles that
// croq.mma.load names; a fragment from elsewhere has no tile.
func.func @mma_a_not_loaded(%a: !croq.frag<64x16xf16>, %tb: !croq.tile<64x16xf16, shared, swizzle = 32>) {
  croq.parallel (%i) in [1] : block {
    croq.parallel (%w) in [1] : warpgroup {
      %zero = arith.constant 0.0 : f32
      %acc = croq.mma.fill %zero : !croq.acc<64x64xf32>
      %fb = croq.mma.load %tb : !croq.tile<64x16xf16, shared, swizzle = 32> -> !croq.frag<64x16xf16>
      // expected-error @+1 {{'croq.mma' op operand A must come directly from a croq.mma.load}}
      %r = croq.mma row row %acc, %a, %fb : !croq.frag<64x16xf16>, !croq.frag<64x16xf16> -> !croq.acc<64x64xf32>
    }
  }
  return
}

// -----

// An MN-major A in 64-byte swizzled rows: each wgmma's 64 rows of M would
// span two swizzle atoms of 32 f16, which the lowering does not step.
func.func @mma_col_a_narrow_span() {
  croq.parallel (%b) in [1] : block {
    %a = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 64>
    %bt = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %zero = arith.constant 0.0 : f32
    %acc = croq.mma.fill %zero : !croq.acc<64x64xf32>
    %ma = croq.mma.load %a : !croq.tile<64x64xf16, shared, swizzle = 64> -> !croq.frag<64x64xf16>
    %mb = croq.mma.load %bt : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
    // expected-error @+1 {{'croq.mma' op an MN-major ('col') A operand is lowered for M a multiple of 64 in swizzled rows of 64 elements (one span per wgmma), got M = 64 in 64-byte spans of 32 elements}}
    %r = croq.mma col row %acc, %ma, %mb : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
    %c = croq.mma.commit %r : !croq.acc<64x64xf32>
  }
  return
}
