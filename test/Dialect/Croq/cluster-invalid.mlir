// RUN: croq-opt %s -split-input-file -verify-diagnostics

// Thread block clusters: the shape of `cluster [...]` on a block-level
// croq.parallel, and the ops that need one.

func.func @cluster_on_warpgroups() {
  croq.parallel (%b) in [4] : block {
    // expected-error @+1 {{'croq.parallel' op only block-level regions are launched in clusters, got a cluster on a 'warpgroup' region}}
    croq.parallel (%w) in [2] : warpgroup cluster [2] {
    }
  }
  return
}

// -----

func.func @cluster_rank_mismatch() {
  // expected-error @+1 {{'croq.parallel' op expected a cluster size for each of the 2 dimensions of the grid, got 1}}
  croq.parallel (%i, %j) in [4, 4] : block cluster [2] {
  }
  return
}

// -----

func.func @cluster_size_zero() {
  // expected-error @+1 {{'croq.parallel' op expected positive cluster sizes, got 0}}
  croq.parallel (%i) in [4] : block cluster [0] {
  }
  return
}

// -----

func.func @extent_not_a_multiple() {
  // expected-error @+1 {{'croq.parallel' op a grid extent must be a multiple of the cluster's size in its dimension, got extent 6 for a cluster size of 4}}
  croq.parallel (%i) in [6] : block cluster [4] {
  }
  return
}

// -----

func.func @cluster_too_large() {
  // expected-error @+1 {{'croq.parallel' op a cluster has at most 8 blocks, got 16}}
  croq.parallel (%i, %j) in [16, 16] : block cluster [4, 4] {
  }
  return
}

// -----

func.func @rank_without_cluster() {
  croq.parallel (%i) in [4] : block {
    // expected-error @+1 {{'croq.cluster.rank' op must be inside a block-level croq.parallel region launched in clusters (`cluster [...]`)}}
    %r = croq.cluster.rank
  }
  return
}

// -----

func.func @barrier_outside_a_kernel() {
  // expected-error @+1 {{'croq.cluster.barrier' op must be inside a block-level croq.parallel region launched in clusters (`cluster [...]`)}}
  croq.cluster.barrier
  return
}

// -----

// Multicast shares a load among the blocks of a cluster.
func.func @multicast_outside_cluster(%v: !croq.view<128x64xf16>, %t: !croq.tile<128x64xf16, shared, swizzle = 128>) {
  croq.parallel (%b) in [4] : block {
    // expected-error @+1 {{'croq.copy' op multicast shares the copy among the blocks of a cluster, but it is not inside a block-level croq.parallel region launched in clusters}}
    croq.copy tma multicast %v -> %t : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

func.func @multicast_dma(%v: !croq.view<128x64xf16>, %t: !croq.tile<128x64xf16, shared, swizzle = 128>) {
  croq.parallel (%b) in [4] : block cluster [2] {
    // expected-error @+1 {{'croq.copy' op only tma loads into shared memory are multicast}}
    croq.copy dma multicast %v -> %t : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

func.func @multicast_store(%v: !croq.view<128x64xf16>, %t: !croq.tile<128x64xf16, shared, swizzle = 128>) {
  croq.parallel (%b) in [4] : block cluster [2] {
    // expected-error @+1 {{'croq.copy' op only tma loads into shared memory are multicast}}
    croq.copy tma multicast %t -> %v : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x64xf16>
  }
  return
}

// -----

// `multicast along d` names a dimension of the cluster.
func.func @multicast_along_missing_dimension(%v: !croq.view<128x64xf16>, %t: !croq.tile<128x64xf16, shared, swizzle = 128>) {
  croq.parallel (%i, %j) in [4, 8] : block cluster [2, 4] {
    // expected-error @+1 {{'croq.copy' op multicast along cluster dimension 2, but its cluster has 2 dimensions}}
    croq.copy tma multicast along 2 %v -> %t : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

func.func @multicast_along_negative(%v: !croq.view<128x64xf16>, %t: !croq.tile<128x64xf16, shared, swizzle = 128>) {
  croq.parallel (%i, %j) in [4, 8] : block cluster [2, 4] {
    // expected-error @+1 {{expected a cluster dimension (>= 0), got -1}}
    croq.copy tma multicast along -1 %v -> %t : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

// A dimension without multicast (the generic form) shares nothing.
func.func @multicast_dimension_alone(%v: !croq.view<128x64xf16>, %t: !croq.tile<128x64xf16, shared, swizzle = 128>) {
  croq.parallel (%i, %j) in [4, 8] : block cluster [2, 4] {
    // expected-error @+1 {{'croq.copy' op has a multicast dimension but is not multicast}}
    "croq.copy"(%v, %t) <{engine = 1 : i32, multicastDim = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (!croq.view<128x64xf16>, !croq.tile<128x64xf16, shared, swizzle = 128>) -> ()
  }
  return
}

// -----

// A load multicast along a dimension is shared by that dimension's blocks
// alone: 128x64 along the 4 blocks of dimension 1 is four boxes of 32x64.
func.func @multicast_along_box(%v: !croq.view<128x64xf16>, %t: !croq.tile<128x64xf16, shared, swizzle = 128>) {
  croq.parallel (%i, %j) in [4, 8] : block cluster [2, 4] {
    // expected-error @+1 {{'croq.copy' op the box of '!croq.tile<128x64xf16, shared, swizzle = 128>' shared by a cluster is [32, 64], got [64, 64]}}
    croq.copy tma multicast along 1 %v -> %t boxes [64, 64] at [[0, 0], [64, 0]] : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

// The boxes of a multicast copy are cut so that the cluster's blocks issue
// equal shares: 128x64 in clusters of 2 is two boxes of 64x64.
func.func @multicast_whole_box(%v: !croq.view<128x64xf16>, %t: !croq.tile<128x64xf16, shared, swizzle = 128>) {
  croq.parallel (%b) in [4] : block cluster [2] {
    // expected-error @+1 {{'croq.copy' op the box of '!croq.tile<128x64xf16, shared, swizzle = 128>' shared by a cluster is [64, 64], got [128, 64]}}
    croq.copy tma multicast %v -> %t boxes [128, 64] at [[0, 0]] : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

// 8 rows of 128 bytes in clusters of 8: shares of one row would not start
// on a 1024-byte swizzle atom.
func.func @multicast_unshareable(%v: !croq.view<8x64xf16>, %t: !croq.tile<8x64xf16, shared, swizzle = 128>) {
  croq.parallel (%b) in [8] : block cluster [8] {
    // expected-error @+1 {{'croq.copy' op the boxes of '!croq.tile<8x64xf16, shared, swizzle = 128>' cannot be shared equally by the 8 blocks of a cluster}}
    croq.copy tma multicast %v -> %t boxes [8, 64] at [[0, 0]] : !croq.view<8x64xf16> -> !croq.tile<8x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

// A cluster trigger signals the event in every block of the cluster.
func.func @cluster_trigger_outside_cluster() {
  croq.parallel (%b) in [4] : block {
    %e = croq.event.alloc ready : !croq.events<2>
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'croq.event.trigger' op a cluster trigger must be inside a block-level croq.parallel region launched in clusters}}
    croq.event.trigger %e[%c0] cluster : !croq.events<2>
  }
  return
}

// -----

func.func @cluster_trigger_after_loads(%v: !croq.view<128x64xf16>, %t: !croq.tile<128x64xf16, shared, swizzle = 128>) {
  croq.parallel (%b) in [4] : block cluster [2] {
    %e = croq.event.alloc : !croq.events<2>
    %c0 = arith.constant 0 : index
    %f = croq.copy tma async multicast %v -> %t : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
    // expected-error @+1 {{'croq.event.trigger' op a cluster trigger signals the other blocks of the cluster and takes no futures; trigger after the loads in this block only}}
    croq.event.trigger %e[%c0] after (%f) cluster : !croq.events<2>
  }
  return
}

// -----

// croq.mma.cluster_sum: inside a kernel launched in clusters of at least
// two blocks, not in a loop, f32 or i32 accumulators, a scratch tile of a
// slot per other block.

func.func @cluster_sum_not_in_cluster() {
  croq.parallel (%i) in [4] : block {
    %s = croq.alloc : !croq.tile<64x128xf32, shared>
    %z = arith.constant 0.0 : f32
    %acc = croq.mma.fill %z : !croq.acc<64x128xf32>
    // expected-error @+1 {{'croq.mma.cluster_sum' op sums the accumulators of a cluster's blocks: it must be inside a block-level croq.parallel region launched in clusters (`cluster [...]`)}}
    %sum = croq.mma.cluster_sum %acc scratch %s : !croq.acc<64x128xf32>, !croq.tile<64x128xf32, shared>
  }
  return
}

// -----

func.func @cluster_sum_cluster_of_one() {
  croq.parallel (%i, %j) in [4, 4] : block cluster [1, 1] {
    %s = croq.alloc : !croq.tile<64x128xf32, shared>
    %z = arith.constant 0.0 : f32
    %acc = croq.mma.fill %z : !croq.acc<64x128xf32>
    // expected-error @+1 {{'croq.mma.cluster_sum' op needs a cluster of at least 2 blocks, got 1}}
    %sum = croq.mma.cluster_sum %acc scratch %s : !croq.acc<64x128xf32>, !croq.tile<64x128xf32, shared>
  }
  return
}

// -----

func.func @cluster_sum_in_loop(%n: index) {
  croq.parallel (%i) in [4] : block cluster [2] {
    %s = croq.alloc : !croq.tile<64x128xf32, shared>
    %z = arith.constant 0.0 : f32
    %acc = croq.mma.fill %z : !croq.acc<64x128xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %t = %c0 to %n step %c1 {
      // expected-error @+1 {{'croq.mma.cluster_sum' op runs once per block and launch (its mbarrier completes one phase): it must not be inside a loop of its kernel, got 'scf.for'}}
      %sum = croq.mma.cluster_sum %acc scratch %s : !croq.acc<64x128xf32>, !croq.tile<64x128xf32, shared>
    }
  }
  return
}

// -----

func.func @cluster_sum_f16_accumulator() {
  croq.parallel (%i) in [4] : block cluster [2] {
    %s = croq.alloc : !croq.tile<64x128xf16, shared>
    %z = arith.constant 0.0 : f16
    %acc = croq.mma.fill %z : !croq.acc<64x128xf16>
    // expected-error @+1 {{'croq.mma.cluster_sum' op sums f32 or i32 accumulators, got 'f16'}}
    %sum = croq.mma.cluster_sum %acc scratch %s : !croq.acc<64x128xf16>, !croq.tile<64x128xf16, shared>
  }
  return
}

// -----

func.func @cluster_sum_scratch_slots() {
  croq.parallel (%i) in [8] : block cluster [4] {
    %s = croq.alloc : !croq.tile<64x128xf32, shared>
    %z = arith.constant 0.0 : f32
    %acc = croq.mma.fill %z : !croq.acc<64x128xf32>
    // expected-error @+1 {{'croq.mma.cluster_sum' op scratch must be an unswizzled shared tile of 192x128xf32 (one slot of the accumulator's shape for each other block of the cluster of 4), got '!croq.tile<64x128xf32, shared>'}}
    %sum = croq.mma.cluster_sum %acc scratch %s : !croq.acc<64x128xf32>, !croq.tile<64x128xf32, shared>
  }
  return
}

// -----

func.func @cluster_sum_swizzled_scratch() {
  croq.parallel (%i) in [4] : block cluster [2] {
    %s = croq.alloc : !croq.tile<64x128xf32, shared, swizzle = 128>
    %z = arith.constant 0.0 : f32
    %acc = croq.mma.fill %z : !croq.acc<64x128xf32>
    // expected-error @+1 {{'croq.mma.cluster_sum' op scratch must be an unswizzled shared tile of 64x128xf32}}
    %sum = croq.mma.cluster_sum %acc scratch %s : !croq.acc<64x128xf32>, !croq.tile<64x128xf32, shared, swizzle = 128>
  }
  return
}

// -----

func.func @cluster_sum_type_mismatch() {
  croq.parallel (%i) in [4] : block cluster [2] {
    %s = croq.alloc : !croq.tile<64x128xf32, shared>
    %z = arith.constant 0.0 : f32
    %acc = croq.mma.fill %z : !croq.acc<64x128xf32>
    // expected-error @+1 {{'croq.mma.cluster_sum' op failed to verify that all of {acc, result} have same type}}
    %sum = "croq.mma.cluster_sum"(%acc, %s) : (!croq.acc<64x128xf32>, !croq.tile<64x128xf32, shared>) -> !croq.acc<64x64xf32>
  }
  return
}
