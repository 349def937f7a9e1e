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

/// Makes every linalg op of host code that reads or writes a memref of
/// rank 0 (a scalar kept in a buffer) read and write views of it with a
/// dimension of extent 1: an op with no loops or an output of rank 0 gets
/// a leading loop of extent 1 over a leading unit dimension of each of its
/// buffers, another reads its scalars at 0 (RankZero.cpp).
void viewRankZeroBuffers(ModuleOp module);

/// Rewrites each memref.expand_shape of a contiguous buffer that splits a
/// dimension into several of dynamic extent (which upstream's
/// expand-strided-metadata crashes on) as a memref.reinterpret_cast of the
/// same type, with row-major strides (HostViews.cpp).
void rewriteDynamicExpands(ModuleOp module);

/// Where host code computes a buffer into a temporary (memref.alloc of its
/// block, or a reshape of one) and copies it whole into a buffer that
/// exists before the temporary and that nothing touches until the copy,
/// makes the temporary that buffer (reshaped to its shape) and drops the
/// copy and the temporary's deallocations (CopyElision.cpp).
void elideCopiesIntoBuffers(ModuleOp module);

/// Sorts the linalg ops of `module`'s host code into `work`: products (with
/// the fills and consumers they fuse) first, then the rest generalized.
/// Every op that no kernel computes, and every host op that would touch a
/// device buffer's data, gets an error naming it and why; fails if any did.
LogicalResult classifyHostCode(ModuleOp module, HostWork &work);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_CLASSIFY_H
