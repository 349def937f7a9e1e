//===- CroqCopyOps.td - copies and futures -----------------*- tablegen -*-===//
//
// Copies between global and shared memory (dma or TMA, with swizzle, zfill,
// transposes and padding), TMA tensor maps, and the futures copies return with
// the waits on them. Included by CroqOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_IR_CROQCOPYOPS_TD
#define CROQ_DIALECT_CROQ_IR_CROQCOPYOPS_TD

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
      are `cluster` triggers). `multicast along d` shares the load only
      among the blocks of the cluster that differ in their cluster
      coordinate `d` alone (a cluster [2, 4]'s blocks of one row share
      `along 1`, those of one column `along 0`): in a cluster of two
      dimensions each operand of a GEMM is multicast to the blocks that use
      it. Its boxes divide among those blocks, each issuing the share of its
      coordinate along `d`.

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
    croq.parallel (%i, %j) in [4, 8] : block cluster [2, 4] {
      %m = croq.copy tma async multicast along 1 swizzle = 128 %a -> %s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
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
                       UnitAttr:$multicast,
                       OptionalAttr<I64Attr>:$multicastDim);
  let results = (outs Optional<Croq_FutureType>:$future);
  let assemblyFormat = [{
    $engine `` custom<AsyncResult>(type($future))
    `` custom<Multicast>($multicast, $multicastDim)
    (`zfill` $zfill^)?
    `` custom<OptionalSwizzle>($swizzle) $source `->` $dest
    (`map` $map^)? (`if` $usable^)? `` custom<TmaBoxes>($box, $boxOrigins)
    attr-dict
    `:` qualified(type($source)) `->` qualified(type($dest))
  }];
  let builders = [
    // A copy that is not multicast, or multicast to the whole cluster.
    OpBuilder<(ins "Type":$future, "CopyEngine":$engine, "Value":$source,
      "Value":$dest, "Value":$map, "Value":$usable, "bool":$zfill,
      "SwizzleAttr":$swizzle, "DenseI64ArrayAttr":$box,
      "DenseI64ArrayAttr":$boxOrigins, CArg<"bool", "false">:$multicast), [{
      build($_builder, $_state, future, engine, source, dest, map, usable,
            zfill, swizzle, box, boxOrigins, multicast, IntegerAttr());
    }]>
  ];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    bool isAsync() { return getFuture() != nullptr; }
    /// The blocks that share this copy: for a multicast copy its cluster's,
    /// or those along its dimension (`multicast along d`), else 1.
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

#endif // CROQ_DIALECT_CROQ_IR_CROQCOPYOPS_TD
