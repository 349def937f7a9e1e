//===- SpecializeProducts.cpp - generic contractions as named products ----===//
//
// A frontend that generalizes its ops hands croq matrix products as
// linalg.generic contractions. Those whose body is a product (the output
// plus the product of the two inputs, each converted to the output's type)
// and whose operands are indexed as a matmul's (A (m, k) or (k, m), B (k, n)
// or (n, k), the output (m, n), with a batch loop first for a batched one)
// become linalg.matmul or linalg.batch_matmul with the same indexing maps,
// which the GEMM path takes. (Upstream's linalg-specialize-generic-ops drops
// the operand maps of transposed operands in MLIR 22: it is not used.)
//
//===----------------------------------------------------------------------===//

#include "Classify.h"

#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::croq;

/// `value`, seen through one conversion to `type` (extf, or none).
static Value stripExtension(Value value, Type type) {
  if (auto ext = value.getDefiningOp<arith::ExtFOp>();
      ext && ext.getType() == type)
    return ext.getIn();
  return value;
}

/// Whether `op`'s body is `yield out + conv(a) * conv(b)` on floats.
static bool hasProductBody(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  if (body.getOperations().size() > 5)
    return false;
  BlockArgument a = body.getArgument(0), b = body.getArgument(1),
                out = body.getArgument(2);
  Type type = out.getType();
  if (!isa<FloatType>(type))
    return false;
  auto add = body.getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value other = add.getLhs() == out   ? add.getRhs()
                : add.getRhs() == out ? add.getLhs()
                                      : Value();
  auto mul = other ? other.getDefiningOp<arith::MulFOp>() : nullptr;
  if (!mul)
    return false;
  Value x = stripExtension(mul.getLhs(), type);
  Value y = stripExtension(mul.getRhs(), type);
  return (x == a && y == b) || (x == b && y == a);
}

/// Whether `map` is (i, j) over `loops` loops, after the batch loop
/// (d0) when `batched`.
static bool indexes(AffineMap map, bool batched, unsigned i, unsigned j) {
  MLIRContext *context = map.getContext();
  SmallVector<AffineExpr> results;
  if (batched)
    results.push_back(getAffineDimExpr(0, context));
  results.push_back(getAffineDimExpr(i, context));
  results.push_back(getAffineDimExpr(j, context));
  return map == AffineMap::get(map.getNumDims(), 0, results, context);
}

/// Whether `op` is a plain product with a matmul's operand indexing.
static bool isPlainProduct(linalg::GenericOp op) {
  unsigned loops = op.getNumLoops();
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      (loops != 3 && loops != 4) || op.getNumReductionLoops() != 1 ||
      op.getIteratorTypesArray().back() != utils::IteratorType::reduction ||
      !op.hasPureBufferSemantics() || !hasProductBody(op))
    return false;
  bool batched = loops == 4;
  unsigned m = loops - 3, n = loops - 2, k = loops - 1;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  return (indexes(maps[0], batched, m, k) || indexes(maps[0], batched, k, m)) &&
         (indexes(maps[1], batched, k, n) || indexes(maps[1], batched, n, k)) &&
         indexes(maps[2], batched, m, n);
}

void mlir::croq::specializeGenericProducts(ModuleOp module) {
  SmallVector<linalg::GenericOp> products;
  module.walk([&](linalg::GenericOp op) {
    if (!op->getParentOfType<ParallelOp>() && isPlainProduct(op))
      products.push_back(op);
  });
  for (linalg::GenericOp op : products) {
    OpBuilder b(op);
    NamedAttribute maps(b.getStringAttr("indexing_maps"), op.getIndexingMaps());
    if (op.getNumLoops() == 4)
      linalg::BatchMatmulOp::create(b, op.getLoc(), op.getDpsInputs(),
                                    op.getDpsInits(), {maps});
    else
      linalg::MatmulOp::create(b, op.getLoc(), op.getDpsInputs(),
                               op.getDpsInits(), {maps});
    op.erase();
  }
}
