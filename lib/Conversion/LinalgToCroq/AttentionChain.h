//===- AttentionChain.h - attention written in linalg -----------*- C++ -*-===//
//
// What croq-fuse-linalg-attention recognizes in bufferized host code (the
// matmul of Q and K^T, the ops on the scores, the softmax and the matmul
// with V: AttentionMatch.cpp) and how it emits the flash kernel for it
// (AttentionKernel.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_ATTENTIONCHAIN_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_ATTENTIONCHAIN_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

#include <string>

namespace mlir {
namespace croq {

/// One elementwise op on the scores before the softmax (a scale, a mask, a
/// bias, a soft cap): a generic whose input `scoreInput` holds the scores.
/// `roles[l]` is the dimension of the scores buffer (batch dimensions,
/// then query rows, then keys) that loop `l` walks, -1 for a loop of
/// extent 1.
struct ScoreStep {
  linalg::GenericOp op;
  unsigned scoreInput = 0;
  SmallVector<int64_t> roles;
};

/// A matched chain out = softmax(ops(Q K^T)) V.
struct AttentionChain {
  /// The operands as the function holds them: [batch..., rows, D],
  /// row-major, one element type (f16 or bf16); `out` in that type too.
  Value q, k, v, out;
  /// Where K^T is a transpose of a buffer of another layout (heads and
  /// keys interleaved, as a reshape of a QKV projection leaves them): that
  /// transpose; `k` is then its K^T output, and the kernel reads K from a
  /// new buffer the transpose fills permuted to [batch..., keys, D].
  linalg::TransposeOp kTranspose;
  Type elementType;
  int64_t headDim = 0;
  /// The extents of the scores' batch dimensions (dynamic only where
  /// there is one).
  SmallVector<int64_t> batchShape;
  /// Keys past the query's own index are masked (a select on the loop
  /// indices, taken off `steps`): the causal kernel skips their tiles.
  bool causal = false;
  /// The softmax scale where the only op on the scores is a multiplication
  /// or division by a constant (or Q was scaled so); otherwise 1 and the
  /// ops run in the kernel's score hook.
  double scale = 1.0;
  /// The factor the hook multiplies the scores by before `steps` (where Q
  /// was scaled before the product and other ops follow it).
  double hookScale = 1.0;
  SmallVector<ScoreStep> steps;
  /// Every op of the chain, in program order; the kernel replaces them.
  llvm::SetVector<Operation *> ops;
  /// The temporaries only the chain used (allocations), erased with it.
  SmallVector<Operation *> temporaries;
};

/// The chain whose first product is `product`, or failure with the reason
/// in `why` (the chain then compiles as separate kernels).
FailureOr<AttentionChain> matchAttention(linalg::LinalgOp product,
                                         std::string &why);

/// Replaces the chain by the flash-attention kernel, built before its last
/// op; fails (changing nothing) where the kernel's template does not parse.
LogicalResult emitAttentionKernel(AttentionChain &chain, std::string &why);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_ATTENTIONCHAIN_H
