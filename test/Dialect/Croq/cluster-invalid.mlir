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
