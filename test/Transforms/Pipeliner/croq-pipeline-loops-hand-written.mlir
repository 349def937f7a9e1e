// RUN: croq-opt %s --croq-pipeline-loops -split-input-file | FileCheck %s

// A ring written by hand in the seeds' style: the consumer waits for stage
// k % 4, multiplies, commits with no pending group and frees the stage. The
// pass keeps one wgmma group running into the next iteration: the commit
// gets pending = 1, the iteration frees the previous iteration's stage from
// the second on, and after the loop a commit waits for the last group and
// the last stage is freed. The consumer's `wg == 1` becomes `wg != 0`, the
// complement of the producer's test. The producer is untouched.
// CHECK-LABEL: func.func @seeds_style
// CHECK: croq.parallel (%[[WG:.*]]) in [2] : warpgroup {
// CHECK: %[[PRODUCER:.*]] = arith.cmpi eq, %[[WG]], %c0 : index
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: %[[CONSUMER:.*]] = arith.cmpi ne, %[[WG]], %[[ZERO]] : index
// CHECK: croq.inthreads async %[[PRODUCER]] {
// CHECK: croq.event.trigger %[[FULL:.*]][%{{.*}}] after
// CHECK: croq.inthreads async %[[CONSUMER]] {
// CHECK: %[[ACC:.*]] = scf.for %[[K:.*]] = %c0 to %[[KT:.*]] step %c1 iter_args
// CHECK: %[[S:.*]] = arith.remui %[[K]], %c4 : index
// CHECK: croq.event.wait %[[FULL]][%[[S]]] : !croq.events<4>
// CHECK: %[[DONE:.*]] = croq.mma.commit %{{.*}} pending = 1 : !croq.acc<128x128xf32>
// CHECK-NEXT: %[[NOTFIRST:.*]] = arith.cmpi ne, %[[K]], %c0 : index
// CHECK-NEXT: scf.if %[[NOTFIRST]] {
// CHECK-NEXT: %[[PREV:.*]] = arith.subi %[[K]], %c1 : index
// CHECK-NEXT: %[[PS:.*]] = arith.remui %[[PREV]], %c4 : index
// CHECK-NEXT: croq.event.trigger %[[EMPTY:.*]][%[[PS]]] : !croq.events<4>
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[DONE]]
// CHECK: %[[LAST:.*]] = croq.mma.commit %[[ACC]] : !croq.acc<128x128xf32>
// CHECK-NEXT: %[[RAN:.*]] = arith.cmpi ult, %c0, %[[KT]] : index
// CHECK-NEXT: scf.if %[[RAN]] {
// CHECK-NEXT: %[[LASTK:.*]] = arith.subi %[[KT]], %c1 : index
// CHECK-NEXT: %[[LS:.*]] = arith.remui %[[LASTK]], %c4 : index
// CHECK-NEXT: croq.event.trigger %[[EMPTY]][%[[LS]]] : !croq.events<4>
// CHECK: croq.mma.store %[[LAST]]
func.func @seeds_style(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>, %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %k = memref.dim %lhs, %c1 : memref<?x?xf16>
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%bm, %bn) in [%c1, %c1] : block {
    %full = croq.event.alloc : !croq.events<4>
    %empty = croq.event.alloc ready : !croq.events<4>
    %lhs_s = croq.alloc : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
    %output_s = croq.alloc : !croq.tile<128x128xf16, shared>
    croq.parallel (%wg) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %wg, %c0 : index
      %is_consumer = arith.cmpi eq, %wg, %c1 : index
      croq.inthreads async %is_producer {
        scf.for %iv = %c0 to %k_tiles step %c1 {
          %stage = arith.remui %iv, %c4 : index
          croq.event.wait %empty[%stage] : !croq.events<4>
          %a = croq.subspan %lhs [128, 64] at [%bm, %iv] : memref<?x?xf16> -> !croq.view<128x64xf16>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %b = croq.subspan %rhs [128, 64] at [%bn, %iv] : memref<?x?xf16> -> !croq.view<128x64xf16>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<4>
        }
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %init = croq.mma.fill %zero : !croq.acc<128x128xf32>
        %r = scf.for %iv = %c0 to %k_tiles step %c1 iter_args(%acc = %init) -> (!croq.acc<128x128xf32>) {
          %stage = arith.remui %iv, %c4 : index
          croq.event.wait %full[%stage] : !croq.events<4>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %ma = croq.mma.load %as : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
          %mb = croq.mma.load %bs : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
          %p = croq.mma row row %acc, %ma, %mb : !croq.frag<128x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<128x128xf32>
          %done = croq.mma.commit %p : !croq.acc<128x128xf32>
          croq.event.trigger %empty[%stage] : !croq.events<4>
          scf.yield %done : !croq.acc<128x128xf32>
        }
        croq.mma.store %r -> %output_s : !croq.acc<128x128xf32> -> !croq.tile<128x128xf16, shared>
      }
    }
  }
  return
}

// -----

// Left alone: a ring of 3 stages (with a group in flight its producer
// would fill one stage ahead), a one-slot ring, a slot that does not move
// with the iteration, a release of another slot than the one waited for,
// and a second commit in the iteration; the consumer's test stays as
// written.
// CHECK-LABEL: func.func @left_alone
// CHECK: arith.cmpi eq, %{{.*}}, %c1 : index
// CHECK-NOT: pending = 1
// CHECK-NOT: scf.if
// CHECK: return
func.func @left_alone(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  croq.parallel (%bm) in [%c1] : block {
    %full = croq.event.alloc : !croq.events<2>
    %empty = croq.event.alloc ready : !croq.events<2>
    %full3 = croq.event.alloc : !croq.events<3>
    %empty3 = croq.event.alloc ready : !croq.events<3>
    %full1 = croq.event.alloc : !croq.events<1>
    %empty1 = croq.event.alloc ready : !croq.events<1>
    %a_s = croq.alloc : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
    croq.parallel (%wg) in [2] : warpgroup {
      %is_consumer = arith.cmpi eq, %wg, %c1 : index
      croq.inthreads async %is_consumer {
        %init = croq.mma.fill %zero : !croq.acc<64x64xf32>
        // Three stages.
        %r0 = scf.for %iv = %c0 to %n step %c1 iter_args(%acc = %init) -> (!croq.acc<64x64xf32>) {
          %s = arith.remui %iv, %c3 : index
          croq.event.wait %full3[%s] : !croq.events<3>
          %t = croq.stage %a_s[%c0] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
          %f = croq.mma.load %t : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
          %p = croq.mma row col %acc, %f, %f : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
          %d = croq.mma.commit %p : !croq.acc<64x64xf32>
          croq.event.trigger %empty3[%s] : !croq.events<3>
          scf.yield %d : !croq.acc<64x64xf32>
        }
        // One slot: the previous iteration's slot is this one's.
        %r1 = scf.for %iv = %c0 to %n step %c1 iter_args(%acc = %r0) -> (!croq.acc<64x64xf32>) {
          %s = arith.remui %iv, %c1 : index
          croq.event.wait %full1[%s] : !croq.events<1>
          %t = croq.stage %a_s[%c0] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
          %f = croq.mma.load %t : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
          %p = croq.mma row col %acc, %f, %f : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
          %d = croq.mma.commit %p : !croq.acc<64x64xf32>
          croq.event.trigger %empty1[%s] : !croq.events<1>
          scf.yield %d : !croq.acc<64x64xf32>
        }
        // The same slot every iteration.
        %r2 = scf.for %iv = %c0 to %n step %c1 iter_args(%acc = %r1) -> (!croq.acc<64x64xf32>) {
          croq.event.wait %full[%c0] : !croq.events<2>
          %t = croq.stage %a_s[%c0] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
          %f = croq.mma.load %t : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
          %p = croq.mma row col %acc, %f, %f : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
          %d = croq.mma.commit %p : !croq.acc<64x64xf32>
          croq.event.trigger %empty[%c0] : !croq.events<2>
          scf.yield %d : !croq.acc<64x64xf32>
        }
        // Another slot is freed than the one waited for.
        %r3 = scf.for %iv = %c0 to %n step %c1 iter_args(%acc = %r2) -> (!croq.acc<64x64xf32>) {
          %s = arith.remui %iv, %c2 : index
          %o = arith.subi %c1, %s : index
          croq.event.wait %full[%s] : !croq.events<2>
          %t = croq.stage %a_s[%s] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
          %f = croq.mma.load %t : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
          %p = croq.mma row col %acc, %f, %f : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
          %d = croq.mma.commit %p : !croq.acc<64x64xf32>
          croq.event.trigger %empty[%o] : !croq.events<2>
          scf.yield %d : !croq.acc<64x64xf32>
        }
        // Two commits in the iteration.
        %r4 = scf.for %iv = %c0 to %n step %c1 iter_args(%acc = %r3) -> (!croq.acc<64x64xf32>) {
          %s = arith.remui %iv, %c2 : index
          croq.event.wait %full[%s] : !croq.events<2>
          %t = croq.stage %a_s[%s] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
          %f = croq.mma.load %t : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
          %p = croq.mma row col %acc, %f, %f : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
          %h = croq.mma.commit %p : !croq.acc<64x64xf32>
          %q = croq.mma row col %h, %f, %f : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
          %d = croq.mma.commit %q : !croq.acc<64x64xf32>
          croq.event.trigger %empty[%s] : !croq.events<2>
          scf.yield %d : !croq.acc<64x64xf32>
        }
      }
    }
  }
  return
}
