//===- AttentionMatchUtils.cpp - pieces of the attention matcher ----------===//

#include "AttentionMatchUtils.h"
#include "Elementwise.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::croq;
using namespace mlir::croq::attention;

/// The lowest f32 that frontends mask with: -inf, or -FLT_MAX (TOSA's
/// reduce_max starts from it).
static bool isLowest(double value) { return value <= -3.4e38; }

Value attention::getViewRoot(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<memref::ExpandShapeOp, memref::CollapseShapeOp, memref::CastOp>(
            def))
      break;
    value = def->getOperand(0);
  }
  return value;
}

bool attention::isTemporary(Value value) {
  return value.getDefiningOp<memref::AllocOp>() != nullptr;
}

bool attention::isViewOrAllocation(Operation *op) {
  return isa<memref::AllocOp, memref::DeallocOp, memref::ExpandShapeOp,
             memref::CollapseShapeOp, memref::CastOp, memref::GetGlobalOp>(op);
}

Operation *attention::getLastUserBefore(Operation *op, Value root) {
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode())
    if (!isViewOrAllocation(prev) && usesBuffer(prev, root))
      return prev;
  return nullptr;
}

bool attention::isReadOnlyOf(Operation *op, Value root) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return llvm::none_of(linalgOp.getDpsInits(), [&](Value init) {
      return getRootBuffer(init) == root;
    });
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::none_of(instances, [&](auto &effect) {
    return isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect()) &&
           (!effect.getValue() || getRootBuffer(effect.getValue()) == root);
  });
}

bool attention::onlyUsedBy(Value root,
                           const llvm::SetVector<Operation *> &ops) {
  for (Operation *user : root.getUsers()) {
    if (ops.contains(user) || isa<memref::DeallocOp>(user))
      continue;
    if (!isa<memref::ExpandShapeOp, memref::CollapseShapeOp, memref::CastOp>(
            user) ||
        !onlyUsedBy(user->getResult(0), ops))
      return false;
  }
  return true;
}

std::optional<double> attention::getConstantFloat(Value value) {
  FloatAttr attr;
  if (matchPattern(value, m_Constant(&attr)))
    return attr.getValueAsDouble();
  return std::nullopt;
}

std::optional<FillValue> attention::getFillValue(Operation *op) {
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    std::optional<double> value = getConstantFloat(fill.getInputs()[0]);
    if (!value || !fill.hasPureBufferSemantics())
      return std::nullopt;
    return FillValue{*value, fill.getOutputs()[0]};
  }
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 0 ||
      generic.getNumDpsInits() != 1 || generic.getNumReductionLoops() != 0 ||
      !generic.hasPureBufferSemantics() ||
      !generic.getIndexingMapsArray()[0].isPermutation())
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  std::optional<double> value = getConstantFloat(yield.getOperand(0));
  if (!value)
    return std::nullopt;
  return FillValue{*value, generic.getDpsInits()[0]};
}

bool attention::isSplatConstant(Value buffer) {
  return static_cast<bool>(getSplatConstant(buffer));
}

bool attention::isIndexedByLoops(AffineMap map) {
  return llvm::all_of(map.getResults(), [](AffineExpr e) {
    auto c = dyn_cast<AffineConstantExpr>(e);
    return isa<AffineDimExpr>(e) || (c && c.getValue() == 0);
  });
}

bool attention::isSwapOfLastTwo(ArrayRef<int64_t> permutation) {
  int64_t n = permutation.size();
  if (n < 2 || permutation[n - 1] != n - 2 || permutation[n - 2] != n - 1)
    return false;
  for (int64_t i = 0; i < n - 2; ++i)
    if (permutation[i] != i)
      return false;
  return true;
}

/// Whether `map`'s results are the loops `lead` in order, then `x`, `y`.
static bool isIndexedAs(AffineMap map, ArrayRef<unsigned> lead, unsigned x,
                        unsigned y) {
  if (map.getNumResults() != lead.size() + 2)
    return false;
  SmallVector<unsigned> want(lead);
  want.append({x, y});
  for (auto [result, loop] : llvm::zip(map.getResults(), want)) {
    auto dim = dyn_cast<AffineDimExpr>(result);
    if (!dim || dim.getPosition() != loop)
      return false;
  }
  return true;
}

FailureOr<Product> attention::analyzeProduct(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op))
    return failure();
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1)
    return failure();
  SmallVector<unsigned> batch(dims->batch.begin(), dims->batch.end());
  llvm::sort(batch);
  unsigned m = dims->m[0], n = dims->n[0], k = dims->k[0];
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  Product product;
  product.a = op.getDpsInputs()[0];
  product.b = op.getDpsInputs()[1];
  product.c = op.getDpsInits()[0];
  if (!isIndexedAs(maps[0], batch, m, k) || !isIndexedAs(maps[2], batch, m, n))
    return failure();
  product.bByRows = isIndexedAs(maps[1], batch, n, k);
  if (!product.bByRows && !isIndexedAs(maps[1], batch, k, n))
    return failure();
  for (Value operand : {product.a, product.b, product.c})
    if (!isa<MemRefType>(operand.getType()))
      return failure();
  return product;
}

std::optional<ScaledInput> attention::matchScaledCopy(linalg::GenericOp op,
                                                      Value out) {
  if (op.getNumDpsInits() != 1 || op.getDpsInits()[0] != out ||
      op.getNumReductionLoops() != 0)
    return std::nullopt;
  std::optional<unsigned> input;
  for (auto [i, operand] : llvm::enumerate(op.getDpsInputs())) {
    if (isSplatConstant(operand))
      continue;
    if (input || !op.getIndexingMapsArray()[i].isIdentity())
      return std::nullopt;
    input = i;
  }
  if (!input || !op.getIndexingMapsArray().back().isIdentity() ||
      getElementTypeOrSelf(op.getDpsInputs()[*input].getType()) !=
          getElementTypeOrSelf(out.getType()))
    return std::nullopt;
  BodyValues body(op, *input, std::nullopt);
  Operation *def = body.yielded().getDefiningOp();
  if (!def || def->getNumOperands() != 2)
    return std::nullopt;
  Value x = def->getOperand(0), c = def->getOperand(1);
  if (isa<arith::MulFOp>(def) && c == body.element())
    std::swap(x, c);
  std::optional<double> factor = body.constant(c);
  if (x != body.element() || !factor || *factor == 0.0)
    return std::nullopt;
  if (isa<arith::MulFOp>(def))
    return ScaledInput{op.getDpsInputs()[*input], *factor};
  if (isa<arith::DivFOp>(def))
    return ScaledInput{op.getDpsInputs()[*input], 1.0 / *factor};
  return std::nullopt;
}

/// The (loop, dimension of `rootShape`) pairs of `operand`: its dimensions
/// of extent above 1 are those of `rootShape` in order (a reshape that
/// adds or drops 1s), each indexed by a loop.
static FailureOr<SmallVector<std::pair<unsigned, int64_t>>>
getOperandRoles(linalg::LinalgOp op, OpOperand *operand,
                ArrayRef<int64_t> rootShape) {
  auto type = dyn_cast<MemRefType>(operand->get().getType());
  if (!type)
    return failure();
  AffineMap map = op.getMatchingIndexingMap(operand);
  SmallVector<int64_t> rootDims;
  for (auto [r, extent] : llvm::enumerate(rootShape))
    if (extent != 1)
      rootDims.push_back(r);
  SmallVector<std::pair<unsigned, int64_t>> roles;
  size_t next = 0;
  for (auto [i, extent] : llvm::enumerate(type.getShape())) {
    if (extent == 1)
      continue;
    if (next == rootDims.size() || rootShape[rootDims[next]] != extent)
      return failure();
    auto dim = dyn_cast<AffineDimExpr>(map.getResult(i));
    if (!dim)
      return failure();
    roles.push_back({dim.getPosition(), rootDims[next++]});
  }
  if (next != rootDims.size())
    return failure();
  return roles;
}

FailureOr<SmallVector<int64_t>>
attention::getLoopRoles(linalg::LinalgOp op, ArrayRef<OpOperand *> full,
                        ArrayRef<OpOperand *> rows,
                        ArrayRef<int64_t> scoreShape, unsigned freeLoops) {
  SmallVector<int64_t> roles(op.getNumLoops(), -1);
  auto assign = [&](OpOperand *operand, ArrayRef<int64_t> shape) {
    FailureOr<SmallVector<std::pair<unsigned, int64_t>>> pairs =
        getOperandRoles(op, operand, shape);
    if (failed(pairs))
      return false;
    for (auto [loop, dim] : *pairs) {
      if (roles[loop] != -1 && roles[loop] != dim)
        return false;
      roles[loop] = dim;
    }
    return true;
  };
  for (OpOperand *operand : full)
    if (!assign(operand, scoreShape))
      return failure();
  for (OpOperand *operand : rows)
    if (!assign(operand, scoreShape.drop_back()))
      return failure();
  // Every dimension walked by one loop; the other loops of extent 1.
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned free = 0;
  for (auto [loop, role] : llvm::enumerate(roles)) {
    if (role == -1 && ranges[loop] != 1 && ++free > freeLoops)
      return failure();
    if (role != -1 && llvm::count(roles, role) != 1)
      return failure();
  }
  return roles;
}

bool attention::isProductOperand(linalg::LinalgOp op, unsigned n,
                                 ArrayRef<int64_t> roles, int64_t middle,
                                 int64_t batch) {
  auto type = dyn_cast<MemRefType>(op->getOperand(n).getType());
  AffineMap map = op.getIndexingMapsArray()[n];
  if (!type || map.getNumResults() != unsigned(batch + 2))
    return false;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (auto [i, result] : llvm::enumerate(map.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(result);
    if (!dim)
      return false;
    int64_t role = roles[dim.getPosition()];
    int64_t i64 = i;
    bool ok = i64 < batch ? role == i64 ||
                                (role == -1 && ranges[dim.getPosition()] == 1 &&
                                 type.getDimSize(i) == 1)
              : i64 == batch ? role == middle
                             : role == -1 && ranges[dim.getPosition()] != 1;
    if (!ok)
      return false;
  }
  return true;
}

bool attention::reducesKeys(linalg::LinalgOp op, ArrayRef<int64_t> roles,
                            int64_t keyDim) {
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  return reductions.size() == 1 && roles[reductions[0]] == keyDim;
}

std::optional<ReductionKind> attention::getReductionKind(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (yield.getNumOperands() != 1 || body->getNumArguments() != 2)
    return std::nullopt;
  Operation *def = yield.getOperand(0).getDefiningOp();
  if (!def || def->getNumOperands() != 2 ||
      !llvm::is_contained(def->getOperands(), body->getArgument(0)) ||
      !llvm::is_contained(def->getOperands(), body->getArgument(1)) ||
      &body->front() != def)
    return std::nullopt;
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(def))
    return ReductionKind::Max;
  if (isa<arith::AddFOp>(def))
    return ReductionKind::Sum;
  return std::nullopt;
}

bool attention::isConversionOf(linalg::GenericOp op, Value input) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getDpsInputs()[0] != input || op.getNumReductionLoops() != 0 ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }))
    return false;
  BodyValues body(op, 0, std::nullopt);
  auto trunc = body.yielded().getDefiningOp<arith::TruncFOp>();
  return trunc && trunc.getIn() == body.element();
}

BodyValues::BodyValues(linalg::GenericOp op,
                       std::optional<unsigned> elementInput,
                       std::optional<unsigned> rowInput)
    : op(op) {
  if (elementInput)
    elementArg = op.getBody()->getArgument(*elementInput);
  if (rowInput)
    rowArg = op.getBody()->getArgument(*rowInput);
}

Value BodyValues::yielded() const {
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  return yield.getNumOperands() == 1 ? yield.getOperand(0) : Value();
}

std::optional<double> BodyValues::constant(Value v) const {
  if (std::optional<double> c = getConstantFloat(v))
    return c;
  auto arg = dyn_cast_or_null<BlockArgument>(v);
  if (!arg || arg.getOwner() != op.getBody() ||
      arg.getArgNumber() >= op.getNumDpsInputs())
    return std::nullopt;
  auto splat = dyn_cast_or_null<FloatAttr>(
      getSplatConstant(op.getDpsInputs()[arg.getArgNumber()]));
  if (!splat)
    return std::nullopt;
  return splat.getValueAsDouble();
}

bool BodyValues::isShift(Value v) const {
  auto sub = v ? v.getDefiningOp<arith::SubFOp>() : nullptr;
  return sub && elementArg && rowArg && sub.getLhs() == elementArg &&
         sub.getRhs() == rowArg;
}

bool BodyValues::isExpOfShift(Value v) const {
  auto exp = v ? v.getDefiningOp<math::ExpOp>() : nullptr;
  return exp && isShift(exp.getOperand());
}

bool BodyValues::isExpOfElement(Value v) const {
  auto exp = v ? v.getDefiningOp<math::ExpOp>() : nullptr;
  return exp && elementArg && exp.getOperand() == elementArg;
}

bool BodyValues::isOneOver(Value v, Value of) const {
  auto div = v ? v.getDefiningOp<arith::DivFOp>() : nullptr;
  std::optional<double> one = div ? constant(div.getLhs()) : std::nullopt;
  return one && *one == 1.0 && div.getRhs() == of;
}

bool BodyValues::isNormalized(Value v, bool rowIsReciprocal) const {
  if (!v || !elementArg || !rowArg)
    return false;
  if (auto div = v.getDefiningOp<arith::DivFOp>())
    return !rowIsReciprocal && div.getLhs() == elementArg &&
           div.getRhs() == rowArg;
  auto mul = v.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return false;
  Value x = mul.getLhs(), r = mul.getRhs();
  if (r == elementArg)
    std::swap(x, r);
  if (x != elementArg)
    return false;
  return rowIsReciprocal ? r == rowArg : isOneOver(r, rowArg);
}

bool BodyValues::isReciprocalOfRow(Value v) const {
  return rowArg && isOneOver(v, rowArg);
}

/// `v` without extensions.
static Value stripExtension(Value v) {
  while (auto ext = v ? v.getDefiningOp<arith::ExtFOp>() : nullptr)
    v = ext.getIn();
  return v;
}

bool BodyValues::isNormalizedProduct(unsigned vInput,
                                     bool rowIsReciprocal) const {
  Value out = op.getBody()->getArgument(op.getNumDpsInputs());
  Value vArg = op.getBody()->getArgument(vInput);
  auto add = yielded() ? yielded().getDefiningOp<arith::AddFOp>() : nullptr;
  if (!add)
    return false;
  Value product = add.getLhs() == out ? add.getRhs() : add.getLhs();
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (!mul || (add.getLhs() != out && add.getRhs() != out))
    return false;
  Value p = stripExtension(mul.getLhs()), v = stripExtension(mul.getRhs());
  if (p == vArg)
    std::swap(p, v);
  return v == vArg && isNormalized(stripTruncation(p), rowIsReciprocal);
}

Value BodyValues::stripTruncation(Value v) const {
  if (auto trunc = v ? v.getDefiningOp<arith::TruncFOp>() : nullptr)
    return trunc.getIn();
  return v;
}

/// The loop index `v` reads (through index casts), if any.
static std::optional<unsigned> getIndexLoop(Value v) {
  while (auto cast = v.getDefiningOp<arith::IndexCastOp>())
    v = cast.getIn();
  if (auto index = v.getDefiningOp<linalg::IndexOp>())
    return index.getDim();
  return std::nullopt;
}

/// `pred` with its operands swapped: a < b as b > a.
static arith::CmpIPredicate swapOperands(arith::CmpIPredicate pred) {
  using P = arith::CmpIPredicate;
  switch (pred) {
  case P::slt:
    return P::sgt;
  case P::sgt:
    return P::slt;
  case P::sle:
    return P::sge;
  case P::sge:
    return P::sle;
  case P::ult:
    return P::ugt;
  case P::ugt:
    return P::ult;
  case P::ule:
    return P::uge;
  case P::uge:
    return P::ule;
  default:
    return pred;
  }
}

/// The factor by which `value` multiplies `x` (a multiplication or
/// division by a constant), 1 for `x` itself.
static std::optional<double> getFactorOf(const BodyValues &body, Value value,
                                         Value x) {
  if (value == x)
    return 1.0;
  Operation *def = value.getDefiningOp();
  if (!def || def->getNumOperands() != 2)
    return std::nullopt;
  Value lhs = def->getOperand(0), c = def->getOperand(1);
  if (isa<arith::MulFOp>(def) && c == x)
    std::swap(lhs, c);
  std::optional<double> factor = body.constant(c);
  if (lhs != x || !factor || *factor == 0.0)
    return std::nullopt;
  if (isa<arith::MulFOp>(def))
    return *factor;
  if (isa<arith::DivFOp>(def))
    return 1.0 / *factor;
  return std::nullopt;
}

/// Where `step` keeps the scores of keys up to the row's own index (times
/// a constant factor, returned) and masks the others with the lowest
/// float.
static std::optional<double> matchCausalMask(const ScoreStep &step,
                                             int64_t rowDim) {
  linalg::GenericOp op = step.op;
  BodyValues body(op, step.scoreInput, std::nullopt);
  auto select = body.yielded() ? body.yielded().getDefiningOp<arith::SelectOp>()
                               : nullptr;
  if (!select)
    return std::nullopt;
  Value kept = select.getTrueValue(), masked = select.getFalseValue();
  std::optional<double> low = body.constant(masked);
  bool keepIfTrue = low && isLowest(*low);
  if (!keepIfTrue) {
    std::swap(kept, masked);
    low = body.constant(masked);
  }
  std::optional<double> factor = getFactorOf(body, kept, body.element());
  auto cmp = select.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!factor || !low || !isLowest(*low) || !cmp)
    return std::nullopt;
  std::optional<unsigned> lhs = getIndexLoop(cmp.getLhs()),
                          rhs = getIndexLoop(cmp.getRhs());
  if (!lhs || !rhs)
    return std::nullopt;
  // As "keep where key P row".
  arith::CmpIPredicate pred = cmp.getPredicate();
  int64_t lhsRole = step.roles[*lhs], rhsRole = step.roles[*rhs];
  if (lhsRole == rowDim && rhsRole == rowDim + 1)
    pred = swapOperands(pred);
  else if (lhsRole != rowDim + 1 || rhsRole != rowDim)
    return std::nullopt;
  if (!keepIfTrue)
    pred = arith::invertPredicate(pred);
  // The body computes nothing but the mask (and the factor).
  for (Operation &inner : op.getBody()->without_terminator())
    if (!isa<linalg::IndexOp, arith::IndexCastOp, arith::CmpIOp,
             arith::SelectOp, arith::ConstantOp>(inner) &&
        inner.getResult(0) != kept)
      return std::nullopt;
  if (pred != arith::CmpIPredicate::sle && pred != arith::CmpIPredicate::ule)
    return std::nullopt;
  return factor;
}

/// The factor of a step that multiplies (or divides) the scores by a
/// constant and does nothing else.
static std::optional<double> getScaleFactor(const ScoreStep &step) {
  linalg::GenericOp op = step.op;
  for (auto [i, operand] : llvm::enumerate(op.getDpsInputs()))
    if (i != step.scoreInput && !isSplatConstant(operand))
      return std::nullopt;
  BodyValues body(op, step.scoreInput, std::nullopt);
  Operation *def = body.yielded() ? body.yielded().getDefiningOp() : nullptr;
  if (!def || def->getNumOperands() != 2)
    return std::nullopt;
  Value x = def->getOperand(0), c = def->getOperand(1);
  if (isa<arith::MulFOp>(def) && c == body.element())
    std::swap(x, c);
  std::optional<double> factor = body.constant(c);
  if (x != body.element() || !factor || *factor == 0.0)
    return std::nullopt;
  if (isa<arith::MulFOp>(def))
    return *factor;
  if (isa<arith::DivFOp>(def))
    return 1.0 / *factor;
  return std::nullopt;
}

void attention::takeMaskAndScale(AttentionChain &chain, double qScale) {
  int64_t rowDim = chain.batchShape.size();
  auto &steps = chain.steps;
  std::optional<double> last =
      steps.empty() ? std::nullopt : matchCausalMask(steps.back(), rowDim);
  std::optional<double> first =
      steps.size() == 2 ? matchCausalMask(steps.front(), rowDim) : std::nullopt;
  if (last && (*last == 1.0 || steps.size() == 1)) {
    // The mask last (a factor in the same op only where nothing precedes).
    chain.causal = true;
    steps.pop_back();
    qScale *= *last;
  } else if (first && *first == 1.0) {
    // A mask before a positive scale: the masked scores stay the lowest.
    std::optional<double> factor = getScaleFactor(steps.back());
    if (factor && *factor > 0) {
      chain.causal = true;
      steps.erase(steps.begin());
    }
  }
  if (steps.size() == 1) {
    if (std::optional<double> factor = getScaleFactor(steps.front())) {
      chain.scale = *factor * qScale;
      steps.clear();
      return;
    }
  }
  if (steps.empty()) {
    chain.scale = qScale;
    return;
  }
  chain.hookScale = qScale;
}
