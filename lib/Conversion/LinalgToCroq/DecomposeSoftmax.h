//===- DecomposeSoftmax.h - linalg.softmax on buffers as generics -*- C++
//-*-===//
//
// linalg.softmax on buffers, decomposed into the generics of its
// definition before croq-fuse-elementwise fuses them.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_DECOMPOSESOFTMAX_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_DECOMPOSESOFTMAX_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir {
namespace croq {

/// Replaces `op`, a softmax on float buffers, by its generics: the maximum
/// over the softmax dimension, exp(x - max) into a new buffer, its sum, and
/// the quotient into the output. Fails, changing nothing, where `op` works
/// on tensors or other elements.
LogicalResult decomposeSoftmax(linalg::SoftmaxOp op);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_DECOMPOSESOFTMAX_H
