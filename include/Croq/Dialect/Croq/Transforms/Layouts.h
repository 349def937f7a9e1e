//===- Layouts.h - physical layouts of shared buffers -----------*- C++ -*-===//
//
// Chooses the physical layout (swizzle) of shared buffers, as the
// croq-assign-layouts pass does, for use by other passes.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_TRANSFORMS_LAYOUTS_H
#define CROQ_DIALECT_CROQ_TRANSFORMS_LAYOUTS_H

#include "Croq/Dialect/Croq/IR/CroqTypes.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
class Operation;
namespace croq {

/// The largest swizzle whose span divides a row of `rowBytes` bytes and, for
/// a stage array, whose pattern divides a stage of `stageBytes` (0: a single
/// tile): 128, 64 or 32 bytes, or none.
Swizzle chooseSwizzle(int64_t rowBytes, int64_t stageBytes);

/// Gives every shared buffer under `root` whose swizzle is `auto` a concrete
/// layout: the one a copy into it asks for, or the largest its rows fill.
/// Updates the types of the stages and views derived from it.
LogicalResult assignLayouts(Operation *root);

} // namespace croq
} // namespace mlir

#endif // CROQ_DIALECT_CROQ_TRANSFORMS_LAYOUTS_H
