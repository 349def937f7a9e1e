// RUN: croq-opt %s -split-input-file -verify-diagnostics

// One split per verifier branch of the croq types and ops, each quoting the
// whole message.

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

func.func @tile_swizzle_value(
    // expected-error @+1 {{expected swizzle none, auto, 32, 64 or 128, got 16}}
    %t: !croq.tile<16x16xf16, shared, swizzle = 16>) {
  return
}

// -----

func.func @tile_memory_space_keyword(
    // expected-error @+1 {{expected memory space global, shared or local, or swizzle, got 'register'}}
    %t: !croq.tile<16xf32, register>) {
  return
}

// -----

func.func @tile_in_global_memory(
    // expected-error @+1 {{a tile lives in shared or local memory; global tensors are memrefs}}
    %t: !croq.tile<16xf32, global>) {
  return
}

// -----

func.func @tiles_in_global_memory(
    // expected-error @+1 {{a tile lives in shared or local memory}}
    %t: !croq.tiles<2 x 16xf32, global>) {
  return
}

// -----

func.func @tile_element_type(
    // expected-error @+1 {{expected an integer or floating-point element type, got 'vector<4xf32>'}}
    %t: !croq.tile<4xvector<4xf32>, shared>) {
  return
}

// -----

func.func @view_element_type(
    // expected-error @+1 {{expected an integer or floating-point element type, got 'complex<f32>'}}
    %v: !croq.view<4xcomplex<f32>>) {
  return
}

// -----

func.func @tile_dynamic_dim(
    // expected-error @+1 {{on-chip buffers need a static shape, but dimension 0 is dynamic}}
    %t: !croq.tile<?x16xf32, shared>) {
  return
}

// -----

func.func @tiles_dynamic_dim(
    // expected-error @+1 {{on-chip buffers need a static shape, but dimension 1 is dynamic}}
    %t: !croq.tiles<4 x 16x?xf32, shared>) {
  return
}

// -----

func.func @tile_zero_dim(
    // expected-error @+1 {{expected positive dimensions, got 0}}
    %t: !croq.tile<0x16xf32, shared>) {
  return
}

// -----

func.func @view_zero_dim(
    // expected-error @+1 {{expected positive dimensions, got 0}}
    %v: !croq.view<?x0xf32>) {
  return
}

// -----

func.func @tile_local_swizzle(
    // expected-error @+1 {{only shared memory has a swizzle layout, got local memory with swizzle 128}}
    %t: !croq.tile<64x64xf16, local, swizzle = 128>) {
  return
}

// -----

func.func @view_global_swizzle(
    // expected-error @+1 {{only shared memory has a swizzle layout, got global memory with swizzle 64}}
    %v: !croq.view<64x32xf16, swizzle = 64>) {
  return
}

// -----

func.func @tiles_zero_stages(
    // expected-error @+1 {{expected a positive number of stages, got 0}}
    %t: !croq.tiles<0 x 16xf32, shared>) {
  return
}

// -----

func.func @events_zero_count(
    // expected-error @+1 {{expected a positive number of events, got 0}}
    %e: !croq.events<0>) {
  return
}

// -----

func.func @events_negative_count(
    // expected-error @+1 {{expected a positive number of events, got -2}}
    %e: !croq.events<-2>) {
  return
}

// -----

func.func @acc_rank(
    // expected-error @+1 {{expected a 2-d accumulator, got rank 3}}
    %a: !croq.acc<2x64x64xf32>) {
  return
}

// -----

func.func @frag_rank(
    // expected-error @+1 {{expected a 2-d mma operand, got rank 1}}
    %a: !croq.frag<64xf16>) {
  return
}

// -----

func.func @acc_dynamic_dim(
    // expected-error @+1 {{expected a static accumulator shape}}
    %a: !croq.acc<?x64xf32>) {
  return
}

// -----

func.func @frag_dynamic_dim(
    // expected-error @+1 {{expected a static mma operand shape}}
    %a: !croq.frag<64x?xf16>) {
  return
}

// -----

func.func @frag_zero_dim(
    // expected-error @+1 {{expected positive dimensions, got 0}}
    %a: !croq.frag<64x0xf16>) {
  return
}

// -----

func.func @acc_element_type(
    // expected-error @+1 {{expected an integer or floating-point element type, got 'index'}}
    %a: !croq.acc<64x64xindex>) {
  return
}

//===----------------------------------------------------------------------===//
// croq.parallel
//===----------------------------------------------------------------------===//

// -----

func.func @parallel_unknown_level() {
  // expected-error @+1 {{expected parallel level block, warpgroup or thread, got 'grid'}}
  croq.parallel (%i) in [4] : grid {
  }
  return
}

// -----

func.func @parallel_induction_variable_count() {
  // expected-error @+1 {{expected 2 induction variables, got 1}}
  croq.parallel (%i) in [4, 4] : block {
  }
  return
}

// -----

func.func @parallel_zero_extent() {
  // expected-error @+1 {{'croq.parallel' op expected positive extents, got 0}}
  croq.parallel (%i, %j) in [4, 0] : block {
  }
  return
}

// -----

func.func @parallel_rank_zero() {
  // expected-error @+1 {{'croq.parallel' op expected at least one dimension}}
  croq.parallel () in [] : block {
  }
  return
}

// -----

func.func @parallel_block_in_block() {
  croq.parallel (%i) in [4] : block {
    // expected-error @+1 {{'croq.parallel' op a block-level region cannot be nested in another croq.parallel region}}
    croq.parallel (%j) in [4] : block {
    }
  }
  return
}

// -----

func.func @parallel_block_in_thread() {
  croq.parallel (%i) in [4] : block {
    croq.parallel (%t) in [128] : thread {
      // expected-error @+1 {{'croq.parallel' op a block-level region cannot be nested in another croq.parallel region}}
      croq.parallel (%j) in [4] : block {
      }
    }
  }
  return
}

// -----

func.func @parallel_warpgroup_outside_block() {
  // expected-error @+1 {{'croq.parallel' op a warpgroup-level region must be nested directly in a block-level croq.parallel region}}
  croq.parallel (%w) in [2] : warpgroup {
  }
  return
}

// -----

func.func @parallel_warpgroup_in_warpgroup() {
  croq.parallel (%i) in [4] : block {
    croq.parallel (%w) in [2] : warpgroup {
      // expected-error @+1 {{'croq.parallel' op a warpgroup-level region must be nested directly in a block-level croq.parallel region}}
      croq.parallel (%v) in [2] : warpgroup {
      }
    }
  }
  return
}

// -----

func.func @parallel_thread_outside_block() {
  // expected-error @+1 {{'croq.parallel' op a thread-level region must be nested in a block- or warpgroup-level croq.parallel region}}
  croq.parallel (%t) in [128] : thread {
  }
  return
}

// -----

func.func @parallel_thread_in_thread() {
  croq.parallel (%i) in [4] : block {
    croq.parallel (%t) in [128] : thread {
      // expected-error @+1 {{'croq.parallel' op a thread-level region must be nested in a block- or warpgroup-level croq.parallel region}}
      croq.parallel (%u) in [2] : thread {
      }
    }
  }
  return
}

// -----

func.func @parallel_dynamic_extent_count(%n: index) {
  // expected-error @+1 {{expected 0 dynamic extent values}}
  "croq.parallel"(%n) <{level = 0 : i32, staticExtents = array<i64: 4>}> ({
  ^bb0(%i: index):
  }) : (index) -> ()
  return
}

// -----

func.func @parallel_block_argument_count() {
  // expected-error @+1 {{'croq.parallel' op expected 1 induction variables, got 2}}
  "croq.parallel"() <{level = 0 : i32, staticExtents = array<i64: 4>}> ({
  ^bb0(%i: index, %j: index):
  }) : () -> ()
  return
}

// -----

func.func @parallel_block_argument_type() {
  // expected-error @+1 {{'croq.parallel' op induction variables must be of index type, got 'i32'}}
  "croq.parallel"() <{level = 0 : i32, staticExtents = array<i64: 4>}> ({
  ^bb0(%i: i32):
  }) : () -> ()
  return
}

//===----------------------------------------------------------------------===//
// croq.inthreads
//===----------------------------------------------------------------------===//

// -----

func.func @inthreads_outside_parallel(%c: i1) {
  // expected-error @+1 {{'croq.inthreads' op must be nested in a croq.parallel region}}
  croq.inthreads async %c {
  }
  return
}

//===----------------------------------------------------------------------===//
// croq.alloc and croq.stage
//===----------------------------------------------------------------------===//

// -----

func.func @alloc_outside_parallel() {
  // expected-error @+1 {{'croq.alloc' op on-chip buffers must be allocated inside a croq.parallel region}}
  %t = croq.alloc : !croq.tile<16xf32, local>
  return
}

// -----

func.func @alloc_shared_in_thread_region() {
  croq.parallel (%i) in [4] : block {
    croq.parallel (%t) in [128] : thread {
      // expected-error @+1 {{'croq.alloc' op shared buffers belong to a block: the nearest enclosing croq.parallel is 'thread', expected 'block'}}
      %s = croq.alloc : !croq.tile<16xf32, shared>
    }
  }
  return
}

// -----

func.func @alloc_shared_stages_in_warpgroup_region() {
  croq.parallel (%i) in [4] : block {
    croq.parallel (%w) in [2] : warpgroup {
      // expected-error @+1 {{'croq.alloc' op shared buffers belong to a block: the nearest enclosing croq.parallel is 'warpgroup', expected 'block'}}
      %s = croq.alloc : !croq.tiles<2 x 16xf32, shared>
    }
  }
  return
}

// -----

func.func @alloc_view() {
  croq.parallel (%i) in [4] : block {
    // expected-error @+1 {{'croq.alloc' op result #0 must be tile or stage array of tiles, but got '!croq.view<4xf32>'}}
    %v = croq.alloc : !croq.view<4xf32>
  }
  return
}

// -----

func.func @stage_index_too_large(%ring: !croq.tiles<4 x 16xf32, shared>) {
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'croq.stage' op stage index 4 is out of range for 4 stages}}
  %t = croq.stage %ring[%c4] : !croq.tiles<4 x 16xf32, shared>
  return
}

// -----

func.func @stage_index_negative(%ring: !croq.tiles<4 x 16xf32, shared>) {
  %c-1 = arith.constant -1 : index
  // expected-error @+1 {{'croq.stage' op stage index -1 is out of range for 4 stages}}
  %t = croq.stage %ring[%c-1] : !croq.tiles<4 x 16xf32, shared>
  return
}

// -----

func.func @stage_result_type(%ring: !croq.tiles<4 x 16xf32, shared>, %i: index) {
  // expected-error @+2 {{'croq.stage' op inferred type(s) '!croq.tile<16xf32, shared>' are incompatible with return type(s) of operation '!croq.tile<8xf32, shared>'}}
  // expected-error @+1 {{'croq.stage' op failed to infer returned types}}
  %t = "croq.stage"(%ring, %i) : (!croq.tiles<4 x 16xf32, shared>, index) -> !croq.tile<8xf32, shared>
  return
}

//===----------------------------------------------------------------------===//
// croq.chunkat
//===----------------------------------------------------------------------===//

// -----

func.func @chunkat_index_count(%m: memref<64x64xf32>, %i: index) {
  // expected-error @+1 {{'croq.chunkat' op expected 2 chunk indices for a rank-2 source, got 1}}
  %v = croq.chunkat %m[%i] of [4] : memref<64x64xf32> -> !croq.view<16xf32>
  return
}

// -----

func.func @chunkat_index_operands(%m: memref<64x64xf32>, %i: index) {
  // expected-error @+1 {{'croq.chunkat' op expected 1 index operands, one per dimension that is not '_', got 2}}
  %v = "croq.chunkat"(%m, %i, %i) <{partitioned = array<i1: true, false>, counts = array<i64: 4, 1>}> : (memref<64x64xf32>, index, index) -> !croq.view<16x64xf32>
  return
}

// -----

func.func @chunkat_counts_size(%m: memref<64x64xf32>, %i: index) {
  // expected-error @+1 {{'croq.chunkat' op expected 2 chunk counts, got 3}}
  %v = croq.chunkat %m[%i, %i] of [4, 4, 4] : memref<64x64xf32> -> !croq.view<16x16xf32>
  return
}

// -----

func.func @chunkat_zero_count(%m: memref<64x64xf32>, %i: index) {
  // expected-error @+1 {{'croq.chunkat' op expected positive chunk counts, got 0}}
  %v = croq.chunkat %m[%i, %i] of [4, 0] : memref<64x64xf32> -> !croq.view<16x16xf32>
  return
}

// -----

func.func @chunkat_whole_dim_count(%m: memref<64x64xf32>, %i: index) {
  // expected-error @+1 {{'croq.chunkat' op dimension 0 is kept whole ('_'), so its chunk count must be 1, got 4}}
  %v = croq.chunkat %m[_, %i] of [4, 4] : memref<64x64xf32> -> !croq.view<16x16xf32>
  return
}

// -----

// %k is a function argument, not the coordinate of a region, so nothing says
// how many chunks there are.
func.func @chunkat_unknown_count(%m: memref<64x64xf32>, %k: index) {
  croq.parallel (%i) in [4] : block {
    // expected-error @+1 {{'croq.chunkat' op the chunk count of dimension 1 is unknown: its index is not a coordinate of an enclosing croq.parallel or croq.foreach; give the counts with 'of [...]'}}
    %v = croq.chunkat %m[%i, %k] : memref<64x64xf32> -> !croq.view<16x16xf32>
  }
  return
}

// -----

// A value computed from a coordinate is not a coordinate.
func.func @chunkat_unknown_count_derived_index(%m: memref<64xf32>) {
  croq.parallel (%i) in [4] : block {
    %c1 = arith.constant 1 : index
    %j = arith.addi %i, %c1 : index
    // expected-error @+1 {{'croq.chunkat' op the chunk count of dimension 0 is unknown: its index is not a coordinate of an enclosing croq.parallel or croq.foreach; give the counts with 'of [...]'}}
    %v = croq.chunkat %m[%j] : memref<64xf32> -> !croq.view<16xf32>
  }
  return
}

// -----

func.func @chunkat_result_shape(%m: memref<64x100xf32>) {
  croq.parallel (%i, %j) in [4, 8] : block {
    // expected-error @+1 {{'croq.chunkat' op expected result dimension 1 to be 13, got 12}}
    %v = croq.chunkat %m[%i, %j] : memref<64x100xf32> -> !croq.view<16x12xf32>
  }
  return
}

// -----

func.func @chunkat_result_dynamic_dim(%m: memref<64x64xf32>, %n: index) {
  croq.parallel (%i) in [%n] : block {
    // expected-error @+1 {{'croq.chunkat' op expected result dimension 0 to be ?, got 16}}
    %v = croq.chunkat %m[%i, _] : memref<64x64xf32> -> !croq.view<16x64xf32>
  }
  return
}

// -----

func.func @chunkat_result_element_type(%m: memref<64xf32>, %i: index) {
  // expected-error @+1 {{'croq.chunkat' op result element type 'f16' does not match source element type 'f32'}}
  %v = croq.chunkat %m[%i] of [4] : memref<64xf32> -> !croq.view<16xf16>
  return
}

// -----

func.func @chunkat_result_memory_space(%t: !croq.tile<64xf32, shared>, %i: index) {
  // expected-error @+1 {{'croq.chunkat' op result memory space must be the source's (shared), got global}}
  %v = croq.chunkat %t[%i] of [4] : !croq.tile<64xf32, shared> -> !croq.view<16xf32>
  return
}

// -----

func.func @chunkat_result_rank(%m: memref<64xf32>, %i: index) {
  // expected-error @+1 {{'croq.chunkat' op expected a rank-1 result, got rank 2}}
  %v = croq.chunkat %m[%i] of [4] : memref<64xf32> -> !croq.view<16x1xf32>
  return
}

//===----------------------------------------------------------------------===//
// croq.subspan
//===----------------------------------------------------------------------===//

// -----

func.func @subspan_size_count(%m: memref<64x64xf32>, %i: index) {
  // expected-error @+1 {{expected 2 size values, got 1}}
  %v = croq.subspan %m [16] at [%i, %i] : memref<64x64xf32> -> !croq.view<16xf32>
  return
}

// -----

func.func @subspan_coordinate_count(%m: memref<64x64xf32>, %i: index) {
  // expected-error @+1 {{'croq.subspan' op expected 2 tile coordinates for a rank-2 source, got 1}}
  %v = croq.subspan %m [16, 16] at [%i] : memref<64x64xf32> -> !croq.view<16x16xf32>
  return
}

// -----

func.func @subspan_step_count(%m: memref<64x64xf32>, %i: index) {
  // expected-error @+1 {{expected 2 step values, got 1}}
  %v = croq.subspan %m [16, 16] step [32] at [%i, %i] : memref<64x64xf32> -> !croq.view<16x16xf32>
  return
}

// -----

func.func @subspan_zero_step(%m: memref<64x64xf32>, %i: index) {
  // expected-error @+1 {{'croq.subspan' op expected positive steps, got 0}}
  %v = croq.subspan %m [16, 16] step [16, 0] at [%i, %i] : memref<64x64xf32> -> !croq.view<16x16xf32>
  return
}

// -----

func.func @subspan_step_values_without_list(%m: memref<64xf32>, %i: index) {
  // expected-error @+1 {{'croq.subspan' op step values given without a step list}}
  %v = "croq.subspan"(%m, %i, %i) <{operandSegmentSizes = array<i32: 1, 0, 1, 1>, staticSizes = array<i64: 16>}> : (memref<64xf32>, index, index) -> !croq.view<16xf32>
  return
}

// -----

func.func @subspan_zero_size(%m: memref<64x64xf32>, %i: index) {
  // expected-error @+1 {{'croq.subspan' op expected positive tile sizes, got 0}}
  %v = croq.subspan %m [0, 16] at [%i, %i] : memref<64x64xf32> -> !croq.view<?x16xf32>
  return
}

// -----

func.func @subspan_dynamic_size_count(%m: memref<64xf32>, %i: index) {
  // expected-error @+1 {{expected 0 dynamic size values}}
  %v = "croq.subspan"(%m, %i, %i) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, staticSizes = array<i64: 16>}> : (memref<64xf32>, index, index) -> !croq.view<16xf32>
  return
}

// -----

func.func @subspan_result_shape(%m: memref<?x?xf32>, %n: index, %i: index) {
  // expected-error @+1 {{'croq.subspan' op expected result dimension 0 to be ?, got 16}}
  %v = croq.subspan %m [%n, 16] at [%i, %i] : memref<?x?xf32> -> !croq.view<16x16xf32>
  return
}

// -----

func.func @subspan_result_swizzle(%t: !croq.tile<64x64xf16, shared, swizzle = 128>, %i: index) {
  // expected-error @+1 {{'croq.subspan' op result swizzle must be the source's (128), got none}}
  %v = croq.subspan %t [64, 16] at [%i, %i] : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x16xf16, shared>
  return
}

//===----------------------------------------------------------------------===//
// croq.view
//===----------------------------------------------------------------------===//

// -----

func.func @view_size_count(%m: memref<64x64xf32>) {
  // expected-error @+1 {{expected 2 size values, got 1}}
  %v = croq.view %m [16] from [0, 0] : memref<64x64xf32> -> !croq.view<16xf32>
  return
}

// -----

func.func @view_offset_count(%m: memref<64x64xf32>) {
  // expected-error @+1 {{expected 2 offset values, got 3}}
  %v = croq.view %m [16, 16] from [0, 0, 0] : memref<64x64xf32> -> !croq.view<16x16xf32>
  return
}

// -----

func.func @view_bound_count(%m: memref<64x64xf32>) {
  // expected-error @+1 {{expected 2 bound values, got 1}}
  %v = croq.view %m [16, 16] from [0, 0] within [8] : memref<64x64xf32> -> !croq.view<16x16xf32>
  return
}

// -----

func.func @view_bound_values_without_list(%m: memref<64xf32>, %e: index) {
  // expected-error @+1 {{'croq.view' op bound values given without a 'within' list}}
  %v = "croq.view"(%m, %e) <{operandSegmentSizes = array<i32: 1, 0, 0, 1>, staticSizes = array<i64: 16>, staticOffsets = array<i64: 0>}> : (memref<64xf32>, index) -> !croq.view<16xf32>
  return
}

// -----

func.func @view_zero_size(%m: memref<64x64xf32>) {
  // expected-error @+1 {{'croq.view' op expected positive window sizes, got -2}}
  %v = croq.view %m [16, -2] from [0, 0] : memref<64x64xf32> -> !croq.view<16x?xf32>
  return
}

// -----

func.func @view_negative_offset(%m: memref<64x64xf32>) {
  // expected-error @+1 {{'croq.view' op expected non-negative offsets, got -1}}
  %v = croq.view %m [16, 16] from [0, -1] : memref<64x64xf32> -> !croq.view<16x16xf32>
  return
}

// -----

func.func @view_result_element_type(%m: memref<64xf32>) {
  // expected-error @+1 {{'croq.view' op result element type 'i32' does not match source element type 'f32'}}
  %v = croq.view %m [16] from [0] : memref<64xf32> -> !croq.view<16xi32>
  return
}

// -----

func.func @view_result_memory_space(%v: !croq.view<64xf32, local>) {
  // expected-error @+1 {{'croq.view' op result memory space must be the source's (local), got shared}}
  %w = croq.view %v [16] from [0] : !croq.view<64xf32, local> -> !croq.view<16xf32, shared>
  return
}

// -----

func.func @view_result_swizzle(%t: !croq.tile<64x64xf16, shared>) {
  // expected-error @+1 {{'croq.view' op result swizzle must be the source's (none), got 128}}
  %v = croq.view %t [64, 64] from [0, 0] : !croq.tile<64x64xf16, shared> -> !croq.view<64x64xf16, shared, swizzle = 128>
  return
}

// -----

func.func @view_result_shape(%m: memref<64x64xf32>) {
  // expected-error @+1 {{'croq.view' op expected result dimension 1 to be 8, got 16}}
  %v = croq.view %m [16, 8] from [0, 0] : memref<64x64xf32> -> !croq.view<16x16xf32>
  return
}

//===----------------------------------------------------------------------===//
// croq.span_as
//===----------------------------------------------------------------------===//

// -----

func.func @span_as_element_type(%t: !croq.tile<64xf32, shared>) {
  // expected-error @+1 {{'croq.span_as' op result element type 'i32' does not match source element type 'f32'}}
  %r = croq.span_as %t : !croq.tile<64xf32, shared> -> !croq.tile<8x8xi32, shared>
  return
}

// -----

func.func @span_as_element_count(%t: !croq.tile<8192xf16, shared>) {
  // expected-error @+1 {{'croq.span_as' op span_as must keep the element count: the source has 8192 elements, the result 4096}}
  %r = croq.span_as %t : !croq.tile<8192xf16, shared> -> !croq.tile<64x64xf16, shared>
  return
}

// -----

func.func @span_as_memory_space(%t: !croq.tile<64xf32, shared>) {
  // expected-error @+1 {{'croq.span_as' op span_as keeps the memory space and swizzle of its source (shared, swizzle none), got local, swizzle none}}
  %r = croq.span_as %t : !croq.tile<64xf32, shared> -> !croq.tile<8x8xf32, local>
  return
}

// -----

func.func @span_as_swizzle(%t: !croq.tile<64x64xf16, shared, swizzle = 128>) {
  // expected-error @+1 {{'croq.span_as' op span_as keeps the memory space and swizzle of its source (shared, swizzle 128), got shared, swizzle 64}}
  %r = croq.span_as %t : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.tile<128x32xf16, shared, swizzle = 64>
  return
}

// -----

// 64 x 64 f16 rows are one 128-byte span; 32 x 128 rows are two slabs, so
// the same bytes would hold other elements.
func.func @span_as_across_slabs(%t: !croq.tile<64x64xf16, shared, swizzle = 128>) {
  // expected-error @+1 {{'croq.span_as' op rows wider than the 128-byte swizzle span are stored as span-wide slabs, so span_as must keep the innermost dimension (64), got 128}}
  %r = croq.span_as %t : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.tile<32x128xf16, shared, swizzle = 128>
  return
}

//===----------------------------------------------------------------------===//
// croq.copy
//===----------------------------------------------------------------------===//

// -----

func.func @copy_element_type(%v: !croq.view<16xf32>, %t: !croq.tile<16xf16, shared>) {
  // expected-error @+1 {{'croq.copy' op source element type 'f32' does not match destination element type 'f16'}}
  croq.copy dma %v -> %t : !croq.view<16xf32> -> !croq.tile<16xf16, shared>
  return
}

// -----

func.func @copy_rank(%v: !croq.view<16x16xf32>, %t: !croq.tile<256xf32, shared>) {
  // expected-error @+1 {{'croq.copy' op source rank 2 does not match destination rank 1}}
  croq.copy dma %v -> %t : !croq.view<16x16xf32> -> !croq.tile<256xf32, shared>
  return
}

// -----

func.func @copy_global_to_global(%a: memref<16xf32>, %b: !croq.view<16xf32>) {
  // expected-error @+1 {{'croq.copy' op cannot copy global memory to global memory; stage the tile through shared or local memory}}
  croq.copy dma %a -> %b : memref<16xf32> -> !croq.view<16xf32>
  return
}

// -----

func.func @copy_async_dma_to_local(%v: !croq.view<16xf32>, %t: !croq.tile<16xf32, local>) {
  // expected-error @+1 {{'croq.copy' op an async dma copy must move global to shared memory (cp.async), got global -> local}}
  %f = croq.copy dma async %v -> %t : !croq.view<16xf32> -> !croq.tile<16xf32, local>
  return
}

// -----

func.func @copy_async_dma_from_shared(%s: !croq.tile<16xf32, shared>, %v: !croq.view<16xf32>) {
  // expected-error @+1 {{'croq.copy' op an async dma copy must move global to shared memory (cp.async), got shared -> global}}
  %f = croq.copy dma async %s -> %v : !croq.tile<16xf32, shared> -> !croq.view<16xf32>
  return
}

// -----

func.func @copy_source_larger(%v: !croq.view<32x16xf32>, %t: !croq.tile<16x16xf32, shared>) {
  // expected-error @+1 {{'croq.copy' op source dimension 0 (32) is larger than the destination's (16)}}
  croq.copy dma zfill %v -> %t : !croq.view<32x16xf32> -> !croq.tile<16x16xf32, shared>
  return
}

// -----

func.func @copy_source_smaller_without_zfill(%v: !croq.view<16x8xf32>, %t: !croq.tile<16x16xf32, shared>) {
  // expected-error @+1 {{'croq.copy' op source dimension 1 (8) is smaller than the destination's (16); add 'zfill' to zero the rest}}
  croq.copy dma %v -> %t : !croq.view<16x8xf32> -> !croq.tile<16x16xf32, shared>
  return
}

// -----

func.func @copy_zfill_into_global(%t: !croq.tile<16xf32, shared>, %v: !croq.view<16xf32>) {
  // expected-error @+1 {{'croq.copy' op zfill fills an on-chip destination, but this copy writes global memory}}
  croq.copy dma zfill %t -> %v : !croq.tile<16xf32, shared> -> !croq.view<16xf32>
  return
}

// -----

func.func @copy_zfill_tile_to_tile(%s: !croq.tile<16x16xf32, shared>, %l: !croq.tile<16x16xf32, local>) {
  // expected-error @+1 {{'croq.copy' op zfill has no effect: the source always covers the destination (16x16 into 16x16)}}
  croq.copy dma zfill %s -> %l : !croq.tile<16x16xf32, shared> -> !croq.tile<16x16xf32, local>
  return
}

// -----

// 64x128 splits into 16x16 chunks exactly: no chunk runs past the edge.
func.func @copy_zfill_exact_chunk(%m: memref<64x128xf32>) {
  croq.parallel (%i, %j) in [4, 8] : block {
    %t = croq.alloc : !croq.tile<16x16xf32, shared>
    %v = croq.chunkat %m[%i, %j] : memref<64x128xf32> -> !croq.view<16x16xf32>
    // expected-error @+1 {{'croq.copy' op zfill has no effect: the source always covers the destination (16x16 into 16x16)}}
    croq.copy dma zfill %v -> %t : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, shared>
  }
  return
}

// -----

func.func @copy_zfill_exact_subspan(%m: memref<64x64xf32>, %i: index, %t: !croq.tile<16x16xf32, shared>) {
  %v = croq.subspan %m [16, 16] at [%i, %i] : memref<64x64xf32> -> !croq.view<16x16xf32>
  // expected-error @+1 {{'croq.copy' op zfill has no effect: the source always covers the destination (16x16 into 16x16)}}
  croq.copy dma zfill %v -> %t : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, shared>
  return
}

// -----

func.func @copy_swizzle_without_shared(%v: !croq.view<16x64xf16>, %t: !croq.tile<16x64xf16, local>) {
  // expected-error @+1 {{'croq.copy' op swizzle describes a shared-memory layout, but neither side of the copy is in shared memory}}
  croq.copy dma swizzle = 128 %v -> %t : !croq.view<16x64xf16> -> !croq.tile<16x64xf16, local>
  return
}

// -----

func.func @copy_swizzle_mismatch(%v: !croq.view<64x64xf16>, %t: !croq.tile<64x64xf16, shared, swizzle = 128>) {
  // expected-error @+1 {{'croq.copy' op copy swizzle 64 does not match the shared tile's swizzle 128}}
  croq.copy tma swizzle = 64 %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
  return
}

// -----

func.func @copy_swizzle_on_unswizzled_tile(%t: !croq.tile<64x64xf16, shared>, %v: !croq.view<64x64xf16>) {
  // expected-error @+1 {{'croq.copy' op copy swizzle 128 does not match the shared tile's swizzle none}}
  croq.copy dma swizzle = 128 %t -> %v : !croq.tile<64x64xf16, shared> -> !croq.view<64x64xf16>
  return
}

// -----

func.func @copy_swizzle_value(%v: !croq.view<64x64xf16>, %t: !croq.tile<64x64xf16, shared>) {
  // expected-error @+1 {{expected swizzle none, auto, 32, 64 or 128, got 256}}
  croq.copy dma swizzle = 256 %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared>
  return
}

// -----

func.func @copy_tma_shared_to_local(%s: !croq.tile<16x16xf32, shared>, %l: !croq.tile<16x16xf32, local>) {
  // expected-error @+1 {{'croq.copy' op a tma copy moves between global and shared memory, got shared -> local}}
  croq.copy tma %s -> %l : !croq.tile<16x16xf32, shared> -> !croq.tile<16x16xf32, local>
  return
}

// -----

func.func @copy_tma_global_to_local(%v: !croq.view<16x16xf32>, %l: !croq.tile<16x16xf32, local>) {
  // expected-error @+1 {{'croq.copy' op a tma copy moves between global and shared memory, got global -> local}}
  croq.copy tma %v -> %l : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, local>
  return
}

// -----

func.func @copy_tma_dynamic_box(%v: !croq.view<128x64xf16>, %s: !croq.view<?x64xf16, shared>) {
  // expected-error @+1 {{'croq.copy' op a tma copy needs a tile shape known at compile time, but dimension 0 is dynamic; use a dma copy for run-time tile sizes}}
  croq.copy tma %v -> %s : !croq.view<128x64xf16> -> !croq.view<?x64xf16, shared>
  return
}

// -----

func.func @copy_tma_rank_zero(%v: !croq.view<f32>, %s: !croq.tile<f32, shared>) {
  // expected-error @+1 {{'croq.copy' op tma copies take ranks 1 to 5, got rank 0}}
  croq.copy tma %v -> %s : !croq.view<f32> -> !croq.tile<f32, shared>
  return
}

// -----

func.func @copy_tma_rank_six(%v: !croq.view<2x2x2x2x2x8xf32>, %s: !croq.tile<2x2x2x2x2x8xf32, shared>) {
  // expected-error @+1 {{'croq.copy' op tma copies take ranks 1 to 5, got rank 6}}
  croq.copy tma %v -> %s : !croq.view<2x2x2x2x2x8xf32> -> !croq.tile<2x2x2x2x2x8xf32, shared>
  return
}

// -----

func.func @copy_tma_element_type(%v: !croq.view<16x16xi1>, %s: !croq.tile<16x16xi1, shared>) {
  // expected-error @+1 {{'croq.copy' op tma does not support element type 'i1'}}
  croq.copy tma %v -> %s : !croq.view<16x16xi1> -> !croq.tile<16x16xi1, shared>
  return
}

// -----

func.func @copy_tma_inner_box_bytes(%v: !croq.view<64x4xf16>, %s: !croq.tile<64x4xf16, shared>) {
  // expected-error @+1 {{'croq.copy' op the inner tma box dimension is 8 bytes (4 x 'f16'); it must be a multiple of 16 bytes}}
  croq.copy tma %v -> %s : !croq.view<64x4xf16> -> !croq.tile<64x4xf16, shared>
  return
}

// -----

// The shared side decides the box of a store too.
func.func @copy_tma_store_inner_box_bytes(%s: !croq.tile<64x12xi8, shared>, %v: !croq.view<64x12xi8>) {
  // expected-error @+1 {{'croq.copy' op the inner tma box dimension is 12 bytes (12 x 'i8'); it must be a multiple of 16 bytes}}
  croq.copy tma %s -> %v : !croq.tile<64x12xi8, shared> -> !croq.view<64x12xi8>
  return
}

// -----

func.func @copy_tma_inner_box_swizzle_span(%v: !croq.view<64x48xf16>, %s: !croq.tile<64x48xf16, shared, swizzle = 64>) {
  // expected-error @+1 {{'croq.copy' op the inner tma box dimension of 96 bytes is wider than the 64-byte swizzle span and not a multiple of it}}
  croq.copy tma %v -> %s : !croq.view<64x48xf16> -> !croq.tile<64x48xf16, shared, swizzle = 64>
  return
}

// -----

// Rows of 64 bytes in a 32-byte swizzle are two slabs of 3 x 32 bytes; the
// second would start at byte 96, which tma cannot write to.
func.func @copy_tma_slab_alignment(%v: !croq.view<3x32xf16>, %s: !croq.tile<3x32xf16, shared, swizzle = 32>) {
  // expected-error @+1 {{'croq.copy' op a tile wider than its 32-byte swizzle span is stored as span-wide slabs of 96 bytes, but tma writes each slab at a 128-byte aligned address: give it a multiple of 4 rows or a wider swizzle}}
  croq.copy tma %v -> %s : !croq.view<3x32xf16> -> !croq.tile<3x32xf16, shared, swizzle = 32>
  return
}

// -----

// An `auto` tile takes the swizzle the copy names, and the box must fit it.
func.func @copy_tma_inner_box_copy_swizzle(%v: !croq.view<64x40xf32>, %s: !croq.tile<64x40xf32, shared, swizzle = auto>) {
  // expected-error @+1 {{'croq.copy' op the inner tma box dimension of 160 bytes is wider than the 128-byte swizzle span and not a multiple of it}}
  croq.copy tma swizzle = 128 %v -> %s : !croq.view<64x40xf32> -> !croq.tile<64x40xf32, shared, swizzle = auto>
  return
}

// -----

func.func @copy_tma_box_dim(%v: !croq.view<300x64xf16>, %s: !croq.tile<300x64xf16, shared>) {
  // expected-error @+1 {{'croq.copy' op tma box dimension 0 is 300; dimensions above 256 must be a multiple of 256 to be split into boxes}}
  croq.copy tma %v -> %s : !croq.view<300x64xf16> -> !croq.tile<300x64xf16, shared>
  return
}

// -----

func.func @future_waited_twice(%v: !croq.view<16xf32>, %s: !croq.tile<16xf32, shared>) {
  // expected-error @+1 {{'croq.copy' op a future is waited on at most once, but this one is waited on 2 times}}
  %f = croq.copy dma async %v -> %s : !croq.view<16xf32> -> !croq.tile<16xf32, shared>
  croq.wait %f
  croq.wait %f
  return
}

// -----

func.func @future_waited_and_triggered(%v: !croq.view<64x64xf16>, %s: !croq.tile<64x64xf16, shared>,
                                       %e: !croq.events<2>, %i: index) {
  // expected-error @+1 {{'croq.copy' op a future is waited on at most once, but this one is waited on 2 times}}
  %f = croq.copy tma async %v -> %s : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared>
  croq.event.trigger %e[%i] after (%f) : !croq.events<2>
  croq.wait %f
  return
}

// -----

func.func @future_triggered_twice_in_one_op(%v: !croq.view<64x64xf16>, %s: !croq.tile<64x64xf16, shared>,
                                            %e: !croq.events<2>, %i: index) {
  // expected-error @+1 {{'croq.copy' op a future is waited on at most once, but this one is waited on 2 times}}
  %f = croq.copy tma async %v -> %s : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared>
  croq.event.trigger %e[%i] after (%f, %f) : !croq.events<2>
  return
}

//===----------------------------------------------------------------------===//
// croq.transpose
//===----------------------------------------------------------------------===//

// -----

func.func @transpose_not_a_permutation(%v: !croq.view<16x32xf32>, %t: !croq.tile<32x16xf32, local>) {
  // expected-error @+1 {{'croq.transpose' op [1, 1] is not a permutation of 0..1}}
  croq.transpose [1, 1] %v -> %t : !croq.view<16x32xf32> -> !croq.tile<32x16xf32, local>
  return
}

// -----

func.func @transpose_permutation_size(%v: !croq.view<16x32xf32>, %t: !croq.tile<32x16xf32, local>) {
  // expected-error @+1 {{'croq.transpose' op [1, 0, 2] is not a permutation of 0..1}}
  croq.transpose [1, 0, 2] %v -> %t : !croq.view<16x32xf32> -> !croq.tile<32x16xf32, local>
  return
}

// -----

func.func @transpose_rank_zero(%v: !croq.view<f32>, %t: !croq.tile<f32, local>) {
  // expected-error @+1 {{'croq.transpose' op expected an empty permutation for a rank-0 source, got [0]}}
  croq.transpose [0] %v -> %t : !croq.view<f32> -> !croq.tile<f32, local>
  return
}

// -----

func.func @transpose_dest_shape(%v: !croq.view<16x32xf32>, %t: !croq.tile<16x32xf32, local>) {
  // expected-error @+1 {{'croq.transpose' op destination dimension 0 (16) must equal source dimension 1 (32)}}
  croq.transpose [1, 0] %v -> %t : !croq.view<16x32xf32> -> !croq.tile<16x32xf32, local>
  return
}

// -----

func.func @transpose_element_type(%v: !croq.view<16x32xf32>, %t: !croq.tile<32x16xi32, local>) {
  // expected-error @+1 {{'croq.transpose' op source element type 'f32' does not match destination element type 'i32'}}
  croq.transpose [1, 0] %v -> %t : !croq.view<16x32xf32> -> !croq.tile<32x16xi32, local>
  return
}

// -----

func.func @transpose_async_to_local(%v: !croq.view<16x32xf32>, %t: !croq.tile<32x16xf32, local>) {
  // expected-error @+1 {{'croq.transpose' op an async dma copy must move global to shared memory (cp.async), got global -> local}}
  %f = croq.transpose async [1, 0] %v -> %t : !croq.view<16x32xf32> -> !croq.tile<32x16xf32, local>
  return
}

// -----

func.func @transpose_future_waited_twice(%v: !croq.view<16x32xf32>, %t: !croq.tile<32x16xf32, shared>) {
  // expected-error @+1 {{'croq.transpose' op a future is waited on at most once, but this one is waited on 2 times}}
  %f = croq.transpose async [1, 0] %v -> %t : !croq.view<16x32xf32> -> !croq.tile<32x16xf32, shared>
  croq.wait %f
  croq.wait %f
  return
}

//===----------------------------------------------------------------------===//
// croq.pad
//===----------------------------------------------------------------------===//

// -----

func.func @pad_low_size(%v: !croq.view<8x8xf32>, %t: !croq.tile<11x13xf32, shared>, %z: f32) {
  // expected-error @+1 {{'croq.pad' op expected 2 low padding sizes, got 1}}
  croq.pad low [2] high [1, 2] interior [0, 0] %v -> %t value %z : !croq.view<8x8xf32> -> !croq.tile<11x13xf32, shared>
  return
}

// -----

func.func @pad_interior_size(%v: !croq.view<8x8xf32>, %t: !croq.tile<11x13xf32, shared>, %z: f32) {
  // expected-error @+1 {{'croq.pad' op expected 2 interior padding sizes, got 3}}
  croq.pad low [2, 3] high [1, 2] interior [0, 0, 0] %v -> %t value %z : !croq.view<8x8xf32> -> !croq.tile<11x13xf32, shared>
  return
}

// -----

func.func @pad_negative(%v: !croq.view<8x8xf32>, %t: !croq.tile<11x13xf32, shared>, %z: f32) {
  // expected-error @+1 {{'croq.pad' op expected non-negative high padding, got -1}}
  croq.pad low [2, 3] high [1, -1] interior [0, 0] %v -> %t value %z : !croq.view<8x8xf32> -> !croq.tile<11x13xf32, shared>
  return
}

// -----

func.func @pad_dest_shape(%v: !croq.view<8x8xf32>, %t: !croq.tile<11x13xf32, shared>, %z: f32) {
  // expected-error @+1 {{'croq.pad' op destination dimension 1 must be low + high + size + interior * (size - 1) = 20, got 13}}
  croq.pad low [2, 3] high [1, 2] interior [0, 1] %v -> %t value %z : !croq.view<8x8xf32> -> !croq.tile<11x13xf32, shared>
  return
}

// -----

func.func @pad_global_to_global(%v: !croq.view<8xf32>, %m: memref<10xf32>, %z: f32) {
  // expected-error @+1 {{'croq.pad' op cannot copy global memory to global memory; stage the tile through shared or local memory}}
  croq.pad low [1] high [1] interior [0] %v -> %m value %z : !croq.view<8xf32> -> memref<10xf32>
  return
}

// -----

func.func @pad_value_type(%v: !croq.view<8xf32>, %t: !croq.tile<10xf32, shared>, %z: f16) {
  // expected-error @+1 {{'croq.pad' op failed to verify that value matches the destination element type}}
  "croq.pad"(%v, %t, %z) <{low = array<i64: 1>, high = array<i64: 1>, interior = array<i64: 0>}> : (!croq.view<8xf32>, !croq.tile<10xf32, shared>, f16) -> ()
  return
}

// -----

func.func @pad_future_waited_twice(%v: !croq.view<8xf32>, %t: !croq.tile<10xf32, shared>, %z: f32) {
  // expected-error @+1 {{'croq.pad' op a future is waited on at most once, but this one is waited on 2 times}}
  %f = croq.pad async low [1] high [1] interior [0] %v -> %t value %z : !croq.view<8xf32> -> !croq.tile<10xf32, shared>
  croq.wait %f
  croq.wait %f
  return
}

//===----------------------------------------------------------------------===//
// Events
//===----------------------------------------------------------------------===//

// -----

func.func @event_alloc_outside_parallel() {
  // expected-error @+1 {{'croq.event.alloc' op events live in shared memory and belong to a block: allocate them directly in a 'croq.parallel ... : block' region}}
  %e = croq.event.alloc : !croq.events<2>
  return
}

// -----

func.func @event_alloc_in_warpgroup_region() {
  croq.parallel (%b) in [4] : block {
    croq.parallel (%w) in [2] : warpgroup {
      // expected-error @+1 {{'croq.event.alloc' op events live in shared memory and belong to a block: allocate them directly in a 'croq.parallel ... : block' region}}
      %e = croq.event.alloc ready : !croq.events<2>
    }
  }
  return
}

// -----

func.func @event_trigger_index(%e: !croq.events<4>) {
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'croq.event.trigger' op event index 4 is out of range for 4 events}}
  croq.event.trigger %e[%c4] : !croq.events<4>
  return
}

// -----

func.func @event_wait_index(%e: !croq.events<4>) {
  %c-1 = arith.constant -1 : index
  // expected-error @+1 {{'croq.event.wait' op event index -1 is out of range for 4 events}}
  croq.event.wait %e[%c-1] : !croq.events<4>
  return
}

//===----------------------------------------------------------------------===//
// MMA
//===----------------------------------------------------------------------===//

// -----

func.func @event_wait_phases_count(%e: !croq.events<4>, %p: !croq.phases<2>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'croq.event.wait' op expected phases of 4 slots for an array of 4 events, got 2 and 2}}
  %n = "croq.event.wait"(%e, %c0, %p) : (!croq.events<4>, index, !croq.phases<2>) -> !croq.phases<2>
  return
}

// -----

func.func @event_wait_phases_without_next(%e: !croq.events<4>, %p: !croq.phases<4>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'croq.event.wait' op takes phases and returns the next ones together}}
  "croq.event.wait"(%e, %c0, %p) : (!croq.events<4>, index, !croq.phases<4>) -> ()
  return
}

// -----

func.func @event_wait_not_events(%p: !croq.phases<4>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{expected an !croq.events type, got '!croq.phases<4>'}}
  croq.event.wait %p[%c0] : !croq.phases<4>
  return
}

// -----

func.func @event_wait_phases_of_too_many_slots(%e: !croq.events<65>, %p: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{expected phases of 1 to 64 slots (one bit each in 64 bits), got 65}}
  %n = croq.event.wait %e[%c0] phases %p : !croq.events<65>
  return
}

// -----

// expected-error @+1 {{expected phases of 1 to 64 slots (one bit each in 64 bits), got 65}}
func.func @phases_too_many(%p: !croq.phases<65>) {
  return
}

// -----

// expected-error @+1 {{expected phases of 1 to 64 slots (one bit each in 64 bits), got 0}}
func.func @phases_none(%p: !croq.phases<0>) {
  return
}

// -----

func.func @mma_fill_value_type(%v: f16) {
  // expected-error @+1 {{'croq.mma.fill' op failed to verify that value matches the accumulator element type}}
  %acc = "croq.mma.fill"(%v) : (f16) -> !croq.acc<64x64xf32>
  return
}

// -----

func.func @mma_load_from_global(%v: !croq.view<64x64xf16>) {
  // expected-error @+1 {{'croq.mma.load' op mma operands are loaded from shared memory, got global memory}}
  %a = croq.mma.load %v : !croq.view<64x64xf16> -> !croq.frag<64x64xf16>
  return
}

// -----

func.func @mma_load_from_local(%t: !croq.tile<64x64xf16, local>) {
  // expected-error @+1 {{'croq.mma.load' op mma operands are loaded from shared memory, got local memory}}
  %a = croq.mma.load %t : !croq.tile<64x64xf16, local> -> !croq.frag<64x64xf16>
  return
}

// -----

func.func @mma_load_rank(%t: !croq.tile<2x64x64xf16, shared>) {
  // expected-error @+1 {{'croq.mma.load' op expected a 2-d source, got rank 3}}
  %a = croq.mma.load %t : !croq.tile<2x64x64xf16, shared> -> !croq.frag<64x64xf16>
  return
}

// -----

func.func @mma_load_element_type(%t: !croq.tile<64x64xf16, shared>) {
  // expected-error @+1 {{'croq.mma.load' op result element type 'bf16' does not match source element type 'f16'}}
  %a = croq.mma.load %t : !croq.tile<64x64xf16, shared> -> !croq.frag<64x64xbf16>
  return
}

// -----

func.func @mma_load_shape(%t: !croq.tile<64x64xf16, shared>) {
  // expected-error @+1 {{'croq.mma.load' op result dimension 1 (32) does not match the source's (64)}}
  %a = croq.mma.load %t : !croq.tile<64x64xf16, shared> -> !croq.frag<64x32xf16>
  return
}

// -----

func.func @mma_load_swizzle_mismatch(%t: !croq.tile<64x64xf16, shared, swizzle = 128>) {
  // expected-error @+1 {{'croq.mma.load' op mma.load swizzle 64 does not match the source tile's swizzle 128; the operand would be read with the wrong layout}}
  %a = croq.mma.load swizzle = 64 %t : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
  return
}

// -----

func.func @mma_load_swizzle_on_plain_view(%v: !croq.view<64x16xf16, shared>) {
  // expected-error @+1 {{'croq.mma.load' op mma.load swizzle 32 does not match the source tile's swizzle none; the operand would be read with the wrong layout}}
  %a = croq.mma.load swizzle = 32 %v : !croq.view<64x16xf16, shared> -> !croq.frag<64x16xf16>
  return
}

// -----

func.func @mma_load_source_type(%m: memref<64x64xf16>) {
  // expected-error @+1 {{'croq.mma.load' op operand #0 must be tile or view, but got 'memref<64x64xf16>'}}
  %a = croq.mma.load %m : memref<64x64xf16> -> !croq.frag<64x64xf16>
  return
}

// -----

func.func @mma_element_type(%acc: !croq.acc<64x64xf32>, %a: !croq.frag<64x16xf64>, %b: !croq.frag<64x16xf64>) {
  // expected-error @+1 {{'croq.mma' op the tensor cores take f16, bf16, f32 (tf32), f8E4M3FN, f8E5M2 or i8 operands, got 'f64'}}
  %r = croq.mma row row %acc, %a, %b : !croq.frag<64x16xf64>, !croq.frag<64x16xf64> -> !croq.acc<64x64xf32>
  return
}

// -----

func.func @mma_mixed_element_types(%acc: !croq.acc<64x64xf32>, %a: !croq.frag<64x16xf16>, %b: !croq.frag<64x16xbf16>) {
  // expected-error @+1 {{'croq.mma' op operand element types must match, got 'f16' and 'bf16'}}
  %r = croq.mma row row %acc, %a, %b : !croq.frag<64x16xf16>, !croq.frag<64x16xbf16> -> !croq.acc<64x64xf32>
  return
}

// -----

func.func @mma_mixed_f8_and_i8(%acc: !croq.acc<64x64xf32>, %a: !croq.frag<64x32xf8E4M3FN>, %b: !croq.frag<64x32xi8>) {
  // expected-error @+1 {{'croq.mma' op operand element types must match, got 'f8E4M3FN' and 'i8'}}
  %r = croq.mma row row %acc, %a, %b : !croq.frag<64x32xf8E4M3FN>, !croq.frag<64x32xi8> -> !croq.acc<64x64xf32>
  return
}

// -----

func.func @mma_bf16_f16_accumulator(%acc: !croq.acc<64x64xf16>, %a: !croq.frag<64x16xbf16>, %b: !croq.frag<64x16xbf16>) {
  // expected-error @+1 {{'croq.mma' op there is no mma with 'bf16' operands and 'f16' accumulation}}
  %r = croq.mma row row %acc, %a, %b : !croq.frag<64x16xbf16>, !croq.frag<64x16xbf16> -> !croq.acc<64x64xf16>
  return
}

// -----

func.func @mma_i8_f32_accumulator(%acc: !croq.acc<64x64xf32>, %a: !croq.frag<64x32xi8>, %b: !croq.frag<64x32xi8>) {
  // expected-error @+1 {{'croq.mma' op there is no mma with 'i8' operands and 'f32' accumulation}}
  %r = croq.mma row row %acc, %a, %b : !croq.frag<64x32xi8>, !croq.frag<64x32xi8> -> !croq.acc<64x64xf32>
  return
}

// -----

func.func @mma_f8_col(%acc: !croq.acc<64x64xf32>, %a: !croq.frag<64x32xf8E4M3FN>, %b: !croq.frag<32x64xf8E4M3FN>) {
  // expected-error @+1 {{'croq.mma' op f8 operands must both be 'row' (K-major); only 16-bit operands can be transposed}}
  %r = croq.mma row col %acc, %a, %b : !croq.frag<64x32xf8E4M3FN>, !croq.frag<32x64xf8E4M3FN> -> !croq.acc<64x64xf32>
  return
}

// -----

func.func @mma_i8_col(%acc: !croq.acc<64x64xi32>, %a: !croq.frag<32x64xi8>, %b: !croq.frag<64x32xi8>) {
  // expected-error @+1 {{'croq.mma' op i8 operands must both be 'row' (K-major); only 16-bit operands can be transposed}}
  %r = croq.mma col row %acc, %a, %b : !croq.frag<32x64xi8>, !croq.frag<64x32xi8> -> !croq.acc<64x64xi32>
  return
}

// -----

func.func @mma_tf32_col(%acc: !croq.acc<64x64xf32>, %a: !croq.frag<8x64xf32>, %b: !croq.frag<8x64xf32>) {
  // expected-error @+1 {{'croq.mma' op tf32 operands must both be 'row' (K-major); only 16-bit operands can be transposed}}
  %r = croq.mma col col %acc, %a, %b : !croq.frag<8x64xf32>, !croq.frag<8x64xf32> -> !croq.acc<64x64xf32>
  return
}

// -----

func.func @mma_k_mismatch(%acc: !croq.acc<64x64xf32>, %a: !croq.frag<64x32xf16>, %b: !croq.frag<64x16xf16>) {
  // expected-error @+1 {{'croq.mma' op operand K dimensions differ: A has 32, B has 16}}
  %r = croq.mma row row %acc, %a, %b : !croq.frag<64x32xf16>, !croq.frag<64x16xf16> -> !croq.acc<64x64xf32>
  return
}

// -----

// A col B is K x N: its first dimension is K.
func.func @mma_k_mismatch_col(%acc: !croq.acc<64x16xf32>, %a: !croq.frag<64x16xf16>, %b: !croq.frag<32x16xf16>) {
  // expected-error @+1 {{'croq.mma' op operand K dimensions differ: A has 16, B has 32}}
  %r = croq.mma row col %acc, %a, %b : !croq.frag<64x16xf16>, !croq.frag<32x16xf16> -> !croq.acc<64x16xf32>
  return
}

// -----

func.func @mma_acc_shape(%acc: !croq.acc<64x128xf32>, %a: !croq.frag<64x16xf16>, %b: !croq.frag<64x16xf16>) {
  // expected-error @+1 {{'croq.mma' op accumulator shape 64x128 does not match the operands' M x N = 64x64}}
  %r = croq.mma row row %acc, %a, %b : !croq.frag<64x16xf16>, !croq.frag<64x16xf16> -> !croq.acc<64x128xf32>
  return
}

// -----

func.func @mma_m_multiple_of_64(%acc: !croq.acc<32x64xf32>, %a: !croq.frag<32x16xf16>, %b: !croq.frag<64x16xf16>) {
  // expected-error @+1 {{'croq.mma' op M must be a multiple of 64 (one wgmma per 64 rows), got 32}}
  %r = croq.mma row row %acc, %a, %b : !croq.frag<32x16xf16>, !croq.frag<64x16xf16> -> !croq.acc<32x64xf32>
  return
}

// -----

func.func @mma_n_multiple_of_8(%acc: !croq.acc<64x12xf32>, %a: !croq.frag<64x16xf16>, %b: !croq.frag<12x16xf16>) {
  // expected-error @+1 {{'croq.mma' op N must be a multiple of 8 no larger than 256, got 12}}
  %r = croq.mma row row %acc, %a, %b : !croq.frag<64x16xf16>, !croq.frag<12x16xf16> -> !croq.acc<64x12xf32>
  return
}

// -----

func.func @mma_n_too_large(%acc: !croq.acc<64x264xf32>, %a: !croq.frag<64x16xf16>, %b: !croq.frag<264x16xf16>) {
  // expected-error @+1 {{'croq.mma' op N must be a multiple of 8 no larger than 256, got 264}}
  %r = croq.mma row row %acc, %a, %b : !croq.frag<64x16xf16>, !croq.frag<264x16xf16> -> !croq.acc<64x264xf32>
  return
}

// -----

func.func @mma_k_multiple_f16(%acc: !croq.acc<64x64xf32>, %a: !croq.frag<64x8xf16>, %b: !croq.frag<64x8xf16>) {
  // expected-error @+1 {{'croq.mma' op K must be a multiple of 16 for f16 operands, got 8}}
  %r = croq.mma row row %acc, %a, %b : !croq.frag<64x8xf16>, !croq.frag<64x8xf16> -> !croq.acc<64x64xf32>
  return
}

// -----

func.func @mma_k_multiple_f8(%acc: !croq.acc<64x64xf32>, %a: !croq.frag<64x16xf8E5M2>, %b: !croq.frag<64x16xf8E5M2>) {
  // expected-error @+1 {{'croq.mma' op K must be a multiple of 32 for f8 operands, got 16}}
  %r = croq.mma row row %acc, %a, %b : !croq.frag<64x16xf8E5M2>, !croq.frag<64x16xf8E5M2> -> !croq.acc<64x64xf32>
  return
}

// -----

func.func @mma_k_multiple_tf32(%acc: !croq.acc<64x64xf32>, %a: !croq.frag<64x4xf32>, %b: !croq.frag<64x4xf32>) {
  // expected-error @+1 {{'croq.mma' op K must be a multiple of 8 for tf32 operands, got 4}}
  %r = croq.mma row row %acc, %a, %b : !croq.frag<64x4xf32>, !croq.frag<64x4xf32> -> !croq.acc<64x64xf32>
  return
}

// -----

func.func @mma_result_type(%acc: !croq.acc<64x64xf32>, %a: !croq.frag<64x16xf16>) {
  // expected-error @+1 {{'croq.mma' op failed to verify that all of {acc, result} have same type}}
  %r = "croq.mma"(%acc, %a, %a) <{layoutA = 0 : i32, layoutB = 0 : i32}> : (!croq.acc<64x64xf32>, !croq.frag<64x16xf16>, !croq.frag<64x16xf16>) -> !croq.acc<64x64xf16>
  return
}

// -----

func.func @mma_commit_result_type(%acc: !croq.acc<64x64xf32>) {
  // expected-error @+1 {{'croq.mma.commit' op failed to verify that all of {acc, result} have same type}}
  %r = "croq.mma.commit"(%acc) : (!croq.acc<64x64xf32>) -> !croq.acc<64x128xf32>
  return
}

// -----

func.func @mma_commit_pending_range(%acc: !croq.acc<64x64xf32>) {
  // expected-error @+1 {{'croq.mma.commit' op pending must be between 0 and 7, got 8}}
  %r = croq.mma.commit %acc pending = 8 : !croq.acc<64x64xf32>
  return
}

// -----

func.func @mma_commit_pending_store(%acc: !croq.acc<64x64xf32>, %out: memref<64x64xf32>) {
  // expected-error @+1 {{'croq.mma.commit' op result is still being computed (pending = 1); store it after a croq.mma.commit with pending = 0 or a croq.mma.wait}}
  %r = croq.mma.commit %acc pending = 1 : !croq.acc<64x64xf32>
  croq.mma.store %r -> %out : !croq.acc<64x64xf32> -> memref<64x64xf32>
  return
}

// -----

func.func @mma_wait_pending_range(%acc: !croq.acc<64x64xf32>) {
  %c = croq.mma.commit %acc pending = 1 : !croq.acc<64x64xf32>
  // expected-error @+1 {{'croq.mma.wait' op pending must be between 0 and 7, got 9}}
  %r = croq.mma.wait %c pending = 9 : !croq.acc<64x64xf32>
  return
}

// -----

func.func @mma_wait_not_pending(%acc: !croq.acc<64x64xf32>) {
  %c = croq.mma.commit %acc : !croq.acc<64x64xf32>
  // expected-error @+1 {{'croq.mma.wait' op waits for an accumulator committed with pending > 0: its operand must be the result of such a croq.mma.commit}}
  %r = croq.mma.wait %c : !croq.acc<64x64xf32>
  return
}

// -----

func.func @mma_wait_argument(%acc: !croq.acc<64x64xf32>) {
  // expected-error @+1 {{'croq.mma.wait' op waits for an accumulator committed with pending > 0: its operand must be the result of such a croq.mma.commit}}
  %r = croq.mma.wait %acc : !croq.acc<64x64xf32>
  return
}

// -----

func.func @mma_wait_other_block(%acc: !croq.acc<64x64xf32>, %flag: i1) {
  %c = croq.mma.commit %acc pending = 1 : !croq.acc<64x64xf32>
  scf.if %flag {
    // expected-error @+1 {{'croq.mma.wait' op must follow the croq.mma.commit of its accumulator in the same block}}
    %r = croq.mma.wait %c : !croq.acc<64x64xf32>
  }
  return
}

// -----

func.func @mma_wait_own_group(%s1: !croq.acc<64x64xf32>, %o1: !croq.acc<64x64xf32>) {
  %s = croq.mma.commit %s1 pending = 1 : !croq.acc<64x64xf32>
  %o = croq.mma.commit %o1 pending = 1 : !croq.acc<64x64xf32>
  // expected-error @+1 {{'croq.mma.wait' op leaves the accumulator's own group running: 1 group(s) committed after it, pending = 2}}
  %r = croq.mma.wait %s pending = 2 : !croq.acc<64x64xf32>
  return
}

// -----

func.func @mma_wait_result_type(%acc: !croq.acc<64x64xf32>) {
  %c = croq.mma.commit %acc pending = 1 : !croq.acc<64x64xf32>
  // expected-error @+1 {{'croq.mma.wait' op failed to verify that all of {acc, result} have same type}}
  %r = "croq.mma.wait"(%c) : (!croq.acc<64x64xf32>) -> !croq.acc<64x128xf32>
  return
}

// -----

func.func @mma_store_rank(%acc: !croq.acc<64x64xf32>, %t: !croq.tile<4096xf32, shared>) {
  // expected-error @+1 {{'croq.mma.store' op expected a 2-d destination, got rank 1}}
  croq.mma.store %acc -> %t : !croq.acc<64x64xf32> -> !croq.tile<4096xf32, shared>
  return
}

// -----

func.func @mma_store_shape(%acc: !croq.acc<64x128xf32>, %v: !croq.view<?x64xf16>) {
  // expected-error @+1 {{'croq.mma.store' op destination dimension 1 (64) does not match the accumulator's (128)}}
  croq.mma.store %acc -> %v : !croq.acc<64x128xf32> -> !croq.view<?x64xf16>
  return
}

// -----

func.func @mma_store_transpose_shape(%acc: !croq.acc<64x128xf32>, %t: !croq.tile<64x128xf16, shared>) {
  // expected-error @+1 {{'croq.mma.store' op destination dimension 0 (64) does not match the transposed accumulator's (128)}}
  croq.mma.store transpose %acc -> %t : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared>
  return
}

// -----

func.func @mma_store_relu_f32(%acc: !croq.acc<64x64xf32>, %m: memref<64x64xf32>) {
  // expected-error @+1 {{'croq.mma.store' op 'relu' converts an f32 accumulator to f16 or bf16, not 'f32' to 'f32'}}
  croq.mma.store relu %acc -> %m : !croq.acc<64x64xf32> -> memref<64x64xf32>
  return
}

// -----

func.func @mma_store_relu_i32(%acc: !croq.acc<64x8xi32>, %m: memref<64x8xi32>) {
  // expected-error @+1 {{'croq.mma.store' op 'relu' converts an f32 accumulator to f16 or bf16, not 'i32' to 'i32'}}
  croq.mma.store relu %acc -> %m : !croq.acc<64x8xi32> -> memref<64x8xi32>
  return
}

// -----

func.func @mma_store_float_to_int(%acc: !croq.acc<64x64xf32>, %m: memref<64x64xi32>) {
  // expected-error @+1 {{'croq.mma.store' op cannot store a 'f32' accumulator into 'i32' elements}}
  croq.mma.store %acc -> %m : !croq.acc<64x64xf32> -> memref<64x64xi32>
  return
}

// -----

func.func @mma_store_int_to_float(%acc: !croq.acc<64x64xi32>, %t: !croq.tile<64x64xf16, shared>) {
  // expected-error @+1 {{'croq.mma.store' op cannot store a 'i32' accumulator into 'f16' elements}}
  croq.mma.store %acc -> %t : !croq.acc<64x64xi32> -> !croq.tile<64x64xf16, shared>
  return
}

//===----------------------------------------------------------------------===//
// croq.foreach, croq.read and croq.write
//===----------------------------------------------------------------------===//

// -----

func.func @foreach_rank_zero() {
  // expected-error @+1 {{'croq.foreach' op expected at least one dimension}}
  croq.foreach () in [] {
  }
  return
}

// -----

func.func @foreach_zero_extent() {
  // expected-error @+1 {{'croq.foreach' op expected positive extents, got 0}}
  croq.foreach (%i) in [0] {
  }
  return
}

// -----

func.func @foreach_induction_variable_count() {
  // expected-error @+1 {{expected 1 induction variables, got 2}}
  croq.foreach (%i, %j) in [4] {
  }
  return
}

// -----

func.func @foreach_block_argument_count() {
  // expected-error @+1 {{'croq.foreach' op expected 2 induction variables, got 1}}
  "croq.foreach"() <{staticExtents = array<i64: 4, 4>}> ({
  ^bb0(%i: index):
  }) : () -> ()
  return
}

// -----

func.func @foreach_block_argument_type() {
  // expected-error @+1 {{'croq.foreach' op induction variables must be of index type, got 'i64'}}
  "croq.foreach"() <{staticExtents = array<i64: 4>}> ({
  ^bb0(%i: i64):
  }) : () -> ()
  return
}

// -----

func.func @read_index_count(%t: !croq.tile<16x16xi32, shared>, %i: index) {
  // expected-error @+1 {{'croq.read' op expected 2 indices for a rank-2 buffer, got 1}}
  %x = croq.read %t[%i] : !croq.tile<16x16xi32, shared>
  return
}

// -----

func.func @write_index_count(%x: f32, %m: memref<?xf32>, %i: index) {
  // expected-error @+1 {{'croq.write' op expected 1 indices for a rank-1 buffer, got 2}}
  croq.write %x, %m[%i, %i] : memref<?xf32>
  return
}

// -----

func.func @read_result_type(%t: !croq.tile<16xi32, shared>, %i: index) {
  // expected-error @+1 {{'croq.read' op accesses 'f32', which is neither the element type 'i32' nor a 1-d vector of it}}
  %x = "croq.read"(%t, %i) : (!croq.tile<16xi32, shared>, index) -> f32
  return
}

// -----

func.func @write_value_type(%x: f32, %t: !croq.tile<16xi32, shared>, %i: index) {
  // expected-error @+1 {{'croq.write' op accesses 'f32', which is neither the element type 'i32' nor a 1-d vector of it}}
  "croq.write"(%x, %t, %i) : (f32, !croq.tile<16xi32, shared>, index) -> ()
  return
}

// -----

func.func @future_never_waited(%v: !croq.view<64x64xf16>, %s: !croq.tile<64x64xf16, shared>) {
  // expected-error @+1 {{'croq.copy' op the future of an async copy must be waited on (croq.wait) or triggered after (croq.event.trigger ... after); drop 'async' if nothing waits for the copy}}
  %f = croq.copy dma async %v -> %s : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared>
  return
}

// -----

func.func @tma_view_with_runtime_size(%a: memref<?x?xf16>, %s: !croq.tile<128x64xf16, shared, swizzle = 128>,
                                      %rows: index, %i: index) {
  %v = croq.subspan %a [%rows, 64] at [%i, %i] : memref<?x?xf16> -> !croq.view<?x64xf16>
  // expected-error @+1 {{'croq.copy' op a tma copy needs a tile shape known at compile time, but dimension 0 of the global view is dynamic; use a dma copy for run-time tile sizes}}
  croq.copy tma zfill %v -> %s : !croq.view<?x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  return
}

// -----

func.func @trigger_after_store(%s: !croq.tile<128x64xf16, shared, swizzle = 128>, %v: !croq.view<128x64xf16>,
                               %e: !croq.events<1>, %i: index) {
  %f = croq.copy tma async %s -> %v : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x64xf16>
  // expected-error @+1 {{'croq.event.trigger' op can only be triggered after copies into shared memory; wait for a copy out of shared memory with croq.wait}}
  croq.event.trigger %e[%i] after (%f) : !croq.events<1>
  return
}

// -----

// expected-error @+1 {{each stage of a 128-byte swizzled stage array must hold whole 1024-byte swizzle patterns, got 512 bytes per stage}}
func.func @swizzled_stage_holds_partial_pattern(%t: !croq.tiles<2 x 4x64xf16, shared, swizzle = 128>) {
  return
}

// -----

func.func @alloc_offset_on_local() {
  croq.parallel (%i) in [1] : block {
    croq.parallel (%t) in [32] : thread {
      // expected-error @+1 {{'croq.alloc' op only shared buffers have an offset in shared memory, got one on a local buffer}}
      %l = croq.alloc offset = 0 : !croq.tile<4xf32, local>
    }
  }
  return
}

// -----

func.func @alloc_offset_misaligned() {
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{'croq.alloc' op offset 512 is not a multiple of the 1024-byte alignment of its layout}}
    %t = croq.alloc offset = 512 : !croq.tile<64x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

func.func @alloc_offset_negative() {
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{'croq.alloc' op attribute 'offset' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
    %t = croq.alloc offset = -128 : !croq.tile<64xf32, shared>
  }
  return
}

// -----

func.func @shared_memory_on_warpgroup() {
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{'croq.parallel' op only block-level regions have shared memory, got 'shared_memory' on a 'warpgroup' region}}
    croq.parallel (%w) in [1] : warpgroup attributes {shared_memory = 0 : i64} {
    }
  }
  return
}

// -----

func.func @registers_not_async(%c: i1) {
  croq.parallel (%i) in [1] : block {
    croq.parallel (%w) in [2] : warpgroup {
      // expected-error @+1 {{'croq.inthreads' op 'registers' sets the register count of a warp-specialized role: an async region directly in a warpgroup-level croq.parallel}}
      croq.inthreads %c registers = 56 {
      }
    }
  }
  return
}

// -----

func.func @registers_not_multiple_of_8(%c: i1) {
  croq.parallel (%i) in [1] : block {
    croq.parallel (%w) in [2] : warpgroup {
      // expected-error @+1 {{'croq.inthreads' op 'registers' must be a multiple of 8 (setmaxnreg), got 100}}
      croq.inthreads async %c registers = 100 {
      }
    }
  }
  return
}

// -----

func.func @registers_out_of_range(%c: i1) {
  croq.parallel (%i) in [1] : block {
    croq.parallel (%w) in [2] : warpgroup {
      // expected-error @+1 {{'croq.inthreads' op attribute 'registers' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 24 whose maximum value is 256}}
      croq.inthreads async %c registers = 512 {
      }
    }
  }
  return
}

// -----

func.func @arrivals_zero() {
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{'croq.event.alloc' op attribute 'arrivals' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
    %e = croq.event.alloc arrivals = 0 : !croq.events<2>
  }
  return
}

// -----

func.func @wait_stores_outside_parallel() {
  // expected-error @+1 {{'croq.wait_stores' op waits for the stores of a thread group: it must be inside a croq.parallel region}}
  croq.wait_stores read
  return
}

// -----

func.func @tensor_map_in_kernel(%a: memref<?x?xf16>) {
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{'croq.tensor_map' op runs on the host: it must be outside croq.parallel regions, before the kernel that uses the map}}
    %m, %ok = croq.tensor_map %a box [64, 64] swizzle = 128 : memref<?x?xf16>
  }
  return
}

// -----

func.func @tensor_map_box_rank(%a: memref<?x?xf16>) {
  // expected-error @+1 {{'croq.tensor_map' op expected a box of rank 2 (the tensor's), got 1}}
  %m, %ok = croq.tensor_map %a box [64] swizzle = 128 : memref<?x?xf16>
  return
}

// -----

func.func @tensor_map_box_range(%a: memref<?x?xf16>) {
  // expected-error @+1 {{'croq.tensor_map' op expected box dimension 1 in [1, 256], got 512}}
  %m, %ok = croq.tensor_map %a box [64, 512] swizzle = none : memref<?x?xf16>
  return
}

// -----

func.func @tensor_map_swizzle_auto(%a: memref<?x?xf16>) {
  // expected-error @+1 {{'croq.tensor_map' op a tensor map has a concrete swizzle, got 'auto'}}
  %m, %ok = croq.tensor_map %a box [64, 64] swizzle = auto : memref<?x?xf16>
  return
}

// -----

func.func @dma_copy_with_map(%a: memref<64x64xf16>) {
  %m, %ok = croq.tensor_map %a box [64, 64] swizzle = none : memref<64x64xf16>
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared>
    // expected-error @+1 {{'croq.copy' op only tma copies take a tensor map}}
    croq.copy dma %a -> %t map %m : memref<64x64xf16> -> !croq.tile<64x64xf16, shared>
  }
  return
}

// -----

func.func @copy_map_of_other_tensor(%a: memref<64x64xf16>, %b: memref<64x64xf16>) {
  %m, %ok = croq.tensor_map %b box [64, 64] swizzle = none : memref<64x64xf16>
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared>
    // expected-error @+1 {{'croq.copy' op takes the tensor map of another tensor}}
    croq.copy tma %a -> %t map %m : memref<64x64xf16> -> !croq.tile<64x64xf16, shared>
  }
  return
}

// -----

func.func @copy_usable_without_map(%a: memref<64x64xf16>, %ok: i32) {
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared>
    // expected-error @+1 {{'croq.copy' op 'if' gives whether the runtime could make the tensor map; it needs the map}}
    croq.copy tma %a -> %t if %ok : memref<64x64xf16> -> !croq.tile<64x64xf16, shared>
  }
  return
}

// -----

func.func @mma_map_yield_type(%acc: !croq.acc<64x64xf32>) {
  // expected-error @+1 {{'croq.mma.map' op body must end with croq.yield of one 'f32' value}}
  %r = croq.mma.map %acc (%i, %j, %x) : !croq.acc<64x64xf32> {
    %h = arith.truncf %x : f32 to f16
    croq.yield %h : f16
  }
  return
}

// -----

func.func @mma_map_two_values(%acc: !croq.acc<64x64xf32>) {
  // expected-error @+1 {{'croq.mma.map' op body must end with croq.yield of one 'f32' value}}
  %r = croq.mma.map %acc (%i, %j, %x) : !croq.acc<64x64xf32> {
    croq.yield %x, %x : f32, f32
  }
  return
}

// -----

func.func @mma_map_writes(%acc: !croq.acc<64x64xf32>, %out: memref<64x64xf32>) {
  %r = croq.mma.map %acc (%i, %j, %x) : !croq.acc<64x64xf32> {
    // expected-error @+1 {{'croq.write' op cannot be in the body of a croq.mma.map: the body may only compute and read memory (croq.read)}}
    croq.write %x, %out[%i, %j] : memref<64x64xf32>
    croq.yield %x : f32
  }
  return
}

// -----

func.func @mma_map_memref_store(%acc: !croq.acc<64x64xf32>, %out: memref<64x64xf32>) {
  %r = croq.mma.map %acc (%i, %j, %x) : !croq.acc<64x64xf32> {
    // expected-error @+1 {{'memref.store' op cannot be in the body of a croq.mma.map}}
    memref.store %x, %out[%i, %j] : memref<64x64xf32>
    croq.yield %x : f32
  }
  return
}

// -----

func.func @mma_map_nested_foreach(%acc: !croq.acc<64x64xf32>) {
  %r = croq.mma.map %acc (%i, %j, %x) : !croq.acc<64x64xf32> {
    // expected-error @+1 {{'croq.foreach' op cannot be in the body of a croq.mma.map}}
    croq.foreach (%k) in [4] {
    }
    croq.yield %x : f32
  }
  return
}

// -----

func.func @mma_map_not_acc(%t: memref<64x64xf32>) {
  // expected-error @+1 {{expected accumulator or vector operands, got 'memref<64x64xf32>'}}
  %r = croq.mma.map %t (%i, %j, %x) : memref<64x64xf32> {
    croq.yield %x : f32
  }
  return
}

// -----

func.func @mma_map_arguments(%acc: !croq.acc<64x64xf32>) {
  // expected-error @+1 {{expected 3 block arguments (row, column, then one element per operand), got 2}}
  %r = croq.mma.map %acc (%i, %x) : !croq.acc<64x64xf32> {
    croq.yield %x : f32
  }
  return
}

// -----

func.func @mma_map_body_arguments(%acc: !croq.acc<64x64xf32>) {
  // expected-error @+1 {{'croq.mma.map' op expected body arguments (index, index, f32)}}
  %r = "croq.mma.map"(%acc) ({
  ^bb0(%i: index, %j: index, %x: f16):
    croq.yield %x : f16
  }) : (!croq.acc<64x64xf32>) -> !croq.acc<64x64xf32>
  return
}

// -----

func.func @mma_map_result_type(%acc: !croq.acc<64x64xf32>) {
  // expected-error @+1 {{'croq.mma.map' op failed to verify that all of {acc, result} have same type}}
  %r = "croq.mma.map"(%acc) ({
  ^bb0(%i: index, %j: index, %x: f32):
    croq.yield %x : f32
  }) : (!croq.acc<64x64xf32>) -> !croq.acc<64x128xf32>
  return
}

// -----

func.func @yield_outside_map(%x: f32) {
  // expected-error @+1 {{'croq.yield' op expects parent op to be one of 'croq.mma.map, croq.vec.map'}}
  croq.yield %x : f32
}

// -----

func.func @mma_commit_pending_map(%acc: !croq.acc<64x64xf32>) {
  // expected-error @+1 {{'croq.mma.commit' op result is still being computed (pending = 1); map it after a croq.mma.commit with pending = 0 or a croq.mma.wait}}
  %r = croq.mma.commit %acc pending = 1 : !croq.acc<64x64xf32>
  %m = croq.mma.map %r (%i, %j, %x) : !croq.acc<64x64xf32> {
    croq.yield %x : f32
  }
  return
}

// -----

func.func @mma_map_no_body(%acc: !croq.acc<64x64xf32>) {
  // expected-error @+1 {{'croq.mma.map' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
  %r = "croq.mma.map"(%acc) ({}) : (!croq.acc<64x64xf32>) -> !croq.acc<64x64xf32>
  return
}

// -----

func.func @mma_map_no_yield(%acc: !croq.acc<64x64xf32>) {
  %r = croq.mma.map %acc (%i, %j, %x) : !croq.acc<64x64xf32> {
    // expected-error @+1 {{block with no terminator}}
    %y = arith.addf %x, %x : f32
  }
  return
}

// -----

func.func @mma_map_vec_size(%acc: !croq.acc<64x128xf32>, %v: !croq.vec<128xf32, rows>) {
  // expected-error @+1 {{'croq.mma.map' op input 1 is '!croq.vec<128xf32, rows>', but the accumulator has 64 rows}}
  %r = croq.mma.map %acc, %v (%i, %j, %x, %y) : !croq.acc<64x128xf32>, !croq.vec<128xf32, rows> {
    croq.yield %x : f32
  }
  return
}

// -----

func.func @mma_map_acc_shape(%acc: !croq.acc<64x128xf32>, %b: !croq.acc<64x64xf32>) {
  // expected-error @+1 {{'croq.mma.map' op input 1 is '!croq.acc<64x64xf32>', not an accumulator of the mapped one's shape 64x128}}
  %r = croq.mma.map %acc, %b (%i, %j, %x, %y) : !croq.acc<64x128xf32>, !croq.acc<64x64xf32> {
    croq.yield %x : f32
  }
  return
}

// -----

func.func @mma_map_vec_first(%v: !croq.vec<64xf32, rows>) {
  // expected-error @+1 {{'croq.mma.map' op operand #0 must be an mma accumulator held in registers}}
  %r = croq.mma.map %v (%i, %j, %x) : !croq.vec<64xf32, rows> {
    croq.yield %x : f32
  }
  return
}

// -----

func.func @vec_map_inputs(%a: !croq.vec<64xf32, rows>, %b: !croq.vec<64xf32, cols>) {
  // expected-error @+1 {{'croq.vec.map' op input 1 is '!croq.vec<64xf32, cols>', not a vector of the mapped one's 64 rows}}
  %r = croq.vec.map %a, %b (%i, %x, %y) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, cols> {
    croq.yield %x : f32
  }
  return
}

// -----

func.func @vec_map_yield(%a: !croq.vec<64xf32, rows>) {
  // expected-error @+1 {{'croq.vec.map' op body must end with croq.yield of one 'f32' value}}
  %r = croq.vec.map %a (%i, %x) : !croq.vec<64xf32, rows> {
    %h = arith.truncf %x : f32 to f16
    croq.yield %h : f16
  }
  return
}

// -----

func.func @vec_map_arguments(%a: !croq.vec<64xf32, rows>) {
  // expected-error @+1 {{expected 2 block arguments (index, then one element per operand), got 3}}
  %r = croq.vec.map %a (%i, %j, %x) : !croq.vec<64xf32, rows> {
    croq.yield %x : f32
  }
  return
}

// -----

func.func @vec_map_writes(%a: !croq.vec<64xf32, rows>, %m: memref<64xf32>) {
  %r = croq.vec.map %a (%i, %x) : !croq.vec<64xf32, rows> {
    // expected-error @+1 {{'memref.store' op cannot be in the body of a croq.vec.map: the body may only compute and read memory (croq.read)}}
    memref.store %x, %m[%i] : memref<64xf32>
    croq.yield %x : f32
  }
  return
}

// -----

func.func @vec_store_element_type(%a: !croq.vec<64xf32, rows>, %m: memref<64xf16>) {
  // expected-error @+1 {{'croq.vec.store' op destination element type 'f16' differs from the vector's 'f32'}}
  croq.vec.store %a -> %m : !croq.vec<64xf32, rows> -> memref<64xf16>
  return
}

// -----

func.func @vec_store_shape(%a: !croq.vec<64xf32, rows>, %m: memref<2x64xf32>) {
  // expected-error @+1 {{'croq.vec.store' op destination must be 1 x .. x 1 x 64 (the vector's elements along its innermost dimension), got 'memref<2x64xf32>'}}
  croq.vec.store %a -> %m : !croq.vec<64xf32, rows> -> memref<2x64xf32>
  return
}

// -----

func.func @vec_fill_type(%x: f16) {
  // expected-error @+1 {{'croq.vec.fill' op failed to verify that value matches the vector element type}}
  %v = "croq.vec.fill"(%x) : (f16) -> !croq.vec<64xf32, rows>
  return
}

// -----

// expected-error @+1 {{expected 'rows' or 'cols', got 'diagonal'}}
func.func @vec_axis(%v: !croq.vec<64xf32, diagonal>) {
  return
}

// -----

// expected-error @+1 {{expected a 1-d vector, got rank 2}}
func.func @vec_rank(%v: !croq.vec<64x2xf32, rows>) {
  return
}

// -----

// expected-error @+1 {{expected a positive size, got 0}}
func.func @vec_size(%v: !croq.vec<0xf32, rows>) {
  return
}

// -----

func.func @mma_reduce_element(%acc: !croq.acc<64x128xf32>) {
  // expected-error @+1 {{'croq.mma.reduce' op result element type 'f16' does not match the accumulator's 'f32'}}
  %v = croq.mma.reduce max %acc : !croq.acc<64x128xf32> -> !croq.vec<64xf16, rows>
  return
}

// -----

func.func @mma_reduce_size(%acc: !croq.acc<64x128xf32>) {
  // expected-error @+1 {{'croq.mma.reduce' op a reduction of each row of '!croq.acc<64x128xf32>' has 64 elements, not 128}}
  %v = croq.mma.reduce max %acc : !croq.acc<64x128xf32> -> !croq.vec<128xf32, rows>
  return
}

// -----

func.func @mma_reduce_rows_scratch(%acc: !croq.acc<64x128xf32>, %t: !croq.tile<4x128xf32, shared>) {
  // expected-error @+1 {{'croq.mma.reduce' op rows reduce across the lanes of a quad; a scratch tile is only for column reductions}}
  %v = croq.mma.reduce sum %acc scratch %t : !croq.acc<64x128xf32>, !croq.tile<4x128xf32, shared> -> !croq.vec<64xf32, rows>
  return
}

// -----

func.func @mma_reduce_cols_no_scratch(%acc: !croq.acc<64x128xf32>) {
  // expected-error @+1 {{'croq.mma.reduce' op a column reduction combines the four warps' partial results in shared memory: give it a scratch tile of 4x128xf32}}
  %v = croq.mma.reduce sum %acc : !croq.acc<64x128xf32> -> !croq.vec<128xf32, cols>
  return
}

// -----

func.func @mma_reduce_scratch_shape(%acc: !croq.acc<64x128xf32>, %t: !croq.tile<4x64xf32, shared>) {
  // expected-error @+1 {{'croq.mma.reduce' op scratch must be a shared tile of 4x128xf32, got '!croq.tile<4x64xf32, shared>'}}
  %v = croq.mma.reduce sum %acc scratch %t : !croq.acc<64x128xf32>, !croq.tile<4x64xf32, shared> -> !croq.vec<128xf32, cols>
  return
}

// -----

func.func @mma_reduce_scratch_space(%acc: !croq.acc<64x128xf32>, %t: !croq.tile<4x128xf32, local>) {
  // expected-error @+1 {{'croq.mma.reduce' op scratch must be a shared tile of 4x128xf32, got '!croq.tile<4x128xf32, local>'}}
  %v = croq.mma.reduce sum %acc scratch %t : !croq.acc<64x128xf32>, !croq.tile<4x128xf32, local> -> !croq.vec<128xf32, cols>
  return
}

// -----

func.func @mma_commit_pending_reduce(%acc: !croq.acc<64x64xf32>) {
  // expected-error @+1 {{'croq.mma.commit' op result is still being computed (pending = 2); reduce it after a croq.mma.commit with pending = 0 or a croq.mma.wait}}
  %r = croq.mma.commit %acc pending = 2 : !croq.acc<64x64xf32>
  %v = croq.mma.reduce max %r : !croq.acc<64x64xf32> -> !croq.vec<64xf32, rows>
  return
}

// -----

func.func @mma_commit_pending_convert(%acc: !croq.acc<64x64xf32>) {
  // expected-error @+1 {{'croq.mma.commit' op result is still being computed (pending = 1); convert it after a croq.mma.commit with pending = 0 or a croq.mma.wait}}
  %r = croq.mma.commit %acc pending = 1 : !croq.acc<64x64xf32>
  %p = croq.mma.convert %r : !croq.acc<64x64xf32> -> !croq.frag<64x64xf16, registers>
  return
}

// -----

func.func @mma_convert_not_registers(%acc: !croq.acc<64x64xf32>) {
  // expected-error @+1 {{'croq.mma.convert' op converts to an operand in registers: the result type needs ', registers'}}
  %p = croq.mma.convert %acc : !croq.acc<64x64xf32> -> !croq.frag<64x64xf16>
  return
}

// -----

func.func @mma_convert_shape(%acc: !croq.acc<64x64xf32>) {
  // expected-error @+1 {{'croq.mma.convert' op result shape 64x128 differs from the accumulator's 64x64}}
  %p = croq.mma.convert %acc : !croq.acc<64x64xf32> -> !croq.frag<64x128xf16, registers>
  return
}

// -----

func.func @mma_convert_element(%acc: !croq.acc<64x64xf32>) {
  // expected-error @+1 {{'croq.mma.convert' op an A operand in registers is f16 or bf16, got 'f8E4M3FN'}}
  %p = croq.mma.convert %acc : !croq.acc<64x64xf32> -> !croq.frag<64x64xf8E4M3FN, registers>
  return
}

// -----

func.func @mma_convert_acc(%acc: !croq.acc<64x64xi32>) {
  // expected-error @+1 {{'croq.mma.convert' op converts f32 accumulators, got 'i32'}}
  %p = croq.mma.convert %acc : !croq.acc<64x64xi32> -> !croq.frag<64x64xf16, registers>
  return
}

// -----

func.func @mma_convert_tile(%acc: !croq.acc<32x24xf32>) {
  // expected-error @+1 {{'croq.mma.convert' op an A operand in registers is a multiple of 64 rows (one wgmma) by a multiple of 16 columns (its K), got 32x24}}
  %p = croq.mma.convert %acc : !croq.acc<32x24xf32> -> !croq.frag<32x24xf16, registers>
  return
}

// -----

func.func @mma_b_registers(%acc: !croq.acc<64x64xf32>, %a: !croq.frag<64x64xf16>, %b: !croq.frag<64x64xf16, registers>) {
  // expected-error @+1 {{'croq.mma' op operand B is read from shared memory; only A can come from registers}}
  %r = croq.mma row row %acc, %a, %b : !croq.frag<64x64xf16>, !croq.frag<64x64xf16, registers> -> !croq.acc<64x64xf32>
  return
}

// -----

func.func @mma_a_registers_col(%acc: !croq.acc<64x64xf32>, %a: !croq.frag<64x64xf16, registers>, %b: !croq.frag<64x64xf16>) {
  // expected-error @+1 {{'croq.mma' op an A operand in registers is M x K: its layout must be 'row'}}
  %r = croq.mma col row %acc, %a, %b : !croq.frag<64x64xf16, registers>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
  return
}

// -----

func.func @mma_a_registers_f8(%acc: !croq.acc<64x64xf32>, %a: !croq.frag<64x64xf8E4M3FN, registers>, %b: !croq.frag<64x64xf8E4M3FN>) {
  // expected-error @+1 {{'croq.mma' op an A operand in registers must be f16 or bf16, got 'f8E4M3FN'}}
  %r = croq.mma row row %acc, %a, %b : !croq.frag<64x64xf8E4M3FN, registers>, !croq.frag<64x64xf8E4M3FN> -> !croq.acc<64x64xf32>
  return
}

// -----

func.func @mma_load_registers(%t: !croq.tile<64x64xf16, shared, swizzle = 128>) {
  // expected-error @+1 {{'croq.mma.load' op loads an operand in shared memory, not in registers; croq.mma.convert makes register operands}}
  %a = croq.mma.load %t : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16, registers>
  return
}

// -----

// expected-error @+1 {{expected 'registers'}}
func.func @frag_keyword(%a: !croq.frag<64x64xf16, shared>) {
  return
}


// -----

func.func @read_vector_wrong_element(%t: !croq.tile<64xf16, shared>, %i: index) {
  // expected-error @+1 {{'croq.read' op accesses 'vector<8xf32>', which is neither the element type 'f16' nor a 1-d vector of it}}
  %v = croq.read %t[%i] in_bounds : !croq.tile<64xf16, shared> -> vector<8xf32>
  return
}

// -----

func.func @read_vector_2d(%t: !croq.tile<64xf16, shared>, %i: index) {
  // expected-error @+1 {{'croq.read' op accesses 'vector<2x4xf16>', which is neither the element type 'f16' nor a 1-d vector of it}}
  %v = croq.read %t[%i] in_bounds : !croq.tile<64xf16, shared> -> vector<2x4xf16>
  return
}

// -----

func.func @read_vector_index_elements(%m: memref<64xindex>, %i: index) {
  // expected-error @+1 {{'croq.read' op vector accesses need integer or float elements}}
  %v = croq.read %m[%i] in_bounds : memref<64xindex> -> vector<2xindex>
  return
}

// -----

func.func @read_vector_bytes(%t: !croq.tile<64xf16, shared>, %i: index) {
  // expected-error @+1 {{'croq.read' op a vector access moves 4, 8 or 16 bytes, got 'vector<16xf16>'}}
  %v = croq.read %t[%i] in_bounds : !croq.tile<64xf16, shared> -> vector<16xf16>
  return
}

// -----

func.func @read_vector_not_in_bounds(%w: !croq.view<64xf16>, %i: index) {
  // expected-error @+1 {{'croq.read' op a vector access must be in_bounds: the edge of a tensor is tested element by element}}
  %v = croq.read %w[%i] : !croq.view<64xf16> -> vector<8xf16>
  return
}

// -----

func.func @read_vector_strided(%m: memref<64xf16, strided<[2]>>, %i: index) {
  // expected-error @+1 {{'croq.read' op a vector access needs a buffer whose innermost dimension has unit stride}}
  %v = croq.read %m[%i] in_bounds : memref<64xf16, strided<[2]>> -> vector<8xf16>
  return
}

// -----

func.func @write_vector_wrong_element(%t: !croq.tile<64xf16, shared>, %x: vector<4xi32>, %i: index) {
  // expected-error @+1 {{'croq.write' op accesses 'vector<4xi32>', which is neither the element type 'f16' nor a 1-d vector of it}}
  croq.write %x, %t[%i] in_bounds : !croq.tile<64xf16, shared> -> vector<4xi32>
  return
}

// -----

func.func @thread_index_of_thread() {
  // expected-error @+1 {{'croq.thread_index' op expects a block or a warpgroup, not thread: a thread alone is its own group}}
  %t = croq.thread_index thread
  return
}

// -----

func.func @warp_index_of_thread() {
  // expected-error @+1 {{'croq.warp_index' op expects a block or a warpgroup, not thread: a thread alone is its own group}}
  %w = croq.warp_index thread
  return
}

// -----

func.func @barrier_of_thread() {
  // expected-error @+1 {{'croq.barrier' op expects a block or a warpgroup, not thread: a thread alone is its own group}}
  croq.barrier thread
  return
}

// -----

func.func @is_aligned_not_power_of_two(%w: !croq.view<64xf16>) {
  // expected-error @+1 {{'croq.is_aligned' op expects a power of two of bytes, got 12}}
  %ok = croq.is_aligned %w, 12 : !croq.view<64xf16>
  return
}

// -----

func.func @is_aligned_zero(%w: !croq.view<64xf16>) {
  // expected-error @+1 {{'croq.is_aligned' op attribute 'bytes' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %ok = croq.is_aligned %w, 0 : !croq.view<64xf16>
  return
}

// -----

func.func @copy_chunk_source_indices(%w: !croq.view<64x64xf16>, %t: !croq.tile<64x64xf16, shared>, %i: index, %n: index) {
  // expected-error @+1 {{'croq.copy_chunk' op expected 2 source indices for a rank-2 buffer, got 1}}
  croq.copy_chunk %w[%i] -> %t[%i, %i] width 8 valid %n : !croq.view<64x64xf16>, !croq.tile<64x64xf16, shared>
  return
}

// -----

func.func @copy_chunk_dest_indices(%w: !croq.view<64x64xf16>, %t: !croq.tile<64x64xf16, shared>, %i: index, %n: index) {
  // expected-error @+1 {{'croq.copy_chunk' op expected 2 destination indices for a rank-2 buffer, got 3}}
  croq.copy_chunk %w[%i, %i] -> %t[%i, %i, %i] width 8 valid %n : !croq.view<64x64xf16>, !croq.tile<64x64xf16, shared>
  return
}

// -----

func.func @copy_chunk_from_shared(%s: !croq.tile<64xf16, shared>, %t: !croq.tile<64xf16, shared>, %i: index, %n: index) {
  // expected-error @+1 {{'croq.copy_chunk' op copies from global memory, got a source in shared memory}}
  croq.copy_chunk %s[%i] -> %t[%i] width 8 valid %n : !croq.tile<64xf16, shared>, !croq.tile<64xf16, shared>
  return
}

// -----

func.func @copy_chunk_to_local(%w: !croq.view<64xf16>, %t: !croq.tile<64xf16, local>, %i: index, %n: index) {
  // expected-error @+1 {{'croq.copy_chunk' op copies into shared memory, got a destination in local memory}}
  croq.copy_chunk %w[%i] -> %t[%i] width 8 valid %n : !croq.view<64xf16>, !croq.tile<64xf16, local>
  return
}

// -----

func.func @copy_chunk_element_types(%w: !croq.view<64xf16>, %t: !croq.tile<64xbf16, shared>, %i: index, %n: index) {
  // expected-error @+1 {{'croq.copy_chunk' op source and destination element types differ: 'f16' vs 'bf16'}}
  croq.copy_chunk %w[%i] -> %t[%i] width 8 valid %n : !croq.view<64xf16>, !croq.tile<64xbf16, shared>
  return
}

// -----

func.func @copy_chunk_sub_byte(%w: !croq.view<64xi4>, %t: !croq.tile<64xi4, shared>, %i: index, %n: index) {
  // expected-error @+1 {{'croq.copy_chunk' op copies whole bytes of integer or float elements, got 'i4'}}
  croq.copy_chunk %w[%i] -> %t[%i] width 8 valid %n : !croq.view<64xi4>, !croq.tile<64xi4, shared>
  return
}

// -----

func.func @copy_chunk_bytes(%w: !croq.view<64xf16>, %t: !croq.tile<64xf16, shared>, %i: index, %n: index) {
  // expected-error @+1 {{'croq.copy_chunk' op a chunk is 4, 8 or 16 bytes, got 3 x 'f16'}}
  croq.copy_chunk %w[%i] -> %t[%i] width 3 valid %n : !croq.view<64xf16>, !croq.tile<64xf16, shared>
  return
}

// -----

func.func @copy_chunk_strided(%m: memref<64xf16, strided<[2]>>, %t: !croq.tile<64xf16, shared>, %i: index, %n: index) {
  // expected-error @+1 {{'croq.copy_chunk' op a chunk lies in the innermost dimension, which must have unit stride}}
  croq.copy_chunk %m[%i] -> %t[%i] width 8 valid %n : memref<64xf16, strided<[2]>>, !croq.tile<64xf16, shared>
  return
}

// -----

func.func @boxes_on_dma(%v: !croq.view<64x64xf16>, %t: !croq.tile<64x64xf16, shared>) {
  // expected-error @+1 {{'croq.copy' op only tma copies are made of boxes}}
  croq.copy dma %v -> %t boxes [64, 64] at [[0, 0]] : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared>
  return
}

// -----

func.func @box_without_origins(%v: !croq.view<64x64xf16>, %t: !croq.tile<64x64xf16, shared, swizzle = 128>) {
  // expected-error @+1 {{'croq.copy' op boxes need both the box shape and the origins}}
  croq.copy tma %v -> %t {box = array<i64: 64, 64>} : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
  return
}

// -----

func.func @boxes_of_a_view(%v: !croq.view<64x64xf16>, %t: !croq.view<64x64xf16, shared>) {
  // expected-error @+1 {{'croq.copy' op boxes are planned for a whole shared tile with a concrete layout, got '!croq.view<64x64xf16, shared>'}}
  croq.copy tma %v -> %t boxes [64, 64] at [[0, 0]] : !croq.view<64x64xf16> -> !croq.view<64x64xf16, shared>
  return
}

// -----

func.func @box_shape(%v: !croq.view<64x128xf16>, %t: !croq.tile<64x128xf16, shared, swizzle = 128>) {
  // expected-error @+1 {{'croq.copy' op the box of '!croq.tile<64x128xf16, shared, swizzle = 128>' is [64, 64], got [64, 128]}}
  croq.copy tma %v -> %t boxes [64, 128] at [[0, 0]] : !croq.view<64x128xf16> -> !croq.tile<64x128xf16, shared, swizzle = 128>
  return
}

// -----

func.func @box_origins_rank(%v: !croq.view<64x128xf16>, %t: !croq.tile<64x128xf16, shared, swizzle = 128>) {
  // expected-error @+1 {{'croq.copy' op box origins come in groups of 2 coordinates, got 3}}
  croq.copy tma %v -> %t boxes [64, 64] at [[0, 0, 64]] : !croq.view<64x128xf16> -> !croq.tile<64x128xf16, shared, swizzle = 128>
  return
}

// -----

func.func @box_count(%v: !croq.view<64x128xf16>, %t: !croq.tile<64x128xf16, shared, swizzle = 128>) {
  // expected-error @+1 {{'croq.copy' op the tile is covered by 2 boxes, got 1}}
  croq.copy tma %v -> %t boxes [64, 64] at [[0, 0]] : !croq.view<64x128xf16> -> !croq.tile<64x128xf16, shared, swizzle = 128>
  return
}

// -----

func.func @box_off_grid(%v: !croq.view<64x128xf16>, %t: !croq.tile<64x128xf16, shared, swizzle = 128>) {
  // expected-error @+1 {{'croq.copy' op box 1 at [0, 32] is not on the box grid inside the tile [64, 128]}}
  croq.copy tma %v -> %t boxes [64, 64] at [[0, 0], [0, 32]] : !croq.view<64x128xf16> -> !croq.tile<64x128xf16, shared, swizzle = 128>
  return
}

// -----

func.func @box_repeated(%v: !croq.view<64x128xf16>, %t: !croq.tile<64x128xf16, shared, swizzle = 128>) {
  // expected-error @+1 {{'croq.copy' op box 1 at [0, 64] repeats an earlier box}}
  croq.copy tma %v -> %t boxes [64, 64] at [[0, 64], [0, 64]] : !croq.view<64x128xf16> -> !croq.tile<64x128xf16, shared, swizzle = 128>
  return
}

// -----

// Sizes near INT64_MAX are refused, not multiplied out (fuzzer finding).
func.func @read_vector_huge(%t: !croq.tile<64xf16, shared>, %i: index) {
  // expected-error @+1 {{'croq.read' op a vector access moves 4, 8 or 16 bytes, got 'vector<9223372036854775806xf16>'}}
  %v = croq.read %t[%i] in_bounds : !croq.tile<64xf16, shared> -> vector<9223372036854775806xf16>
  return
}

// -----

func.func @copy_chunk_huge(%w: !croq.view<64xf16>, %t: !croq.tile<64xf16, shared>, %i: index, %n: index) {
  // expected-error @+1 {{'croq.copy_chunk' op a chunk is 4, 8 or 16 bytes, got 9223372036854775807 x 'f16'}}
  croq.copy_chunk %w[%i] -> %t[%i] width 9223372036854775807 valid %n : !croq.view<64xf16>, !croq.tile<64xf16, shared>
  return
}

// -----

func.func @box_origin_huge(%v: !croq.view<64x128xf16>, %t: !croq.tile<64x128xf16, shared, swizzle = 128>) {
  // expected-error @+1 {{'croq.copy' op box 1 at [0, 9223372036854775744] is not on the box grid inside the tile [64, 128]}}
  croq.copy tma %v -> %t boxes [64, 64] at [[0, 0], [0, 9223372036854775744]] : !croq.view<64x128xf16> -> !croq.tile<64x128xf16, shared, swizzle = 128>
  return
}

// -----

func.func @mma_slice_element(%acc: !croq.acc<64x64xf32>) {
  // expected-error @+1 {{'croq.mma.slice' op result element type 'i32' differs from the accumulator's 'f32'}}
  %s = croq.mma.slice %acc[0] : !croq.acc<64x64xf32> -> !croq.acc<64x32xi32>
  return
}

// -----

func.func @mma_slice_rows(%acc: !croq.acc<128x64xf32>) {
  // expected-error @+1 {{'croq.mma.slice' op result has 64 rows, the accumulator 128: a slice takes columns of every row}}
  %s = croq.mma.slice %acc[0] : !croq.acc<128x64xf32> -> !croq.acc<64x32xf32>
  return
}

// -----

func.func @mma_slice_column(%acc: !croq.acc<64x64xf32>) {
  // expected-error @+1 {{'croq.mma.slice' op column 4 and width 32 must be multiples of 8, the columns of one register group of the accumulator}}
  %s = croq.mma.slice %acc[4] : !croq.acc<64x64xf32> -> !croq.acc<64x32xf32>
  return
}

// -----

func.func @mma_slice_width(%acc: !croq.acc<64x64xf32>) {
  // expected-error @+1 {{'croq.mma.slice' op column 0 and width 12 must be multiples of 8, the columns of one register group of the accumulator}}
  %s = croq.mma.slice %acc[0] : !croq.acc<64x64xf32> -> !croq.acc<64x12xf32>
  return
}

// -----

func.func @mma_slice_outside(%acc: !croq.acc<64x64xf32>) {
  // expected-error @+1 {{'croq.mma.slice' op columns [48, 80) are not inside the accumulator's 64}}
  %s = croq.mma.slice %acc[48] : !croq.acc<64x64xf32> -> !croq.acc<64x32xf32>
  return
}

// -----

func.func @mma_slice_negative(%acc: !croq.acc<64x64xf32>) {
  // expected-error @+1 {{'croq.mma.slice' op columns [-8, 24) are not inside the accumulator's 64}}
  %s = croq.mma.slice %acc[-8] : !croq.acc<64x64xf32> -> !croq.acc<64x32xf32>
  return
}

// -----

func.func @mma_commit_pending_slice(%acc: !croq.acc<64x64xf32>) {
  // expected-error @+1 {{'croq.mma.commit' op result is still being computed (pending = 1); slice it after a croq.mma.commit with pending = 0 or a croq.mma.wait}}
  %r = croq.mma.commit %acc pending = 1 : !croq.acc<64x64xf32>
  %s = croq.mma.slice %r[0] : !croq.acc<64x64xf32> -> !croq.acc<64x32xf32>
  return
}

// -----

func.func @accumulate_f16(%a: !croq.acc<64x64xf16>, %m: memref<64x64xf32>) {
  // expected-error @+1 {{'croq.mma.accumulate' op adds an f32 accumulator into f32 elements, not 'f16' into 'f32'}}
  croq.mma.accumulate %a -> %m : !croq.acc<64x64xf16> -> memref<64x64xf32>
  return
}

// -----

func.func @accumulate_into_f16(%a: !croq.acc<64x64xf32>, %m: memref<64x64xf16>) {
  // expected-error @+1 {{'croq.mma.accumulate' op adds an f32 accumulator into f32 elements, not 'f32' into 'f16'}}
  croq.mma.accumulate %a -> %m : !croq.acc<64x64xf32> -> memref<64x64xf16>
  return
}

// -----

func.func @accumulate_rank(%a: !croq.acc<64x64xf32>, %m: memref<1x64x64xf32>) {
  // expected-error @+1 {{'croq.mma.accumulate' op expected a 2-d destination, got rank 3}}
  croq.mma.accumulate %a -> %m : !croq.acc<64x64xf32> -> memref<1x64x64xf32>
  return
}

// -----

func.func @accumulate_shape(%a: !croq.acc<64x64xf32>, %m: memref<64x32xf32>) {
  // expected-error @+1 {{'croq.mma.accumulate' op destination dimension 1 (32) does not match the accumulator's (64)}}
  croq.mma.accumulate %a -> %m : !croq.acc<64x64xf32> -> memref<64x32xf32>
  return
}

// -----

func.func @accumulate_shared(%a: !croq.acc<64x64xf32>, %m: memref<64x64xf32, 3>) {
  // expected-error @+1 {{'croq.mma.accumulate' op adds into global memory (no memory space), not 'memref<64x64xf32, 3>'}}
  croq.mma.accumulate %a -> %m : !croq.acc<64x64xf32> -> memref<64x64xf32, 3>
  return
}

// -----

func.func @turn_wait_shared(%c: memref<8xi32, 3>, %i: index) {
  croq.parallel (%b) in [1] : block {
    // expected-error @+1 {{'croq.turn.wait' op expects counters in global memory (no memory space), got 'memref<8xi32, 3>'}}
    croq.turn.wait %c[%i] until %i : memref<8xi32, 3>
  }
  return
}

// -----

func.func @turn_wait_outside(%c: memref<?xi32>, %i: index) {
  // expected-error @+1 {{'croq.turn.wait' op must be inside a block-level croq.parallel region: its block or warpgroup waits or passes together}}
  croq.turn.wait %c[%i] until %i : memref<?xi32>
  return
}

// -----

func.func @turn_pass_outside(%c: memref<?xi32>, %i: index) {
  // expected-error @+1 {{'croq.turn.pass' op must be inside a block-level croq.parallel region: its block or warpgroup waits or passes together}}
  croq.turn.pass %c[%i] : memref<?xi32>
  return
}

// -----

func.func @turn_pass_i64(%c: memref<?xi64>, %i: index) {
  // expected-error @+1 {{'croq.turn.pass' op operand #0 must be 1D memref of 32-bit signless integer values}}
  croq.turn.pass %c[%i] : memref<?xi64>
  return
}

// -----

func.func @bulk_add_local(%t: !croq.tile<16x16xf32, local>, %m: memref<256xf32>) {
  // expected-error @+1 {{'croq.bulk_add' op adds a shared tile, not '!croq.tile<16x16xf32, local>'}}
  croq.bulk_add %t -> %m : !croq.tile<16x16xf32, local> -> memref<256xf32>
  return
}

// -----

func.func @bulk_add_f16(%t: !croq.tile<16x16xf16, shared>, %m: memref<256xf16>) {
  // expected-error @+1 {{'croq.bulk_add' op adds f32 elements, not 'f16' into 'f16'}}
  croq.bulk_add %t -> %m : !croq.tile<16x16xf16, shared> -> memref<256xf16>
  return
}

// -----

func.func @bulk_add_rank(%t: !croq.tile<16x16xf32, shared>, %m: memref<16x16xf32>) {
  // expected-error @+1 {{'croq.bulk_add' op expected a 1-d destination (consecutive elements), got rank 2}}
  croq.bulk_add %t -> %m : !croq.tile<16x16xf32, shared> -> memref<16x16xf32>
  return
}

// -----

func.func @bulk_add_count(%t: !croq.tile<16x16xf32, shared>, %m: memref<255xf32>) {
  // expected-error @+1 {{'croq.bulk_add' op destination of 255 elements for a tile of 256}}
  croq.bulk_add %t -> %m : !croq.tile<16x16xf32, shared> -> memref<255xf32>
  return
}

// -----

func.func @bulk_add_bytes(%t: !croq.tile<1x3xf32, shared>, %m: memref<3xf32>) {
  // expected-error @+1 {{'croq.bulk_add' op a bulk add moves a multiple of 16 bytes, not 12}}
  croq.bulk_add %t -> %m : !croq.tile<1x3xf32, shared> -> memref<3xf32>
  return
}

// -----

func.func @bulk_add_shared_dest(%t: !croq.tile<16x16xf32, shared>, %m: memref<256xf32, 3>) {
  // expected-error @+1 {{'croq.bulk_add' op adds into global memory (no memory space), not 'memref<256xf32, 3>'}}
  croq.bulk_add %t -> %m : !croq.tile<16x16xf32, shared> -> memref<256xf32, 3>
  return
}
