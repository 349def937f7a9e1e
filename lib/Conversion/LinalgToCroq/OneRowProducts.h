//===- OneRowProducts.h - a one-column A read as its row -------*- C++ -*-===//
//
// A product of one row (M = 1) whose A is stored K x M holds A as a column
// of K elements one element apart: the 1 x K row itself, which TMA cannot
// describe as stored (its rows, of one element, are not 16 bytes apart)
// and would have to stage. convert-linalg-to-croq reads it as the row it
// is: the product of A stored M x K, chosen among the variants that suit
// one row. Where M is dynamic, the host code takes that form when the
// call's M is 1 and the other otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_ONEROWPRODUCTS_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_ONEROWPRODUCTS_H

#include "GemmKernel.h"
#include "TileChoice.h"

namespace mlir {
namespace croq {

/// Whether `spec` may be a product of one row whose A is stored K x M: an
/// unbatched product of a matrix A, A indexed (k, m), M 1 or dynamic.
bool mayHaveOneColumnA(const MatmulSpec &spec);

/// `spec` with A stored M x K: the layout the one-row form reads A in (A's
/// value is still the column; emitOneRowView makes the row).
MatmulSpec getOneRowSpec(const MatmulSpec &spec);

/// Whether the call's A, stored K x M, is one column of elements one apart
/// (M = 1 and A's stride along K 1), as an i1 (a constant where the types
/// tell).
Value emitOneColumnCondition(OpBuilder &b, Location loc,
                             const MatmulSpec &spec);

/// `spec`'s A, a column of K elements one apart (emitOneColumnCondition),
/// as the 1 x K memref of the same elements. Its stride along the one row
/// is K rounded up to 64 elements: no element is read through it, and a
/// stride TMA accepts keeps the row from being staged.
Value emitOneRowView(OpBuilder &b, Location loc, const MatmulSpec &spec);

/// Keeps the variants that suit a product of one row: the plain tiles of
/// the fewest rows, without clusters along M, whole or with their K loops
/// split, and the tiles of C^T of the fewest columns (M's).
void keepOneRowVariants(SmallVector<GemmVariant> &variants);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_ONEROWPRODUCTS_H
