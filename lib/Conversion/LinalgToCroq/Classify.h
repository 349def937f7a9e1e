//===- Classify.h - which kernel each op of host code becomes ---*- C++ -*-===//
//
// convert-linalg-to-croq sorts the linalg ops of host code (outside croq
// kernels) by the kernel that computes them, before it changes anything,
// and declines every op it cannot compile with an error that names the op
// and why: a function either compiles whole or not at all.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_CLASSIFY_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_CLASSIFY_H

#include "GemmKernel.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace croq {

/// The kernels of a module's host code, by kind.
struct HostWork {
  /// Matrix products (linalg.matmul, linalg.batch_matmul) and what they
  /// fuse.
  SmallVector<std::pair<linalg::LinalgOp, MatmulSpec>, 0> products;
  /// Generics whose loops are all parallel (named elementwise ops, fills,
  /// copies and transposes generalized).
  SmallVector<linalg::GenericOp> elementwise;
  /// Generics with reduction loops (linalg.reduce and the named reductions
  /// generalized).
  /// Each with the fill right before it that gives its outputs their
  /// starting value (or null), which the kernel computes too.
  SmallVector<std::pair<linalg::GenericOp, linalg::FillOp>> reductions;
};

/// Rewrites every memref.copy of host code as a linalg.copy, which then
/// takes the elementwise path.
void rewriteHostCopies(ModuleOp module);

/// Sorts the linalg ops of `module`'s host code into `work`: products (with
/// the fills and consumers they fuse) first, then the rest generalized.
/// Every op that no kernel computes, and every host op that would touch a
/// device buffer's data, gets an error naming it and why; fails if any did.
LogicalResult classifyHostCode(ModuleOp module, HostWork &work);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_CLASSIFY_H
