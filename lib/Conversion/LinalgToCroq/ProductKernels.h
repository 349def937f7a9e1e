//===- ProductKernels.h - a product's kernels and host choice ---*- C++ -*-===//
//
// What convert-linalg-to-croq emits in place of one matrix product: the
// kernels of the variant the cost model chooses (TileChoice.cpp), chosen
// here for static extents and by the host code per call for dynamic ones
// (a dispatch among every variant, one shape class's variant, or the
// classifier's report), the one-row forms of a product whose operand may
// be one column, and the host checks of the operands' extents.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_PRODUCTKERNELS_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_PRODUCTKERNELS_H

#include "GemmKernel.h"
#include "OneRowProducts.h"
#include "TileChoice.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir {
namespace croq {

/// What the pass emits for the products whose variant the host code
/// chooses (dynamic extents, several variants): every variant and the
/// dispatch among them, the variant of one shape class each (`variants`),
/// or the report of the choice (`classify`).
struct HostChoices {
  ArrayRef<int64_t> variants;
  bool classify = false;
  /// The products seen so far whose variant the host code chooses, and
  /// where the last one was.
  int64_t count = 0;
  std::optional<Location> last;
  /// For `classify`: each such product's choice, reported once the count
  /// is known (emitVariantReports).
  SmallVector<Value> choices;
};

/// A one-row form a product may take (OneRowProducts.h), and the variants
/// its product of one row is chosen among.
struct RowForm {
  OneRowForm form;
  SmallVector<GemmVariant> variants;
};

/// Replaces `op` by the kernels of `spec`'s product . Where an
/// operand may be one column (OneRowProducts.h), the kernels of the
/// one-row form compute it when it is, each of `rowForms` in turn: in the
/// product's place where the types tell, in the then-branch of an scf.if
/// on the host otherwise (the next form, or the product as stored, in its
/// else-branch).
LogicalResult emitProductKernels(linalg::LinalgOp op, MatmulSpec &spec,
                                 ArrayRef<GemmVariant> variants,
                                 ArrayRef<RowForm> rowForms,
                                 const TargetDescription &target,
                                 int64_t resultBytes, int64_t splitK,
                                 HostChoices &choices);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_PRODUCTKERNELS_H
