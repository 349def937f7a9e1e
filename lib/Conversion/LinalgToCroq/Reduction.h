//===- Reduction.h - linalg reductions as croq kernels ----------*- C++ -*-===//
//
// What convert-linalg-to-croq emits for a linalg.generic with reduction
// loops (linalg.reduce and the named reductions become such generics
// first): one croq kernel that computes every element of its outputs.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_REDUCTION_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_REDUCTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <string>

namespace mlir {
namespace croq {

/// Why the reduction kernel cannot compute `op` (a linalg.generic on
/// memrefs with reduction loops), or an empty string if it can.
std::string getReductionDecline(linalg::GenericOp op);

/// Emits, before `op`, the croq kernel that computes it. Where the first
/// input's innermost dimension is reduced and every output's body combines
/// its element with one associative op (addf, maximumf, ...), a warp
/// computes each output element: its lanes reduce interleaved parts of the
/// reduction loops and combine them with shuffles. Otherwise each thread
/// computes one output element in loop order (coalesced where the reduced
/// dimensions are outer ones). `op` must have passed getReductionDecline;
/// it is not erased.
void emitReductionKernel(OpBuilder &b, linalg::GenericOp op);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_REDUCTION_H
