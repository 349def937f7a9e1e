//===- AttentionMatch.cpp - attention chains in bufferized linalg ---------===//
//
// Recognizes out = softmax(ops(Q K^T)) V in host code as upstream pipelines
// emit it on buffers. The ops after the first product are followed one by
// one, in program order, with what each buffer holds at that point (the
// scores after n ops, their row maxima, the exponentials, the row sums,
// ...): bufferization reuses buffers (in-place elementwise ops, a maximum
// buffer refilled for the sums), so what an op computes is a matter of the
// buffer's value when it runs, not of the buffer.
//
//===----------------------------------------------------------------------===//

#include "AttentionChain.h"
#include "AttentionMatchUtils.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::croq;
using namespace mlir::croq::attention;

namespace {

/// What a buffer holds at a point of the chain. `steps` counts the ops on
/// the scores that the value is computed from.
enum class Tag {
  Zero,
  Lowest,
  Scores,
  Max,
  Shifted,
  Exp,
  Sum,
  Recip,
  Prob,
  Out
};
struct Kind {
  Tag tag;
  unsigned steps = 0;
  Operation *fill = nullptr;
};

class Matcher {
public:
  explicit Matcher(std::string &why) : why(why) {}
  FailureOr<AttentionChain> run(linalg::LinalgOp product);

private:
  LogicalResult fail(const Twine &reason) {
    why = reason.str();
    return failure();
  }
  LogicalResult matchFirstProduct(linalg::LinalgOp product);
  LogicalResult matchOperandsBefore(linalg::LinalgOp product,
                                    const Product &shape);
  LogicalResult step(Operation *op);
  LogicalResult stepFill(Operation *op, const FillValue &fill);
  LogicalResult stepOutput(Operation *op);
  LogicalResult stepReduction(linalg::LinalgOp op);
  LogicalResult stepElementwise(linalg::GenericOp op);
  LogicalResult stepScoreOp(linalg::GenericOp op, unsigned input,
                            ArrayRef<int64_t> roles);
  LogicalResult stepSecondProduct(linalg::LinalgOp op);
  LogicalResult stepNormalizingProduct(linalg::GenericOp op);
  void takeSecondProduct(Operation *op, Value v, Value out);
  LogicalResult finish();
  void foldQScale();
  void setOutput(Value out);

  /// The kind of what `value`'s buffer holds, if the chain tracks it.
  Kind *kindOf(Value value) {
    auto it = kinds.find(getViewRoot(value));
    return it == kinds.end() ? nullptr : &it->second;
  }
  void set(Value buffer, Kind kind) { kinds[getViewRoot(buffer)] = kind; }
  void take(Operation *op) { chain.ops.insert(op); }
  /// Takes the fill that made `kind`'s value into the chain.
  void takeFill(Kind *kind) {
    if (kind && kind->fill)
      take(kind->fill);
  }

  std::string &why;
  AttentionChain chain;
  DenseMap<Value, Kind> kinds;
  /// [batch..., rows, keys]: the scores buffer's extents.
  SmallVector<int64_t> scoreShape;
  /// Buffers the chain computes into (temporaries, or the output).
  SmallVector<Value> written;
  /// Buffers the chain reads that it does not compute (biases).
  SmallVector<Value> read;
  /// The factor Q was scaled by before the product.
  double qScale = 1.0;
  /// A scale of Q into the buffer the first product reads, and its input.
  std::pair<linalg::GenericOp, ScaledInput> pendingQScale{nullptr,
                                                          ScaledInput{}};
  Value productOut;
  bool done = false;
};

} // namespace

LogicalResult Matcher::matchOperandsBefore(linalg::LinalgOp product,
                                           const Product &shape) {
  // The scores start from zeros.
  Value scores = shape.c;
  Operation *init = getLastUserBefore(product, getViewRoot(scores));
  std::optional<FillValue> fill = init ? getFillValue(init) : std::nullopt;
  if (!fill || fill->value != 0.0 || fill->buffer != scores)
    return fail("the scores are not zero-filled right before Q K^T");
  take(init);
  // K read by rows, or transposed into a temporary first.
  chain.k = shape.b;
  if (!shape.bByRows) {
    auto transpose = dyn_cast_or_null<linalg::TransposeOp>(
        getLastUserBefore(product, shape.b));
    if (!transpose || transpose.getInit() != shape.b ||
        !transpose.hasPureBufferSemantics())
      return fail("K^T is neither a linalg.transpose nor read through the "
                  "product's indexing maps");
    take(transpose);
    written.push_back(shape.b);
    if (isSwapOfLastTwo(transpose.getPermutation())) {
      chain.k = transpose.getInput();
    } else {
      // Transposed otherwise (from [keys, heads, D]): the kernel's K is
      // written by the same transpose, permuted (emitAttentionKernel).
      chain.kTranspose = transpose;
      read.push_back(transpose.getInput());
    }
  }
  // Q, or Q scaled by a constant into a buffer first: the factor joins
  // the softmax scale where nothing else reads that buffer (a temporary,
  // or the output, which bufferization reuses for it and the kernel then
  // overwrites: finish() decides). Q computed otherwise is an input like
  // any other.
  chain.q = shape.a;
  Value root = getViewRoot(shape.a);
  auto scaled =
      dyn_cast_or_null<linalg::GenericOp>(getLastUserBefore(product, root));
  std::optional<ScaledInput> s =
      scaled ? matchScaledCopy(scaled, shape.a) : std::nullopt;
  if (s && getViewRoot(s->input) != root)
    pendingQScale = {scaled, *s};
  return success();
}

/// Folds the scale of Q found before the first product (see
/// matchOperandsBefore) where only the chain reads its buffer.
void Matcher::foldQScale() {
  if (!pendingQScale.first)
    return;
  Value root = getViewRoot(chain.q);
  llvm::SetVector<Operation *> users(chain.ops.begin(), chain.ops.end());
  users.insert(pendingQScale.first);
  bool isOutput = root == getViewRoot(chain.out);
  if (!(isTemporary(root) || isOutput) || !onlyUsedBy(root, users))
    return;
  take(pendingQScale.first);
  if (!isOutput)
    written.push_back(chain.q);
  chain.q = pendingQScale.second.input;
  qScale = pendingQScale.second.factor;
}

LogicalResult Matcher::matchFirstProduct(linalg::LinalgOp product) {
  FailureOr<Product> shape = analyzeProduct(product);
  if (failed(shape))
    return fail("not a batch of matrix products");
  auto scoreType = cast<MemRefType>(shape->c.getType());
  if (!scoreType.getElementType().isF32())
    return fail("the scores are not f32");
  if (getViewRoot(shape->c) != shape->c)
    return fail("the scores are a view");
  scoreShape.assign(scoreType.getShape().begin(), scoreType.getShape().end());
  if (scoreShape.size() < 2 || scoreShape.end()[-1] == 1 ||
      scoreShape.end()[-2] == 1)
    return fail("a single query row or key");
  if (failed(matchOperandsBefore(product, *shape)))
    return failure();
  take(product);
  written.push_back(shape->c);
  set(shape->c, Kind{Tag::Scores});
  return success();
}

LogicalResult Matcher::stepFill(Operation *op, const FillValue &fill) {
  Value root = getViewRoot(fill.buffer);
  if (fill.value != 0.0 && fill.value > -3.4e38) {
    if (kindOf(root))
      return fail("a fill of a chain buffer with another value than 0 or "
                  "the lowest float");
    return success();
  }
  set(root, Kind{fill.value == 0.0 ? Tag::Zero : Tag::Lowest, 0, op});
  return success();
}

LogicalResult Matcher::stepReduction(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 1)
    return fail("a reduction other than one over the keys");
  Value input = op.getDpsInputs()[0], init = op.getDpsInits()[0];
  Kind *in = kindOf(input), *acc = kindOf(init);
  if (!in || !acc || (acc->tag != Tag::Zero && acc->tag != Tag::Lowest))
    return fail("a reduction of the chain's buffers into a buffer that is "
                "not freshly filled");
  FailureOr<SmallVector<int64_t>> roles = getLoopRoles(
      op, {op.getDpsInputOperand(0)}, {op.getDpsInitOperand(0)}, scoreShape);
  if (failed(roles) || !reducesKeys(op, *roles, scoreShape.size() - 1))
    return fail("a reduction that is not over the keys of each row");
  std::optional<ReductionKind> combiner = getReductionKind(op);
  Kind result;
  if (combiner == ReductionKind::Max && in->tag == Tag::Scores &&
      acc->tag == Tag::Lowest)
    result = Kind{Tag::Max, in->steps};
  else if (combiner == ReductionKind::Sum && in->tag == Tag::Exp &&
           acc->tag == Tag::Zero)
    result = Kind{Tag::Sum, in->steps};
  else
    return fail("a reduction that is not the softmax's maximum or sum");
  takeFill(acc);
  take(op);
  written.push_back(init);
  set(init, result);
  return success();
}

LogicalResult Matcher::stepScoreOp(linalg::GenericOp op, unsigned input,
                                   ArrayRef<int64_t> roles) {
  Value out = op.getDpsInits()[0];
  if (!cast<MemRefType>(out.getType()).getElementType().isF32())
    return fail("an op on the scores that does not yield f32");
  BlockArgument outArg = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  if (!outArg.use_empty() &&
      getViewRoot(out) != getViewRoot(op.getDpsInputs()[input]))
    return fail("an op on the scores that reads its output");
  for (auto [i, operand] : llvm::enumerate(op.getDpsInputs())) {
    if (i == input || isSplatConstant(operand))
      continue;
    if (kindOf(operand))
      return fail("an op on the scores that reads another chain buffer");
    if (!isIndexedByLoops(op.getIndexingMapsArray()[i]))
      return fail("an op on the scores reads an operand through other "
                  "indexing than loops and zeros");
    read.push_back(operand);
  }
  for (Operation &inner : op.getBody()->without_terminator())
    if (inner.getNumRegions() || !isMemoryEffectFree(&inner))
      return fail("an op on the scores whose body has regions or effects");
  unsigned steps = kindOf(op.getDpsInputs()[input])->steps;
  if (steps != chain.steps.size())
    return fail("the scores are read after a later op on them");
  chain.steps.push_back(ScoreStep{op, input, SmallVector<int64_t>(roles)});
  take(op);
  written.push_back(out);
  set(out, Kind{Tag::Scores, steps + 1});
  return success();
}

LogicalResult Matcher::stepElementwise(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 0)
    return fail("an op on the chain's buffers that is not elementwise");
  // The scores-shaped operands (one input at most) and the row values.
  std::optional<unsigned> scoreInput, rowInput;
  SmallVector<OpOperand *> full, rows;
  for (OpOperand *operand : op.getDpsInputOperands()) {
    Kind *kind = kindOf(operand->get());
    if (!kind)
      continue;
    bool isRow = kind->tag == Tag::Max || kind->tag == Tag::Sum ||
                 kind->tag == Tag::Recip;
    std::optional<unsigned> &slot = isRow ? rowInput : scoreInput;
    if (slot)
      return fail("an op that reads two values of the chain of one shape");
    slot = operand->getOperandNumber();
    (isRow ? rows : full).push_back(operand);
  }
  bool outRow = !scoreInput;
  (outRow ? rows : full).push_back(op.getDpsInitOperand(0));
  FailureOr<SmallVector<int64_t>> roles =
      getLoopRoles(op, full, rows, scoreShape);
  if (failed(roles))
    return fail("an op that indexes the scores or row values otherwise "
                "than elementwise");
  Kind *score = scoreInput ? kindOf(op.getDpsInputs()[*scoreInput]) : nullptr;
  Kind *row = rowInput ? kindOf(op.getDpsInputs()[*rowInput]) : nullptr;
  if (score && score->tag == Tag::Scores && !row)
    return stepScoreOp(op, *scoreInput, *roles);
  BodyValues body(op, scoreInput, rowInput);
  std::optional<Kind> result;
  if (score && row && score->tag == Tag::Scores && row->tag == Tag::Max &&
      row->steps == score->steps) {
    if (body.isShift(body.yielded()))
      result = Kind{Tag::Shifted, score->steps};
    else if (body.isExpOfShift(body.yielded()))
      result = Kind{Tag::Exp, score->steps};
  } else if (score && !row && score->tag == Tag::Shifted) {
    if (body.isExpOfElement(body.yielded()))
      result = Kind{Tag::Exp, score->steps};
  } else if (score && row && score->tag == Tag::Exp &&
             (row->tag == Tag::Sum || row->tag == Tag::Recip) &&
             row->steps == score->steps) {
    if (body.isNormalized(body.stripTruncation(body.yielded()),
                          row->tag == Tag::Recip))
      result = Kind{Tag::Prob, score->steps};
  } else if (score && !row && score->tag == Tag::Prob) {
    if (body.stripTruncation(body.yielded()) == body.element())
      result = Kind{Tag::Prob, score->steps};
  } else if (!score && row && row->tag == Tag::Sum) {
    if (body.isReciprocalOfRow(body.yielded()))
      result = Kind{Tag::Recip, row->steps};
  }
  if (!result)
    return fail("an op on the chain's buffers that is not a step of the "
                "softmax");
  take(op);
  written.push_back(op.getDpsInits()[0]);
  set(op.getDpsInits()[0], *result);
  return success();
}

LogicalResult Matcher::stepSecondProduct(linalg::LinalgOp op) {
  FailureOr<Product> shape = analyzeProduct(op);
  Kind *p = kindOf(shape->a);
  if (!p || p->tag != Tag::Prob || p->steps != chain.steps.size())
    return fail("the second product does not read the probabilities");
  Kind *init = kindOf(shape->c);
  if (!init || init->tag != Tag::Zero)
    return fail("the second product's output is not zero-filled before");
  if (shape->bByRows)
    return fail("V is read transposed");
  takeFill(init);
  takeSecondProduct(op, shape->b, shape->c);
  return success();
}

void Matcher::takeSecondProduct(Operation *op, Value v, Value out) {
  chain.elementType = getElementTypeOrSelf(v.getType());
  chain.v = v;
  take(op);
  productOut = out;
  written.push_back(out);
  set(out, Kind{Tag::Out});
  setOutput(out);
}

/// The second product with the softmax's quotient computed in its body
/// (upstream's elementwise fusion puts it there): inputs e, the row sums
/// (or their reciprocals) and V; out += norm(e, s) * V over the keys.
LogicalResult Matcher::stepNormalizingProduct(linalg::GenericOp op) {
  std::optional<unsigned> eInput, rowInput, vInput;
  for (OpOperand *operand : op.getDpsInputOperands()) {
    Kind *kind = kindOf(operand->get());
    unsigned i = operand->getOperandNumber();
    if (!kind)
      vInput = i;
    else if (kind->tag == Tag::Exp)
      eInput = i;
    else if (kind->tag == Tag::Sum || kind->tag == Tag::Recip)
      rowInput = i;
  }
  Kind *init = kindOf(op.getDpsInits()[0]);
  if (!eInput || !rowInput || !vInput || !init || init->tag != Tag::Zero ||
      op.getNumReductionLoops() != 1 || op.getNumDpsInits() != 1)
    return fail("an op of three inputs on the chain's buffers that is not "
                "the normalized product with V");
  Kind *e = kindOf(op.getDpsInputs()[*eInput]);
  Kind *row = kindOf(op.getDpsInputs()[*rowInput]);
  FailureOr<SmallVector<int64_t>> roles = getLoopRoles(
      op, {op.getDpsInputOperand(*eInput)}, {op.getDpsInputOperand(*rowInput)},
      scoreShape, /*freeLoops=*/1);
  if (failed(roles) || e->steps != chain.steps.size() ||
      row->steps != e->steps || !reducesKeys(op, *roles, scoreShape.size() - 1))
    return fail("the normalized product with V does not reduce the keys of "
                "the probabilities");
  Value v = op.getDpsInputs()[*vInput], out = op.getDpsInits()[0];
  int64_t keyDim = scoreShape.size() - 1;
  if (!isProductOperand(op, *vInput, *roles, keyDim, keyDim - 1) ||
      !isProductOperand(op, op.getNumDpsInputs(), *roles, keyDim - 1,
                        keyDim - 1))
    return fail("V or the output of the normalized product is indexed "
                "otherwise than [batch..., keys or rows, D]");
  BodyValues body(op, *eInput, *rowInput);
  if (!body.isNormalizedProduct(*vInput, row->tag == Tag::Recip))
    return fail("the normalized product's body is not out + norm(e, s) * v");
  takeFill(init);
  takeSecondProduct(op, v, out);
  return success();
}

void Matcher::setOutput(Value out) {
  chain.out = out;
  done = getElementTypeOrSelf(out.getType()) == chain.elementType &&
         !isTemporary(getViewRoot(out));
}

LogicalResult Matcher::stepOutput(Operation *op) {
  // After the second product, only its conversion to the operands' type
  // and copies into the function's buffer.
  Value from;
  if (auto copy = dyn_cast<memref::CopyOp>(op)) {
    if (getViewRoot(copy.getSource()) == getViewRoot(chain.out) &&
        copy.getSource().getType() == copy.getTarget().getType())
      from = copy.getTarget();
  } else if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
    if (isConversionOf(generic, chain.out))
      from = generic.getDpsInits()[0];
  }
  if (!from) {
    // A temporary of the operands' type that the program reads on: the
    // chain's output.
    if (getElementTypeOrSelf(chain.out.getType()) == chain.elementType) {
      done = true;
      return success();
    }
    return fail("the second product's output is read by an op other than "
                "a conversion to the operands' type or a copy");
  }
  take(op);
  written.push_back(from);
  set(from, Kind{Tag::Out});
  setOutput(from);
  return success();
}

LogicalResult Matcher::step(Operation *op) {
  if (std::optional<FillValue> fill = getFillValue(op))
    return stepFill(op, *fill);
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  bool touches = llvm::any_of(op->getOperands(),
                              [&](Value v) { return kindOf(v) != nullptr; });
  // Ops between the chain's that touch none of its values stay; finish()
  // checks that they leave its buffers alone.
  if (!touches)
    return success();
  if (isViewOrAllocation(op))
    return success();
  if (productOut)
    return stepOutput(op);
  if (!linalgOp || !linalgOp.hasPureBufferSemantics())
    return fail("an op other than a linalg op on buffers uses the chain's "
                "buffers");
  if (linalg::isaContractionOpInterface(linalgOp) &&
      succeeded(analyzeProduct(linalgOp)))
    return stepSecondProduct(linalgOp);
  if (linalgOp.getNumDpsInputs() == 3 && isa<linalg::GenericOp>(op))
    return stepNormalizingProduct(cast<linalg::GenericOp>(op));
  if (linalgOp.getNumReductionLoops() != 0)
    return stepReduction(linalgOp);
  if (auto generic = dyn_cast<linalg::GenericOp>(op))
    return stepElementwise(generic);
  return fail("a named linalg op on the chain's buffers (" +
              op->getName().getStringRef() + ")");
}

/// `op` as a generic where it is a named elementwise op on buffers
/// (`linalg.exp`, `linalg.sub`, ... as linalg-specialize-generic-ops writes
/// them), which convert-linalg-to-croq would generalize too; `op`
/// otherwise.
static Operation *generalizeElementwise(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureBufferSemantics() ||
      isa<linalg::GenericOp, linalg::FillOp, linalg::TransposeOp,
          linalg::BroadcastOp, linalg::CopyOp, linalg::ReduceOp>(op) ||
      linalgOp.getNumReductionLoops() != 0 ||
      linalg::isaContractionOpInterface(linalgOp))
    return op;
  IRRewriter rewriter(op->getContext());
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::GenericOp> generic =
      linalg::generalizeNamedOp(rewriter, linalgOp);
  return succeeded(generic) ? generic->getOperation() : op;
}

FailureOr<AttentionChain> Matcher::run(linalg::LinalgOp product) {
  if (failed(matchFirstProduct(product)))
    return failure();
  for (Operation *op = product->getNextNode(); op && !done;
       op = op->getNextNode()) {
    if (llvm::any_of(op->getOperands(),
                     [&](Value v) { return kindOf(v) != nullptr; }))
      op = generalizeElementwise(op);
    if (failed(step(op)))
      return failure();
  }
  if (!done)
    return fail("no second product of the probabilities and V");
  if (failed(finish()))
    return failure();
  return chain;
}

LogicalResult Matcher::finish() {
  foldQScale();
  // Q, K, V and the output: the kernel's [batch..., rows, D] row-major
  // buffers of one 16-bit type and a head dimension of 64 or 128.
  auto kType = cast<MemRefType>(chain.k.getType());
  if (chain.kTranspose) {
    // The buffer the kernel reads K from: K^T's shape, its last two
    // dimensions swapped.
    SmallVector<int64_t> shape(kType.getShape());
    if (shape.size() < 2 || !kType.hasStaticShape())
      return fail("K^T transposed from another layout with dynamic extents");
    std::swap(shape.end()[-1], shape.end()[-2]);
    kType = MemRefType::get(shape, kType.getElementType());
  }
  for (MemRefType type :
       {cast<MemRefType>(chain.q.getType()), kType,
        cast<MemRefType>(chain.v.getType()),
        cast<MemRefType>(chain.out.getType())}) {
    if (type.getElementType() != chain.elementType ||
        !type.getLayout().isIdentity() ||
        type.getRank() != int64_t(scoreShape.size()))
      return fail("Q, K, V and the output are not row-major buffers of one "
                  "type with the scores' batch dimensions");
  }
  if (!chain.elementType.isF16() && !chain.elementType.isBF16())
    return fail("the operands are not f16 or bf16");
  auto qType = cast<MemRefType>(chain.q.getType());
  chain.headDim = qType.getShape().back();
  for (MemRefType type : {kType, cast<MemRefType>(chain.v.getType()),
                          cast<MemRefType>(chain.out.getType())})
    if (type.getShape().back() != chain.headDim)
      return fail("Q, K, V and the output differ in head dimension");
  if (chain.headDim != 64 && chain.headDim != 128)
    return fail("a head dimension other than 64 or 128");
  chain.batchShape.assign(scoreShape.begin(), scoreShape.end() - 2);
  if (chain.batchShape.size() > 1 &&
      llvm::any_of(chain.batchShape, ShapedType::isDynamic))
    return fail("several batch dimensions, one of them dynamic");
  // The kernel reads K and V while it writes the output. It may write
  // over Q (bufferization reuses Q's buffer for the output): each work
  // item's query rows are loaded (by TMA, into shared memory) by the one
  // block that computes the item, before it stores the item's output.
  SmallVector<Value> inputs{chain.k, chain.v};
  inputs.append(read);
  for (Value operand : inputs)
    if (getViewRoot(operand) == getViewRoot(chain.out))
      return fail("the output buffer holds one of the chain's inputs");
  takeMaskAndScale(chain, qScale);
  SmallVector<Operation *> ordered(chain.ops.begin(), chain.ops.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  chain.ops = llvm::SetVector<Operation *>(ordered.begin(), ordered.end());
  for (Operation *op : ordered)
    if (op->getBlock() != ordered.front()->getBlock())
      return fail("the chain's ops are not in one block");
  read.append({chain.q, chain.v});
  if (!chain.kTranspose)
    read.push_back(chain.k);
  written.push_back(chain.out);
  // What the chain computes in temporaries nothing else may read.
  for (Value buffer : written) {
    Value root = getViewRoot(buffer);
    if (root == getViewRoot(chain.out))
      continue;
    if (!isTemporary(root))
      return fail("the chain computes into a buffer that is not a "
                  "temporary of its block");
    if (!onlyUsedBy(root, chain.ops))
      return fail("a buffer of the chain is used outside it");
    if (!llvm::is_contained(chain.temporaries, root.getDefiningOp()))
      chain.temporaries.push_back(root.getDefiningOp());
  }
  // The kernel runs where the chain's last op was. The ops between its
  // first and last op that are not its own may not touch what it computes,
  // nor write what it reads after the chain's last read of it.
  DenseSet<Value> computed;
  for (Value buffer : written)
    computed.insert(getViewRoot(buffer));
  DenseMap<Value, Operation *> lastRead;
  for (Value buffer : read)
    lastRead[getViewRoot(buffer)] = nullptr;
  for (Operation *op : chain.ops)
    for (Value operand : op->getOperands())
      if (lastRead.count(getViewRoot(operand)))
        lastRead[getViewRoot(operand)] = op;
  Operation *first = chain.ops.front(), *last = chain.ops.back();
  for (Operation *op = first; op != last; op = op->getNextNode()) {
    if (chain.ops.contains(op) || isViewOrAllocation(op))
      continue;
    for (Value root : computed)
      if (usesBuffer(op, root))
        return fail("an op between the chain's ops uses a buffer it computes");
    for (auto [root, reader] : lastRead)
      if (reader && reader->isBeforeInBlock(op) && usesBuffer(op, root) &&
          !isReadOnlyOf(op, root))
        return fail("an op between the chain's ops writes a buffer it reads");
  }
  return success();
}

FailureOr<AttentionChain> mlir::croq::matchAttention(linalg::LinalgOp product,
                                                     std::string &why) {
  return Matcher(why).run(product);
}
