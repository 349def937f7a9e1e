// RUN: croq-opt %s --croq-carry-event-phases -split-input-file | FileCheck %s

// A ring over a loop: the phases start after the allocation (all one for a
// `ready` array) and are carried by the loop, each wait flipping its bit.
// Waits in the two roles continue from the bits each role starts with.
// CHECK-LABEL: func.func @ring
// CHECK:      %[[FULL:.*]] = croq.event.alloc : !croq.events<4>
// CHECK-NEXT: %[[FP:.*]] = croq.event.phases : !croq.phases<4>
// CHECK-NEXT: %[[EMPTY:.*]] = croq.event.alloc ready : !croq.events<4>
// CHECK-NEXT: %[[EP:.*]] = croq.event.phases ready : !croq.phases<4>
// CHECK:      croq.inthreads async
// CHECK-NEXT:   %{{.*}} = scf.for %{{.*}} iter_args(%[[EB:.*]] = %[[EP]]) -> (!croq.phases<4>) {
// CHECK:          %[[EN:.*]] = croq.event.wait %[[EMPTY]][%{{.*}}] phases %[[EB]] : !croq.events<4>
// CHECK:          croq.event.trigger %[[FULL]]
// CHECK-NEXT:     scf.yield %[[EN]] : !croq.phases<4>
// CHECK:      croq.inthreads async
// CHECK-NEXT:   %{{.*}} = scf.for %{{.*}} iter_args(%[[FB:.*]] = %[[FP]]) -> (!croq.phases<4>) {
// CHECK:          %[[FN:.*]] = croq.event.wait %[[FULL]][%{{.*}}] phases %[[FB]] : !croq.events<4>
// CHECK-NEXT:     croq.event.trigger %[[EMPTY]]
// CHECK-NEXT:     scf.yield %[[FN]] : !croq.phases<4>
func.func @ring(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  croq.parallel (%b) in [1] : block {
    %full = croq.event.alloc : !croq.events<4>
    %empty = croq.event.alloc ready : !croq.events<4>
    croq.parallel (%p) in [2] : warpgroup {
      %producer = arith.cmpi eq, %p, %c0 : index
      %consumer = arith.cmpi eq, %p, %c1 : index
      croq.inthreads async %producer {
        scf.for %k = %c0 to %n step %c1 {
          %s = arith.remui %k, %c4 : index
          croq.event.wait %empty[%s] : !croq.events<4>
          croq.event.trigger %full[%s] : !croq.events<4>
        }
      }
      croq.inthreads async %consumer {
        scf.for %k = %c0 to %n step %c1 {
          %s = arith.remui %k, %c4 : index
          croq.event.wait %full[%s] : !croq.events<4>
          croq.event.trigger %empty[%s] : !croq.events<4>
        }
      }
    }
  }
  return
}

// -----

// Waits one after another chain their bits; a wait under scf.if (with or
// without an else branch) makes the bits a result of the branch; nested
// loops carry them at each level.
// CHECK-LABEL: func.func @chain_branch_nest
// CHECK:      %[[E:.*]] = croq.event.alloc : !croq.events<2>
// CHECK-NEXT: %[[P0:.*]] = croq.event.phases : !croq.phases<2>
// CHECK:      %[[P1:.*]] = croq.event.wait %[[E]][%{{.*}}] phases %[[P0]]
// CHECK-NEXT: %[[P2:.*]] = croq.event.wait %[[E]][%{{.*}}] phases %[[P1]]
// CHECK-NEXT: %[[P3:.*]] = scf.if %{{.*}} -> (!croq.phases<2>) {
// CHECK-NEXT:   %[[P4:.*]] = croq.event.wait %[[E]][%{{.*}}] phases %[[P2]]
// CHECK-NEXT:   scf.yield %[[P4]] : !croq.phases<2>
// CHECK-NEXT: } else {
// CHECK-NEXT:   scf.yield %[[P2]] : !croq.phases<2>
// CHECK-NEXT: }
// CHECK-NEXT: %[[P5:.*]] = scf.for %{{.*}} iter_args(%[[A:.*]] = %[[P3]]) -> (!croq.phases<2>) {
// CHECK-NEXT:   %[[P6:.*]] = scf.for %{{.*}} iter_args(%[[B:.*]] = %[[A]]) -> (!croq.phases<2>) {
// CHECK-NEXT:     %[[P7:.*]] = croq.event.wait %[[E]][%{{.*}}] phases %[[B]]
// CHECK-NEXT:     scf.yield %[[P7]] : !croq.phases<2>
// CHECK-NEXT:   }
// CHECK-NEXT:   scf.yield %[[P6]] : !croq.phases<2>
// CHECK-NEXT: }
// CHECK-NEXT: croq.event.wait %[[E]][%{{.*}}] phases %[[P5]]
func.func @chain_branch_nest(%n: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  croq.parallel (%b) in [1] : block {
    %e = croq.event.alloc : !croq.events<2>
    croq.event.trigger %e[%c0] : !croq.events<2>
    croq.event.wait %e[%c0] : !croq.events<2>
    croq.event.wait %e[%c1] : !croq.events<2>
    scf.if %c {
      croq.event.wait %e[%c0] : !croq.events<2>
    }
    scf.for %i = %c0 to %n step %c1 {
      scf.for %j = %c0 to %n step %c1 {
        croq.event.wait %e[%c1] : !croq.events<2>
      }
    }
    croq.event.wait %e[%c0] : !croq.events<2>
  }
  return
}

// -----

// Two regions on different warpgroups (their conditions are evaluated for
// each warpgroup index) both start from the array's first bits; an array no
// one waits on gets none.
// CHECK-LABEL: func.func @sibling_roles
// CHECK:      %[[Q:.*]] = croq.event.alloc : !croq.events<1>
// CHECK-NEXT: %[[QP:.*]] = croq.event.phases : !croq.phases<1>
// CHECK-NEXT: croq.event.alloc : !croq.events<2>
// CHECK-NOT:  croq.event.phases
// CHECK:      croq.inthreads
// CHECK-NEXT:   croq.event.wait %[[Q]][%{{.*}}] phases %[[QP]]
// CHECK:      croq.inthreads
// CHECK-NEXT:   croq.event.wait %[[Q]][%{{.*}}] phases %[[QP]]
func.func @sibling_roles() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  croq.parallel (%b) in [1] : block {
    %q = croq.event.alloc : !croq.events<1>
    %unused = croq.event.alloc : !croq.events<2>
    croq.parallel (%p) in [3] : warpgroup {
      %first = arith.cmpi eq, %p, %c1 : index
      %second = arith.cmpi eq, %p, %c2 : index
      croq.inthreads async %first {
        croq.event.wait %q[%c0] : !croq.events<1>
      }
      croq.inthreads async %second {
        croq.event.wait %q[%c0] : !croq.events<1>
      }
      croq.event.trigger %q[%c0] : !croq.events<1>
      croq.event.trigger %unused[%c0] : !croq.events<2>
    }
  }
  return
}
