//===- AttentionMatchUtils.h - pieces of the attention matcher --*- C++ -*-===//
//
// The questions AttentionMatch.cpp asks of single ops: is this a product
// and how are its operands indexed, which dimension of the scores does each
// loop walk, what does a body compute from its arguments.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_ATTENTIONMATCHUTILS_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_ATTENTIONMATCHUTILS_H

#include "AttentionChain.h"
#include "HostBuffers.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir {
namespace croq {
namespace attention {

/// The buffer `value` reshapes (through expand_shape, collapse_shape and
/// cast only), or `value`.
Value getViewRoot(Value value);

/// Whether `value` is a memref.alloc.
bool isTemporary(Value value);

/// Whether `op` is an allocation, deallocation or reshape.
bool isViewOrAllocation(Operation *op);

/// The last op before `op` in its block that uses `root` other than as a
/// view or allocation, or null.
Operation *getLastUserBefore(Operation *op, Value root);

/// Whether `op` reads `root` (or a view of it) without writing it.
bool isReadOnlyOf(Operation *op, Value root);

/// Whether every user of `root`, through its reshapes, is in `ops` or a
/// deallocation.
bool onlyUsedBy(Value root, const llvm::SetVector<Operation *> &ops);

/// The float value of a constant scalar, if it is one.
std::optional<double> getConstantFloat(Value value);

/// What a fill writes: a linalg.fill of a constant, or a generic without
/// inputs that yields one.
struct FillValue {
  double value;
  Value buffer;
};
std::optional<FillValue> getFillValue(Operation *op);

/// Whether `buffer` is a splat constant global.
bool isSplatConstant(Value buffer);

/// Whether every result of `map` is a loop or the constant 0.
bool isIndexedByLoops(AffineMap map);

/// Whether `permutation` is the identity but for its last two entries.
bool isSwapOfLastTwo(ArrayRef<int64_t> permutation);

/// A batch of matrix products C = A B (B stored [batch..., N, K] where
/// `bByRows`, [batch..., K, N] otherwise), every operand indexed by the
/// batch loops in order, then its matrix dimensions.
struct Product {
  Value a, b, c;
  bool bByRows = false;
};
FailureOr<Product> analyzeProduct(linalg::LinalgOp op);

/// `out` = `input` * factor (or / 1/factor), elementwise, one type.
struct ScaledInput {
  Value input;
  double factor;
};
std::optional<ScaledInput> matchScaledCopy(linalg::GenericOp op, Value out);

/// Which dimension of the scores ([batch..., rows, keys]) each loop of `op`
/// walks (-1: extent 1), from its operands that hold scores (`full`) or
/// row values (`rows`, [batch..., rows]); failure where an operand is
/// indexed otherwise than elementwise through those dimensions.
/// `freeLoops` loops of extent above 1 may walk none of them (D, in the
/// second product).
FailureOr<SmallVector<int64_t>> getLoopRoles(linalg::LinalgOp op,
                                             ArrayRef<OpOperand *> full,
                                             ArrayRef<OpOperand *> rows,
                                             ArrayRef<int64_t> scoreShape,
                                             unsigned freeLoops = 0);

/// Whether operand `n` of `op` is indexed by the batch loops (roles below
/// `batch`, or loops of extent 1 where the operand's extent is 1), then
/// the loop of role `middle`, then the one free loop (role -1, extent
/// above 1): V or the output of the second product.
bool isProductOperand(linalg::LinalgOp op, unsigned n, ArrayRef<int64_t> roles,
                      int64_t middle, int64_t batch);

/// Whether the one reduction loop of `op` walks the keys (`keyDim`).
bool reducesKeys(linalg::LinalgOp op, ArrayRef<int64_t> roles, int64_t keyDim);

enum class ReductionKind { Max, Sum };
/// The combiner of a reduction's body: max or sum of input and output.
std::optional<ReductionKind> getReductionKind(linalg::LinalgOp op);

/// Whether `op` converts `input` into its output elementwise (truncf).
bool isConversionOf(linalg::GenericOp op, Value input);

/// The values of an elementwise generic's body on the chain's operands:
/// `element` (the scores-shaped input) and `row` (the row value).
class BodyValues {
public:
  BodyValues(linalg::GenericOp op, std::optional<unsigned> elementInput,
             std::optional<unsigned> rowInput);
  Value yielded() const;
  Value element() const { return elementArg; }
  /// x - m.
  bool isShift(Value v) const;
  /// exp(x - m).
  bool isExpOfShift(Value v) const;
  /// exp(x).
  bool isExpOfElement(Value v) const;
  /// e / s, e * (1 / s); e * r where `rowIsReciprocal`.
  bool isNormalized(Value v, bool rowIsReciprocal) const;
  /// 1 / s.
  bool isReciprocalOfRow(Value v) const;
  /// out + norm(e, s) * v (isNormalized; extensions and a truncation of
  /// the quotient allowed), v the body argument of input `vInput`.
  bool isNormalizedProduct(unsigned vInput, bool rowIsReciprocal) const;
  /// v without a truncf.
  Value stripTruncation(Value v) const;
  /// The value of a constant (or splat-constant input) of the body.
  std::optional<double> constant(Value v) const;

private:
  bool isOneOver(Value v, Value of) const;
  mutable linalg::GenericOp op;
  Value elementArg, rowArg;
};

/// Takes a causal mask and a lone scale off `chain.steps` into
/// `chain.causal` and `chain.scale`; `qScale` is what Q was multiplied by.
void takeMaskAndScale(AttentionChain &chain, double qScale);

} // namespace attention
} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_ATTENTIONMATCHUTILS_H
