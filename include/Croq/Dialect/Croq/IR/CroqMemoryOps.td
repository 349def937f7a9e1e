//===- CroqMemoryOps.td - allocation and views -------------*- tablegen -*-===//
//
// On-chip allocation (croq.alloc, croq.stage of a tile ring) and the views that
// select from a tensor, tile or view without moving data. Included by
// CroqOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_IR_CROQMEMORYOPS_TD
#define CROQ_DIALECT_CROQ_IR_CROQMEMORYOPS_TD

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

#endif // CROQ_DIALECT_CROQ_IR_CROQMEMORYOPS_TD
