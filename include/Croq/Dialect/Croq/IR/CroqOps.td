//===- CroqOps.td - croq op definitions --------------------*- tablegen -*-===//
//
// Operations of the croq dialect: parallel regions, on-chip allocation,
// views, copies, futures, events, mma and element access.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_IR_CROQOPS_TD
#define CROQ_DIALECT_CROQ_IR_CROQOPS_TD

include "Croq/Dialect/Croq/IR/CroqTypes.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Croq_Op<string mnemonic, list<Trait> traits = []>
    : Op<Croq_Dialect, mnemonic, traits>;

// Anything a copy reads or writes: a global tensor, a tile or a view.
def Croq_AnyBuffer : AnyTypeOf<[AnyMemRef, Croq_TileType, Croq_ViewType],
    "memref, tile or view">;
// Anything a view selects from.
def Croq_ViewSource : AnyTypeOf<[AnyMemRef, Croq_TileType, Croq_ViewType],
    "memref, tile or view">;

//===----------------------------------------------------------------------===//
// Parallel regions
//===----------------------------------------------------------------------===//

def Croq_ParallelOp : Croq_Op<"parallel", [SingleBlock, NoTerminator,
    RecursiveMemoryEffects]> {
  let summary = "a parallel region over blocks, warpgroups or threads";
  let description = [{
    The `croq.parallel` op runs its body once for every point of an
    iteration space, at one hardware level: `block` (thread blocks of the
    grid), `warpgroup` (groups of four warps inside a block) or `thread`
    (threads inside the enclosing block or warpgroup). The body's block
    arguments are the coordinates; extents are static integers or `index`
    values. This is Croqtile's `parallel {i, j} by [m, n] : block`; a
    `group-4` level is `warpgroup`.

    A `warpgroup` or `thread` region must be nested in a `block` region.

    `shared_memory`, set on a `block` region by `croq-plan-shared-memory`,
    is the number of bytes of dynamic shared memory its shared buffers take
    (their offsets are on their `croq.alloc` ops).

    `cluster [c0, ...]` on a `block` region launches its blocks in thread
    block clusters (sm_90) of that shape, one size per dimension of the
    grid: the blocks of a cluster run at the same time on one GPC and may
    synchronize with `croq.cluster.barrier`; `croq.cluster.rank` is a
    block's place in its cluster. Every extent must be a multiple of the
    cluster's size in its dimension (checked when the launch runs for
    extents that are values), and a cluster has at most 8 blocks.

    Example:

    ```mlir
    croq.parallel (%tr, %tc) in [4, 8] : block {
      croq.parallel (%t) in [128] : thread {
      }
    }
    croq.parallel (%b) in [16] : block cluster [2] {
    }
    ```
  }];
  let arguments = (ins Variadic<Index>:$dynamicExtents,
                       DenseI64ArrayAttr:$staticExtents,
                       Croq_ParallelLevel:$level,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntNonNegative]>>:
                           $shared_memory,
                       OptionalAttr<DenseI64ArrayAttr>:$cluster);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The coordinates of the region, one per dimension.
    Block::BlockArgListType getInductionVars() {
      return getBody().front().getArguments();
    }
    /// The extents as static integers or values.
    SmallVector<OpFoldResult> getMixedExtents();
    /// The number of dimensions.
    unsigned getRank() { return getStaticExtents().size(); }
    /// The most blocks a cluster may have (the portable size of sm_90).
    static constexpr int64_t kMaxClusterBlocks = 8;
    /// Checks the cluster shape against the level and the grid.
    LogicalResult verifyCluster();
    /// The blocks of one cluster: the product of the cluster's sizes, 1
    /// without clusters.
    int64_t getClusterBlocks();
  }];
}

def Croq_InthreadsOp : Croq_Op<"inthreads", [SingleBlock, NoTerminator,
    RecursiveMemoryEffects]> {
  let summary = "a region run by the threads for which a condition holds";
  let description = [{
    The `croq.inthreads` op runs its body only on the threads (or warpgroups)
    of the enclosing parallel region for which `condition` is true. With
    `async`, the threads that do not run it do not wait for it: this is how
    the producer and consumer roles of a warp-specialized kernel are written
    (Croqtile's `inthreads.async (p == 0) { ... }`). Without `async`, every
    thread of the enclosing region synchronizes after the body.

    `registers = N`, set on the roles of a warp-specialized block by
    `croq-plan-registers`, is the register count the role's threads set on
    entry (`setmaxnreg`): fewer than the block starts with for producers,
    more for consumers.

    Example:

    ```mlir
    croq.parallel (%p) in [2] : warpgroup {
      %c0 = arith.constant 0 : index
      %is_producer = arith.cmpi eq, %p, %c0 : index
      croq.inthreads async %is_producer {
      }
    }
    ```
  }];
  let arguments = (ins I1:$condition, UnitAttr:$async,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<24>,
                                                           IntMaxValue<256>]>>:
                           $registers);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`async` $async^)? $condition (`registers` `=` $registers^)?
    attr-dict-with-keyword $body
  }];
  let hasRegionVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

def Croq_AllocOp : Croq_Op<"alloc", [MemoryEffects<[MemAlloc]>]> {
  let summary = "allocates a shared or local tile, or a stage array of them";
  let description = [{
    The `croq.alloc` op allocates an on-chip buffer: a `!croq.tile` or a
    `!croq.tiles` stage array. Shared buffers belong to the enclosing
    `croq.parallel ... : block` region; local buffers to each thread. The
    contents are undefined until written. `offset = N`, set on shared
    buffers by `croq-plan-shared-memory`, is the buffer's byte offset in its
    block's dynamic shared memory, a multiple of its layout's alignment.

    Example:

    ```mlir
    %t = croq.alloc : !croq.tile<16x16xi32, shared>
    %ring = croq.alloc : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
    ```
  }];
  let arguments = (ins
      OptionalAttr<ConfinedAttr<I64Attr, [IntNonNegative]>>:$offset);
  let results = (outs AnyTypeOf<[Croq_TileType, Croq_TilesType],
                               "tile or stage array of tiles">:$result);
  let assemblyFormat = [{
    (`offset` `=` $offset^)? attr-dict `:` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Croq_StageOp : Croq_Op<"stage", [Pure, InferTypeOpAdaptor]> {
  let summary = "selects one stage of a stage array";
  let description = [{
    The `croq.stage` op returns the tile at `index` of a `!croq.tiles` stage
    array (Croqtile's `lhs_load_s[stage]`). A constant index must be in
    range.

    Example:

    ```mlir
    %t = croq.stage %ring[%s] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
    ```
  }];
  let arguments = (ins Croq_TilesType:$tiles, Index:$index);
  let results = (outs Croq_TileType:$result);
  let assemblyFormat = "$tiles `[` $index `]` attr-dict `:` qualified(type($tiles))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

def Croq_ChunkatOp : Croq_Op<"chunkat", [Pure]> {
  let summary = "selects one tile of an equal partition";
  let description = [{
    The `croq.chunkat` op divides every dimension of `source` into equal
    chunks and selects one (Croqtile's `t.chunkat(i, j)`). Each entry of the
    index list is either an `index` value, the chunk coordinate along that
    dimension, or `_`, which keeps the whole dimension. The number of chunks
    per dimension is given by `of [...]`; when it is omitted, each index must
    be a coordinate of an enclosing `croq.parallel` and the chunk count is
    that region's extent. A chunk is `ceildiv(size, count)` elements long;
    the last one may run past the edge.

    Example:

    ```mlir
    %v = croq.chunkat %lhs[%tr, %tc] : memref<64x128xi32> -> !croq.view<16x16xi32>
    %w = croq.chunkat %t[_, %k] of [1, 4] : !croq.tile<64x64xf16, shared> -> !croq.view<64x16xf16, shared>
    ```
  }];
  let arguments = (ins Croq_ViewSource:$source, Variadic<Index>:$indices,
                       DenseBoolArrayAttr:$partitioned,
                       OptionalAttr<DenseI64ArrayAttr>:$counts);
  let results = (outs Croq_ViewType:$result);
  let assemblyFormat = [{
    $source `` custom<ChunkIndices>($indices, $partitioned)
    (`of` $counts^)? attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    /// The number of chunks along each dimension: the explicit counts, or the
    /// enclosing parallel extents (dynamic when they are). 1 for `_`.
    SmallVector<OpFoldResult> getMixedCounts();
    /// The index value of each dimension, null for `_`.
    SmallVector<Value> getIndexPerDim();
  }];
}

def Croq_SubspanOp : Croq_Op<"subspan", [Pure, AttrSizedOperandSegments]> {
  let summary = "selects one tile of a tile grid";
  let description = [{
    The `croq.subspan` op selects the tile at tile coordinates `at [...]` of
    a grid of tiles of extent `[...]` laid over `source` (Croqtile's
    `t.subspan(64, 64).at(i, k)`). Tiles are packed by default; with
    `step [...]` tile `i` starts at element `i * step` (Croqtile's
    `.step(...)`), which spaces tiles apart or makes them overlap.

    Example:

    ```mlir
    %v = croq.subspan %a [128, 64] at [%bm, %k] : memref<?x?xf16> -> !croq.view<128x64xf16>
    %w = croq.subspan %m [16, 16] step [32, 32] at [%i, %j] : memref<128x128xf32> -> !croq.view<16x16xf32>
    ```
  }];
  let arguments = (ins Croq_ViewSource:$source,
                       Variadic<Index>:$sizes, DenseI64ArrayAttr:$staticSizes,
                       Variadic<Index>:$steps,
                       OptionalAttr<DenseI64ArrayAttr>:$staticSteps,
                       Variadic<Index>:$indices);
  let results = (outs Croq_ViewType:$result);
  let assemblyFormat = [{
    $source custom<DynamicIndexList>($sizes, $staticSizes)
    `` custom<OptionalStep>($steps, $staticSteps)
    `at` ` ` `[` $indices `]` attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    SmallVector<OpFoldResult> getMixedSizes();
    /// The steps; the sizes when no step is given.
    SmallVector<OpFoldResult> getMixedSteps();
  }];
}

def Croq_ViewOp : Croq_Op<"view", [Pure, AttrSizedOperandSegments]> {
  let summary = "selects a window at element offsets";
  let description = [{
    The `croq.view` op selects the window of extent `[...]` that starts at
    element offsets `from [...]` of `source` (Croqtile's
    `t.view(m, n).from(r, c)`). Offsets need no alignment. The optional
    `within [...]` clause bounds the valid part of the window by source
    coordinates: an element at source coordinate `c` is valid when
    `c < within` (and inside the source). It is what a chain of views folds
    into, so that a window of a window keeps the outer window's edge.

    Example:

    ```mlir
    %p = croq.view %m [16, 16] from [37, %c] : memref<128x128xf32> -> !croq.view<16x16xf32>
    %q = croq.view %m [16, 16] from [%r, 0] within [%e, 128] : memref<128x128xf32> -> !croq.view<16x16xf32>
    ```
  }];
  let arguments = (ins Croq_ViewSource:$source,
                       Variadic<Index>:$sizes, DenseI64ArrayAttr:$staticSizes,
                       Variadic<Index>:$offsets,
                       DenseI64ArrayAttr:$staticOffsets,
                       Variadic<Index>:$bounds,
                       OptionalAttr<DenseI64ArrayAttr>:$staticBounds);
  let results = (outs Croq_ViewType:$result);
  let assemblyFormat = [{
    $source custom<DynamicIndexList>($sizes, $staticSizes)
    `from` custom<DynamicIndexList>($offsets, $staticOffsets)
    `` custom<OptionalWithin>($bounds, $staticBounds)
    attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let hasFolder = 1;
  let extraClassDeclaration = [{
    SmallVector<OpFoldResult> getMixedSizes();
    SmallVector<OpFoldResult> getMixedOffsets();
    /// The bounds, empty when there is no `within` clause.
    SmallVector<OpFoldResult> getMixedBounds();
  }];
}

def Croq_SpanAsOp : Croq_Op<"span_as", [Pure]> {
  let summary = "reinterprets a tile with another shape";
  let description = [{
    The `croq.span_as` op gives the storage of `source` a new shape without
    moving data (Croqtile's `t.span_as([m, n])`). Element type, memory space
    and layout stay; the element count must be the same. A swizzled tile
    whose rows are wider than the swizzle span is stored as span-wide slabs,
    so the same bytes hold the same elements only if such a reshape keeps
    the innermost dimension.

    Example:

    ```mlir
    %m = croq.span_as %flat : !croq.tile<8192xf16, shared> -> !croq.tile<128x64xf16, shared>
    ```
  }];
  let arguments = (ins Croq_TileType:$source);
  let results = (outs Croq_TileType:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Copies and futures
//===----------------------------------------------------------------------===//

def Croq_CopyOp : Croq_Op<"copy", [AttrSizedOperandSegments]> {
  let summary = "moves a tile between memories";
  let description = [{
    The `croq.copy` op moves the elements of `source` into `dest`
    (Croqtile's `dma.copy src => dst` and `tma.copy src => dst`).

    - `dma` copies are done by the threads of the executing group; `tma`
      copies by the Hopper tensor memory accelerator, issued by one thread.
      A `tma` copy moves between a global tensor and a shared tile, and its
      tile shape must be known at compile time.
    - `async` makes the copy return a `!croq.future`; read `dest` only after
      `croq.wait` (or an event triggered after it). An async `dma` copy
      must move global to shared memory (it becomes `cp.async`). The future
      of an async `tma` store (shared to global) may be left unwaited: the
      store stays in flight while the group goes on, and the compiler makes
      the group wait for it to have read its tile before the next op that
      writes the tile, and for it to complete before the kernel ends (the
      epilogue of a persistent GEMM overlapped with the next tile). Such a
      tile must be written by the group that stores it.
    - `zfill` zero-fills the part of `dest` that the source does not cover:
      the source view is smaller than the destination, or runs past the edge
      of its tensor. Without `zfill`, copies between a view and a tile of the
      same shape mask out-of-range elements automatically.
    - `swizzle = N` states the shared-memory layout (Croqtile's `.swiz<N>`);
      it must agree with the shared tile's type.
    - `map %m` is the tensor map of a `tma` copy's global tensor, asked for
      on the host by `croq.tensor_map` (`croq-emit-tensor-maps` adds it);
      `if %ok` is the runtime's answer whether TMA can move the tensor: the
      copy then carries a software copy for when it cannot.
    - `boxes [b0, b1] at [[o0, o1], ...]` lists the bulk copies a `tma` copy
      is made of (`croq-plan-tma-boxes` adds it): each moves the box of shape
      `[b0, b1]` whose first element is at `[o0, o1]` of the tile. The box is
      the tile's largest legal one: inside one swizzle-span-wide slab, at
      most 256 elements per dimension, a contiguous run of the slab. The
      boxes cover the tile once, at most 256 of them.
    - `multicast` shares a `tma` load among the blocks of a cluster: every
      block of the cluster runs the copy with the same source, and each
      issues an equal share of the boxes, which the hardware writes into the
      tile of every block of the cluster (the tile at the same place in each
      block's shared memory) and completes on each block's event slot. The
      boxes of such a copy are cut so that they divide among the cluster's
      blocks. The copy must be inside a block-level `croq.parallel` launched
      in clusters; a block may overwrite the tile only when every block of
      the cluster is done with it (the release triggers of a pipeline ring
      are `cluster` triggers).

    Example:

    ```mlir
    croq.copy dma %v -> %t : !croq.view<16x16xi32> -> !croq.tile<16x16xi32, shared>
    %f = croq.copy tma async zfill swizzle = 128 %a -> %s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
    croq.wait %f
    croq.copy tma %w -> %u boxes [64, 64] at [[0, 0], [0, 64]] : !croq.view<64x128xf16> -> !croq.tile<64x128xf16, shared, swizzle = 128>
    croq.parallel (%b) in [16] : block cluster [2] {
      %m = croq.copy tma async multicast swizzle = 128 %a -> %s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      croq.wait %m
    }
    ```
  }];
  let arguments = (ins Croq_CopyEngine:$engine,
                       Arg<Croq_AnyBuffer, "read", [MemRead]>:$source,
                       Arg<Croq_AnyBuffer, "written", [MemWrite]>:$dest,
                       Optional<Croq_TiledTensorMap>:$map,
                       Optional<I32>:$usable,
                       UnitAttr:$zfill,
                       OptionalAttr<Croq_Swizzle>:$swizzle,
                       OptionalAttr<DenseI64ArrayAttr>:$box,
                       OptionalAttr<DenseI64ArrayAttr>:$boxOrigins,
                       UnitAttr:$multicast);
  let results = (outs Optional<Croq_FutureType>:$future);
  let assemblyFormat = [{
    $engine `` custom<AsyncResult>(type($future)) (`multicast` $multicast^)?
    (`zfill` $zfill^)?
    `` custom<OptionalSwizzle>($swizzle) $source `->` $dest
    (`map` $map^)? (`if` $usable^)? `` custom<TmaBoxes>($box, $boxOrigins)
    attr-dict
    `:` qualified(type($source)) `->` qualified(type($dest))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    bool isAsync() { return getFuture() != nullptr; }
    /// The blocks that share this copy: its cluster's for a multicast
    /// copy, else 1.
    int64_t getShares();
    /// Whether this copy moves from a global tensor into shared memory by
    /// the tensor memory accelerator.
    bool isTmaLoad();
    /// The croq.event.trigger that consumes this copy's future, if that is
    /// the future's one use.
    EventTriggerOp getTrigger();
  }];
}

def Croq_TensorMapOp : Croq_Op<"tensor_map",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "asks the runtime for the TMA tensor map of a global tensor";
  let description = [{
    The `croq.tensor_map` op runs on the host before a kernel: it asks the
    runtime for the tensor map of `tensor` with boxes of `box` (outermost
    dimension first) and swizzle `swizzle` (cached per tensor and
    parameters), and returns it with the runtime's answer `usable`: non-zero
    when TMA can move the tensor. The kernel's `tma` copies take the map.

    - `staged`: the kernel only reads the tensor; where its address or row
      strides break a rule of TMA, the runtime copies it into an aligned
      buffer and maps the copy, released after the op of this block that
      uses the map (the kernel).
    - `required`: the kernel has no software copy for this tensor; when the
      runtime cannot give a map, the next launch is refused with the rule
      the tensor broke.

    Example:

    ```mlir
    %m, %ok = croq.tensor_map %a box [64, 64] swizzle = 128 staged : memref<?x?xf16>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "read when staged", [MemRead]>:$tensor,
                       DenseI64ArrayAttr:$box, Croq_Swizzle:$swizzle,
                       UnitAttr:$staged, UnitAttr:$required);
  let results = (outs Croq_TiledTensorMap:$map, I32:$usable);
  let assemblyFormat = [{
    $tensor `box` $box `` custom<OptionalSwizzle>($swizzle) (`staged` $staged^)?
    (`required` $required^)? attr-dict `:` qualified(type($tensor))
  }];
  let hasVerifier = 1;
}

def Croq_TransposeOp : Croq_Op<"transpose"> {
  let summary = "copies a tile while permuting its dimensions";
  let description = [{
    The `croq.transpose` op is a `dma` copy that permutes dimensions during
    the move (Croqtile's `dma.transp<1, 0> src => dst`): destination
    dimension `i` is source dimension `permutation[i]`. `permutation` must
    be a permutation of `0 .. rank-1`.

    Example:

    ```mlir
    croq.transpose [1, 0] %src -> %dst : !croq.view<16x32xf32> -> !croq.tile<32x16xf32, local>
    ```
  }];
  let arguments = (ins DenseI64ArrayAttr:$permutation,
                       Arg<Croq_AnyBuffer, "read", [MemRead]>:$source,
                       Arg<Croq_AnyBuffer, "written", [MemWrite]>:$dest);
  let results = (outs Optional<Croq_FutureType>:$future);
  let assemblyFormat = [{
    `` custom<AsyncResult>(type($future)) $permutation $source `->` $dest
    attr-dict `:` qualified(type($source)) `->` qualified(type($dest))
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Croq_PadOp : Croq_Op<"pad", [TypesMatchWith<
    "value matches the destination element type", "dest", "value",
    "::mlir::getElementTypeOrSelf($_self)">]> {
  let summary = "copies a tile into a larger one with a border";
  let description = [{
    The `croq.pad` op is a `dma` copy into a larger destination (Croqtile's
    `dma.pad<{low}, {high}, {interior}, V>`): along dimension `i` the source
    is placed after `low[i]` fill elements, with `interior[i]` fill elements
    between neighbours, followed by `high[i]`; the destination extent is
    `low + high + size + interior * (size - 1)`. Fill elements get `value`.

    Example:

    ```mlir
    croq.pad low [2, 3] high [1, 2] interior [0, 0] %src -> %dst value %zero : !croq.view<8x8xf32> -> !croq.tile<11x13xf32, shared>
    ```
  }];
  let arguments = (ins DenseI64ArrayAttr:$low, DenseI64ArrayAttr:$high,
                       DenseI64ArrayAttr:$interior,
                       Arg<Croq_AnyBuffer, "read", [MemRead]>:$source,
                       Arg<Croq_AnyBuffer, "written", [MemWrite]>:$dest,
                       AnyType:$value);
  let results = (outs Optional<Croq_FutureType>:$future);
  let assemblyFormat = [{
    `` custom<AsyncResult>(type($future)) `low` $low `high` $high
    `interior` $interior $source `->` $dest `value` $value attr-dict
    `:` qualified(type($source)) `->` qualified(type($dest))
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Croq_WaitOp : Croq_Op<"wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits for an asynchronous copy";
  let description = [{
    The `croq.wait` op blocks until the copy that produced `future` has
    completed, so its destination can be read (Croqtile's `wait f`). A
    future is consumed at most once.

    Example:

    ```mlir
    croq.wait %f
    ```
  }];
  let arguments = (ins Croq_FutureType:$future);
  let assemblyFormat = "$future attr-dict";
}

def Croq_WaitStoresOp : Croq_Op<"wait_stores",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits for the async tma stores the executing threads issued";
  let description = [{
    The `croq.wait_stores` op waits for the async `tma` stores (shared to
    global) that the executing threads have issued and left in flight.
    With `read`, each thread waits until its stores have read their source
    tiles, and then the threads of the executing group (block, warpgroup)
    synchronize: the tiles may be written again. Without `read`, each thread
    waits until its stores have completed, with no synchronization.
    `croq-wait-async-stores` places these ops with `read`: before every
    write of a tile an async store reads, and at the end of each kernel that
    leaves stores in flight. The plain form is for a program that reads
    what its stores wrote.

    Example:

    ```mlir
    croq.wait_stores read
    croq.wait_stores
    ```
  }];
  let arguments = (ins UnitAttr:$read);
  let assemblyFormat = "(`read` $read^)? attr-dict";
  let hasVerifier = 1;
}

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

//===----------------------------------------------------------------------===//
// MMA
//===----------------------------------------------------------------------===//

def Croq_MmaFillOp : Croq_Op<"mma.fill", [Pure, TypesMatchWith<
    "value matches the accumulator element type", "result", "value",
    "::llvm::cast<AccType>($_self).getElementType()">]> {
  let summary = "creates an accumulator with every element set to a value";
  let description = [{
    The `croq.mma.fill` op returns an accumulator whose elements all hold
    `value` (Croqtile's `mma.fill.f16 0.0f`).

    Example:

    ```mlir
    %acc = croq.mma.fill %zero : !croq.acc<64x128xf32>
    ```
  }];
  let arguments = (ins AnyType:$value);
  let results = (outs Croq_AccType:$result);
  let assemblyFormat = "$value attr-dict `:` qualified(type($result))";
}

def Croq_MmaLoadOp : Croq_Op<"mma.load"> {
  let summary = "loads an mma operand from a shared tile";
  let description = [{
    The `croq.mma.load` op makes a shared tile, or a view of one, an mma
    operand (Croqtile's `mma.load.swiz<N> t.chunkat(_, k)`). The layout comes
    from the tile's type; an explicit `swizzle = N` must agree with it.

    Example:

    ```mlir
    %a = croq.mma.load %t : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
    ```
  }];
  let arguments = (ins Arg<AnyTypeOf<[Croq_TileType, Croq_ViewType],
                                     "tile or view">, "read", [MemRead]>:$source,
                       OptionalAttr<Croq_Swizzle>:$swizzle);
  let results = (outs Croq_FragType:$result);
  let assemblyFormat = [{
    `` custom<OptionalSwizzle>($swizzle) $source attr-dict `:` qualified(type($source))
    `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Croq_MmaOp : Croq_Op<"mma", [MemoryEffects<[MemRead]>,
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "multiplies two operands and adds to an accumulator";
  let description = [{
    The `croq.mma` op computes `acc + a * b` on the tensor cores (Croqtile's
    `mma.row.row c, a, b`). The two layout keywords give how A and B are
    stored: `row` means K is the contiguous dimension (A is M x K, B is
    N x K), `col` means M or N is (A is K x M, B is K x N). The accumulator
    is M x N. On sm_90a this is `wgmma` over one warpgroup: M is a multiple
    of 64, N a multiple of 8 up to 256, and K a multiple of the
    instruction's K for the element type (16 for f16/bf16, 8 for tf32, 32
    for f8 and i8). f8, i8 and tf32 operands must both be `row`. A may
    also come from registers (`croq.mma.convert`): then it is `row`, f16 or
    bf16; B is always read from shared memory.

    Example:

    ```mlir
    %r = croq.mma row row %acc, %a, %b : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
    ```
  }];
  let arguments = (ins Croq_MmaLayout:$layoutA, Croq_MmaLayout:$layoutB,
                       Croq_AccType:$acc, Croq_FragType:$a,
                       Croq_FragType:$b);
  let results = (outs Croq_AccType:$result);
  let assemblyFormat = [{
    $layoutA $layoutB $acc `,` $a `,` $b attr-dict `:` qualified(type($a)) `,` qualified(type($b))
    `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Croq_MmaCommitOp : Croq_Op<"mma.commit", [MemoryEffects<[MemRead, MemWrite]>,
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "completes the outstanding mma operations of an accumulator";
  let description = [{
    The `croq.mma.commit` op ends a group of `croq.mma` operations on an
    accumulator (Croqtile's `mma.commit`) and waits until at most `pending`
    committed groups are still running (0 by default). With `pending = 0`
    its result is the accumulator once every group has completed, and the
    shared tiles they read may be reused after it. With `pending = N`, the
    tiles of the last N groups may still be read: a pipelined loop frees the
    stage of the previous iteration instead, and keeps the tensor cores busy
    while it waits for the next stage. The result of such a commit may only
    feed further `croq.mma` ops, commits and `croq.mma.wait`; read or store
    it after a commit with `pending = 0` or a `croq.mma.wait`.

    Example:

    ```mlir
    %c = croq.mma.commit %r : !croq.acc<64x128xf32>
    %p = croq.mma.commit %r pending = 1 : !croq.acc<64x128xf32>
    ```
  }];
  let arguments = (ins Croq_AccType:$acc,
                       DefaultValuedOptionalAttr<I64Attr, "0">:$pending);
  let results = (outs Croq_AccType:$result);
  let assemblyFormat = "$acc (`pending` `=` $pending^)? attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def Croq_MmaWaitOp : Croq_Op<"mma.wait", [MemoryEffects<[MemRead, MemWrite]>,
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "waits for an mma group committed with pending groups";
  let description = [{
    The `croq.mma.wait` op waits until the group of `croq.mma` operations
    that a `croq.mma.commit` with `pending > 0` left running has completed,
    while at most `pending` groups committed after it still run, and returns
    the complete accumulator: the result may be mapped, reduced, converted
    or stored. It keeps the tensor cores busy with a later group while the
    warpgroup computes on an earlier one, as FlashAttention-3 overlaps the
    softmax of one key tile with the P x V product of the previous one:

    - commit S = Q K^T with `pending = 1`,
    - issue O += P V and commit it with `pending = 1`,
    - `croq.mma.wait` on S with `pending = 1` (O's group may still run),
    - compute on S, then `croq.mma.wait` on O with `pending = 0`.

    Groups complete in the order they were committed, so the accumulator's
    group has completed when no more than `pending` groups were committed
    after it: the verifier counts the `croq.mma.commit` ops between the
    accumulator's commit and the wait, which must be in the same block, and
    rejects a wait that would let the accumulator's own group still run.

    Example:

    ```mlir
    %s = croq.mma.commit %s1 pending = 1 : !croq.acc<64x128xf32>
    %o = croq.mma.commit %o1 pending = 1 : !croq.acc<64x128xf32>
    %sd = croq.mma.wait %s pending = 1 : !croq.acc<64x128xf32>
    ```
  }];
  let arguments = (ins Croq_AccType:$acc,
                       DefaultValuedOptionalAttr<I64Attr, "0">:$pending);
  let results = (outs Croq_AccType:$result);
  let assemblyFormat = "$acc (`pending` `=` $pending^)? attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def Croq_MmaMapOp : Croq_Op<"mma.map", [SingleBlock,
    RecursiveMemoryEffects, AllTypesMatch<["acc", "result"]>]> {
  let summary = "computes on every element of an accumulator in registers";
  let description = [{
    The `croq.mma.map` op applies its body to every element of an
    accumulator where it lives, in the registers of the warpgroup that
    holds it, and returns the accumulator of the yielded values: the
    epilogue of a GEMM (scale, bias, activation, residual) before
    `croq.mma.store`, or the masking and exponentials of attention. The
    body's arguments are the element's row and column in the accumulator,
    its value, and the matching element of each further input: another
    accumulator of the same shape, or a `!croq.vec` broadcast along the
    accumulator (a `rows` vector gives the value of the element's row, a
    `cols` vector that of its column). It yields the new value with
    `croq.yield`.

    The body computes (arith, math, selects, `scf.if`) and may read memory
    with `croq.read` (a bias vector, a residual tile); it may not write
    memory, synchronize or start copies. Each thread runs it for each of its
    elements, unrolled. Like a store, it needs the accumulator complete: the
    result of a `croq.mma.commit` with `pending = 0`.

    Example (bias over columns, then relu; subtracting the row maximum):

    ```mlir
    %y = croq.mma.map %acc (%row, %col, %x) : !croq.acc<64x128xf32> {
      %b = croq.read %bias[%col] : memref<128xf32>
      %s = arith.addf %x, %b : f32
      %r = arith.maximumf %s, %zero : f32
      croq.yield %r : f32
    }
    %d = croq.mma.map %acc, %max (%row, %col, %x, %m) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
      %s = arith.subf %x, %m : f32
      croq.yield %s : f32
    }
    ```
  }];
  let arguments = (ins Croq_AccType:$acc,
                       Variadic<AnyTypeOf<[Croq_AccType, Croq_VecType]>>:$inputs);
  let results = (outs Croq_AccType:$result);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "Value":$acc, CArg<"ValueRange", "{}">:$inputs)>
  ];
  let extraClassDeclaration = [{
    /// The element's row, column and value in the body.
    BlockArgument getRow() { return getBody().front().getArgument(0); }
    BlockArgument getColumn() { return getBody().front().getArgument(1); }
    BlockArgument getElement() { return getBody().front().getArgument(2); }
    /// The element of input `i` in the body.
    BlockArgument getInputElement(unsigned i) {
      return getBody().front().getArgument(3 + i);
    }
  }];
}

def Croq_VecFillOp : Croq_Op<"vec.fill", [Pure, TypesMatchWith<
    "value matches the vector element type", "result", "value",
    "::llvm::cast<VecType>($_self).getElementType()">]> {
  let summary = "creates an accumulator vector with every element set";
  let description = [{
    The `croq.vec.fill` op returns a `!croq.vec` whose elements all hold
    `value`: the starting maximum (-inf) and sum (0) of an online softmax.

    Example:

    ```mlir
    %m = croq.vec.fill %ninf : !croq.vec<64xf32, rows>
    ```
  }];
  let arguments = (ins AnyType:$value);
  let results = (outs Croq_VecType:$result);
  let assemblyFormat = "$value attr-dict `:` qualified(type($result))";
}

def Croq_VecMapOp : Croq_Op<"vec.map", [SingleBlock,
    RecursiveMemoryEffects, AllTypesMatch<["vec", "result"]>]> {
  let summary = "computes on every element of accumulator vectors";
  let description = [{
    The `croq.vec.map` op applies its body to every element of one or more
    `!croq.vec` values of the same type, in registers, and returns the
    vector of the yielded values: the running maximum, the rescaling factor
    and the running sum of an online softmax. The body's arguments are the
    element's index (its row or column) and the element of each input; it
    yields the new value with `croq.yield`. The body may compute and read
    memory with `croq.read`, as in `croq.mma.map`.

    Example:

    ```mlir
    %n = croq.vec.map %m, %t (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
      %x = arith.maximumf %a, %b : f32
      croq.yield %x : f32
    }
    ```
  }];
  let arguments = (ins Croq_VecType:$vec, Variadic<Croq_VecType>:$inputs);
  let results = (outs Croq_VecType:$result);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "Value":$vec, CArg<"ValueRange", "{}">:$inputs)>
  ];
  let extraClassDeclaration = [{
    /// The element's index and value in the body.
    BlockArgument getIndex() { return getBody().front().getArgument(0); }
    BlockArgument getElement() { return getBody().front().getArgument(1); }
  }];
}

def Croq_VecStoreOp : Croq_Op<"vec.store"> {
  let summary = "stores an accumulator vector to a tile, view or tensor";
  let description = [{
    The `croq.vec.store` op writes the N elements of a `!croq.vec` (one
    value per row or per column of an accumulator) to `dest`, whose
    dimensions are all 1 but the innermost, N: the log-sum-exp of each
    query row that an attention forward saves for its backward. Every
    element is written once, by one of the threads that hold it (the first
    lane of the row's quad, or the thread of row 0 for a column). Writes
    past the edge of a view's tensor are dropped, as `croq.write`'s.

    Example:

    ```mlir
    croq.vec.store %lse -> %out : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
    ```
  }];
  let arguments = (ins Croq_VecType:$vec,
                       Arg<Croq_AnyBuffer, "written", [MemWrite]>:$dest);
  let assemblyFormat = "$vec `->` $dest attr-dict `:` qualified(type($vec)) `->` qualified(type($dest))";
  let hasVerifier = 1;
}

def Croq_YieldOp : Croq_Op<"yield", [Pure, Terminator,
    ParentOneOf<["MmaMapOp", "VecMapOp"]>]> {
  let summary = "yields the new value of an accumulator or vector element";
  let description = [{
    The `croq.yield` op ends the body of a `croq.mma.map` or `croq.vec.map`
    with the new value of the element.

    Example:

    ```mlir
    croq.yield %r : f32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

def Croq_MmaReduceOp : Croq_Op<"mma.reduce"> {
  let summary = "reduces the rows or columns of an accumulator";
  let description = [{
    The `croq.mma.reduce` op reduces each row (result `!croq.vec<M x T,
    rows>`) or each column (`!croq.vec<N x T, cols>`) of an M x N
    accumulator with `max`, `min` or `sum`, across the registers and lanes
    of the warpgroup that holds it. Every thread gets the reductions of the
    rows or columns it holds elements of.

    A row is spread over the four lanes of a quad, so rows reduce with
    shuffles alone. A column is spread over all four warps, so a column
    reduction needs a `scratch` tile of 4 x N elements in shared memory
    where each warp leaves its partial result; the op synchronizes the
    warpgroup before and after it uses the scratch tile. Like a store, the
    op needs the accumulator complete.

    Example:

    ```mlir
    %m = croq.mma.reduce max %s : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
    %c = croq.mma.reduce sum %s scratch %t : !croq.acc<64x128xf32>, !croq.tile<4x128xf32, shared> -> !croq.vec<128xf32, cols>
    ```
  }];
  let arguments = (ins Croq_ReduceKind:$kind, Croq_AccType:$acc,
                       Arg<Optional<AnyTypeOf<[Croq_TileType, Croq_ViewType]>>,
                           "scratch", [MemRead, MemWrite]>:$scratch);
  let results = (outs Croq_VecType:$result);
  let assemblyFormat = [{
    $kind $acc (`scratch` $scratch^)? attr-dict `:` qualified(type($acc))
    (`,` qualified(type($scratch))^)? `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Croq_MmaClusterSumOp : Croq_Op<"mma.cluster_sum",
    [MemoryEffects<[MemRead, MemWrite]>, AllTypesMatch<["acc", "result"]>]> {
  let summary = "sums the accumulators of the blocks of a cluster in its leader";
  let description = [{
    The `croq.mma.cluster_sum` op adds up, through distributed shared
    memory, the accumulators that the S blocks of a thread block cluster
    hold at the same place of the same program: the block of rank 0 (the
    leader) gets the sum, every other block its own accumulator unchanged.
    A GEMM whose K loop is split among the blocks of a cluster reduces its
    partial tiles this way, with no workspace in global memory and no
    second kernel (convert-linalg-to-croq's `cluster-k`).

    Each block of rank r > 0 writes its registers into slot r - 1 of the
    leader's `scratch` tile (`st.shared::cluster` through `mapa`), then each
    of its threads arrives, with release semantics at cluster scope, on an
    mbarrier in the leader's shared memory that the op's lowering allocates
    and initializes at the kernel's start (before a cluster barrier). The
    leader's threads wait for the (S - 1) x threads arrivals (acquire at
    cluster scope), then add the S - 1 slots to their registers in rank
    order: the sum does not depend on which block finishes first. Thread t
    of a block writes where thread t of the leader reads, in the op's own
    order (16 bytes per thread and register group, consecutive threads at
    consecutive 16 bytes: no bank conflicts); the scratch tile's contents
    are not the accumulator's row-major layout, and are undefined after.

    `scratch` is a shared, unswizzled tile (or a view of consecutive whole
    rows of one) of the accumulator's element type, (S - 1) x M rows of
    the M x N accumulator's N columns. The op runs once per block and
    launch: it must not be inside a loop of its kernel, and every thread
    that holds the accumulator runs it (the consumer warpgroups, in a
    warp-specialized block). The leader must not exit before its peers'
    writes land; it waits for them.

    Example:

    ```mlir
    croq.parallel (%i, %j) in [4, 32] : block cluster [2, 1] {
      %s = croq.alloc : !croq.tile<64x128xf32, shared>
      %z = arith.constant 0.0 : f32
      %acc = croq.mma.fill %z : !croq.acc<64x128xf32>
      %sum = croq.mma.cluster_sum %acc scratch %s : !croq.acc<64x128xf32>, !croq.tile<64x128xf32, shared>
    }
    ```
  }];
  let arguments = (ins Croq_AccType:$acc,
                       Arg<AnyTypeOf<[Croq_TileType, Croq_ViewType]>,
                           "scratch", [MemRead, MemWrite]>:$scratch);
  let results = (outs Croq_AccType:$result);
  let assemblyFormat = [{
    $acc `scratch` $scratch attr-dict `:` qualified(type($acc)) `,`
    qualified(type($scratch))
  }];
  let hasVerifier = 1;
}

def Croq_MmaConvertOp : Croq_Op<"mma.convert", [Pure]> {
  let summary = "makes an accumulator the A operand of the next mma";
  let description = [{
    The `croq.mma.convert` op converts an M x K accumulator into an A
    operand in registers, `!croq.frag<M x K x T, registers>` with T f16 or
    bf16, for a `croq.mma` that reads A from registers (wgmma with A from
    registers): the P = softmax(S) operand of P x V in attention. Each
    thread keeps its own elements; the accumulator's fragment layout is the
    A operand's, two elements to a register. Like a store, the op needs the
    accumulator complete.

    Example:

    ```mlir
    %p = croq.mma.convert %s : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
    ```
  }];
  let arguments = (ins Croq_AccType:$acc);
  let results = (outs Croq_FragType:$result);
  let assemblyFormat = "$acc attr-dict `:` qualified(type($acc)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Croq_MmaSliceOp : Croq_Op<"mma.slice", [Pure]> {
  let summary = "columns of an accumulator";
  let description = [{
    The `croq.mma.slice` op gives columns `[column, column + W)` of an
    M x N accumulator as an M x W accumulator, W the result's width: the
    part of a block's result that an epilogue stores through a shared tile
    narrower than the whole (convert-linalg-to-croq stores a 128x256 result
    in two parts of 128 columns, which leaves room for one more stage of
    operands). Each thread keeps its own registers: `column` and W are
    multiples of 8, the columns of one register group of wgmma's
    accumulator layout. Like a store, the op needs the accumulator
    complete.

    Example:

    ```mlir
    %right = croq.mma.slice %c[128] : !croq.acc<128x256xf32> -> !croq.acc<128x128xf32>
    ```
  }];
  let arguments = (ins Croq_AccType:$acc, I64Attr:$column);
  let results = (outs Croq_AccType:$result);
  let assemblyFormat = "$acc `[` $column `]` attr-dict `:` qualified(type($acc)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Croq_MmaStoreOp : Croq_Op<"mma.store"> {
  let summary = "stores an accumulator into a tile or tensor";
  let description = [{
    The `croq.mma.store` op writes an accumulator to a shared or local tile,
    a global tensor or a view (Croqtile's `mma.store c, out_s`), converting
    elements to the destination's element type. Stores to a view that runs
    past its tensor's edge are masked.

    With `relu`, negative elements are stored as zero: the conversion of an
    f32 accumulator to f16 or bf16 clamps them (`cvt.rn.relu`), so that a
    ReLU costs nothing over the store. `croq-fold-store-relu` makes a
    `croq.mma.map` that ends in `arith.maximumf %x, 0.0` such a store.

    With `transpose`, element (i, j) of the accumulator is stored at
    (j, i) of `dest`, whose shape is the accumulator's reversed: a kernel
    that computes C^T = B^T A^T (the operands' roles swapped, so that a
    product with few rows puts them in wgmma's N dimension) stores C's tile
    in C's own layout. Into a 16-bit shared tile each warp stores with
    `stmatrix.trans`, as many instructions as the plain store's
    `stmatrix`; elsewhere each element alone (its neighbour in the row
    lies in the next row of `dest`).

    Example:

    ```mlir
    croq.mma.store %c -> %out : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared>
    croq.mma.store relu %c -> %out : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared>
    croq.mma.store transpose %c -> %outT : !croq.acc<64x128xf32> -> !croq.tile<128x64xf16, shared, swizzle = 128>
    ```
  }];
  let arguments = (ins Croq_AccType:$acc,
                       Arg<Croq_AnyBuffer, "written", [MemWrite]>:$dest,
                       UnitAttr:$relu, UnitAttr:$transpose);
  let assemblyFormat = "(`relu` $relu^)? (`transpose` $transpose^)? $acc `->` $dest attr-dict `:` qualified(type($acc)) `->` qualified(type($dest))";
  let hasVerifier = 1;
}

def Croq_MmaAccumulateOp : Croq_Op<"mma.accumulate"> {
  let summary = "adds an f32 accumulator into an f32 tensor in global memory";
  let description = [{
    The `croq.mma.accumulate` op adds each element of an f32 accumulator to
    the element at the same place of `dest`, an f32 tensor in global memory
    or a view of one, with one relaxed atomic add (`red.global.add.f32`) per
    element: the blocks of a kernel that each hold a part of one sum (the
    attention backward's dQ, a sum over key blocks) add their parts into
    one f32 workspace. Adds past the edge of a view's tensor are dropped,
    as `croq.mma.store`'s stores are. Like a store, the op needs the
    accumulator complete.

    Atomic adds of floats in an unspecified order give sums that may differ
    in their last bits from run to run. A deterministic kernel orders the
    adds of the blocks with `croq.turn.wait` and `croq.turn.pass`.

    Example:

    ```mlir
    croq.mma.accumulate %dq -> %workspace : !croq.acc<64x128xf32> -> !croq.view<64x128xf32>
    ```
  }];
  let arguments = (ins Croq_AccType:$acc,
                       Arg<AnyTypeOf<[AnyMemRef, Croq_ViewType]>, "added to",
                           [MemRead, MemWrite]>:$dest);
  let assemblyFormat = "$acc `->` $dest attr-dict `:` qualified(type($acc)) `->` qualified(type($dest))";
  let hasVerifier = 1;
}

def Croq_BulkAddOp : Croq_Op<"bulk_add"> {
  let summary = "adds a shared tile's storage to global memory, asynchronously";
  let description = [{
    The `croq.bulk_add` op adds the f32 elements of `source`, a shared tile,
    in the order they lie in shared memory (a swizzled tile's swizzled
    order), to the same number of consecutive f32 elements of `dest` in
    global memory, with one bulk reduction (`cp.reduce.async.bulk .add.f32`)
    that the executing group's first thread issues after the group's writes
    to the tile are made visible to the async proxy (a proxy fence and the
    group's barrier). The add is left in flight in that thread's bulk
    group: `croq.wait_stores` waits for it (`read`: until it has read the
    tile, which may then be written again; plain: until the adds are
    done). The blocks of a kernel that each hold a part of one sum add
    their parts into an f32 workspace this way, the L2 cache adding whole
    lines; `croq.turn.wait` and `croq.turn.pass` order the parts.

    `dest` is 1-d: a tensor or a view of one, as many elements as the tile,
    a multiple of 16 bytes.

    Example:

    ```mlir
    croq.bulk_add %t -> %w : !croq.tile<64x64xf32, shared, swizzle = 128> -> !croq.view<4096xf32>
    ```
  }];
  let arguments = (ins Arg<Croq_TileType, "read", [MemRead]>:$source,
                       Arg<AnyTypeOf<[AnyMemRef, Croq_ViewType]>, "added to",
                           [MemRead, MemWrite]>:$dest);
  let assemblyFormat = "$source `->` $dest attr-dict `:` qualified(type($source)) `->` qualified(type($dest))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Element access
//===----------------------------------------------------------------------===//

def Croq_ForeachOp : Croq_Op<"foreach", [SingleBlock, NoTerminator,
    RecursiveMemoryEffects]> {
  let summary = "an element-wise loop over a tile";
  let description = [{
    The `croq.foreach` op runs its body for every point of an iteration
    space (Croqtile's `foreach {i, j} in t.span`). Inside a parallel region
    its iterations are distributed over the threads that run it. The body's
    block arguments are the coordinates.

    Example:

    ```mlir
    croq.foreach (%i, %j) in [16, 16] {
    }
    ```
  }];
  let arguments = (ins Variadic<Index>:$dynamicExtents,
                       DenseI64ArrayAttr:$staticExtents);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    Block::BlockArgListType getInductionVars() {
      return getBody().front().getArguments();
    }
    SmallVector<OpFoldResult> getMixedExtents();
  }];
}

include "Croq/Dialect/Croq/IR/CroqMoveOps.td"
include "Croq/Dialect/Croq/IR/CroqIm2colOps.td"

#endif // CROQ_DIALECT_CROQ_IR_CROQOPS_TD
