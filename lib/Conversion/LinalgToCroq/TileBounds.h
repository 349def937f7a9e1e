//===- TileBounds.h - variants the cost model never takes -------*- C++ -*-===//
//
// The bounds of the GEMM cost model (TileChoice.cpp) that rule a variant
// out whatever its cycles (TileBounds.cpp): each returns `cost`, or
// kNeverCycles where its rule holds, as host-code arithmetic that folds to
// a constant for a static shape.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_TILEBOUNDS_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_TILEBOUNDS_H

#include "IndexBuilder.h"
#include "TileChoice.h"

namespace mlir {
namespace croq {

/// The cost of a plan that cannot run, or that the model never takes.
inline constexpr int64_t kNeverCycles = int64_t(1) << 60;

/// `cost`, or never where a cluster of `tile` spans more tiles than the
/// `rows` x `cols` product has along its rows or columns.
Value emitIdleClusterCost(IndexBuilder &e, Value rows, Value cols,
                          const TileConfig &tile, Value cost);

/// `cost`, or never for a narrow tile alone where `cols` is not a multiple
/// of its width, and in clusters where it is.
Value emitClippedBoxCost(IndexBuilder &e, Value cols, const TileConfig &tile,
                         Value cost);

/// `cost`, or never for a tile of C^T in clusters where the product's M
/// (`cols`) fills less than 7/8 of its columns of tiles.
Value emitSwappedClusterFillCost(IndexBuilder &e, Value cols,
                                 const TileConfig &tile, Value cost);

/// `cost`, or never where `variant`'s tile is outside its bounds on the
/// product's `m` rows and `n` columns, or (a plain tile) a whole span of
/// 64 columns wider than the product.
Value emitModelBoundsCost(IndexBuilder &e, Value m, Value n,
                          const GemmVariant &variant, bool hasNarrowTile,
                          Value cost);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_TILEBOUNDS_H
