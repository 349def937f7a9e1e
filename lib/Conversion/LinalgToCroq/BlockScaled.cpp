//===- BlockScaled.cpp - block-scaled 8-bit float products ----------------===//
//
// Recognizes the linalg.generic of a block-scaled 8-bit float product: the
// contraction of dequantized operands that a frontend writes, each 8-bit
// operand widened and multiplied by its scale (A's per row and 128-element
// group of K, B's per 128 x 128 block) before the product is summed.
//
//===----------------------------------------------------------------------===//

#include "BlockScaled.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mlir::croq;

static bool isFloat8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

/// Whether `map` has a result that divides a loop (`floordiv`).
static bool dividesALoop(AffineMap map) {
  return llvm::any_of(map.getResults(), [](AffineExpr expr) {
    return expr.getKind() == AffineExprKind::FloorDiv;
  });
}

bool mlir::croq::isBlockScaledCandidate(linalg::GenericOp op) {
  if (op.getNumReductionLoops() == 0)
    return false;
  bool float8 = false, divided = false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    float8 |= isFloat8(getElementTypeOrSelf(input->get().getType()));
    divided |= dividesALoop(op.getMatchingIndexingMap(input));
  }
  return float8 && divided;
}

namespace {
/// The operands of the body's two scaled factors.
struct ScaledFactor {
  BlockArgument value, scale;
};
} // namespace

/// Matches `v` = mulf(extf(x), s) (either way round) where x and s are
/// block arguments; x is the 8-bit value and s the scale.
static std::optional<ScaledFactor> matchScaledFactor(Value v) {
  auto mul = v.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return std::nullopt;
  for (auto [x, s] : {std::pair(mul.getLhs(), mul.getRhs()),
                      std::pair(mul.getRhs(), mul.getLhs())}) {
    auto ext = x.getDefiningOp<arith::ExtFOp>();
    auto value = ext ? dyn_cast<BlockArgument>(ext.getIn()) : BlockArgument();
    auto scale = dyn_cast<BlockArgument>(s);
    if (value && scale && isFloat8(value.getType()) && scale.getType().isF32())
      return ScaledFactor{value, scale};
  }
  return std::nullopt;
}

/// Matches the body: yield(addf(out, mulf(F1, F2))), F1 and F2 scaled
/// factors; returns them.
static FailureOr<std::pair<ScaledFactor, ScaledFactor>>
matchBody(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  BlockArgument out = body.getArguments().back();
  auto add = yield.getValues().size() == 1
                 ? yield.getValues()[0].getDefiningOp<arith::AddFOp>()
                 : arith::AddFOp();
  if (!add)
    return failure();
  Value product = add.getLhs() == out ? add.getRhs() : add.getLhs();
  if (add.getLhs() != out && add.getRhs() != out)
    return failure();
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return failure();
  std::optional<ScaledFactor> first = matchScaledFactor(mul.getLhs());
  std::optional<ScaledFactor> second = matchScaledFactor(mul.getRhs());
  if (!first || !second)
    return failure();
  // Nothing else in the body: the widenings, the three products, the sum.
  if (body.getOperations().size() != 7)
    return failure();
  return std::make_pair(*first, *second);
}

FailureOr<MatmulSpec> mlir::croq::getBlockScaledSpec(linalg::GenericOp op) {
  auto decline = [&](const Twine &why) {
    return op.emitOpError("convert-linalg-to-croq takes block-scaled 8-bit "
                          "float products out[m, n] += (extf(a[m, k]) * "
                          "sa[m, k floordiv 128]) * (extf(b[n, k]) * "
                          "sb[n floordiv 128, k floordiv 128]) with f32 "
                          "scales and output: ")
           << why;
  };
  MLIRContext *context = op.getContext();
  if (op.getNumLoops() != 3 || op.getNumReductionLoops() != 1 ||
      op.getIteratorTypesArray().back() != utils::IteratorType::reduction)
    return decline("its loops are not (parallel, parallel, reduction)");
  if (op.getNumDpsInputs() != 4 || op.getNumDpsInits() != 1)
    return decline("it does not have four inputs and one output");
  Type tc = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  if (!tc.isF32())
    return decline("the output must be f32, got ") << tc;
  FailureOr<std::pair<ScaledFactor, ScaledFactor>> factors = matchBody(op);
  if (failed(factors))
    return decline("its body does not compute that");
  AffineExpr m = getAffineDimExpr(0, context), n = getAffineDimExpr(1, context),
             k = getAffineDimExpr(2, context);
  auto map = [&](AffineExpr i, AffineExpr j) {
    return AffineMap::get(3, 0, {i, j}, context);
  };
  auto mapOf = [&](BlockArgument arg) {
    return op.getMatchingIndexingMap(op.getMatchingOpOperand(arg));
  };
  auto [first, second] = *factors;
  // A is the factor indexed (m, k), B the one indexed (n, k).
  if (mapOf(first.value) != map(m, k))
    std::swap(first, second);
  if (mapOf(first.value) != map(m, k) || mapOf(second.value) != map(n, k))
    return decline("A must be indexed (m, k) and B (n, k) (wgmma reads "
                   "8-bit floats K-major)");
  AffineExpr kBlock = k.floorDiv(kScaleBlock);
  if (mapOf(first.scale) != map(m, kBlock))
    return decline("A's scale must be indexed (m, k floordiv 128), got ")
           << AffineMapAttr::get(mapOf(first.scale));
  if (mapOf(second.scale) != map(n.floorDiv(kScaleBlock), kBlock))
    return decline("B's scale must be indexed (n floordiv 128, k floordiv "
                   "128), got ")
           << AffineMapAttr::get(mapOf(second.scale));
  MatmulSpec spec;
  spec.a = op.getMatchingOpOperand(first.value)->get();
  spec.b = op.getMatchingOpOperand(second.value)->get();
  spec.aScales = op.getMatchingOpOperand(first.scale)->get();
  spec.bScales = op.getMatchingOpOperand(second.scale)->get();
  spec.c = op.getDpsInits()[0];
  spec.bTransposed = true;
  Type ta = getElementTypeOrSelf(spec.a.getType());
  Type tb = getElementTypeOrSelf(spec.b.getType());
  if (ta != tb)
    return decline("A and B must have one 8-bit float type, got ")
           << ta << " and " << tb;
  if (map(m, n) != op.getIndexingMapsArray().back())
    return decline("the output must be indexed (m, n)");
  // Static extents are compared here, dynamic ones on the host before the
  // kernels run.
  auto extent = [](Value v, unsigned d) {
    return cast<MemRefType>(v.getType()).getDimSize(d);
  };
  auto blocks = [](int64_t size) {
    return ShapedType::isDynamic(size) ? size
                                       : llvm::divideCeil(size, kScaleBlock);
  };
  int64_t kBlocks = blocks(extent(spec.a, 1));
  auto check = [&](Value scales, int64_t rows, StringRef name,
                   StringRef rowsName) -> LogicalResult {
    int64_t want[] = {rows, kBlocks};
    for (unsigned d = 0; d < 2; ++d) {
      int64_t got = extent(scales, d);
      if (!ShapedType::isDynamic(got) && !ShapedType::isDynamic(want[d]) &&
          got != want[d])
        return decline(name)
               << " scales must be " << rowsName << " x ceil(K / 128), got "
               << cast<MemRefType>(scales.getType());
    }
    return success();
  };
  if (failed(check(spec.aScales, extent(spec.a, 0), "A's", "M")) ||
      failed(check(spec.bScales, blocks(extent(spec.b, 0)), "B's",
                   "ceil(N / 128)")))
    return failure();
  return spec;
}
