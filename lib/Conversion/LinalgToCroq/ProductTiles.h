//===- ProductTiles.h - the tiles a product's kind allows -------*- C++ -*-===//
//
// Filters of the cost model's candidates (KnownTiles.cpp) and variants
// (TileChoice.cpp) by what one product is: promoted 8-bit float sums,
// block scales, an epilogue, a batch, a convolution, B's layout.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_PRODUCTTILES_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_PRODUCTTILES_H

#include "GemmKernel.h"
#include "TileChoice.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir {
namespace croq {

/// Keeps the tiles of `candidates` whose consumers have room for promoted
/// partial sums (or one block of B's scales), or declines a forced tile
/// that has none, naming the op.
LogicalResult keepPromotedTiles(linalg::LinalgOp op, const MatmulSpec &spec,
                                SmallVector<TileConfig> &candidates);

/// Drops the cost model's 192-row candidates unless `spec` is a plain
/// product of 16-bit floats into a zeroed output.
void dropTallTilesUnlessPlain(const MatmulSpec &spec,
                              SmallVector<TileConfig> &candidates);

/// Runs the 128x128 candidates of `spec` on one consumer warpgroup, not
/// persistent, where it is a plain product of 16-bit floats into a zeroed
/// output whose B tile is N-major (B stored K x N).
void useOneConsumerWhereFaster(const MatmulSpec &spec,
                               SmallVector<TileConfig> &candidates);

/// Adds to `variants` the tiles of C^T (TileConfig::swapped) that the cost
/// model may compute `spec`, writing `resultBytes`-byte elements, in on
/// `target`: whole, and unless `clusters` is false with their K loops
/// split in clusters (the narrowest of one consumer) or whole in clusters
/// of two (mayClusterSwapped).
void addSwappedVariants(const MatmulSpec &spec, const TargetDescription &target,
                        int64_t resultBytes, bool clusters,
                        SmallVector<GemmVariant> &variants);

/// Adds to `variants` the narrow tiles of few columns (getNarrowTiles)
/// that the cost model may compute `spec` in: whole, and unless `clusters`
/// is false with their K loops split in clusters of two and, where B is
/// stored K x N, whole in clusters of two along M. None unless it is a
/// plain product of 16-bit floats into a zeroed output.
void addNarrowVariants(const MatmulSpec &spec, const TargetDescription &target,
                       int64_t resultBytes, bool clusters,
                       SmallVector<GemmVariant> &variants);

/// Keeps the variants an implicit GEMM takes, or declines forced options
/// that leave none, naming the op.
LogicalResult keepConvolutionVariants(linalg::LinalgOp op,
                                      SmallVector<GemmVariant> &variants);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_PRODUCTTILES_H
