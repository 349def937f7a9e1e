//===- CroqOps.td - croq op definitions --------------------*- tablegen -*-===//
//
// Operations of the croq dialect, a file a family, in this order: parallel
// regions, on-chip allocation and views, copies and futures, events, mma,
// element access (here), element and per-thread moves, im2col loads.
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

include "Croq/Dialect/Croq/IR/CroqParallelOps.td"
include "Croq/Dialect/Croq/IR/CroqMemoryOps.td"
include "Croq/Dialect/Croq/IR/CroqCopyOps.td"
include "Croq/Dialect/Croq/IR/CroqEventOps.td"
include "Croq/Dialect/Croq/IR/CroqMmaOps.td"

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
