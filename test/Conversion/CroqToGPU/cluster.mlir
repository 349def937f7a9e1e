// RUN: croq-opt %s --convert-croq-to-gpu --convert-croq-regions-to-gpu | FileCheck %s --implicit-check-not=croq.

// A grid of [%n, 4] blocks in clusters of 1 x 2: the last dimension is on
// x, so the launch's cluster is (2, 1, 1). The rank is %cluster_ctarank;
// the barrier arrives and waits on the cluster's hardware barrier.
// CHECK-LABEL: func.func @clusters(
// CHECK-SAME:      %[[N:[a-z0-9_]+]]: index)
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         gpu.launch clusters(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C2]], %{{.*}} = %{{c1(_[0-9]+)?}}, %{{.*}} = %{{c1(_[0-9]+)?}}) blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C4]], %{{.*}} = %[[N]], %{{.*}} = %{{c1(_[0-9]+)?}})
// CHECK:           %[[R32:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT:      %[[R:.*]] = arith.index_castui %[[R32]] : i32 to index
// CHECK:           nvvm.cluster.arrive {aligned}
// CHECK-NEXT:      nvvm.cluster.wait {aligned}
// CHECK:           memref.store %{{.*}}, %{{.*}}[%[[R]]]
func.func @clusters(%n: index) {
  %out = memref.alloc() : memref<2xindex>
  croq.parallel (%i, %j) in [%n, 4] : block cluster [1, 2] {
    %r = croq.cluster.rank
    croq.cluster.barrier
    %c0 = arith.constant 0 : index
    memref.store %c0, %out[%r] : memref<2xindex>
  }
  return
}
