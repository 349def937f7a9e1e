// RUN: croq-opt %s --croq-assign-layouts --croq-normalize-views --croq-wait-async-stores --croq-distribute-copies --croq-plan-tma-boxes --croq-emit-tensor-maps --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-plan-registers --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu  | FileCheck %s --implicit-check-not=croq.

// The ops with which blocks add their parts of one sum in global memory, in
// a warpgroup (named barrier 1 + warpgroup index, 128 threads):
// croq.turn.wait is thread 0's loop of acquire loads at GPU scope until the
// counter reaches the turn, then the warpgroup's barrier;
// croq.mma.accumulate one relaxed atomic f32 add at GPU scope per register
// (a 64x16 accumulator: 8 a thread), each inside the view's edge;
// croq.turn.pass the barrier, then thread 0's release fence and add of
// one; croq.barrier async a fence.proxy.async before the barrier. The turn
// ops also fence the async proxy's global accesses (bulk adds) after the
// acquire and before the release.

// CHECK-LABEL: func.func @accumulate_in_turn
// CHECK:       %[[WG:.*]] = arith.remui %{{.*}}, %c128
// CHECK:       %[[FIRST:.*]] = arith.cmpi eq, %[[WG]], %c0
// CHECK:       scf.if %[[FIRST]] {
// CHECK:         %[[P:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
// CHECK:         %[[TURN:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK:         scf.while
// CHECK-NEXT:      %[[N:.*]] = llvm.load %[[P]] atomic syncscope("device") acquire
// CHECK-NEXT:      %[[EARLY:.*]] = arith.cmpi ult, %[[N]], %[[TURN]] : i32
// CHECK-NEXT:      scf.condition(%[[EARLY]])
// CHECK:         nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.global>}
// CHECK:       nvvm.barrier id = %{{.*}} number_of_threads = %c128_i32
// CHECK-COUNT-8: llvm.atomicrmw fadd %{{.*}} syncscope("device") monotonic {alignment = 4 : i64} : !llvm.ptr<1>, f32
// CHECK-NOT:   llvm.atomicrmw fadd
// CHECK:       nvvm.barrier id = %{{.*}} number_of_threads = %c128_i32
// CHECK:       scf.if
// CHECK:         nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.global>}
// CHECK-NEXT:    llvm.fence syncscope("device") release
// CHECK-NEXT:    llvm.atomicrmw add %{{.*}}, %c1_i32 syncscope("device") monotonic
// CHECK:       nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:       nvvm.barrier id = %{{.*}} number_of_threads = %c128_i32
func.func @accumulate_in_turn(%ws: memref<?x?xf32>, %turns: memref<?xi32>, %t: index, %n: index) {
  croq.parallel (%b) in [1] : block {
    croq.parallel (%p) in [2] : warpgroup {
      %one = arith.constant 1.0 : f32
      %acc = croq.mma.fill %one : !croq.acc<64x16xf32>
      %c0 = arith.constant 0 : index
      %v = croq.subspan %ws [64, 16] at [%t, %c0] : memref<?x?xf32> -> !croq.view<64x16xf32>
      croq.turn.wait %turns[%t] until %n : memref<?xi32>
      croq.mma.accumulate %acc -> %v : !croq.acc<64x16xf32> -> !croq.view<64x16xf32>
      croq.turn.pass %turns[%t] : memref<?xi32>
      croq.barrier warpgroup async
    }
  }
  return
}

// Each add is masked at the view's edge: row and column inside the tensor.
// CHECK-LABEL: func.func @accumulate_masked
// CHECK:       %[[ROWS:.*]] = memref.dim %{{.*}}, %c0
// CHECK:       arith.cmpi ult, %{{.*}}, %[[ROWS]]
// CHECK:       %[[IN:.*]] = arith.andi
// CHECK:       scf.if %[[IN]] {
// CHECK:         llvm.atomicrmw fadd
func.func @accumulate_masked(%ws: memref<?x?xf32>, %t: index) {
  croq.parallel (%b) in [1] : block {
    %one = arith.constant 1.0 : f32
    %acc = croq.mma.fill %one : !croq.acc<64x16xf32>
    %c0 = arith.constant 0 : index
    %v = croq.subspan %ws [64, 16] at [%t, %c0] : memref<?x?xf32> -> !croq.view<64x16xf32>
    croq.mma.accumulate %acc -> %v : !croq.acc<64x16xf32> -> !croq.view<64x16xf32>
  }
  return
}

// croq.bulk_add: the shared tile's writes fenced for the async proxy and
// the warpgroup's barrier, then thread 0 issues one bulk reduction of the
// tile's 16384 bytes from its shared address to the view's first element,
// and commits its bulk group; croq.wait_stores waits for it.
// CHECK-LABEL: func.func @bulk_add
// CHECK:       nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:       nvvm.barrier id = %{{.*}} number_of_threads = %c128_i32
// CHECK:       scf.if
// CHECK:         %[[SH:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK:         %[[G:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
// CHECK-NEXT:    %[[G64:.*]] = llvm.ptrtoint %[[G]] : !llvm.ptr<1> to i64
// CHECK-NEXT:    %[[N:.*]] = arith.constant 16384 : i32
// CHECK-NEXT:    llvm.inline_asm has_side_effects "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [$0], [$1], $2;", "l,r,r" %[[G64]], %[[SH]], %[[N]]
// CHECK-NEXT:    nvvm.cp.async.bulk.commit.group
// CHECK:       nvvm.cp.async.bulk.wait_group 0
func.func @bulk_add(%ws: memref<?xf32>, %t: index) {
  croq.parallel (%b) in [1] : block {
    %s = croq.alloc : !croq.tiles<2 x 64x64xf32, shared, swizzle = 128>
    croq.parallel (%p) in [2] : warpgroup {
      %one = arith.constant 1.0 : f32
      %acc = croq.mma.fill %one : !croq.acc<64x64xf32>
      %tile = croq.stage %s[%p] : !croq.tiles<2 x 64x64xf32, shared, swizzle = 128>
      croq.mma.store %acc -> %tile : !croq.acc<64x64xf32> -> !croq.tile<64x64xf32, shared, swizzle = 128>
      %v = croq.subspan %ws [4096] at [%t] : memref<?xf32> -> !croq.view<4096xf32>
      croq.bulk_add %tile -> %v : !croq.tile<64x64xf32, shared, swizzle = 128> -> !croq.view<4096xf32>
      croq.wait_stores
    }
  }
  return
}
