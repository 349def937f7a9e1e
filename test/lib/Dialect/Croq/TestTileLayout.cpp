//===- TestTileLayout.cpp - report where shared tiles' chunks lie ---------===//
//
// Implements croq-test-tile-layout, a test pass linked into croq-opt only: a
// remark per row of each shared tile with the physical 16-byte chunk of each
// of the row's chunks, from the arith ops SharedTileLayout emits for the
// lowerings (evaluated here), checked against its constant arithmetic, for
// tests that hold the layout against the swizzle pattern tables.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/TileLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::croq;

/// Rows reported per tile: one swizzle repeat of 128-byte rows.
static constexpr int64_t kRowsReported = 8;

/// The value of `result`, computed by evaluating the arith ops of `block` on
/// index constants, or nullopt if one is not understood.
static std::optional<int64_t> evaluate(Block &block, Value result) {
  llvm::DenseMap<Value, int64_t> values;
  for (Operation &op : block) {
    if (auto constant = dyn_cast<arith::ConstantIndexOp>(op)) {
      values[constant] = constant.value();
      continue;
    }
    if (op.getNumOperands() != 2 || op.getNumResults() != 1)
      return std::nullopt;
    uint64_t a = values.lookup(op.getOperand(0));
    uint64_t b = values.lookup(op.getOperand(1));
    std::optional<uint64_t> value =
        llvm::TypeSwitch<Operation *, std::optional<uint64_t>>(&op)
            .Case([&](arith::AddIOp) { return a + b; })
            .Case([&](arith::MulIOp) { return a * b; })
            .Case([&](arith::DivUIOp) { return a / b; })
            .Case([&](arith::RemUIOp) { return a % b; })
            .Case([&](arith::ShRUIOp) { return a >> b; })
            .Case([&](arith::ShLIOp) { return a << b; })
            .Case([&](arith::AndIOp) { return a & b; })
            .Case([&](arith::XOrIOp) { return a ^ b; })
            .Default([](Operation *) { return std::nullopt; });
    if (!value)
      return std::nullopt;
    values[op.getResult(0)] = static_cast<int64_t>(*value);
  }
  auto it = values.find(result);
  if (it == values.end())
    return std::nullopt;
  return it->second;
}

/// Where the element at `coords` lies by the ops `layout` emits.
static std::optional<int64_t> evaluateByteOffset(const SharedTileLayout &layout,
                                                 ArrayRef<int64_t> coords,
                                                 Location loc) {
  Block block;
  OpBuilder builder(loc.getContext());
  builder.setInsertionPointToEnd(&block);
  SmallVector<Value> indices;
  for (int64_t c : coords)
    indices.push_back(arith::ConstantIndexOp::create(builder, loc, c));
  Value offset = emitSwizzle(builder, loc,
                             layout.emitLinearByteOffset(builder, loc, indices),
                             layout.span);
  return evaluate(block, offset);
}

namespace {
/// For every `croq.alloc` of a shared tile (or of a stage array: one
/// stage), one remark per row of its first eight rows (the outer dimensions
/// flattened): the index of the 16-byte chunk of the tile where each 16-byte
/// chunk of that row lies. This is the layout TMA writes, the dma copies and
/// element accesses address and the wgmma descriptors describe, so a test
/// can hold it against the CUDA swizzle pattern tables. The chunks come from
/// evaluating the arith ops the lowerings emit for an element's place; where
/// those disagree with the constant arithmetic the TMA boxes are placed by,
/// the pass fails. The IR is not changed.
struct CroqTestTileLayoutPass
    : PassWrapper<CroqTestTileLayoutPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CroqTestTileLayoutPass)

  StringRef getArgument() const final { return "croq-test-tile-layout"; }
  StringRef getDescription() const final {
    return "Report where each shared tile's 16-byte chunks lie (testing)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect>();
  }

  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](AllocOp alloc) {
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
          std::optional<int64_t> emitted =
              evaluateByteOffset(layout, coords, alloc.getLoc());
          int64_t expected = layout.getByteOffset(coords);
          if (emitted != expected) {
            alloc.emitError("the emitted layout arithmetic puts row ")
                << row << ", chunk " << chunk << " at byte "
                << (emitted ? *emitted : -1) << ", the constant one at "
                << expected;
            failed = true;
            return;
          }
          os << " " << *emitted / 16;
        }
        alloc.emitRemark(text);
      }
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace

namespace mlir {
namespace croq {
namespace test {
void registerTestTileLayoutPass() {
  PassRegistration<CroqTestTileLayoutPass>();
}
} // namespace test
} // namespace croq
} // namespace mlir
