// RUN: croq-opt %s -split-input-file --croq-set-target --convert-croq-to-gpu --convert-croq-regions-to-gpu --canonicalize | FileCheck %s --implicit-check-not=croq.mma --implicit-check-not=croq.alloc
// RUN: croq-opt %s -split-input-file --croq-to-nvvm | FileCheck %s --check-prefix=PTX

// croq.mma.cluster_sum in clusters of 2 x 1 blocks of 128 threads, each
// holding a 64x16 accumulator (8 registers, two 16-byte chunks a thread):
// an mbarrier of 128 arrivals (the peer's threads) made at the kernel's
// start and initialized before a cluster barrier; the leader (rank 0)
// waits on it at cluster scope and adds the peer's chunks, read at 16 x
// thread and 16 x thread + 2048 of its scratch tile; the peer stores them
// there through mapa and arrives on the leader's barrier.
// CHECK-LABEL: func.func @cluster_sum_pair
// CHECK:         gpu.launch clusters
// CHECK:           %[[BAR:.*]] = nvgpu.mbarrier.create
// CHECK:           nvgpu.mbarrier.init %[[BAR]][%{{.*}}], %c128, predicate = %{{.*}}
// CHECK-NEXT:      nvvm.fence.mbarrier.init
// CHECK-NEXT:      nvvm.cluster.arrive {aligned}
// CHECK-NEXT:      nvvm.cluster.wait {aligned}
// CHECK:           %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:           %[[LEADER:.*]] = arith.cmpi eq, %[[RANK]], %c0_i32 : i32
// CHECK:           %[[OWN:.*]] = arith.muli %{{.*}}, %c16_i64 : i64
// CHECK:           scf.if %[[LEADER]] -> (!llvm.struct<(struct<(f32, f32, f32, f32, f32, f32, f32, f32)>)>) {
// CHECK:             scf.while
// CHECK:               nvvm.mbarrier.try_wait %{{.*}}, %c0_i32 {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<3>, i32 -> i1
// CHECK:             %[[FIRST:.*]] = arith.addi %{{.*}}, %[[OWN]] : i64
// CHECK:             %[[P0:.*]] = llvm.inttoptr %[[FIRST]] : i64 to !llvm.ptr<3>
// CHECK:             llvm.load %[[P0]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-COUNT-4:     arith.addf
// CHECK:             arith.addi %[[FIRST]], %c2048_i64 : i64
// CHECK:             llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-COUNT-4:     arith.addf
// CHECK:           } else {
// CHECK:             %[[SLOT:.*]] = arith.subi %[[RANK]], %c1_i32 : i32
// CHECK:             %[[REMOTE:.*]] = nvvm.mapa %{{.*}}, %c0_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:             llvm.store %{{.*}}, %[[REMOTE]] {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<7>
// CHECK:             %[[NEXT:.*]] = llvm.getelementptr %[[REMOTE]][2048] : (!llvm.ptr<7>) -> !llvm.ptr<7>, i8
// CHECK:             llvm.store %{{.*}}, %[[NEXT]] {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<7>
// CHECK:             %[[RBAR:.*]] = nvvm.mapa %{{.*}}, %c0_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:             nvvm.mbarrier.arrive %[[RBAR]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// CHECK:           }
// PTX-LABEL: gpu.binary @cluster_sum_pair_kernel
// PTX: fence.mbarrier_init.release.cluster;
// PTX: barrier.cluster.arrive.aligned;
// PTX: mapa.shared::cluster.u64
// PTX: st.shared::cluster.v4.b32
// PTX: st.shared::cluster.v4.b32
// PTX: mbarrier.arrive.release.cluster.shared::cluster.b64
// PTX: mbarrier.try_wait.parity.acquire.cluster.shared.b64
// PTX: ld.shared.v4.b32
// PTX: ld.shared.v4.b32
func.func @cluster_sum_pair(%out: memref<64x16xf32>) {
  croq.parallel (%i, %j) in [2, 1] : block cluster [2, 1] {
    %s = croq.alloc offset = 0 : !croq.tile<64x16xf32, shared>
    %z = arith.constant 1.0 : f32
    %acc = croq.mma.fill %z : !croq.acc<64x16xf32>
    %sum = croq.mma.cluster_sum %acc scratch %s : !croq.acc<64x16xf32>, !croq.tile<64x16xf32, shared>
    croq.mma.store %sum -> %out : !croq.acc<64x16xf32> -> memref<64x16xf32>
  }
  return
}

// -----

// Clusters of 1 x 4 and i32 accumulators (s8 products): 3 x 128 arrivals,
// three slots of 64 x 8 x 4 bytes; the peer of rank r stores into slot
// r - 1, the leader adds slots 0, 1 and 2 in that order.
// CHECK-LABEL: func.func @cluster_sum_four
// CHECK:           nvgpu.mbarrier.init %{{.*}}[%{{.*}}], %c384, predicate
// CHECK:           scf.if
// CHECK:             %[[FIRST:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK:             llvm.load %{{.*}} : !llvm.ptr<3> -> vector<4xi32>
// CHECK-COUNT-4:     arith.addi %{{.*}}, %{{.*}} : i32
// CHECK:             arith.addi %[[FIRST]], %c2048_i64 : i64
// CHECK:             llvm.load %{{.*}} : !llvm.ptr<3> -> vector<4xi32>
// CHECK-COUNT-4:     arith.addi %{{.*}}, %{{.*}} : i32
// CHECK:             arith.addi %[[FIRST]], %c4096_i64 : i64
// CHECK:             llvm.load %{{.*}} : !llvm.ptr<3> -> vector<4xi32>
// CHECK:           } else {
// CHECK:             arith.muli %{{.*}}, %c2048_i64 : i64
// CHECK:             nvvm.mapa
// CHECK:             llvm.store %{{.*}} : vector<4xi32>, !llvm.ptr<7>
// CHECK-NOT:         llvm.store
// CHECK:             nvvm.mbarrier.arrive
func.func @cluster_sum_four(%out: memref<64x8xi32>) {
  croq.parallel (%i, %j) in [1, 4] : block cluster [1, 4] {
    %s = croq.alloc offset = 0 : !croq.tile<192x8xi32, shared>
    %z = arith.constant 1 : i32
    %acc = croq.mma.fill %z : !croq.acc<64x8xi32>
    %sum = croq.mma.cluster_sum %acc scratch %s : !croq.acc<64x8xi32>, !croq.tile<192x8xi32, shared>
    croq.mma.store %sum -> %out : !croq.acc<64x8xi32> -> memref<64x8xi32>
  }
  return
}
