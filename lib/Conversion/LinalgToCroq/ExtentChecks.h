//===- ExtentChecks.h - host checks of dynamic extents ----------*- C++ -*-===//
//
// The runtime checks (croqRtRequireEqualExtents) that the host code of a
// kernel from linalg makes before it launches, where two extents that must
// agree are known only at run time, and the calls by which a product
// compiled for one variant checks the cost model's choice
// (croqRtRequireVariant) or a classifier reports it (croqRtReportVariant),
// and the call by which the host code asks for a variant its caller
// requested (croqRtRequestedVariant).
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_EXTENTCHECKS_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_EXTENTCHECKS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace croq {

/// Emits the host call that fails the call (and refuses its launches) when
/// `first` and `second` differ, naming them by `kind` (a croqRtExtentCheck)
/// and `input`; nothing when both are constants (the verifiers of linalg
/// have compared them). The runtime function is declared in the module
/// around the insertion point on first use.
void requireEqualExtents(OpBuilder &b, Location loc, Value first, Value second,
                         int kind, int input = 0);

/// Emits requireEqualExtents for every dimension of every memref operand of
/// `op` that a loop indexes, against that loop's extent in `loopExtents`.
/// Emits `croqRtRequireVariant(product, chosen, compiled)`: the call fails
/// where the cost model's choice `chosen` (an index) is not the variant a
/// specialization was compiled with (`compiled`, -1 for none).
void requireVariant(OpBuilder &b, Location loc, int64_t product, Value chosen,
                    int64_t compiled);

/// Emits `croqRtReportVariant(product, products, chosen)`: the classifier
/// records the cost model's choice `chosen` (an index) for the runtime's
/// caller.
void reportVariant(OpBuilder &b, Location loc, int64_t product,
                   int64_t products, Value chosen);

/// Emits `croqRtRequestedVariant(product, variants)` and returns its result
/// as an index: the variant of the `variants` of product `product` that the
/// caller asks for (an autotuner's request), or -1 (none).
Value requestedVariant(OpBuilder &b, Location loc, int64_t product,
                       int64_t variants);

void requireOperandExtents(OpBuilder &b, Location loc, linalg::LinalgOp op,
                           ArrayRef<Value> loopExtents);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_EXTENTCHECKS_H
