//===- SpecializeContractions.cpp - contractions as named products --------===//
//
// croq-specialize-contractions: every contraction of host code that is a
// batch of matrix products (Contractions.h) becomes a linalg.matmul or
// linalg.batch_matmul whose operands are laid out as the GEMM kernel reads
// them. An operand read as it is, through a layout that collapses to the
// matrix, is a view; one computed in the body (a producer fused into the
// contraction), permuted, or stored in a layout the tensor cores cannot
// read for its type is first written to a temporary by an elementwise
// generic. An output in such a layout is computed in a temporary and
// copied back.
//
//===----------------------------------------------------------------------===//

#include "Contractions.h"

#include "Croq/Conversion/Passes.h"
#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "croq-specialize-contractions"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQSPECIALIZECONTRACTIONS
#include "Croq/Conversion/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

namespace {
/// Where the pass builds one product.
struct ProductBuilder {
  OpBuilder &b;
  Location loc;
  linalg::GenericOp op;
  const ContractionForm &form;

  Value getLoopSize(unsigned loop);
  AffineMap renumber(AffineMap map, ArrayRef<unsigned> order);
  std::optional<SmallVector<ReassociationIndices>>
  getViewGroups(Value buffer, AffineMap map,
                ArrayRef<ArrayRef<unsigned>> groups);
  Value view(Value buffer, AffineMap map, ArrayRef<ArrayRef<unsigned>> groups);
  Value collapse(Value buffer, ArrayRef<ArrayRef<unsigned>> groups);
  Value allocate(ArrayRef<ArrayRef<unsigned>> groups, Type element);
  Value materialize(const ContractionFactor &factor,
                    ArrayRef<ArrayRef<unsigned>> groups, Type element);
  void buildFactorBody(linalg::GenericOp generic,
                       const ContractionFactor &factor,
                       ArrayRef<unsigned> order, Type element);
  void copy(Value from, AffineMap fromMap, Value to, AffineMap toMap,
            unsigned loops);
};
} // namespace

/// The loops of `groups`, one group after another.
static SmallVector<unsigned> flatten(ArrayRef<ArrayRef<unsigned>> groups) {
  SmallVector<unsigned> order;
  for (ArrayRef<unsigned> group : groups)
    llvm::append_range(order, group);
  return order;
}

/// The extent of loop `loop`: a constant, or the size of an operand's
/// dimension that the loop indexes.
Value ProductBuilder::getLoopSize(unsigned loop) {
  int64_t range = op.getStaticLoopRanges()[loop];
  if (!ShapedType::isDynamic(range))
    return arith::ConstantIndexOp::create(b, loc, range);
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [position, expr] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr);
          dim && dim.getPosition() == loop)
        return memref::DimOp::create(b, loc, operand.get(), position);
  }
  llvm_unreachable("a loop of a linalg op indexes an operand");
}

/// `map` over the loops of `op`, over the loops `order` instead (loop i of
/// the result is order[i]); the loops of extent 1 are 0.
AffineMap ProductBuilder::renumber(AffineMap map, ArrayRef<unsigned> order) {
  SmallVector<AffineExpr> replacements(op.getNumLoops(),
                                       b.getAffineConstantExpr(0));
  for (auto [index, loop] : llvm::enumerate(order))
    replacements[loop] = b.getAffineDimExpr(index);
  return map.replaceDimsAndSymbols(replacements, {}, order.size(), 0);
}

/// `buffer`, indexed by `map`, viewed as the matrix (or batch of matrices)
/// of one dimension per loop group of `groups`; null where its layout does
/// not collapse so (the groups' loops out of order, a broadcast dimension,
/// strides that do not merge).
std::optional<SmallVector<ReassociationIndices>>
ProductBuilder::getViewGroups(Value buffer, AffineMap map,
                              ArrayRef<ArrayRef<unsigned>> groups) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<unsigned> order = flatten(groups);
  SmallVector<unsigned> groupOf;
  for (auto [index, group] : llvm::enumerate(groups))
    groupOf.append(group.size(), index);
  SmallVector<ReassociationIndices> reassociation(groups.size());
  ReassociationIndices pending; // dimensions of extent 1 before a group's
  unsigned next = 0;
  for (auto [position, expr] : llvm::enumerate(map.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || form.unit.test(dim.getPosition())) {
      if (type.getDimSize(position) != 1)
        return std::nullopt;
      pending.push_back(position);
      continue;
    }
    if (next == order.size() || order[next] != dim.getPosition())
      return std::nullopt;
    ReassociationIndices &group = reassociation[groupOf[next++]];
    llvm::append_range(group, pending);
    pending.clear();
    group.push_back(position);
  }
  if (next != order.size())
    return std::nullopt;
  llvm::append_range(reassociation.back(), pending);
  if (reassociation.size() != static_cast<size_t>(type.getRank()) &&
      !memref::CollapseShapeOp::isGuaranteedCollapsible(type, reassociation))
    return std::nullopt;
  return reassociation;
}

Value ProductBuilder::view(Value buffer, AffineMap map,
                           ArrayRef<ArrayRef<unsigned>> groups) {
  std::optional<SmallVector<ReassociationIndices>> reassociation =
      getViewGroups(buffer, map, groups);
  if (!reassociation)
    return Value();
  if (reassociation->size() ==
      static_cast<size_t>(cast<MemRefType>(buffer.getType()).getRank()))
    return buffer;
  return memref::CollapseShapeOp::create(b, loc, buffer, *reassociation);
}

/// The new row-major `buffer` of one dimension per loop of `groups`,
/// collapsed to one per group.
Value ProductBuilder::collapse(Value buffer,
                               ArrayRef<ArrayRef<unsigned>> groups) {
  SmallVector<ReassociationIndices> reassociation;
  int64_t next = 0;
  for (ArrayRef<unsigned> group : groups) {
    reassociation.emplace_back();
    for (size_t i = 0; i < group.size(); ++i)
      reassociation.back().push_back(next++);
  }
  if (reassociation.size() == static_cast<size_t>(next))
    return buffer;
  return memref::CollapseShapeOp::create(b, loc, buffer, reassociation);
}

/// A new row-major buffer of `element`s, one dimension per loop of
/// `groups`.
Value ProductBuilder::allocate(ArrayRef<ArrayRef<unsigned>> groups,
                               Type element) {
  SmallVector<int64_t> shape;
  SmallVector<Value> dynamicSizes;
  for (unsigned loop : flatten(groups)) {
    int64_t range = op.getStaticLoopRanges()[loop];
    shape.push_back(range);
    if (ShapedType::isDynamic(range))
      dynamicSizes.push_back(getLoopSize(loop));
  }
  return memref::AllocOp::create(b, loc, MemRefType::get(shape, element),
                                 dynamicSizes);
}

/// Writes `factor` of `op`'s body, converted to `element`, into a new
/// buffer of one dimension per loop of `groups` (an elementwise generic
/// over them, with the ops of the body that compute it); returns the
/// buffer collapsed to one dimension per group.
Value ProductBuilder::materialize(const ContractionFactor &factor,
                                  ArrayRef<ArrayRef<unsigned>> groups,
                                  Type element) {
  SmallVector<unsigned> order = flatten(groups);
  Value buffer = allocate(groups, element);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (unsigned input : factor.inputs) {
    OpOperand *operand = op.getDpsInputOperand(input);
    inputs.push_back(operand->get());
    maps.push_back(renumber(op.getMatchingIndexingMap(operand), order));
  }
  maps.push_back(b.getMultiDimIdentityMap(order.size()));
  SmallVector<utils::IteratorType> iterators(order.size(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(b, loc, TypeRange{}, inputs,
                                           ValueRange{buffer}, maps, iterators);
  buildFactorBody(generic, factor, order, element);
  return collapse(buffer, groups);
}

/// Builds the body of `generic`, which writes `factor` as `element`s over
/// the loops `order` of `op`.
void ProductBuilder::buildFactorBody(linalg::GenericOp generic,
                                     const ContractionFactor &factor,
                                     ArrayRef<unsigned> order, Type element) {
  OpBuilder::InsertionGuard guard(b);
  Block &old = op.getRegion().front();
  Block *body = b.createBlock(&generic.getRegion());
  IRMapping mapping;
  for (unsigned input : factor.inputs)
    mapping.map(old.getArgument(input),
                body->addArgument(old.getArgument(input).getType(), loc));
  body->addArgument(element, loc);
  for (Operation *inner : factor.ops) {
    auto index = dyn_cast<linalg::IndexOp>(inner);
    if (!index) {
      b.clone(*inner, mapping);
      continue;
    }
    const unsigned *at = llvm::find(order, index.getDim());
    Value value =
        at == order.end()
            ? arith::ConstantIndexOp::create(b, loc, 0).getResult()
            : linalg::IndexOp::create(b, loc, at - order.begin()).getResult();
    mapping.map(index.getResult(), value);
  }
  Value value = mapping.lookupOrDefault(factor.value);
  if (value.getType() != element)
    value = isa<FloatType>(element)
                ? arith::ExtFOp::create(b, loc, element, value).getResult()
                : arith::ExtSIOp::create(b, loc, element, value).getResult();
  linalg::YieldOp::create(b, loc, value);
}

/// Copies `from` into `to`, indexed by `fromMap` and `toMap` over `loops`
/// loops, with an elementwise generic.
void ProductBuilder::copy(Value from, AffineMap fromMap, Value to,
                          AffineMap toMap, unsigned loops) {
  SmallVector<utils::IteratorType> iterators(loops,
                                             utils::IteratorType::parallel);
  linalg::GenericOp::create(
      b, loc, ValueRange{from}, ValueRange{to},
      ArrayRef<AffineMap>{fromMap, toMap}, iterators,
      [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(nested, nestedLoc, args[0]);
      });
}

/// Whether the tensor cores read operands of `element`s K-major only: all
/// but the 16-bit ones (tf32, 8-bit floats and integers).
static bool needsKMajor(Type element) {
  return element.getIntOrFloatBitWidth() != 16;
}

/// Whether `element` is an 8-bit float, which croq reads only in matrix
/// products: never copied into a temporary here.
static bool isFloat8(Type element) {
  return isa<FloatType>(element) && element.getIntOrFloatBitWidth() == 8;
}

/// The fill right before `op` of its whole output, and its value: a
/// linalg.fill, or a generic without inputs that yields a value from
/// outside its body; none if there is none.
static std::pair<Operation *, Value> getStartFill(linalg::LinalgOp op) {
  Operation *prev = op->getPrevNode();
  Value out = op.getDpsInits()[0];
  if (auto fill = dyn_cast_or_null<linalg::FillOp>(prev);
      fill && fill.hasPureBufferSemantics() && fill.getDpsInits()[0] == out)
    return {fill, fill.getDpsInputs()[0]};
  auto generic = dyn_cast_or_null<linalg::GenericOp>(prev);
  if (!generic || generic.getNumDpsInputs() != 0 ||
      generic.getNumDpsInits() != 1 || generic.getDpsInits()[0] != out ||
      !generic.hasPureBufferSemantics() ||
      generic.getNumReductionLoops() != 0 ||
      !generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))
           .isPermutation())
    return {};
  Block &body = generic.getRegion().front();
  Value value = body.getTerminator()->getOperand(0);
  if (body.getOperations().size() != 1 || value.getParentBlock() == &body)
    return {};
  return {generic, value};
}

namespace {
/// An operand of the product: a matrix (or batch of them) and whether it
/// is stored transposed ((k, m) for A, (n, k) for B).
struct ProductOperand {
  Value matrix;
  bool transposed;
};
} // namespace

/// The product operand of `factor`, whose other matrix dimension is
/// `outer` (m for A, n for B): a view of the input it reads where it is
/// one read as it is and its layout collapses to the matrix, else a new
/// buffer the factor is written to, K-major.
static ProductOperand getOperand(ProductBuilder &pb,
                                 const ContractionFactor &factor,
                                 ArrayRef<unsigned> outer, bool isA,
                                 Type element) {
  const ContractionForm &form = pb.form;
  auto groupsOf = [&](bool kMajor) {
    SmallVector<ArrayRef<unsigned>> groups;
    if (!form.batch.empty())
      groups.push_back(form.batch);
    groups.push_back(kMajor ? outer : ArrayRef<unsigned>(form.k));
    groups.push_back(kMajor ? ArrayRef<unsigned>(form.k) : outer);
    return groups;
  };
  std::optional<unsigned> input = factor.getPlainInput(pb.op);
  if (input && factor.value.getType() == element) {
    OpOperand *operand = pb.op.getDpsInputOperand(*input);
    for (bool kMajor : {true, false}) {
      if (!kMajor && needsKMajor(element))
        continue;
      if (Value view =
              pb.view(operand->get(), pb.op.getMatchingIndexingMap(operand),
                      groupsOf(kMajor)))
        return {view, isA != kMajor};
    }
  }
  return {pb.materialize(factor, groupsOf(true), element), !isA};
}

/// The indexing maps of the named product over (b, m, n, k), or (m, n, k).
static ArrayAttr getProductMaps(Builder &b, bool batched, bool aTransposed,
                                bool bTransposed) {
  unsigned loops = batched ? 4 : 3;
  auto map = [&](unsigned i, unsigned j) {
    SmallVector<AffineExpr> results;
    if (batched)
      results.push_back(b.getAffineDimExpr(0));
    results.push_back(b.getAffineDimExpr(i));
    results.push_back(b.getAffineDimExpr(j));
    return AffineMap::get(loops, 0, results, b.getContext());
  };
  unsigned m = loops - 3, n = loops - 2, k = loops - 1;
  return b.getAffineMapArrayAttr({aTransposed ? map(k, m) : map(m, k),
                                  bTransposed ? map(n, k) : map(k, n),
                                  map(m, n)});
}

/// Whether `factor` of `op` is an input of `element`s that a view shows
/// K-major (as the tensor cores read 8-bit floats), `outer` its other
/// matrix dimension.
static bool isKMajorInput(ProductBuilder &pb, const ContractionFactor &factor,
                          ArrayRef<unsigned> outer, Type element) {
  std::optional<unsigned> input = factor.getPlainInput(pb.op);
  if (!input || factor.value.getType() != element)
    return false;
  SmallVector<ArrayRef<unsigned>> groups;
  if (!pb.form.batch.empty())
    groups.push_back(pb.form.batch);
  groups.push_back(outer);
  groups.push_back(pb.form.k);
  OpOperand *operand = pb.op.getDpsInputOperand(*input);
  return pb
      .getViewGroups(operand->get(), pb.op.getMatchingIndexingMap(operand),
                     groups)
      .has_value();
}

/// Replaces the contraction `op` of form `form` by a named product.
static void specialize(linalg::GenericOp op, const ContractionForm &form) {
  auto [fill, fillValue] = getStartFill(op);
  OpBuilder b(fill ? fill : op.getOperation());
  Location loc = op.getLoc();
  ProductBuilder pb{b, loc, op, form};
  // Both operands of one type: the wider of the two factors'.
  Type ta = form.a.value.getType(), tb = form.b.value.getType();
  Type element =
      ta.getIntOrFloatBitWidth() >= tb.getIntOrFloatBitWidth() ? ta : tb;
  // Unsigned integer factors (arith.extui: linalg.matmul's cast_unsigned)
  // would become products of wider integers: the product stays as it is,
  // for the GEMM path to decline by name.
  if (form.a.isZeroExtended() || form.b.isZeroExtended())
    return;
  // Factors of two types of one width (f16 and bf16) have no common type
  // a conversion reaches: the product stays as it is, for the GEMM path to
  // decline.
  if (ta != tb && ta.getIntOrFloatBitWidth() == tb.getIntOrFloatBitWidth())
    return;
  // 8-bit floats are not copied into temporaries (the elementwise kernels
  // do not take them): such a product stays as it is, for the GEMM path to
  // decline.
  if (isFloat8(element) && (!isKMajorInput(pb, form.a, form.m, element) ||
                            !isKMajorInput(pb, form.b, form.n, element)))
    return;
  ProductOperand a = getOperand(pb, form.a, form.m, /*isA=*/true, element);
  ProductOperand bOperand =
      getOperand(pb, form.b, form.n, /*isA=*/false, element);
  // The output: a view, or a temporary copied back after the product.
  bool batched = !form.batch.empty();
  SmallVector<ArrayRef<unsigned>> groups;
  if (batched)
    groups.push_back(form.batch);
  groups.push_back(form.m);
  groups.push_back(form.n);
  SmallVector<unsigned> order = flatten(groups);
  Value out = op.getDpsInits()[0];
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  AffineMap identity = b.getMultiDimIdentityMap(order.size());
  Value c = pb.view(out, outMap, groups), temporary;
  if (!c) {
    temporary = pb.allocate(groups, getElementTypeOrSelf(out.getType()));
    if (!fill)
      pb.copy(out, pb.renumber(outMap, order), temporary, identity,
              order.size());
    c = pb.collapse(temporary, groups);
  }
  if (fill)
    linalg::FillOp::create(b, loc, ValueRange{fillValue}, ValueRange{c});
  NamedAttribute maps(
      b.getStringAttr("indexing_maps"),
      getProductMaps(b, batched, a.transposed, bOperand.transposed));
  SmallVector<Value> inputs{a.matrix, bOperand.matrix};
  if (batched)
    linalg::BatchMatmulOp::create(b, loc, inputs, ValueRange{c}, {maps});
  else
    linalg::MatmulOp::create(b, loc, inputs, ValueRange{c}, {maps});
  if (temporary) {
    b.setInsertionPointAfter(op);
    pb.copy(temporary, identity, out, pb.renumber(outMap, order), order.size());
  }
  op.erase();
  if (fill)
    fill->erase();
}

/// Whether the GEMM kernel reads the named product `op` as it is: a
/// linalg.matmul or linalg.batch_matmul of 16-bit operands, or of others
/// stored K-major.
static bool isReadAsIs(linalg::LinalgOp op) {
  if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
    return false;
  Type element = getElementTypeOrSelf(op.getDpsInputs()[0].getType());
  // 8-bit floats are not copied into temporaries (the elementwise kernels
  // do not take them): the GEMM path takes or declines the product.
  if (!element.isIntOrFloat() || !needsKMajor(element) || isFloat8(element))
    return true;
  unsigned loops = op.getNumLoops();
  Builder b(op.getContext());
  ArrayAttr kMajor = getProductMaps(b, loops == 4, /*aTransposed=*/false,
                                    /*bTransposed=*/true);
  return op.getIndexingMaps() == kMajor;
}

namespace {
struct CroqSpecializeContractionsPass
    : croq::impl::CroqSpecializeContractionsBase<
          CroqSpecializeContractionsPass> {
  void runOnOperation() override {
    auto isHost = [](Operation *op) {
      return !op->getParentOfType<ParallelOp>() &&
             !op->getParentOfType<gpu::GPUModuleOp>();
    };
    // Named contractions the kernel does not read as they are are
    // generalized first; batches of one matrix it reads as they are become
    // plain products.
    SmallVector<linalg::LinalgOp> named;
    SmallVector<linalg::BatchMatmulOp> unitBatches;
    getOperation().walk([&](linalg::LinalgOp op) {
      // The quantized products (zero points subtracted from the factors)
      // are contractions in their generic form only.
      bool quantized =
          isa<linalg::QuantizedMatmulOp, linalg::QuantizedBatchMatmulOp>(op);
      if (isa<linalg::GenericOp>(op) || !isHost(op) ||
          !op.hasPureBufferSemantics() ||
          !(quantized || linalg::isaContractionOpInterface(op)))
        return;
      if (!isReadAsIs(op))
        named.push_back(op);
      else if (auto batch = dyn_cast<linalg::BatchMatmulOp>(op.getOperation()))
        unitBatches.push_back(batch);
    });
    for (linalg::BatchMatmulOp op : unitBatches) {
      Operation *fill = getStartFill(op).first;
      (void)collapseUnitBatch(op, dyn_cast_or_null<linalg::FillOp>(fill));
    }
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
    SmallVector<std::pair<linalg::GenericOp, ContractionForm>, 1> products;
    getOperation().walk([&](linalg::GenericOp op) {
      if (!isHost(op))
        return;
      std::string reason;
      FailureOr<ContractionForm> form = getContractionForm(op, &reason);
      if (succeeded(form))
        products.emplace_back(op, *form);
      else
        LLVM_DEBUG(llvm::dbgs() << "not a matrix product (" << reason
                                << "): " << op << "\n");
    });
    for (auto &[op, form] : products)
      specialize(op, form);
  }
};
} // namespace
