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
