//===- Contractions.cpp - linalg contractions as matrix products ----------===//
//
// Reads a linalg.generic contraction as a batch of matrix products: the
// body's multiply-add and its two factors, then the role of every loop.
//
//===----------------------------------------------------------------------===//

#include "Contractions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::croq;

std::optional<unsigned>
ContractionFactor::getPlainInput(linalg::GenericOp op) const {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != &op.getRegion().front() ||
      arg.getArgNumber() >= op.getNumDpsInputs())
    return std::nullopt;
  return arg.getArgNumber();
}

bool ContractionFactor::isZeroExtended() const {
  return llvm::any_of(ops, llvm::IsaPred<arith::ExtUIOp>);
}

/// `value` without its sign or float extension, if it has one.
static Value stripExtension(Value value) {
  Operation *op = value.getDefiningOp();
  if (isa_and_nonnull<arith::ExtFOp, arith::ExtSIOp>(op))
    return op->getOperand(0);
  return value;
}

/// Collects in `factor` the body ops and inputs `factor.value` is computed
/// from, in `op`'s body; fails, naming why, where one of them is not a pure
/// op of the body without regions.
static LogicalResult collectFactor(linalg::GenericOp op,
                                   ContractionFactor &factor,
                                   std::string &reason) {
  Block &body = op.getRegion().front();
  factor.indexLoops.resize(op.getNumLoops());
  llvm::SetVector<Operation *> ops;
  llvm::SmallSetVector<unsigned, 4> inputs;
  SmallVector<Value> worklist{factor.value};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() != &body)
        continue;
      if (arg.getArgNumber() >= op.getNumDpsInputs()) {
        reason = "a factor of the product reads the output";
        return failure();
      }
      inputs.insert(arg.getArgNumber());
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (def->getBlock() != &body || !ops.insert(def))
      continue;
    if (def->getNumRegions() != 0 || !isMemoryEffectFree(def)) {
      reason = llvm::formatv("a factor of the product is computed by '{0}', "
                             "which is not a pure op",
                             def->getName().getStringRef());
      return failure();
    }
    if (auto index = dyn_cast<linalg::IndexOp>(def))
      factor.indexLoops.set(index.getDim());
    llvm::append_range(worklist, def->getOperands());
  }
  factor.inputs.assign(inputs.begin(), inputs.end());
  llvm::sort(factor.inputs);
  for (Operation &inner : body)
    if (ops.contains(&inner))
      factor.ops.push_back(&inner);
  return success();
}

/// Matches `op`'s body: `out + ext(x * y)`.
static LogicalResult matchBody(linalg::GenericOp op, ContractionForm &form,
                               std::string &reason) {
  if (op.getNumDpsInits() != 1 || !op.hasPureBufferSemantics()) {
    reason = "a product has one output buffer";
    return failure();
  }
  Block &body = op.getRegion().front();
  BlockArgument out = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  Operation *add = body.getTerminator()->getOperand(0).getDefiningOp();
  reason = "its body is not `out + x * y`";
  if (!isa_and_nonnull<arith::AddFOp, arith::AddIOp>(add) || !out.hasOneUse())
    return failure();
  Value other = add->getOperand(0) == out   ? add->getOperand(1)
                : add->getOperand(1) == out ? add->getOperand(0)
                                            : Value();
  if (!other || !other.hasOneUse())
    return failure();
  Operation *mul = stripExtension(other).getDefiningOp();
  if (!isa_and_nonnull<arith::MulFOp, arith::MulIOp>(mul) ||
      isa<arith::AddFOp>(add) != isa<arith::MulFOp>(mul) ||
      !mul->getResult(0).hasOneUse())
    return failure();
  form.integer = isa<arith::MulIOp>(mul);
  form.a.value = stripExtension(mul->getOperand(0));
  form.b.value = stripExtension(mul->getOperand(1));
  if (failed(collectFactor(op, form.a, reason)) ||
      failed(collectFactor(op, form.b, reason)))
    return failure();
  if (form.a.inputs.empty() || form.b.inputs.empty()) {
    reason = "a factor of the product reads no input";
    return failure();
  }
  for (unsigned input : form.a.inputs)
    if (llvm::is_contained(form.b.inputs, input)) {
      reason =
          llvm::formatv("both factors of the product read input {0}", input);
      return failure();
    }
  // Every op of the body belongs to a factor or to the multiply-add.
  size_t expected = form.a.ops.size() + form.b.ops.size() + 3;
  for (Value value : {other, mul->getOperand(0), mul->getOperand(1)})
    expected += stripExtension(value) != value ? 1 : 0;
  if (body.getOperations().size() != expected) {
    reason = "its body computes more than the product of two factors";
    return failure();
  }
  return success();
}

/// Marks in `loops` the loops that index `map`'s results, other than those
/// of extent 1; fails where a result is neither a loop nor a constant.
static LogicalResult markLoops(AffineMap map, const llvm::SmallBitVector &unit,
                               llvm::SmallBitVector &loops) {
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      if (!unit.test(dim.getPosition()))
        loops.set(dim.getPosition());
      continue;
    }
    if (!isa<AffineConstantExpr>(expr))
      return failure();
  }
  return success();
}

/// The position of `loop` among `map`'s results, or the number of results.
static unsigned getResultPosition(AffineMap map, unsigned loop) {
  for (auto [position, expr] : llvm::enumerate(map.getResults()))
    if (auto dim = dyn_cast<AffineDimExpr>(expr);
        dim && dim.getPosition() == loop)
      return position;
  return map.getNumResults();
}

/// Sorts `loops` by their position among `map`'s results.
static void sortByMap(SmallVectorImpl<unsigned> &loops, AffineMap map) {
  llvm::sort(loops, [&](unsigned x, unsigned y) {
    return getResultPosition(map, x) < getResultPosition(map, y);
  });
}

/// Gives each loop of `op` its role in `form`.
static LogicalResult sortLoops(linalg::GenericOp op, ContractionForm &form,
                               std::string &reason) {
  unsigned loops = op.getNumLoops();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  form.unit.resize(loops);
  for (auto [loop, range] : llvm::enumerate(ranges))
    if (range == 1)
      form.unit.set(loop);
  llvm::SmallBitVector inA = form.a.indexLoops, inB = form.b.indexLoops,
                       inC(loops);
  llvm::SmallBitVector wide = form.unit;
  wide.flip();
  inA.resize(loops);
  inB.resize(loops);
  inA &= wide;
  inB &= wide;
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  bool affine = succeeded(markLoops(outMap, form.unit, inC));
  for (unsigned input : form.a.inputs)
    affine &= succeeded(
        markLoops(op.getMatchingIndexingMap(op.getDpsInputOperand(input)),
                  form.unit, inA));
  for (unsigned input : form.b.inputs)
    affine &= succeeded(
        markLoops(op.getMatchingIndexingMap(op.getDpsInputOperand(input)),
                  form.unit, inB));
  if (!affine) {
    reason = "an operand is indexed by more than loops and constants";
    return failure();
  }
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (unsigned loop = 0; loop < loops; ++loop) {
    if (form.unit.test(loop))
      continue;
    bool a = inA.test(loop), b = inB.test(loop), c = inC.test(loop);
    if (iterators[loop] == utils::IteratorType::reduction && a && b && !c)
      form.k.push_back(loop);
    else if (iterators[loop] == utils::IteratorType::parallel && c && a && b)
      form.batch.push_back(loop);
    else if (iterators[loop] == utils::IteratorType::parallel && c && a)
      form.m.push_back(loop);
    else if (iterators[loop] == utils::IteratorType::parallel && c && b)
      form.n.push_back(loop);
    else {
      reason = llvm::formatv("loop d{0} is neither a batch, row, column nor "
                             "reduction loop of a matrix product",
                             loop);
      return failure();
    }
  }
  if (form.m.empty() || form.n.empty() || form.k.empty()) {
    reason = "it has no loop of extent above 1 for the rows, the columns or "
             "the reduction of a matrix product";
    return failure();
  }
  sortByMap(form.batch, outMap);
  sortByMap(form.m, outMap);
  sortByMap(form.n, outMap);
  // k as the first factor read as it is indexes it.
  for (const ContractionFactor *factor : {&form.a, &form.b})
    if (std::optional<unsigned> input = factor->getPlainInput(op)) {
      sortByMap(form.k,
                op.getMatchingIndexingMap(op.getDpsInputOperand(*input)));
      break;
    }
  return success();
}

FailureOr<ContractionForm> mlir::croq::getContractionForm(linalg::GenericOp op,
                                                          std::string *reason) {
  ContractionForm form;
  std::string why;
  if (op.getNumReductionLoops() == 0 || failed(matchBody(op, form, why)) ||
      failed(sortLoops(op, form, why))) {
    if (reason)
      *reason = why.empty() ? "it has no reduction loop" : why;
    return failure();
  }
  return form;
}
