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
    concrete swizzle: the one a `croq.copy ... swizzle = N` into it states,
    or else the largest swizzle (128, 64 or 32 bytes, or none) whose span
    divides its rows, and whose 8-row pattern divides each stage of a stage
    array. The stages, views and reshapes derived from the buffer get the
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

#endif // CROQ_DIALECT_CROQ_TRANSFORMS_PASSES_TD
