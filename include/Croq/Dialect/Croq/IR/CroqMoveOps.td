//===- CroqMoveOps.td - element and per-thread moves -------*- tablegen -*-===//
//
// The ops a thread moves data with: element (or short vector) reads and
// writes, and the per-thread pieces that croq-distribute-copies splits a
// copy into (the executing thread's index, group barriers, alignment tests
// and cp.async chunks with their commit). Included by CroqOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_IR_CROQMOVEOPS_TD
#define CROQ_DIALECT_CROQ_IR_CROQMOVEOPS_TD

//===----------------------------------------------------------------------===//
// Element access
//===----------------------------------------------------------------------===//

def Croq_ReadOp : Croq_Op<"read"> {
  let summary = "reads one element, or a short vector, of a tile, view or tensor";
  let description = [{
    The `croq.read` op returns the element at `indices` of `source`
    (Croqtile's `t.at(i, j)` on the right of an assignment). Past the edge
    of a view's tensor it reads zero.

    With a `vector<N x T>` result it reads the N consecutive elements of the
    innermost dimension that start at `indices`, in one access of
    N * sizeof(T) bytes (4, 8 or 16). A vector read is `in_bounds`, and its
    first element's address must be a multiple of its size; in a swizzled
    tile the N elements then lie in one 16-byte chunk.

    `in_bounds` states that every element read lies inside the tensor: no
    edge test is made. `croq-distribute-copies` emits such reads after its
    own tests.

    Example:

    ```mlir
    %x = croq.read %t[%i, %j] : !croq.tile<16x16xi32, shared>
    %v = croq.read %w[%i, %j] in_bounds : !croq.view<64x64xf16> -> vector<8xf16>
    ```
  }];
  let arguments = (ins Arg<Croq_AnyBuffer, "read", [MemRead]>:$source,
                       Variadic<Index>:$indices,
                       UnitAttr:$inBounds);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $source `[` $indices `]` (`in_bounds` $inBounds^)? attr-dict
    custom<AccessTypes>(type($source), type($result))
  }];
  let hasVerifier = 1;
}

def Croq_WriteOp : Croq_Op<"write"> {
  let summary = "writes one element, or a short vector, of a tile, view or tensor";
  let description = [{
    The `croq.write` op stores `value` at `indices` of `dest` (Croqtile's
    `t.at(i, j) = v`). Writes through a view past its tensor's edge are
    dropped. A `vector<N x T>` value is stored to the N consecutive elements
    of the innermost dimension that start at `indices`, under the rules of
    a vector `croq.read`; `in_bounds` states that the write lies inside the
    tensor.

    Example:

    ```mlir
    croq.write %x, %v[%i, %j] : !croq.view<16x16xi32>
    croq.write %y, %t[%i, %j] in_bounds : !croq.tile<64x64xf16, shared> -> vector<8xf16>
    ```
  }];
  let arguments = (ins AnyType:$value,
                       Arg<Croq_AnyBuffer, "written", [MemWrite]>:$dest,
                       Variadic<Index>:$indices,
                       UnitAttr:$inBounds);
  let assemblyFormat = [{
    $value `,` $dest `[` $indices `]` (`in_bounds` $inBounds^)? attr-dict
    custom<AccessTypes>(type($dest), type($value))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Per-thread moves
//===----------------------------------------------------------------------===//

def Croq_ThreadIndexOp : Croq_Op<"thread_index", [Pure]> {
  let summary = "the executing thread's index in its block or warpgroup";
  let description = [{
    The `croq.thread_index` op returns the index of the executing thread in
    its thread block (`block`: 0 to the block's threads - 1) or in its
    warpgroup (`warpgroup`: 0 to 127). `croq-distribute-copies` shares a
    copy's items among the threads of the group that runs it with it.

    Example:

    ```mlir
    %t = croq.thread_index warpgroup
    ```
  }];
  let arguments = (ins Croq_ParallelLevel:$level);
  let results = (outs Index:$result);
  let assemblyFormat = "$level attr-dict";
  let hasVerifier = 1;
}

def Croq_WarpIndexOp : Croq_Op<"warp_index", [Pure]> {
  let summary = "the executing thread's warp's index in its block or warpgroup";
  let description = [{
    The `croq.warp_index` op returns the index of the executing thread's warp
    in its thread block (`block`: 0 to the block's warps - 1) or in its
    warpgroup (`warpgroup`: 0 to 3): the thread index divided by 32. Every
    thread of a warp gets the same value, and the lowering lets the
    compiler know it (lane 0's value, shuffled to the warp): a branch on it
    keeps the warp together, and what the branch computes stays in
    registers shared by the warp. `croq-single-warp-producers` runs the
    loops of producers on the warp of index 0.

    Example:

    ```mlir
    %w = croq.warp_index warpgroup
    ```
  }];
  let arguments = (ins Croq_ParallelLevel:$level);
  let results = (outs Index:$result);
  let assemblyFormat = "$level attr-dict";
  let hasVerifier = 1;
}

def Croq_BarrierOp : Croq_Op<"barrier", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "synchronizes the executing thread's block or warpgroup";
  let description = [{
    The `croq.barrier` op waits until every thread of the executing thread's
    block (`block`) or warpgroup (`warpgroup`) has reached it; their writes
    to shared memory before it are then visible to all of them. A warpgroup
    synchronizes on a named barrier of its own, so the block's other
    warpgroups need not take part.

    With `async`, each thread first fences its shared-memory writes for the
    async proxy (`fence.proxy.async.shared::cta`), so that after the
    barrier they are visible to the group's wgmma operand reads and TMA
    stores too: a tile that `croq.mma.store` wrote and a `croq.mma` then
    reads from shared memory.

    Example:

    ```mlir
    croq.barrier block
    croq.barrier warpgroup
    croq.barrier warpgroup async
    ```
  }];
  let arguments = (ins Croq_ParallelLevel:$level, UnitAttr:$async);
  let assemblyFormat = "$level (`async` $async^)? attr-dict";
  let hasVerifier = 1;
}

def Croq_TurnWaitOp : Croq_Op<"turn.wait",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits until a counter in global memory reaches a turn";
  let description = [{
    The `croq.turn.wait` op waits until element `index` of `counters`, a
    vector of i32 counters in global memory, is at least `turn` (unsigned),
    and orders the executing warpgroup's or block's later memory accesses
    after the writes that the `croq.turn.pass` ops which advanced it
    released: one thread spins on the counter with acquire loads at GPU
    scope and fences the async proxy (the group's later `croq.bulk_add`s
    come after), then the group synchronizes. With `croq.turn.pass` it orders
    the contributions of blocks to one sum in global memory (a
    `croq.mma.accumulate`): the block whose turn is n waits for turn n, adds,
    and passes, so that the sum is the same bits on every run.

    Every contributor a turn waits for must be running or done: the kernel
    gives turns in an order in which its blocks are launched.

    Example:

    ```mlir
    croq.turn.wait %turns[%tile] until %n : memref<?xi32>
    ```
  }];
  let arguments = (ins Arg<MemRefRankOf<[I32], [1]>, "counters",
                           [MemRead]>:$counters,
                       Index:$index, Index:$turn);
  let assemblyFormat = [{
    $counters `[` $index `]` `until` $turn attr-dict `:` qualified(type($counters))
  }];
  let hasVerifier = 1;
}

def Croq_TurnPassOp : Croq_Op<"turn.pass",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "advances a counter in global memory, releasing the group's writes";
  let description = [{
    The `croq.turn.pass` op adds one to element `index` of `counters`, i32
    counters in global memory, once for the executing warpgroup or block:
    the group synchronizes, then one thread fences the async proxy and adds
    with release semantics at GPU scope, so that a `croq.turn.wait` that
    sees the new count sees every write of the group before the pass (its
    `croq.mma.accumulate` adds, or the `croq.bulk_add`s its first thread
    waited for with `croq.wait_stores`).

    Example:

    ```mlir
    croq.turn.pass %turns[%tile] : memref<?xi32>
    ```
  }];
  let arguments = (ins Arg<MemRefRankOf<[I32], [1]>, "counters",
                           [MemRead, MemWrite]>:$counters,
                       Index:$index);
  let assemblyFormat = [{
    $counters `[` $index `]` attr-dict `:` qualified(type($counters))
  }];
  let hasVerifier = 1;
}

def Croq_ClusterRankOp : Croq_Op<"cluster.rank", [Pure]> {
  let summary = "the executing block's rank in its thread block cluster";
  let description = [{
    The `croq.cluster.rank` op is the rank of the executing block in its
    cluster (`%cluster_ctarank`), from 0 to the cluster's block count less
    one, the cluster's last dimension running fastest. It is used inside a
    block-level `croq.parallel` launched in clusters (`cluster [...]`).

    Example:

    ```mlir
    %r = croq.cluster.rank
    ```
  }];
  let results = (outs Index:$rank);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def Croq_ClusterBarrierOp : Croq_Op<"cluster.barrier",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "synchronizes the threads of all blocks of the cluster";
  let description = [{
    The `croq.cluster.barrier` op waits until every thread of every block
    of the executing block's cluster has reached it (`barrier.cluster.arrive`
    with release semantics, then `barrier.cluster.wait` with acquire): their
    writes to shared memory before it, in any block of the cluster, are
    visible after it. A cluster synchronizes this way before its blocks
    use each other's shared memory or mbarriers, and before a block exits
    while another may still write to it. It is used inside a block-level
    `croq.parallel` launched in clusters, by all threads of the blocks.

    Example:

    ```mlir
    croq.cluster.barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def Croq_NamedBarrierSyncOp : Croq_Op<"named_barrier.sync",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits at a named barrier shared by some warps of the block";
  let description = [{
    The `croq.named_barrier.sync` op makes the executing warps arrive at
    named barrier `id` and wait until `threads` threads, counted in whole
    warps, have arrived at it since it last completed: by this op or by
    `croq.named_barrier.arrive`, which arrives without waiting. It is how
    warpgroups take turns without mbarriers, as FlashAttention-3's two
    consumer warpgroups take turns to issue their products (ping-pong):

    ```mlir
    // consumer 0 (ids 0 and 1 are the two turns)
    croq.named_barrier.sync %c0, threads = 256    // wait for my turn
    ... croq.mma ...                               // issue
    croq.named_barrier.arrive %c1, threads = 256  // the other's turn
    ```

    Ids 0 to 6 are the program's; the lowering places them after the
    hardware barriers croq uses itself (the block's, and one per
    warpgroup for `croq.barrier warpgroup`). An id that is not a constant
    must be in that range when it runs. Every warp of the executing group
    runs the op together (`bar.sync` is aligned). A barrier that completes
    with arrivals left over (more than `threads`) is a program error the
    hardware does not detect: balance the arrivals of each phase.
  }];
  let arguments = (ins Index:$id,
                       ConfinedAttr<I64Attr, [IntPositive]>:$threads);
  let assemblyFormat = "$id `,` `threads` `=` $threads attr-dict";
  let hasVerifier = 1;
}

def Croq_NamedBarrierArriveOp : Croq_Op<"named_barrier.arrive",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "arrives at a named barrier without waiting";
  let description = [{
    The `croq.named_barrier.arrive` op makes the executing warps arrive at
    named barrier `id`, which completes once `threads` threads have arrived
    (see `croq.named_barrier.sync`), and goes on without waiting. Their
    writes to shared memory before it are visible to the threads that wait
    at the barrier.

    Example:

    ```mlir
    croq.named_barrier.arrive %other, threads = 256
    ```
  }];
  let arguments = (ins Index:$id,
                       ConfinedAttr<I64Attr, [IntPositive]>:$threads);
  let assemblyFormat = "$id `,` `threads` `=` $threads attr-dict";
  let hasVerifier = 1;
}

def Croq_IsAlignedOp : Croq_Op<"is_aligned", [Pure]> {
  let summary = "whether a buffer's origin and row strides are aligned";
  let description = [{
    The `croq.is_aligned` op returns true when the address of `buffer`'s
    first element and the byte strides of all its dimensions but the
    innermost are multiples of `bytes` (a power of two): then every access
    of `bytes` bytes at an innermost index that is a multiple of `bytes /
    sizeof(T)` is aligned. Views of tensors are tested at run time; what
    the types prove folds to a constant in the lowering.

    Example:

    ```mlir
    %ok = croq.is_aligned %w, 16 : !croq.view<64x64xf16>
    ```
  }];
  let arguments = (ins Croq_AnyBuffer:$buffer,
                       ConfinedAttr<I64Attr, [IntPositive]>:$bytes);
  let results = (outs I1:$result);
  let assemblyFormat = "$buffer `,` $bytes attr-dict `:` qualified(type($buffer))";
  let hasVerifier = 1;
}

def Croq_CopyChunkOp : Croq_Op<"copy_chunk", [AttrSizedOperandSegments]> {
  let summary = "starts one thread's asynchronous copy of a chunk";
  let description = [{
    The `croq.copy_chunk` op starts an asynchronous copy (cp.async) of
    `width` consecutive elements of the innermost dimension, from global
    memory at `src[srcIndices]` to a shared tile at `dst[dstIndices]`. Only
    the first `valid` elements (0 to `width`) are read; the rest of the chunk
    is zero-filled. The chunk is 4, 8 or 16 bytes, and both addresses must be
    multiples of its size. With `valid` = 0 nothing is read, and the chunk
    reads at the source's origin instead of `srcIndices`, which then need not
    lie in the tensor.

    The copies a thread started complete with the group that the next
    `croq.commit_copies` closes.

    Example:

    ```mlir
    croq.copy_chunk %w[%i, %j] -> %t[%i, %j] width 8 valid %n : !croq.view<64x64xf16>, !croq.tile<64x64xf16, shared>
    ```
  }];
  let arguments = (ins Arg<Croq_AnyBuffer, "read", [MemRead]>:$source,
                       Variadic<Index>:$sourceIndices,
                       Arg<Croq_AnyBuffer, "written", [MemWrite]>:$dest,
                       Variadic<Index>:$destIndices,
                       ConfinedAttr<I64Attr, [IntPositive]>:$width,
                       Index:$valid);
  let assemblyFormat = [{
    $source `[` $sourceIndices `]` `->` $dest `[` $destIndices `]` `width`
    $width `valid` $valid attr-dict `:` qualified(type($source)) `,`
    qualified(type($dest))
  }];
  let hasVerifier = 1;
}

def Croq_CommitCopiesOp : Croq_Op<"commit_copies",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "closes the executing thread's group of chunk copies";
  let description = [{
    The `croq.commit_copies` op closes the group of `croq.copy_chunk`
    copies the executing thread started since its last commit. Its future
    completes when they have; `croq.wait` on it waits for the thread's
    groups and then synchronizes the executing group, so every thread sees
    every thread's chunks.

    Example:

    ```mlir
    %f = croq.commit_copies : !croq.future
    ```
  }];
  let results = (outs Croq_FutureType:$future);
  let assemblyFormat = "attr-dict `:` type($future)";
}

#endif // CROQ_DIALECT_CROQ_IR_CROQMOVEOPS_TD
