//===- ShapeClassifier.h - the classifier module ----------------*- C++ -*-===//
//
// convert-linalg-to-croq's `classify` form of a module (ShapeClassifier.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_SHAPECLASSIFIER_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_SHAPECLASSIFIER_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace croq {

/// The classifier's reports: each product whose variant the host code
/// chooses tells the runtime its choice (`choices`, in product order),
/// right after computing it, with the count of such products; each public
/// function of `module` the count alone at its start, so that a call that
/// reaches no product (another function's) still tells it.
void emitVariantReports(ModuleOp module, ArrayRef<Value> choices);

/// Makes `module` a classifier: its kernels (croq.parallel regions written
/// by hand) are dropped, with the host ops left unused, and its public
/// functions stay entry points.
void keepOnlyHostCode(ModuleOp module);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_SHAPECLASSIFIER_H
