//===- ExtentChecks.h - host checks of dynamic extents ----------*- C++ -*-===//
//
// The runtime check (croqRtRequireEqualExtents) that the host code of a
// kernel from linalg makes before it launches, where two extents that must
// agree are known only at run time.
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
void requireOperandExtents(OpBuilder &b, Location loc, linalg::LinalgOp op,
                           ArrayRef<Value> loopExtents);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_EXTENTCHECKS_H
