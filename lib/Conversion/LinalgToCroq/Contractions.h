//===- Contractions.h - linalg contractions as matrix products --*- C++ -*-===//
//
// A linalg.generic contraction, as frontends and upstream's fusion leave
// them (unit loops, several loops per matrix dimension, producers fused
// into the body, permuted operands), read as a batch of matrix products:
// out(b, m, n) += x(b, m, k) * y(b, k, n), where b, m, n and k each stand
// for a group of loops and x and y for what the body computes from the
// inputs it multiplies.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_CONTRACTIONS_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_CONTRACTIONS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include "llvm/ADT/SmallBitVector.h"

#include <string>

namespace mlir {
namespace croq {

/// The two factors of a contraction's body, each computed from its own
/// inputs.
struct ContractionFactor {
  /// The factor, seen through its conversion to the output's type.
  Value value;
  /// The positions of the inputs it reads.
  SmallVector<unsigned> inputs;
  /// The body ops that compute it, in body order (none for an input read
  /// as it is).
  SmallVector<Operation *> ops;
  /// The loops whose indices it reads through linalg.index.
  llvm::SmallBitVector indexLoops;

  /// The input the factor is, where it is one read as it is.
  std::optional<unsigned> getPlainInput(linalg::GenericOp op) const;
  /// Whether one of its ops zero-extends an integer (arith.extui:
  /// linalg.matmul's cast_unsigned).
  bool isZeroExtended() const;
};

/// A contraction read as a batch of matrix products.
struct ContractionForm {
  /// The loops of each matrix dimension, in the order the matrices keep
  /// them: batch, m and n as the output is indexed by them, k as the first
  /// factor that is an input is (loop order where none is).
  SmallVector<unsigned> batch, m, n, k;
  /// The loops of extent 1, which no matrix keeps.
  llvm::SmallBitVector unit;
  /// x and y.
  ContractionFactor a, b;
  /// Whether the body multiplies and adds integers (sign-extended).
  bool integer = false;
};

/// Reads `op` as a batch of matrix products: its body is
/// `out + ext(x * y)` (the extension optional, x and y computed by pure ops
/// from disjoint inputs), every loop of extent above 1 indexes the output
/// and both factors (batch), the output and one factor (m or n), or both
/// factors but not the output (k, the reductions), and none of m, n and k
/// is empty. Fails otherwise, with the reason in `reason` if given.
FailureOr<ContractionForm> getContractionForm(linalg::GenericOp op,
                                              std::string *reason = nullptr);

/// Makes `op`, a linalg.batch_matmul of one matrix (the output's batch
/// extent 1), a linalg.matmul of the same operands viewed without their
/// batch dimension (memref.collapse_shape; an operand broadcast over the
/// batch as it is), with `fill`, the zero fill right before it if given,
/// moved onto the output's view. Fails, changing nothing, where an
/// operand's layout does not collapse so.
LogicalResult collapseUnitBatch(linalg::BatchMatmulOp op, linalg::FillOp fill);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_CONTRACTIONS_H
