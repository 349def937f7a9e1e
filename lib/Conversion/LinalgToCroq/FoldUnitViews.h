//===- FoldUnitViews.h - unit-dimension reshapes read through maps -*- C++
//-*-===//
//
// Part of croq-fuse-elementwise: generics read and write the sources of
// reshapes that only add or drop dimensions of extent 1.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_FOLDUNITVIEWS_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_FOLDUNITVIEWS_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace croq {

/// Makes every linalg.generic of `module`'s host code that reads or writes
/// a memref.expand_shape or memref.collapse_shape which only adds or drops
/// dimensions of extent 1 read or write its source instead, through its
/// indexing map (a dropped dimension's index 0), where every loop still
/// indexes an operand and outputs stay indexed by each loop once (loops of
/// extent 1 that then index nothing are dropped); a fill of such a reshape
/// right before a generic that now writes its source fills the source.
void foldUnitViews(ModuleOp module);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_FOLDUNITVIEWS_H
