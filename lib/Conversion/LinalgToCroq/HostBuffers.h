//===- HostBuffers.h - buffers of host code and their views -----*- C++ -*-===//
//
// What croq-fuse-elementwise and the temporaries it splits ask of host
// buffers: which buffer a view shows, who uses it, who writes it whole.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_HOSTBUFFERS_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_HOSTBUFFERS_H

#include "mlir/IR/Operation.h"

namespace mlir {
namespace croq {

/// The buffer `value` is a view of (through view-like ops), or itself.
Value getRootBuffer(Value value);

/// Whether `op`, or an op nested in it, uses `root` or a view of it.
bool usesBuffer(Operation *op, Value root);

/// Whether `op` writes the whole of `buffer` without reading what was
/// there: a fill, or an all-parallel generic whose output `buffer` is
/// indexed by a permutation of its loops and whose body does not read it.
bool overwritesWhole(Operation *op, Value buffer);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_HOSTBUFFERS_H
