// RUN: croq-opt %s --croq-carry-event-phases -split-input-file -verify-diagnostics

// The waits of a role advance its threads' bits, which the region cannot
// hand back: the same threads waiting again after the region would wait for
// the wrong phase.
func.func @wait_after_a_role() {
  %c0 = arith.constant 0 : index
  croq.parallel (%b) in [1] : block {
    %e = croq.event.alloc : !croq.events<1>
    croq.parallel (%p) in [2] : warpgroup {
      %first = arith.cmpi eq, %p, %c0 : index
      // expected-note @+1 {{the waits are inside this region; wait on the array within one region, in regions that run on different warpgroups, or outside all of them}}
      croq.inthreads async %first {
        croq.event.wait %e[%c0] : !croq.events<1>
      }
      croq.event.trigger %e[%c0] : !croq.events<1>
      // expected-error @+1 {{'croq.event.wait' op needs the phases of an event array after waits on it inside a region that cannot hand them back}}
      croq.event.wait %e[%c0] : !croq.events<1>
    }
  }
  return
}

// -----

// A loop around a role: the next iteration would start from stale bits.
func.func @role_in_a_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  croq.parallel (%b) in [1] : block {
    %e = croq.event.alloc : !croq.events<1>
    croq.parallel (%p) in [2] : warpgroup {
      %first = arith.cmpi eq, %p, %c0 : index
      // The loop's implicit scf.yield has the loop's location.
      // expected-error @+1 {{'scf.yield' op needs the phases of an event array after waits on it inside a region that cannot hand them back}}
      scf.for %i = %c0 to %n step %c1 {
        // expected-note @+1 {{the waits are inside this region}}
        croq.inthreads async %first {
          croq.event.wait %e[%c0] : !croq.events<1>
        }
        croq.event.trigger %e[%c0] : !croq.events<1>
      }
    }
  }
  return
}

// -----

// Two roles whose conditions cannot be told apart at compile time.
func.func @roles_not_known_disjoint(%x: index) {
  %c0 = arith.constant 0 : index
  croq.parallel (%b) in [1] : block {
    %e = croq.event.alloc : !croq.events<1>
    croq.parallel (%p) in [2] : warpgroup {
      %first = arith.cmpi eq, %p, %x : index
      %second = arith.cmpi ne, %p, %c0 : index
      // expected-note @+1 {{the waits are inside this region}}
      croq.inthreads async %first {
        croq.event.wait %e[%c0] : !croq.events<1>
      }
      croq.inthreads async %second {
        // expected-error @+1 {{'croq.event.wait' op needs the phases of an event array after waits on it inside a region that cannot hand them back}}
        croq.event.wait %e[%c0] : !croq.events<1>
      }
      croq.event.trigger %e[%c0] : !croq.events<1>
    }
  }
  return
}

// -----

// scf.while cannot carry them.
func.func @wait_in_while(%c: i1) {
  %c0 = arith.constant 0 : index
  croq.parallel (%b) in [1] : block {
    %e = croq.event.alloc : !croq.events<1>
    croq.event.trigger %e[%c0] : !croq.events<1>
    // expected-error @+1 {{'scf.while' op waits on an event inside this op, whose region cannot carry the event's phases; wait in scf.for, scf.if or croq regions}}
    scf.while : () -> () {
      scf.condition(%c)
    } do {
      croq.event.wait %e[%c0] : !croq.events<1>
      scf.yield
    }
  }
  return
}

// -----

func.func @already_phased(%p: !croq.phases<1>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%b) in [1] : block {
    %e = croq.event.alloc : !croq.events<1>
    croq.event.trigger %e[%c0] : !croq.events<1>
    // expected-error @+1 {{'croq.event.wait' op already carries phases: run croq-carry-event-phases once}}
    %n = croq.event.wait %e[%c0] phases %p : !croq.events<1>
  }
  return
}

// -----

func.func @too_many_slots() {
  %c0 = arith.constant 0 : index
  croq.parallel (%b) in [1] : block {
    // expected-error @+1 {{'croq.event.alloc' op expected phases of 1 to 64 slots (one bit each in 64 bits), got 65}}
    %e = croq.event.alloc : !croq.events<65>
    croq.event.trigger %e[%c0] : !croq.events<65>
    croq.event.wait %e[%c0] : !croq.events<65>
  }
  return
}
