//===- OneRowProducts.h - one-column operands read as rows -----*- C++ -*-===//
//
// An operand that is one column of elements one apart is a row of them
// stored as a column: its rows, of one element, are not 16 bytes apart, so
// TMA cannot describe it as stored and the runtime would stage it by a
// device copy. Two products have one:
//
// - one row (M = 1) whose A is stored K x M: A is the 1 x K row, and the
//   product is that of A stored M x K;
// - one column (N = 1, a matrix-vector product): B's column and C's are
//   rows (B stored K x N, or N x K where it is a row already; C's rows of
//   one element are as far from TMA as B's), and C^T = B^T A^T is a
//   product of one row, B^T its A and A its B.
//
// convert-linalg-to-croq reads such an operand as the row it is and
// computes the product of one row, chosen among the variants that suit
// one row. Where the extents or strides are dynamic, the host code takes
// that form when the call's operands have it and the other otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_ONEROWPRODUCTS_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_ONEROWPRODUCTS_H

#include "GemmKernel.h"
#include "TileChoice.h"

namespace mlir {
namespace croq {

/// Which one-column operand a product of one row is read from.
enum class OneRowForm {
  /// M = 1, A stored K x M: A read as its 1 x K row.
  ColumnA,
  /// N = 1: B and C read as rows, the product C^T = B^T A^T.
  ColumnB,
};

/// Whether `spec` may have `form`: an unbatched product of matrices, not a
/// convolution; for ColumnA, A stored K x M and M 1 or dynamic; for
/// ColumnB, 16-bit float operands, N 1 or dynamic, and no fused consumer
/// (its operands are indexed by C's rows and columns).
bool mayTakeOneRowForm(const MatmulSpec &spec, OneRowForm form);

/// The product of one row that `form` computes, in layouts only: its
/// operands' values are `spec`'s, not yet seen as rows (emitOneRowSpec).
MatmulSpec getOneRowLayout(const MatmulSpec &spec, OneRowForm form);

/// Whether the call's operands have `form`: its extent of one (M or N) is
/// 1 and each column read as a row has its elements one apart, as an i1 (a
/// constant where the types tell).
Value emitOneRowCondition(OpBuilder &b, Location loc, const MatmulSpec &spec,
                          OneRowForm form);

/// The product of one row of `form` (getOneRowLayout), with each column
/// read as the 1 x L memref of the same elements: its stride along the one
/// row is L rounded up to 64 elements, which no element is read through
/// and which TMA accepts.
MatmulSpec emitOneRowSpec(OpBuilder &b, Location loc, const MatmulSpec &spec,
                          OneRowForm form);

/// Keeps the variants that suit a product of one row: the plain tiles of
/// the fewest rows, without clusters along M, whole or with their K loops
/// split, and the tiles of C^T of the fewest columns (M's).
void keepOneRowVariants(SmallVector<GemmVariant> &variants);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_ONEROWPRODUCTS_H
