//===- IndexBuilder.h - folding index arithmetic ----------------*- C++ -*-===//
//
// IndexBuilder, the index arithmetic convert-linalg-to-croq emits for
// grids, K ranges and the cost model, is croq's one set of index-arithmetic
// builders and lives in Croq/Dialect/Croq/IR/IndexMath.h; this header keeps
// the files of this folder that include it by this name building.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_INDEXBUILDER_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_INDEXBUILDER_H

#include "Croq/Dialect/Croq/IR/IndexMath.h"

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_INDEXBUILDER_H
