// REQUIRES: ptxas
// RUN: croq-translate --croq-to-ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: rm -rf %t.d && split-file %t.ptx %t.d
// RUN: %ptxas -arch=sm_90a %t.d/cluster_ranks_kernel.ptx -o %t.1.cubin
// RUN: %ptxas -arch=sm_90a %t.d/cluster_rows_kernel.ptx -o %t.2.cubin

//===- cluster.mlir - GPU test: blocks launched in thread block clusters --===//
//
// Each block of an M x 4 grid synchronizes with the other blocks of its
// cluster (croq.cluster.barrier) and writes its rank in the cluster
// (croq.cluster.rank) to out[i, j]:
//   @cluster_ranks  clusters of 1 x 2: the rank is j % 2
//   @cluster_rows   clusters of 2 x 1: the rank is i % 2; M must be even,
//                   which the launch checks (an odd M is an error)
//
//===----------------------------------------------------------------------===//

// CHECK-LABEL: .entry cluster_ranks_kernel(
// CHECK:         barrier.cluster.arrive.aligned;
// CHECK-NEXT:    barrier.cluster.wait.aligned;
// CHECK:         mov.u32 %r{{[0-9]+}}, %cluster_ctarank;

func.func @cluster_ranks(%out: memref<?x4xi32>) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %out, %c0 : memref<?x4xi32>
  croq.parallel (%i, %j) in [%m, 4] : block cluster [1, 2] {
    croq.cluster.barrier
    %r = croq.cluster.rank
    %r32 = arith.index_cast %r : index to i32
    %v = croq.subspan %out [1, 1] at [%i, %j] : memref<?x4xi32> -> !croq.view<1x1xi32>
    croq.foreach (%a, %b) in [1, 1] {
      croq.write %r32, %v[%a, %b] : !croq.view<1x1xi32>
    }
  }
  return
}

// CHECK-LABEL: .entry cluster_rows_kernel(
func.func @cluster_rows(%out: memref<?x4xi32>) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %out, %c0 : memref<?x4xi32>
  croq.parallel (%i, %j) in [%m, 4] : block cluster [2, 1] {
    croq.cluster.barrier
    %r = croq.cluster.rank
    %r32 = arith.index_cast %r : index to i32
    %v = croq.subspan %out [1, 1] at [%i, %j] : memref<?x4xi32> -> !croq.view<1x1xi32>
    croq.foreach (%a, %b) in [1, 1] {
      croq.write %r32, %v[%a, %b] : !croq.view<1x1xi32>
    }
  }
  return
}
