//===- TestTileLayout.cpp - report where shared tiles' chunks lie ---------===//
//
// Implements croq-test-tile-layout: a remark per row of each shared tile
// with the physical 16-byte chunk of each of the row's chunks, from
// SharedTileLayout, for tests that hold the layout against the swizzle
// pattern tables.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/TileLayout.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQTESTTILELAYOUT
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

/// Rows reported per tile: one swizzle repeat of 128-byte rows.
static constexpr int64_t kRowsReported = 8;

namespace {
struct CroqTestTileLayoutPass
    : croq::impl::CroqTestTileLayoutBase<CroqTestTileLayoutPass> {
  void runOnOperation() override {
    getOperation()->walk([](AllocOp alloc) {
      Type type = alloc.getResult().getType();
      auto tile = dyn_cast<TileType>(type);
      if (auto tiles = dyn_cast<TilesType>(type))
        tile = tiles.getTileType();
      if (!tile || tile.getMemorySpace() != MemorySpace::Shared ||
          tile.getShape().empty())
        return;
      SharedTileLayout layout = SharedTileLayout::get(tile);
      ArrayRef<int64_t> shape = tile.getShape();
      int64_t rowBytes = shape.back() * layout.elementBytes;
      int64_t chunkElements = 16 / layout.elementBytes;
      if (rowBytes % 16 != 0 || chunkElements == 0) {
        alloc.emitRemark("rows of ")
            << rowBytes << " bytes are not whole 16-byte chunks";
        return;
      }
      int64_t rows = 1;
      for (int64_t size : shape.drop_back())
        rows *= size;
      for (int64_t row = 0; row < std::min(rows, kRowsReported); ++row) {
        // The row's coordinates: outer dimensions row-major.
        SmallVector<int64_t> coords(shape.size(), 0);
        for (int64_t d = static_cast<int64_t>(shape.size()) - 2, rest = row;
             d >= 0; --d) {
          coords[d] = rest % shape[d];
          rest /= shape[d];
        }
        std::string text;
        llvm::raw_string_ostream os(text);
        os << "row " << row << ":";
        for (int64_t chunk = 0; chunk < rowBytes / 16; ++chunk) {
          coords.back() = chunk * chunkElements;
          os << " " << layout.getByteOffset(coords) / 16;
        }
        alloc.emitRemark(text);
      }
    });
  }
};
} // namespace
