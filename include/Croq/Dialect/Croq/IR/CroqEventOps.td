//===- CroqEventOps.td - events ----------------------------*- tablegen -*-===//
//
// Events: the producer/consumer synchronization of a block (mbarriers),
// allocated in rings, triggered by threads or by copies, waited on. Included by
// CroqOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_IR_CROQEVENTOPS_TD
#define CROQ_DIALECT_CROQ_IR_CROQEVENTOPS_TD

//===----------------------------------------------------------------------===//
// Events
//===----------------------------------------------------------------------===//

def Croq_EventAllocOp : Croq_Op<"event.alloc"> {
  let summary = "allocates an array of shared events";
  let description = [{
    The `croq.event.alloc` op creates an array of events in shared memory
    (Croqtile's `shared event full[STAGES]`). With `ready`, every slot
    starts triggered once, as the `empty` ring of a producer/consumer
    pipeline needs. Events lower to mbarriers; the compiler tracks their
    phases. `arrivals = N`, set by `croq-plan-events`, is the number of
    arrivals that complete a phase of each slot, counted from the array's
    triggers.

    Example:

    ```mlir
    %full = croq.event.alloc : !croq.events<4>
    %empty = croq.event.alloc ready : !croq.events<4>
    ```
  }];
  let arguments = (ins UnitAttr:$ready,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:
                           $arrivals);
  let results = (outs Res<Croq_EventsType, "allocated and initialized",
                          [MemAlloc, MemWrite]>:$events);
  let assemblyFormat = [{
    (`ready` $ready^)? (`arrivals` `=` $arrivals^)? attr-dict `:`
    qualified(type($events))
  }];
  let hasVerifier = 1;
}

def Croq_EventTriggerOp : Croq_Op<"event.trigger",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "triggers one slot of an event array";
  let description = [{
    The `croq.event.trigger` op signals slot `index` of `events` (Croqtile's
    `trigger full[s]`). With `after (...)`, the slot is triggered only once
    the listed asynchronous copies have completed; for TMA loads this
    becomes the expected-transaction byte count on the slot's mbarrier.

    With `cluster`, the trigger signals slot `index` of the array in every
    block of the thread block cluster (the array at the same place in each
    block), and each of those slots counts the arrivals of all the blocks:
    the release of a ring stage whose loads are `multicast`, which no block
    may refill until every block of the cluster is done with it. A `cluster`
    trigger takes no futures and must be inside a block-level
    `croq.parallel` launched in clusters.

    Example:

    ```mlir
    croq.event.trigger %full[%s] after (%fa, %fb) : !croq.events<4>
    croq.parallel (%b) in [16] : block cluster [2] {
      %empty = croq.event.alloc ready : !croq.events<2>
      %c0 = arith.constant 0 : index
      croq.event.trigger %empty[%c0] cluster : !croq.events<2>
    }
    ```
  }];
  let arguments = (ins Croq_EventsType:$events, Index:$index,
                       Variadic<Croq_FutureType>:$futures,
                       UnitAttr:$cluster);
  let assemblyFormat = [{
    $events `[` $index `]` (`after` ` ` `(` $futures^ `)`)?
    (`cluster` $cluster^)? attr-dict `:` qualified(type($events))
  }];
  let hasVerifier = 1;
}

def Croq_EventWaitOp : Croq_Op<"event.wait",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits until one slot of an event array is triggered";
  let description = [{
    The `croq.event.wait` op blocks until slot `index` of `events` has been
    triggered since this thread last waited on it (Croqtile's
    `wait empty[s]`).

    Programs write it without phases. `croq-carry-event-phases` gives it
    this thread's phase bits of the array (`phases %p`, a
    `!croq.phases<N>` of the array's N slots): the wait is for the phase of
    the slot's mbarrier that bit `index` of `%p` names, and the result is
    `%p` with that bit flipped, for the next wait on the array.

    Example:

    ```mlir
    croq.event.wait %empty[%s] : !croq.events<4>
    %p1 = croq.event.wait %full[%s] phases %p0 : !croq.events<4>
    ```
  }];
  let arguments = (ins Croq_EventsType:$events, Index:$index,
                       Optional<Croq_PhasesType>:$phases);
  let results = (outs Optional<Croq_PhasesType>:$next);
  let builders = [
    OpBuilder<(ins "::mlir::Value":$events, "::mlir::Value":$index), [{
      build($_builder, $_state, ::mlir::Type(), events, index,
            ::mlir::Value());
    }]>,
    OpBuilder<(ins "::mlir::Value":$events, "::mlir::Value":$index,
                   "::mlir::Value":$phases), [{
      build($_builder, $_state, phases.getType(), events, index, phases);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Croq_EventPhasesOp : Croq_Op<"event.phases", [Pure]> {
  let summary = "the phase bits a thread starts an event array with";
  let description = [{
    The `croq.event.phases` op gives the phase bits (one per slot) that each
    thread holds for an event array before its first wait on it: all zero,
    waiting for each slot's first phase, or with `ready` all one, so that
    the first wait on each slot of a `ready` array passes.
    `croq-carry-event-phases` places it after the array's
    `croq.event.alloc` and passes it to the array's waits.

    Example:

    ```mlir
    %p0 = croq.event.phases ready : !croq.phases<4>
    ```
  }];
  let arguments = (ins UnitAttr:$ready);
  let results = (outs Croq_PhasesType:$phases);
  let assemblyFormat = [{
    (`ready` $ready^)? attr-dict `:` qualified(type($phases))
  }];
}

#endif // CROQ_DIALECT_CROQ_IR_CROQEVENTOPS_TD
