//===- ProductConsumers.cpp - consumers read products as they are made ----===//
//
// Part of convert-linalg-to-croq, before products are matched: the
// elementwise consumer of a product is made into what a GEMM's epilogue
// computes (matchEpilogue). The allocations and views bufferization places
// between them move before the product; a splat constant it reads (TOSA's
// scalar operands) becomes a value and an input it reads twice through one
// map is read once. A product computed on a view of its output buffer (a
// batch of one matrix viewed as the matrix, croq-specialize-contractions)
// is still read by its consumer as the buffer, with the batch's loop or a
// constant 0 for the dimension the view drops: the consumer is made to read
// the view.
//
//===----------------------------------------------------------------------===//

#include "Convolution.h"
#include "Elementwise.h"
#include "FuseEpilogue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::croq;

/// Whether `value` is defined before `op`, in its block or above.
static bool isDefinedBefore(Value value, Operation *op) {
  Operation *def = value.getDefiningOp();
  return !def || def->getBlock() != op->getBlock() || def->isBeforeInBlock(op);
}

/// The first op of `product`: the fill right before it, or itself.
static Operation *getStart(Operation *product) {
  Operation *prev = product->getPrevNode();
  return isa_and_nonnull<linalg::FillOp>(prev) ? prev : product;
}

/// Moves the views and allocations right after `product` (of the
/// consumer's operands and output, where bufferization places them) before
/// the product and its fill, where the kernel that computes both is made;
/// returns the op after them.
static Operation *hoistToConsumer(Operation *product) {
  Operation *start = getStart(product);
  Operation *next = product->getNextNode();
  while (isa_and_nonnull<ViewLikeOpInterface, memref::AllocOp>(next)) {
    Operation *after = next->getNextNode();
    if (llvm::all_of(next->getOperands(), [&](Value operand) {
          return isDefinedBefore(operand, start);
        }))
      next->moveBefore(start);
    next = after;
  }
  return next;
}

/// The dimensions of `view`'s source that the view drops: in each group of
/// the reassociation, those of extent 1, all but one where all are.
static SmallVector<int64_t> getDroppedDims(memref::CollapseShapeOp view) {
  MemRefType source = view.getSrcType();
  SmallVector<int64_t> dropped;
  for (const ReassociationIndices &group : view.getReassociationIndices()) {
    bool allUnit = llvm::all_of(
        group, [&](int64_t dim) { return source.getDimSize(dim) == 1; });
    for (int64_t dim : group)
      if (source.getDimSize(dim) == 1 && !(allUnit && dim == group.back()))
        dropped.push_back(dim);
  }
  return dropped;
}

/// Drops from `generic`, which reads `view`'s source through a
/// permutation, the loops (of extent 1) that index the dimensions the view
/// drops: they index 0 instead. Leaves it as it is where one is longer or
/// the body reads its index.
static void dropViewLoops(linalg::GenericOp generic,
                          memref::CollapseShapeOp view) {
  SmallVector<OpOperand *> inputs = generic.getDpsInputOperands();
  auto read = llvm::find_if(
      inputs, [&](OpOperand *in) { return in->get() == view.getSrc(); });
  if (read == inputs.end())
    return;
  AffineMap readMap = generic.getMatchingIndexingMap(*read);
  if (!readMap.isPermutation())
    return;
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  llvm::SmallBitVector drop(generic.getNumLoops());
  for (int64_t dim : getDroppedDims(view)) {
    unsigned loop = readMap.getDimPosition(dim);
    if (ranges[loop] != 1)
      return;
    drop.set(loop);
  }
  for (auto index : generic.getRegion().front().getOps<linalg::IndexOp>())
    if (drop.test(index.getDim()))
      return;
  if (drop.none() || drop.all())
    return;
  // The dropped loops index 0; then no map uses them.
  MLIRContext *context = generic.getContext();
  SmallVector<AffineExpr> dims;
  for (unsigned loop = 0; loop < generic.getNumLoops(); ++loop)
    dims.push_back(drop.test(loop) ? getAffineConstantExpr(0, context)
                                   : getAffineDimExpr(loop, context));
  SmallVector<AffineMap> maps;
  for (AffineMap map : generic.getIndexingMapsArray())
    maps.push_back(map.replaceDimsAndSymbols(dims, {}, map.getNumDims(), 0));
  maps = compressUnusedDims(maps);
  SmallVector<Attribute> iterators;
  for (auto [loop, iterator] : llvm::enumerate(generic.getIteratorTypesArray()))
    if (!drop.test(loop))
      iterators.push_back(linalg::IteratorTypeAttr::get(context, iterator));
  Builder b(context);
  generic.setIndexingMapsAttr(b.getAffineMapArrayAttr(maps));
  generic.setIteratorTypesAttr(b.getArrayAttr(iterators));
}

/// Makes `generic` read each input once per indexing map, and no splat
/// constant: a second read of the same buffer through the same map (as
/// elementwise fusion leaves a value several ops of the chain read) reads
/// the first's element, and a constant global of one value (TOSA's scalar
/// operands, 1 x 1 x 1 tensors) is that value in the body.
static void simplifyInputs(linalg::GenericOp generic) {
  Block &body = generic.getRegion().front();
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  SmallVector<Value> inputs(generic.getDpsInputs());
  SmallVector<unsigned> repeated;
  OpBuilder b = OpBuilder::atBlockBegin(&body);
  for (unsigned i = 0; i < inputs.size(); ++i) {
    if (TypedAttr splat = getSplatConstant(inputs[i])) {
      body.getArgument(i).replaceAllUsesWith(
          arith::ConstantOp::create(b, generic.getLoc(), splat));
      repeated.push_back(i);
      continue;
    }
    for (unsigned j = 0; j < i; ++j)
      if (inputs[i] == inputs[j] && maps[i] == maps[j] &&
          !llvm::is_contained(repeated, j)) {
        body.getArgument(i).replaceAllUsesWith(body.getArgument(j));
        repeated.push_back(i);
        break;
      }
  }
  for (unsigned i : llvm::reverse(repeated)) {
    generic.getInputsMutable().erase(i);
    body.eraseArgument(i);
    maps.erase(maps.begin() + i);
  }
  if (!repeated.empty())
    generic.setIndexingMapsAttr(
        Builder(generic.getContext()).getAffineMapArrayAttr(maps));
}

/// The groups of `type`'s dimensions, one per loop of `map`, where `map`
/// indexes the dimensions of extent 1 by a constant 0 and the others by
/// the loops in order (a tile of the loops, stored with dimensions of
/// extent 1 between) and the type collapses so; none otherwise.
static std::optional<SmallVector<ReassociationIndices>>
getUnitTileGroups(MemRefType type, AffineMap map) {
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices pending;
  for (auto [position, expr] : llvm::enumerate(map.getResults())) {
    auto constant = dyn_cast<AffineConstantExpr>(expr);
    if (constant && constant.getValue() == 0 &&
        type.getDimSize(position) == 1) {
      pending.push_back(position);
      continue;
    }
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || dim.getPosition() != groups.size())
      return std::nullopt;
    groups.push_back(pending);
    groups.back().push_back(position);
    pending.clear();
  }
  if (groups.size() != map.getNumDims() || groups.empty())
    return std::nullopt;
  llvm::append_range(groups.back(), pending);
  if (!memref::CollapseShapeOp::isGuaranteedCollapsible(type, groups))
    return std::nullopt;
  return groups;
}

/// Makes `generic` read, in place of each operand that is a tile of its
/// loops stored with dimensions of extent 1 between, a view without them:
/// `product` (`view`) for `view`'s source. The views are made before
/// `start`, where the operands are defined.
static void viewTiles(linalg::GenericOp generic, memref::CollapseShapeOp view,
                      Operation *start) {
  OpBuilder b(start);
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  for (OpOperand &operand : generic->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    AffineMap &map = maps[operand.getOperandNumber()];
    if (!type || type.getRank() == map.getNumDims() ||
        !isDefinedBefore(operand.get(), start))
      continue;
    std::optional<SmallVector<ReassociationIndices>> groups =
        getUnitTileGroups(type, map);
    if (!groups)
      continue;
    Value tile = operand.get() == view.getSrc() &&
                         view.getReassociationIndices() == *groups
                     ? view.getResult()
                     : memref::CollapseShapeOp::create(b, generic.getLoc(),
                                                       operand.get(), *groups)
                           .getResult();
    operand.set(tile);
    map = b.getMultiDimIdentityMap(map.getNumDims());
  }
  generic.setIndexingMapsAttr(b.getAffineMapArrayAttr(maps));
}

void mlir::croq::prepareProductConsumers(ModuleOp module) {
  SmallVector<linalg::LinalgOp> products;
  module.walk([&](linalg::LinalgOp op) {
    if ((isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) ||
         isGemmConvolution(op)) &&
        op.hasPureBufferSemantics() && op.getNumDpsInits() == 1)
      products.push_back(op);
  });
  for (linalg::LinalgOp op : products) {
    Value output = op.getDpsInits()[0];
    auto view = output.getDefiningOp<memref::CollapseShapeOp>();
    Value buffer = view ? view.getSrc() : output;
    auto generic = dyn_cast_or_null<linalg::GenericOp>(hoistToConsumer(op));
    if (!generic || !generic.hasPureBufferSemantics() ||
        generic.getNumReductionLoops() != 0 ||
        !llvm::is_contained(generic.getDpsInputs(), buffer))
      continue;
    simplifyInputs(generic);
    if (!view || !isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
      continue;
    dropViewLoops(generic, view);
    viewTiles(generic, view, getStart(op));
  }
}
