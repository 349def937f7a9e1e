//===- Passes.td - croq transformation passes --------------*- tablegen -*-===//
//
// Passes that rewrite croq IR into simpler croq IR, step by step, on the way
// to the upstream GPU dialects.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_TRANSFORMS_PASSES_TD
#define CROQ_DIALECT_CROQ_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

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

def CroqTestTileLayout : Pass<"croq-test-tile-layout"> {
  let summary = "Report where each shared tile's 16-byte chunks lie "
                "(testing)";
  let description = [{
    For every `croq.alloc` of a shared tile (or of a stage array: one stage),
    reports one remark per row of its first eight rows (the outer dimensions
    flattened): the index of the 16-byte chunk of the tile where each
    16-byte chunk of that row lies. This is the layout TMA writes, the dma
    copies and element accesses address and the wgmma descriptors describe
    (span-wide slabs one after another, row-major within a slab, the
    swizzle's XOR of chunk and 128-byte line), so a test can hold it against
    the CUDA swizzle pattern tables. The chunks are computed by evaluating
    the arith ops the lowerings emit for an element's place; where those
    disagree with the constant arithmetic the TMA boxes are placed by, the
    pass fails. The IR is not changed.

    Example, a 4 x 64 f16 tile with 128B swizzle:

    ```
    remark: row 1: 9 8 11 10 13 12 15 14
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // CROQ_DIALECT_CROQ_TRANSFORMS_PASSES_TD
