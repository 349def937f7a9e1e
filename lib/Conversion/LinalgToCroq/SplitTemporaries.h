//===- SplitTemporaries.h - one buffer per value of a temporary -*- C++ -*-===//
//
// Part of croq-fuse-elementwise: temporaries that bufferization reused for
// a new value get a buffer per value first.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_SPLITTEMPORARIES_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_SPLITTEMPORARIES_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace croq {

/// For every temporary of `module`'s host code (a memref.alloc whose
/// values do not leave its block), starts a new buffer of the same type at
/// each op of the block that writes it whole (overwritesWhole) after its
/// old value was used: the op writes the new buffer, and every later use
/// of the temporary or of a view of it uses the new buffer or the same view
/// of it.
void splitTemporaries(ModuleOp module);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_SPLITTEMPORARIES_H
