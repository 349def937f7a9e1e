//===- Passes.td - croq transformation passes --------------*- tablegen -*-===//
//
// Passes that rewrite croq IR into simpler croq IR, step by step, on the way
// to the upstream GPU dialects.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_TRANSFORMS_PASSES_TD
#define CROQ_DIALECT_CROQ_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def CroqSetTarget : Pass<"croq-set-target", "ModuleOp"> {
  let summary = "Name the chip the module's kernels compile for";
  let description = [{
    The chip croq compiles for is named once, in the IR: the module's
    `croq.target` attribute, which every pass that needs a limit or a
    feature of the GPU reads (shared memory, registers, multiprocessors,
    TMA, wgmma, setmaxnreg, clusters). This pass, the first of
    `croq-to-nvvm`, writes it: `chip` where given, else sm_90a where the
    module names no chip yet. A module whose `croq.target` names another
    chip than `chip` is an error, and so is a chip croq has no target
    description for. Without the attribute, passes run alone compile for
    sm_90a.

    Before (`--croq-set-target="chip=sm_80"`):

    ```mlir
    module {
      func.func @k(%a: memref<128xf32>) { ... }
    }
    ```

    After:

    ```mlir
    module attributes {croq.target = "sm_80"} {
      func.func @k(%a: memref<128xf32>) { ... }
    }
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "the GPU architecture to compile for (empty: the module's "
           "croq.target, else sm_90a)">
  ];
}

def CroqNormalizeViews : Pass<"croq-normalize-views"> {
  let summary = "Resolve every view to one window of a tensor or tile";
  let description = [{
    Rewrites every `croq.chunkat` and `croq.subspan`, and every chain of
    views, into a single `croq.view` of a global tensor or an on-chip tile:
    element offsets, sizes and, where a window of a window can see less than
    its extent, bounds. Chunk counts that `croq.chunkat` leaves implicit are
    read from the enclosing `croq.parallel` or `croq.foreach` extents. This is
    the first step of tiling: later passes only see `croq.view`.

    Before:

    ```mlir
    croq.parallel (%tr, %tc) in [4, 8] : block {
      %v = croq.chunkat %lhs[%tr, %tc] : memref<64x128xi32> -> !croq.view<16x16xi32>
    }
    ```

    After:

    ```mlir
    croq.parallel (%tr, %tc) in [4, 8] : block {
      %0 = arith.muli %tr, %c16 : index
      %1 = arith.muli %tc, %c16 : index
      %v = croq.view %lhs [16, 16] from [%0, %1] : memref<64x128xi32> -> !croq.view<16x16xi32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def CroqAssignLayouts : Pass<"croq-assign-layouts"> {
  let summary = "Give shared buffers declared with swizzle = auto a layout";
  let description = [{
    Every shared tile or stage array declared with `swizzle = auto` gets a
    concrete swizzle: the one a `croq.copy ... swizzle = N` or
    `croq.mma.load swizzle = N` of it states (a copy and an mma load that
    state different ones are an error: the tensor cores would read the bytes
    where the copy did not put them), or else the largest swizzle (128, 64 or
    32 bytes, or none) whose span divides its rows, and whose 8-row pattern
    divides each stage of a stage array. Rows wider than the span are stored
    as span-wide slabs (see `croq-test-tile-layout`). The stages, views and reshapes derived from the buffer get the
    same layout in their types, so copies, element accesses and mma operand
    loads all address it the way TMA writes it. The buffer's alignment in
    shared memory follows from the layout (1024 bytes for 128B swizzle) when
    it is placed.

    Before:

    ```mlir
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = auto>
    %v = croq.chunkat %t[_, %k] of [1, 2] : !croq.tile<64x64xf16, shared, swizzle = auto> -> !croq.view<64x32xf16, shared, swizzle = auto>
    ```

    After:

    ```mlir
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %v = croq.chunkat %t[_, %k] of [1, 2] : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x32xf16, shared, swizzle = 128>
    ```
  }];
}

def CroqPersistentBlocks : Pass<"croq-persistent-blocks"> {
  let summary = "Run a grid of blocks as one block per multiprocessor that "
                "walks the tiles";
  let description = [{
    A block-level `croq.parallel` over a 2-D grid of tiles `(%bm, %bn)`
    becomes a persistent kernel: `min(tiles, multiprocessors)` blocks, each
    running a loop over the tiles `t = bid, bid + grid, ...`. The loop body
    is the block's body with `%bm` and `%bn` computed from `t` in an
    L2-friendly order: tiles go in groups of `group-rows` tile rows, and
    within a group down the rows first, so that the blocks running at once
    share the column tiles of B. The block's shared buffers stay outside the
    loop and are reused by every tile. A loop of tma loads inside the tile
    loop is pipelined by `croq-pipeline-loops` across tiles, and an async
    tma store left in flight at the end of a tile overlaps the next tile's
    main loop (`croq-wait-async-stores` waits before the tile is written
    again).

    A block launched in clusters of `cr x cc` blocks walks the tiles a
    cluster at a time: `min(tiles / (cr cc), multiprocessors / (cr cc))`
    clusters of `cr cc` blocks on a 1-D grid, each cluster walking the tiles
    of a `(gm / cr) x (gn / cc)` grid of cluster tiles in the same order,
    and each block taking its place in every cluster tile (its rank in the
    cluster), so that the blocks of a cluster work on the same rows and
    columns in step, as multicast loads need.

    A block is made persistent when it has the `croq.persistent = true`
    attribute, or with the `persistent` option when it has no attribute.
    Blocks that allocate events, whose grid is not 2-D, or that are launched
    in clusters over an extent known only at run time that is not a
    multiple of the cluster's size by construction, are left alone (an
    error when the attribute asks for it).

    Before:

    ```mlir
    croq.parallel (%bm, %bn) in [%gm, %gn] : block attributes {croq.persistent = true} {
      %a_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
      ... uses of %bm, %bn ...
    }
    ```

    After:

    ```mlir
    %tiles = arith.muli %gm, %gn : index
    %grid = arith.minui %tiles, %c132 : index
    croq.parallel (%bid) in [%grid] : block {
      %a_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
      scf.for %t = %bid to %tiles step %grid {
        ... %bm, %bn from %t ...
        ... uses of %bm, %bn ...
      }
    }
    ```
  }];
  let options = [
    Option<"persistent", "persistent", "bool", /*default=*/"false",
           "Make every 2-D block grid without a croq.persistent attribute "
           "persistent">,
    Option<"groupRows", "group-rows", "int64_t", /*default=*/"8",
           "Tile rows of a group of the tile order">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def CroqPipelineLoops : Pass<"croq-pipeline-loops"> {
  let summary = "Turn loops of synchronous tma loads into multi-stage rings";
  let description = [{
    Finds every `scf.for` directly inside a `croq.parallel ... : block`
    region whose body starts its iterations by loading tiles with
    synchronous `croq.copy tma` into shared tiles of the block, and reads
    those tiles only after the loads in the same iteration (the GEMM main
    loop: copy A, copy B, mma). Such a loop waits for memory on every
    iteration. The pass gives it an N-stage ring:

    - each loaded tile becomes a `!croq.tiles<N x ...>` stage array, and
      iteration `t` uses stage `t % N`;
    - a `full` event array (one slot per stage) is triggered after the
      stage's loads, now asynchronous; the reads of iteration `t` wait on
      `full[t % N]`;
    - an `empty` event array, allocated `ready`, is triggered when iteration
      `t` is done with its stage; a load into a stage waits on it first.
      Where a stage's loads are `multicast` (shared by the blocks of a
      thread block cluster), that trigger is a `cluster` trigger: the stage
      is free only when every block of the cluster is done with it.

    With `warp-specialize` (the default), the block becomes two warpgroups:
    warpgroup 0 (the producer) runs a copy of the loop that only issues the
    loads, warpgroup 1 (the consumer) runs everything else. This needs the
    block body to hold no `croq.parallel` or `croq.inthreads` region, and
    the values the loads' views are computed from to be free of side
    effects. When the iteration ends with `croq.mma.commit` of the
    accumulator it yields, the consumer keeps one group of wgmma running
    into the next iteration: the commit gets `pending = 1`, the iteration
    frees the stage of the previous one (whose mma is then complete), and
    a commit after the loop waits for the last group. Otherwise, or with
    `warp-specialize=false`, the block's threads
    keep both roles: the first iteration issues the loads of iterations 0
    to N - 1 (the prologue), iteration `t > 0` those of iteration
    `t + N - 1`, before it waits for its own stage, and the last N - 1
    iterations issue nothing (the drain). The loads are issued from one
    place, so each phase of a `full` slot expects one arrival.

    Rings written by hand (the seeds' style) get the same care: a consumer
    loop in a `croq.inthreads` region that waits for slot `iv % N` (or
    `(iv + c) % N`, N >= 4) of a `full` event array, runs its mma, commits
    the accumulator it yields with no pending group and then frees the same
    slot of an `empty` array keeps one group running into the next
    iteration: the commit gets `pending = 1`, the iteration frees the slot
    of the previous one from the second on, and after the loop a commit
    waits for the last group and the last slot is freed, so that every slot
    is freed as often as before. In a region of two warpgroups the
    consumer's test `wg == 1` becomes `wg != 0`, the producer's complement,
    so that the two roles become one branch (ptxas serializes wgmma on a
    divergent path). Loops with copies of their own, `after` futures on the
    release, other commits or waits, or another slot walk are left alone,
    and so are rings of fewer than 4 stages: the consumer then holds two
    stages, and the producer fills N - 2 ahead instead of N - 1 (a 3-stage
    ring measured 20% slower so on an H200).

    A block it warp-specializes gets `croq.consumers = 0` unless it has
    that attribute, so that `croq-split-accumulators` chooses how many
    consumer warpgroups share its accumulators. A loop in the tile loop of
    a persistent block (`croq-persistent-blocks`) is pipelined
    warp-specialized: the producer walks the same tiles, and the ring's
    iterations are counted across tiles, so that stages and phases run on
    from one tile to the next (every tile runs the same number of
    iterations).

    A loop's `croq.warp_specialize` attribute (`true` or `false`) overrides
    the option for that loop. N is the loop's `croq.stages` attribute if it
    has one (`croq.stages = 1` leaves the loop alone; a ring has 2 to 64
    stages), else the `stages`
    option, else as many stages
    as fit, at most 8, in the 227 KB of shared memory a block can have next
    to its other buffers. A loop that cannot be pipelined (a tile read
    before its load in the iteration or outside the loop, a load view that
    depends on the loop's results, `mma.commit` with pending groups, fewer
    than two stages fitting) is left as it is, with a warning that says why.

    Before:

    ```mlir
    croq.parallel (%bm, %bn) in [%gm, %gn] : block {
      %a_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
      %r = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %init) -> (!croq.acc<128x128xf32>) {
        %a = croq.subspan %lhs [128, 64] at [%bm, %k] : memref<?x?xf16> -> !croq.view<128x64xf16>
        croq.copy tma zfill swizzle = 128 %a -> %a_s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
        ... mma reading %a_s ...
      }
    }
    ```

    After (warp-specialized, 4 stages):

    ```mlir
    croq.parallel (%bm, %bn) in [%gm, %gn] : block attributes {croq.consumers = 0 : i64} {
      %a_s = croq.alloc : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
      %full = croq.event.alloc : !croq.events<4>
      %empty = croq.event.alloc ready : !croq.events<4>
      croq.parallel (%wg) in [2] : warpgroup {
        croq.inthreads async %is_producer {
          scf.for %k = %c0 to %kt step %c1 {
            %s = arith.remui %k, %c4 : index
            croq.event.wait %empty[%s] : !croq.events<4>
            %a = croq.subspan %lhs [128, 64] at [%bm, %k] : memref<?x?xf16> -> !croq.view<128x64xf16>
            %a_k = croq.stage %a_s[%s] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
            %f = croq.copy tma async zfill swizzle = 128 %a -> %a_k : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
            croq.event.trigger %full[%s] after (%f) : !croq.events<4>
          }
        }
        croq.inthreads async %is_consumer {
          %r = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %init) -> (!croq.acc<128x128xf32>) {
            %s = arith.remui %k, %c4 : index
            croq.event.wait %full[%s] : !croq.events<4>
            %a_k = croq.stage %a_s[%s] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
            ... mma reading %a_k ...
            croq.event.trigger %empty[%s] : !croq.events<4>
          }
        }
      }
    }
    ```

    (The example's loop body has no `croq.mma.commit`; with one, the
    consumer would free the previous stage instead, as described above.)
  }];
  let options = [
    Option<"stages", "stages", "int64_t", /*default=*/"0",
           "Stages of every ring (0: as many as fit, at most 8; 1: leave "
           "loops without a croq.stages attribute alone)">,
    Option<"warpSpecialize", "warp-specialize", "bool", /*default=*/"true",
           "Issue the loads from a producer warpgroup">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def CroqSplitAccumulators : Pass<"croq-split-accumulators"> {
  let summary = "Run a warp-specialized consumer on several warpgroups, "
                "each on its rows of the accumulators";
  let description = [{
    A block that croq-pipeline-loops made warp-specialized has one producer
    and one consumer warpgroup. This pass gives it C consumer warpgroups
    instead: the warpgroup parallel gets 1 + C warpgroups, and consumer
    `c` (warpgroup `c + 1`) computes rows `[c * M / C, (c + 1) * M / C)` of
    every accumulator of M rows. Its A operands (`croq.mma.load` of A) read
    those rows of their tiles, its `croq.mma.store`s write those rows of
    their destinations (those columns, for a store `transpose`: a tile of
    C^T stored as C's tile), a `croq.copy` of a stored tile copies those
    rows (columns), and the row index of a `croq.mma.map` body counts from
    the block's first row as before. Vectors that maps broadcast (from `croq.vec.fill`
    and `croq.vec.map`) follow: one per column (`!croq.vec<N x T, cols>`)
    is the same for every part of the rows, and each consumer computes its
    own; one per row (`rows`) is split with the rows, and the index of a
    `croq.vec.map` that computes it counts from the block's first row. Each
    warpgroup holds M / C rows, so a 128x256
    accumulator that one warpgroup could not hold in registers becomes two
    64x256 ones (wgmma m64n256).

    C is the block's `croq.consumers` attribute, else the `consumers`
    option; a block with neither (a hand-written one) keeps its consumer.
    `croq.consumers = 0`, which croq-pipeline-loops puts on the blocks it
    warp-specializes, lets the pass choose: two where every accumulator has
    128 rows or more, one otherwise. The rows of each accumulator must be a
    multiple of 64 C. A consumer that does anything else with its
    accumulators or the tiles they are stored into (reductions, register A
    operands, element loops, other copies) is left with one warpgroup and a
    warning that says why when the pass chose; when C was given, that is an
    error.

    Before (in a block with `croq.consumers = 0`):

    ```mlir
    croq.parallel (%wg) in [2] : warpgroup {
      croq.inthreads async %is_producer { ... }
      croq.inthreads async %is_consumer {
        %a = croq.mma.load %a_k : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
        %c = croq.mma row row %acc, %a, %b : !croq.frag<128x16xf16>, !croq.frag<256x16xf16> -> !croq.acc<128x256xf32>
        ...
        croq.mma.store %r -> %out_s : !croq.acc<128x256xf32> -> !croq.tile<128x256xf16, shared>
      }
    }
    ```

    After (`%is_consumer` is `%wg != 0`):

    ```mlir
    croq.parallel (%wg) in [3] : warpgroup {
      croq.inthreads async %is_producer { ... }
      croq.inthreads async %is_consumer {
        %half = arith.subi %wg, %c1 : index
        %a_rows = croq.subspan %a_k [64, 16] at [%half, %c0] : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.view<64x16xf16, shared, swizzle = 128>
        %a = croq.mma.load %a_rows : !croq.view<64x16xf16, shared, swizzle = 128> -> !croq.frag<64x16xf16>
        %c = croq.mma row row %acc, %a, %b : !croq.frag<64x16xf16>, !croq.frag<256x16xf16> -> !croq.acc<64x256xf32>
        ...
        %out_rows = croq.subspan %out_s [64, 256] at [%half, %c0] : !croq.tile<128x256xf16, shared> -> !croq.view<64x256xf16, shared>
        croq.mma.store %r -> %out_rows : !croq.acc<64x256xf32> -> !croq.view<64x256xf16, shared>
      }
    }
    ```
  }];
  let options = [
    Option<"consumers", "consumers", "int64_t", /*default=*/"0",
           "Consumer warpgroups of warp-specialized blocks without a "
           "croq.consumers attribute (0: leave them as they are)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def CroqLowerTmaFutures : Pass<"croq-lower-tma-futures"> {
  let summary = "Make every tma load complete on an event slot";
  let description = [{
    A tma load completes on an mbarrier that expects its bytes. A load whose
    future a `croq.event.trigger` consumes completes on that event's slot.
    This pass gives every other tma load the same form: a one-slot event
    array of its own, allocated at the start of its kernel; the load is
    issued async and triggers the slot right after it is issued; a
    synchronous load then waits on the slot (after a block barrier before
    the load, so that the block's earlier readers of the tile are done
    before the engine writes it), and the `croq.wait` of an async load's
    future becomes the wait on the slot. A tma load that triggers no event
    must be issued by a whole block, which waits for it. After this pass,
    `convert-croq-to-gpu` lowers one form of tma load, and every mbarrier
    phase is the phase of an event array (`croq-carry-event-phases`).

    Before:

    ```mlir
    croq.parallel (%i) in [16] : block {
      %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
      croq.copy tma %v -> %t map %m : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    }
    ```

    After:

    ```mlir
    croq.parallel (%i) in [16] : block {
      %e = croq.event.alloc : !croq.events<1>
      %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
      gpu.barrier
      %f = croq.copy tma async %v -> %t map %m : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
      croq.event.trigger %e[%c0] after (%f) : !croq.events<1>
      croq.event.wait %e[%c0] : !croq.events<1>
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect"];
}

def CroqSingleWarpProducers : Pass<"croq-single-warp-producers"> {
  let summary = "Run the loops of warp-specialized producers that only issue "
                "tma loads on one warp";
  let description = [{
    In a warp-specialized block the producer role (an `async`
    `croq.inthreads` of a warpgroup) waits for a ring stage to be free and
    issues the stage's tma loads, which the warpgroup's first thread issues
    alone, as it alone arrives on the stage's event expecting their bytes.
    The role's other threads only wait. Nothing makes them keep up: a
    warp that falls two phases behind on a slot (its waits suspend it while
    the ring moves on) waits for a parity the slot has already passed, never
    reaches the end of the kernel, and its block, or its whole cluster,
    hangs.

    This pass moves each loop of such a role that only waits on events,
    issues tma loads without software copies (or with answers known to be
    non-zero, the version croq-unswitch-tma-fallbacks makes) and computes
    indices into `croq.inthreads async` on the warpgroup's first warp
    (`croq.warp_index warpgroup` equal to 0, a value the compiler knows to be
    the same for all threads of a warp, so the loop's indices stay in the
    warp's uniform registers). The role's other warps go on
    to the end of the kernel. A loop with a software copy, a store, a plain
    or cluster trigger, or results that are used, a loop inside another
    loop, and one whose event arrays the role waits on after it (those
    waits would need the phases the loop leaves) are left to the whole
    warpgroup, as is anything outside such a loop (the role's register
    count, set by every warp of the warpgroup, is among it).

    Before:

    ```mlir
    croq.inthreads async %producer {
      scf.for %k = %c0 to %n step %c1 {
        croq.event.wait %empty[%s] : !croq.events<4>
        %f = croq.copy tma async %v -> %t map %m : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        croq.event.trigger %full[%s] after (%f) : !croq.events<4>
      }
    }
    ```

    After:

    ```mlir
    croq.inthreads async %producer {
      %w = croq.warp_index warpgroup
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %w, %c0 : index
      croq.inthreads async %first {
        scf.for %k = %c0 to %n step %c1 {
          ...
        }
      }
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def CroqPlanSharedMemory : Pass<"croq-plan-shared-memory"> {
  let summary = "Place each block's shared buffers in its dynamic shared "
                "memory";
  let description = [{
    A block's shared tiles and stage arrays live in one dynamic
    shared-memory allocation. This pass places them one after the other in
    program order, each at the alignment its layout needs (1024 bytes for a
    128-byte swizzle, 512 for 64, 256 for 32, 128 otherwise), records each
    buffer's byte offset on its `croq.alloc` (`offset = N`) and the total
    on the block's `croq.parallel` (`shared_memory = N`), which
    `convert-croq-to-gpu` and `convert-croq-regions-to-gpu` read. A block
    that needs more than the shared memory of the module's `croq.target`
    (227 KB per block on sm_90a, 163 KB on sm_80) is an error with one note
    per buffer: its type, its size and its offset. Run it after
    `croq-assign-layouts`, which fixes the layouts.

    Before:

    ```mlir
    croq.parallel (%i) in [16] : block {
      %a = croq.alloc : !croq.tile<64x32xf32, shared>
      %b = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    }
    ```

    After:

    ```mlir
    croq.parallel (%i) in [16] : block attributes {shared_memory = 24576 : i64} {
      %a = croq.alloc offset = 0 : !croq.tile<64x32xf32, shared>
      %b = croq.alloc offset = 8192 : !croq.tile<128x64xf16, shared, swizzle = 128>
    }
    ```
  }];
}

def CroqPlanEvents : Pass<"croq-plan-events"> {
  let summary = "Count the arrivals that complete each event array's phases";
  let description = [{
    An event array lowers to one mbarrier per slot, whose phase completes
    after a fixed number of arrivals. This pass counts them from the array's
    triggers and records the count on the `croq.event.alloc`
    (`arrivals = N`): a trigger `after` tma loads is one arrival (the
    issuing thread, which expects the loads' bytes on the barrier); a plain
    trigger is one arrival per warp that runs it, found from the enclosing
    regions' extents and the `croq.inthreads` conditions evaluated for each
    warpgroup index. Each warp (and each issuing thread) arrives once per
    phase, however many triggers it runs: a stage peeled before a loop and
    the loop's own trigger complete different phases, so they count the
    same warps once. A `cluster` trigger arrives on the slot in every block
    of the cluster, so the count is multiplied by the cluster's blocks; one
    array's triggers are all cluster triggers or none. An array with more than 64 slots, one used by other
    ops, one triggered after a dma copy, one never triggered, or one whose
    triggering warps cannot be counted at compile time is an error.

    Before:

    ```mlir
    croq.parallel (%b) in [1] : block {
      %full = croq.event.alloc : !croq.events<4>
      croq.parallel (%w) in [2] : warpgroup {
        croq.event.trigger %full[%c0] : !croq.events<4>
      }
    }
    ```

    After (two warpgroups of four warps trigger):

    ```mlir
    %full = croq.event.alloc arrivals = 8 : !croq.events<4>
    ```
  }];
}

def CroqCarryEventPhases : Pass<"croq-carry-event-phases"> {
  let summary = "Carry each thread's event phases as SSA values";
  let description = [{
    A wait on an event slot waits for the phase of the slot's mbarrier that
    the waiting thread has not seen yet, so each thread keeps one parity bit
    per slot; programs never spell it. This pass makes those bits SSA values
    of type `!croq.phases<N>`: after each `croq.event.alloc` that is waited
    on, `croq.event.phases` gives the bits every thread starts with (all
    one for a `ready` array); each `croq.event.wait` takes the bits
    (`phases %p`) and returns them with its slot's bit flipped; the bits
    are carried through `scf.for` as an iteration argument and out of
    `scf.if` as a result, to the next wait in program order. Waits inside
    `croq.inthreads`, `croq.parallel` and `croq.foreach` regions continue
    from the bits the region starts with; those regions yield no values, so
    a wait on the same array after such a region (or in the next iteration
    of a loop around it) is an error, as is a wait inside another op with
    regions. `convert-croq-to-gpu` lowers the bits to an `i64` and each
    wait to a try-wait on the parity of its bit and an xor.

    Before:

    ```mlir
    %full = croq.event.alloc arrivals = 1 : !croq.events<4>
    scf.for %k = %c0 to %n step %c1 {
      %s = arith.remui %k, %c4 : index
      croq.event.wait %full[%s] : !croq.events<4>
    }
    ```

    After:

    ```mlir
    %full = croq.event.alloc arrivals = 1 : !croq.events<4>
    %p0 = croq.event.phases : !croq.phases<4>
    %p = scf.for %k = %c0 to %n step %c1 iter_args(%pk = %p0) -> (!croq.phases<4>) {
      %s = arith.remui %k, %c4 : index
      %pn = croq.event.wait %full[%s] phases %pk : !croq.events<4>
      scf.yield %pn : !croq.phases<4>
    }
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def CroqPlanRegisters : Pass<"croq-plan-registers"> {
  let summary = "Give the roles of warp-specialized blocks their register "
                "counts";
  let description = [{
    In a block whose warpgroups run `croq.inthreads async` roles, producers
    (roles with tma copies and events only) need few registers and consumers
    (roles with `croq.mma`) many. This pass gives each role the count its
    threads set on entry with `setmaxnreg` (`registers = N` on the
    `croq.inthreads`): producers keep the target's producer count (56 on
    sm_90a); consumers share the rest of the registers the block holds, in
    steps of 8, at most the target's consumer maximum (240). The block holds
    what its threads start with (65536 / threads per block, rounded down to
    a multiple of 8, times its threads) and no more: `setmaxnreg.inc` only
    takes registers the block's own `setmaxnreg.dec` released, and a plan
    that asks for more waits forever. Where the consumers would not get more
    than every thread has at entry, neither role changes its count. The
    numbers come from the target description of the module's
    `croq.target`; on a chip without
    `setmaxnreg` (sm_80) every role keeps the registers it starts with.

    A block whose roles already carry `registers` (a plan its author wrote,
    e.g. 24 for a producer and 240 for consumers that would spill with
    fewer) keeps that plan once it is checked: every role has a count,
    producers lower theirs and consumers raise theirs, and the roles take no
    more than their threads hold at entry. A plan that breaks one of these
    is an error naming the numbers.

    Before:

    ```mlir
    croq.parallel (%w) in [3] : warpgroup {
      croq.inthreads async %is_producer { ... tma loads ... }
      croq.inthreads async %is_consumer { ... croq.mma ... }
    }
    ```

    After:

    ```mlir
    croq.parallel (%w) in [3] : warpgroup {
      croq.inthreads async %is_producer registers = 56 { ... }
      croq.inthreads async %is_consumer registers = 232 { ... }
    }
    ```
  }];
}

def CroqFoldStoreRelu : Pass<"croq-fold-store-relu"> {
  let summary = "Fold a ReLU that ends a croq.mma.map into the store of its "
                "result";
  let description = [{
    A fused GEMM epilogue often ends in a ReLU, `arith.maximumf %x, 0.0`,
    computed on every element of the accumulator before `croq.mma.store`
    converts it to f16 or bf16. The conversion instruction can clamp
    negative values itself (`cvt.rn.relu.f16x2.f32`), so this pass drops the
    maximum from the `croq.mma.map` and marks the store `relu`: one
    instruction less per element on the consumers' critical path.

    It applies where the map's result is used by that store only (or, for a
    result stored in column parts, only by `croq.mma.slice` ops each used by
    one such store, which then all clamp), the
    maximum's result only by the map's `croq.yield`, its other operand is
    the constant +0.0, and the store converts f32 to f16 or bf16. Both forms
    give the same values, NaN included (`arith.maximumf` propagates NaN,
    the conversion gives the canonical NaN); only the sign of a zero may
    differ, as the clamp may keep a negative zero where `maximumf` gives
    +0.0. `arith.maxnumf`, which maps NaN to 0, is left alone.

    Before:

    ```mlir
    %y = croq.mma.map %acc (%row, %col, %x) : !croq.acc<64x128xf32> {
      %b = arith.addf %x, %bias : f32
      %r = arith.maximumf %b, %zero : f32
      croq.yield %r : f32
    }
    croq.mma.store %y -> %out : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared>
    ```

    After:

    ```mlir
    %y = croq.mma.map %acc (%row, %col, %x) : !croq.acc<64x128xf32> {
      %b = arith.addf %x, %bias : f32
      croq.yield %b : f32
    }
    croq.mma.store relu %y -> %out : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared>
    ```
  }];
}

def CroqUnswitchTmaFallbacks : Pass<"croq-unswitch-tma-fallbacks"> {
  let summary = "Test once, before a kernel's loop, whether its tma copies "
                "need their software copies";
  let description = [{
    A `tma` copy of a tensor whose static type does not prove that TMA can
    move it carries a software copy, taken when the runtime's answer
    (`if %ok`, an i32 computed on the host) is zero. Inside a loop that
    issues such loads every iteration branches on the answer, keeps the
    software copy's addresses up to date and, for a group of warps that
    moves the tiles together, runs its barriers: in a producer that issues
    one K step of a GEMM per iteration, those instructions took longer than
    the tensor cores on the step of a 64x128 tile (bench/RESULTS.md).

    This pass versions the outermost `scf.for` of a kernel (a block-level
    `croq.parallel`) around such loads on their answers, which the host
    computes before the launch: the loop runs as it is when one of them is
    zero, and otherwise as a copy in which those answers are 1 (`if %c1`,
    which the lowering folds to the bulk copies alone). Only answers defined
    outside the loop are tested, and only those of loads (shared tiles
    filled from global memory): a tile loop that ends with a tma store
    pays for its software copy once a tile, and is not copied for it. Nor
    is a loop that also multiplies (a ring pipelined in place, or no ring):
    its wgmma take most of an iteration, and a second copy would double the
    consumer's code. The results of the loop come from whichever version
    ran.

    Before:

    ```mlir
    scf.for %k = %c0 to %n step %c1 {
      %v = croq.view %a [64, 64] from [%r, %k] : memref<?x?xf16> -> !croq.view<64x64xf16>
      croq.copy tma %v -> %t map %m if %ok boxes [64, 64] at [[0, 0]] : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    }
    ```

    After:

    ```mlir
    %c0_i32 = arith.constant 0 : i32
    %usable = arith.cmpi ne, %ok, %c0_i32 : i32
    scf.if %usable {
      %c1_i32 = arith.constant 1 : i32
      scf.for %k = %c0 to %n step %c1 {
        ...
        croq.copy tma %v -> %t map %m if %c1_i32 boxes [64, 64] at [[0, 0]] : ...
      }
    } else {
      scf.for %k = %c0 to %n step %c1 {
        ...
        croq.copy tma %v -> %t map %m if %ok boxes [64, 64] at [[0, 0]] : ...
      }
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def CroqWaitAsyncStores : Pass<"croq-wait-async-stores"> {
  let summary = "Wait for async tma stores left in flight before their tiles "
                "are written again";
  let description = [{
    The future of an async `tma` store may be left unwaited: the store goes
    on reading its shared tile while the group continues (the epilogue of a
    persistent GEMM overlapped with the next tile's mma). This pass makes
    that safe: before every op that writes a shared tile such a store reads
    (a copy, transpose, pad, `croq.mma.store` or `croq.write` into it, or
    into a stage or view of it), it inserts `croq.wait_stores read`, which
    makes the writing group wait until its stores have read their tiles;
    at the end of each kernel with such stores it inserts one more
    `croq.wait_stores read`, so that no block ends while its stores still
    read its shared memory. Their writes need no wait: they complete before
    the kernel does, as every write of the grid. A tile stored by
    async stores of two groups, or written by a group other than the one
    that stores it, is an error.

    Before:

    ```mlir
    croq.parallel (%b) in [1] : block {
      %t = croq.alloc : !croq.tile<64x64xf16, shared>
      scf.for %i = %c0 to %n step %c1 {
        croq.mma.store %acc -> %t : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared>
        %f = croq.copy tma async %t -> %v : !croq.tile<64x64xf16, shared> -> !croq.view<64x64xf16>
      }
    }
    ```

    After:

    ```mlir
    croq.parallel (%b) in [1] : block {
      %t = croq.alloc : !croq.tile<64x64xf16, shared>
      scf.for %i = %c0 to %n step %c1 {
        croq.wait_stores read
        croq.mma.store %acc -> %t : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared>
        %f = croq.copy tma async %t -> %v : !croq.tile<64x64xf16, shared> -> !croq.view<64x64xf16>
      }
      croq.wait_stores read
    }
    ```
  }];
}

def CroqDistributeCopies : Pass<"croq-distribute-copies"> {
  let summary = "Split dma copies, transposes and pads into each thread's "
                "moves";
  let description = [{
    The tiling stage of the data moves that are not TMA's: every `croq.copy
    dma`, `croq.transpose` and `croq.pad` inside a `croq.parallel` becomes
    the moves of one thread of the group that runs it (the block, or the
    warpgroup at warpgroup level; each thread alone where one side is a
    local tile). The group's items are shared by `croq.thread_index` over a
    loop with a static trip count where the sizes are static.

    - A copy moves 16-byte vectors (`croq.read` / `croq.write` of
      `vector<N x T>`) where the innermost sizes allow it and
      `croq.is_aligned` holds at run time, elements otherwise.
    - A synchronous copy of a static tile first tests whether the whole
      tile lies inside both tensors: then each thread loads up to eight
      items before it stores them, without per-element tests.
    - Elsewhere each item is tested against the edges of the views'
      tensors: what lies outside is not written, or, for `zfill` and pads,
      written with zero or the pad value.
    - An async copy from global to shared memory becomes `croq.copy_chunk`
      (cp.async) of 4 to 16 bytes, zero-filling past the edge, and its future
      `croq.commit_copies`.
    - Moves that touch shared memory are enclosed in `croq.barrier`s of
      the group (none after an async copy: `croq.wait` synchronizes).

    All reads and writes it emits are `in_bounds`: the tests are in the IR.

    Before:

    ```mlir
    croq.parallel (%b) in [1] : block {
      croq.parallel (%t) in [128] : thread {
      }
      %s = croq.alloc : !croq.tile<16x64xf16, shared>
      croq.copy dma %v -> %s : !croq.view<16x64xf16> -> !croq.tile<16x64xf16, shared>
    }
    ```

    After (in part):

    ```mlir
    croq.barrier block
    %tid = croq.thread_index block
    %ok = croq.is_aligned %v, 16 : !croq.view<16x64xf16>
    scf.if %inside_and_aligned {
      %x = croq.read %v[%i, %j] in_bounds : !croq.view<16x64xf16> -> vector<8xf16>
      croq.write %x, %s[%i, %j] in_bounds : !croq.tile<16x64xf16, shared> -> vector<8xf16>
    } else {
      ...
    }
    croq.barrier block
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect"];
}

def CroqPlanTmaBoxes : Pass<"croq-plan-tma-boxes"> {
  let summary = "Record the boxes each tma copy is made of";
  let description = [{
    The tiling stage of `tma` copies. The tensor memory accelerator moves a
    box of at most 256 elements per dimension whose innermost extent fits
    the swizzle span, written as one contiguous run of shared memory. A tile
    wider than its swizzle span is laid out as span-wide slabs one after
    another, so it moves as one box per slab, and a dimension above 256 is
    cut into boxes of 256. This pass records on each `tma` copy the box
    (`boxes [..]`, the tile's largest legal box) and the tile coordinates
    of every box's first element (`at [[..], ..]`), in the order the bulk
    copies are issued. `croq-emit-tensor-maps` makes the tensor maps for
    that box; `convert-croq-to-gpu` issues one bulk copy per box, a store's
    boxes under one proxy fence, barrier and bulk group. A `multicast` copy
    in clusters of N blocks has its box's outer dimension cut further, by
    the smallest factor that makes the boxes a multiple of N, so that each
    block issues an equal share (block r the boxes r, r + N, ...); each
    share must start on a swizzle atom. A copy that needs more than 256
    boxes, whose boxes cannot be shared that way, or whose tile has no
    layout yet, is an error.

    Before:

    ```mlir
    croq.copy tma %v -> %t : !croq.view<64x128xf16> -> !croq.tile<64x128xf16, shared, swizzle = 128>
    ```

    After (two 128-byte slabs of 64 f16 columns):

    ```mlir
    croq.copy tma %v -> %t boxes [64, 64] at [[0, 0], [0, 64]] : !croq.view<64x128xf16> -> !croq.tile<64x128xf16, shared, swizzle = 128>
    ```
  }];
}

def CroqEmitTensorMaps : Pass<"croq-emit-tensor-maps", "ModuleOp"> {
  let summary = "Ask the host for the tensor maps of the kernels' tma copies";
  let description = [{
    A `tma` copy moves boxes of a global tensor through a tensor map that
    the host encodes before the kernel starts. Before each kernel this pass
    emits one `croq.tensor_map` per tensor, box and swizzle the kernel's tma
    copies move (the box is the one bulk copy moves: a span-wide slab of a
    tile wider than its swizzle span, dimensions above 256 cut to 256), and
    gives each copy its map (`map %m`).

    - A tensor the kernel only reads (every use of it or of a view of it in
      the kernel is the source of a copy, transpose, pad or mma.load, or a
      `croq.read`) gets a `staged` map, unless
      `stage-misaligned-inputs=false`: the runtime copies it into an aligned
      buffer where its address or row strides break a rule of TMA.
    - `tma-fallback` decides which copies carry the software copy that runs
      when the runtime cannot give a map (`if %ok`): `always`; `never`;
      `auto` (the default), where the tensor's static type does not prove
      the map usable: a staged tensor with static sizes in TMA's ranges and
      contiguous, non-overlapping rows is proven. A map a copy without the
      software copy uses is `required`: when the runtime cannot give it,
      the launch is refused with the rule the tensor broke.

    Before:

    ```mlir
    croq.parallel (%i) in [16] : block {
      %v = croq.view %a [64, 64] from [%r, %c0] within [%n, 64] : memref<?x64xf16> -> !croq.view<64x64xf16>
      croq.copy tma %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    }
    ```

    After:

    ```mlir
    %m, %ok = croq.tensor_map %a box [64, 64] swizzle = 128 staged : memref<?x64xf16>
    croq.parallel (%i) in [16] : block {
      ...
      croq.copy tma %v -> %t map %m if %ok : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    }
    ```
  }];
  let options = [
    Option<"tmaFallback", "tma-fallback", "::mlir::croq::TmaFallback",
           /*default=*/"::mlir::croq::TmaFallback::Auto",
           "where tma copies carry a software copy for tensors TMA cannot "
           "take",
           [{::llvm::cl::values(
             clEnumValN(::mlir::croq::TmaFallback::Auto, "auto",
                        "where static shapes and strides do not prove TMA "
                        "usable (default)"),
             clEnumValN(::mlir::croq::TmaFallback::Always, "always",
                        "on every tma copy"),
             clEnumValN(::mlir::croq::TmaFallback::Never, "never",
                        "nowhere; the call fails when TMA cannot take a "
                        "tensor"))}]>,
    Option<"stageMisalignedInputs", "stage-misaligned-inputs", "bool",
           /*default=*/"true",
           "tensors a kernel only reads through tma copies are staged into "
           "aligned buffers by the runtime when TMA cannot describe them, "
           "instead of taking the software copy">
  ];
}

def CroqHostEntries : Pass<"croq-host-entries", "ModuleOp"> {
  let summary = "Give each function that launches kernels the stream to "
                "launch on and a status result";
  let description = [{
    A function that holds a kernel (a block-level `croq.parallel`), or is
    marked `croq.entry` (a classifier that launches none, made by
    `convert-linalg-to-croq`'s `classify` option), is what the host calls,
    through its C interface (`llvm.emit_c_interface`, which the pass sets;
    `croq.entry` is dropped). This pass gives each such function a last argument
    `%stream: !llvm.ptr {croq.stream}`, the CUDA stream (`CUstream`, null
    for the default stream) its kernels are launched on and its tensors are
    staged on, and an `i32` result: 0, or the code of the first runtime
    error of the call (`croqRtCallBegin` at entry clears it,
    `croqRtCallEnd` before each return reads it). Nothing in the call waits
    for the stream: the caller orders its work on the stream, or waits for
    it. `convert-croq-regions-to-gpu` makes each launch async on the
    stream, and `convert-croq-to-gpu` passes it to the host calls of staged
    tensor maps.

    Scalar arguments (i1, i8, i16, i32, i64, index, f32, f64) are passed by
    reference: each becomes an `!llvm.ptr` to its value (an index as an
    i64), loaded at the entry. Every argument of an entry point is then a
    pointer (the C interface passes memrefs as pointers to their
    descriptors), as `cuLaunchKernel` takes its parameters.

    A function that already returns values, or takes an argument of another
    type, is an error; one that already has a `croq.stream` argument is left
    as it is.

    Before:

    ```mlir
    func.func @scale(%a: memref<?xf32>, %s: f32) {
      croq.parallel (%i) in [4] : block { ... uses %s ... }
      return
    }
    ```

    After:

    ```mlir
    func.func @scale(%a: memref<?xf32>, %s_ref: !llvm.ptr,
                     %stream: !llvm.ptr {croq.stream}) -> i32 {
      %s = llvm.load %s_ref : !llvm.ptr -> f32
      call @croqRtCallBegin() : () -> ()
      croq.parallel (%i) in [4] : block { ... uses %s ... }
      %status = call @croqRtCallEnd() : () -> i32
      return %status : i32
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

#endif // CROQ_DIALECT_CROQ_TRANSFORMS_PASSES_TD
