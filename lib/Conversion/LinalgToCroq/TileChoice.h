//===- TileChoice.h - block tiles of linalg GEMMs ---------------*- C++ -*-===//
//
// The block tiles convert-linalg-to-croq can give a GEMM, and the cost
// model that chooses among them: statically where the shape is known, in
// the host code by shape where it is not.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_TILECHOICE_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_TILECHOICE_H

#include "Croq/Dialect/Croq/IR/TargetDescription.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace croq {

/// A block tile of the result and how the block computes it.
struct TileConfig {
  int64_t rows;
  int64_t cols;
  /// Consumer warpgroups sharing the accumulator by rows (64 each).
  int64_t consumers;
  /// Whether blocks walk the tiles, one per multiprocessor: for the large
  /// tiles, chosen for problems of several waves, where the store of one
  /// tile overlaps the next tile's main loop.
  bool persistent;
  /// The time of one tile relative to the others, for the same K: its
  /// elements over how well the tile keeps the tensor cores busy.
  int64_t weight;
};

/// The bytes one K step of a tile loads: one 128-byte swizzle span of
/// each operand row.
constexpr int64_t kStepBytes = 128;

/// The tiles a GEMM writing `resultBytes`-byte elements can have on
/// `target`, largest first: those with room for three stages of operands
/// next to the result tile in shared memory. With `rows` and `cols` not 0,
/// that tile only, or failure if it is not one croq can compute.
FailureOr<SmallVector<TileConfig>>
getTileCandidates(const TargetDescription &target, int64_t resultBytes,
                  int64_t rows, int64_t cols);

/// The index in `candidates` of the tile with the least cost for an M x N
/// result: the waves of blocks the grid takes on the chip's
/// multiprocessors, times the tile's weight; the first of equal costs.
/// Folds to a constant for static M and N.
Value emitTileChoice(OpBuilder &builder, Location loc, Value m, Value n,
                     ArrayRef<TileConfig> candidates, int64_t multiprocessors);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_TILECHOICE_H
