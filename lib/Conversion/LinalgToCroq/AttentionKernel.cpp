//===- AttentionKernel.cpp - the flash kernel of a linalg attention chain -===//
//
// The kernel is the one examples/gen/flash_attention.py writes for
// examples/flash_attention.mlir (warp-specialized, K/V rings filled by TMA,
// wgmma, the online softmax in registers), taken from the same generator
// as templates (AttentionTemplates.inc, `--templates`): one per head
// dimension and causality, with the element type left open and a hook on
// the scores of each key tile, before the mask, which this file fills
// with the chain's ops on the scores (or removes: the kernel is then the
// example's, instruction for instruction).
//
//===----------------------------------------------------------------------===//

#include "AttentionChain.h"
#include "AttentionMatchUtils.h"
#include "Elementwise.h"

#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace mlir::croq;
using namespace mlir::croq::attention;

namespace {
#include "AttentionTemplates.inc"
} // namespace

static StringRef getTemplate(int64_t headDim, bool causal) {
  if (headDim == 64)
    return causal ? kCausalD64Template : kD64Template;
  return causal ? kCausalD128Template : kD128Template;
}

/// `buffer` ([batch..., rows, D], row-major) as the kernel's
/// memref<?x?x?xT>: the batch dimensions collapsed into one (a 1 added
/// where there are none).
static Value asKernelOperand(OpBuilder &b, Location loc, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  int64_t rank = type.getRank();
  if (rank == 2) {
    auto expanded = MemRefType::get({1, type.getDimSize(0), type.getDimSize(1)},
                                    type.getElementType());
    buffer = memref::ExpandShapeOp::create(
        b, loc, expanded, buffer, ArrayRef<ReassociationIndices>{{0, 1}, {2}});
  } else if (rank > 3) {
    ReassociationIndices batch;
    for (int64_t i = 0; i < rank - 2; ++i)
      batch.push_back(i);
    buffer = memref::CollapseShapeOp::create(
        b, loc, buffer,
        ArrayRef<ReassociationIndices>{batch, {rank - 2}, {rank - 1}});
  }
  int64_t dyn = ShapedType::kDynamic;
  return memref::CastOp::create(
      b, loc, MemRefType::get({dyn, dyn, dyn}, type.getElementType()), buffer);
}

/// Whether `map` is a score hook of the template: its body gives the
/// element's query row, key and head by three additions, then yields the
/// element unchanged.
static bool isScoreHook(MmaMapOp map) {
  Block &body = map.getBody().front();
  if (body.getOperations().size() != 4 || !map.getInputs().empty())
    return false;
  auto it = body.begin();
  auto row = dyn_cast<arith::AddIOp>(*it++);
  auto col = dyn_cast<arith::AddIOp>(*it++);
  auto head = dyn_cast<arith::AddIOp>(*it++);
  auto yield = dyn_cast<YieldOp>(*it);
  return row && col && head && yield && row.getRhs() == map.getRow() &&
         col.getRhs() == map.getColumn() &&
         yield->getOperand(0) == map.getElement();
}

namespace {
/// Fills a score hook with the chain's ops on the scores.
class HookBuilder {
public:
  HookBuilder(MmaMapOp hook, const AttentionChain &chain)
      : hook(hook), chain(chain), b(hook.getBody().front().getTerminator()) {
    auto it = hook.getBody().front().begin();
    row = it->getResult(0);
    key = (++it)->getResult(0);
    head = (++it)->getResult(0);
  }

  void build() {
    Location loc = hook.getLoc();
    Value x = hook.getElement();
    if (chain.hookScale != 1.0)
      x = arith::MulFOp::create(
          b, loc, x,
          arith::ConstantOp::create(b, loc,
                                    b.getF32FloatAttr(chain.hookScale)));
    for (const ScoreStep &step : chain.steps)
      x = applyStep(step, x);
    hook.getBody().front().getTerminator()->setOperand(0, x);
  }

private:
  /// The index of dimension `dim` of the scores ([batch..., rows, keys]).
  Value indexOf(int64_t dim) {
    Location loc = hook.getLoc();
    int64_t rowDim = chain.batchShape.size();
    if (dim == rowDim)
      return row;
    if (dim == rowDim + 1)
      return key;
    if (dim < 0)
      return arith::ConstantIndexOp::create(b, loc, 0);
    if (chain.batchShape.size() == 1)
      return head;
    // The batch dimensions are row-major in the kernel's head index.
    int64_t inner = 1;
    for (int64_t extent : ArrayRef(chain.batchShape).drop_front(dim + 1))
      inner *= extent;
    Value index = arith::DivUIOp::create(
        b, loc, head, arith::ConstantIndexOp::create(b, loc, inner));
    return arith::RemUIOp::create(
        b, loc, index,
        arith::ConstantIndexOp::create(b, loc, chain.batchShape[dim]));
  }

  Value applyStep(const ScoreStep &step, Value x) {
    Location loc = hook.getLoc();
    linalg::GenericOp op = step.op;
    Block *body = op.getBody();
    IRMapping map;
    map.map(body->getArgument(step.scoreInput), x);
    map.map(body->getArgument(op.getNumDpsInputs()), x);
    for (auto [i, operand] : llvm::enumerate(op.getDpsInputs())) {
      if (i == step.scoreInput)
        continue;
      if (TypedAttr splat = getSplatConstant(operand)) {
        map.map(body->getArgument(i), arith::ConstantOp::create(b, loc, splat));
        continue;
      }
      SmallVector<Value> indices;
      for (AffineExpr result : op.getIndexingMapsArray()[i].getResults()) {
        auto dim = dyn_cast<AffineDimExpr>(result);
        indices.push_back(dim ? indexOf(step.roles[dim.getPosition()])
                              : arith::ConstantIndexOp::create(b, loc, 0));
      }
      map.map(body->getArgument(i),
              ReadOp::create(b, loc, getElementTypeOrSelf(operand.getType()),
                             operand, indices, /*inBounds=*/false));
    }
    for (Operation &inner : body->without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
        map.map(index.getResult(), indexOf(step.roles[index.getDim()]));
        continue;
      }
      b.clone(inner, map);
    }
    return map.lookup(body->getTerminator()->getOperand(0));
  }

  MmaMapOp hook;
  const AttentionChain &chain;
  OpBuilder b;
  Value row, key, head;
};
} // namespace

/// Removes a hook the chain has no ops for, and the index arithmetic only
/// it used: the kernel is then the example's.
static void removeHook(MmaMapOp hook) {
  SmallVector<Operation *> bases;
  for (Operation &inner : hook.getBody().front())
    for (Value operand : inner.getOperands())
      if (Operation *def = operand.getDefiningOp())
        if (!hook->isAncestor(def) && isa<arith::MulIOp>(def))
          bases.push_back(def);
  hook.getResult().replaceAllUsesWith(hook.getAcc());
  hook->erase();
  for (Operation *def : bases)
    if (def->use_empty())
      def->erase();
}

/// Erases the chain's ops, then the reshapes, temporaries and
/// deallocations only they used.
static void eraseChain(AttentionChain &chain) {
  for (Operation *op : llvm::reverse(chain.ops))
    op->erase();
  for (Operation *alloc : chain.temporaries) {
    SmallVector<Operation *> users;
    SmallVector<Value> worklist{alloc->getResult(0)};
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      for (Operation *user : v.getUsers()) {
        users.push_back(user);
        if (!isa<memref::DeallocOp>(user))
          worklist.push_back(user->getResult(0));
      }
    }
    for (Operation *user : llvm::reverse(users))
      user->erase();
    alloc->erase();
  }
}

/// K for the kernel where K^T was transposed from another layout: a new
/// buffer, [batch..., keys, D], that a transpose of the same source fills
/// where the old one ran (the old one goes with the chain).
static Value materializeK(AttentionChain &chain) {
  linalg::TransposeOp old = chain.kTranspose;
  auto kt = cast<MemRefType>(old.getInit().getType());
  SmallVector<int64_t> shape(kt.getShape());
  std::swap(shape.end()[-1], shape.end()[-2]);
  SmallVector<int64_t> permutation(old.getPermutation());
  std::swap(permutation.end()[-1], permutation.end()[-2]);
  OpBuilder b(old);
  Value k = memref::AllocOp::create(
      b, old.getLoc(), MemRefType::get(shape, kt.getElementType()),
      b.getI64IntegerAttr(64));
  linalg::TransposeOp::create(b, old.getLoc(), old.getInput(), k, permutation);
  return k;
}

LogicalResult croq::emitAttentionKernel(AttentionChain &chain,
                                        std::string &why) {
  Operation *last = chain.ops.back();
  MLIRContext *ctx = last->getContext();
  std::string text = getTemplate(chain.headDim, chain.causal).str();
  StringRef type = chain.elementType.isF16() ? "f16" : "bf16";
  for (size_t at = text.find("@T@"); at != std::string::npos;
       at = text.find("@T@", at))
    text.replace(at, 3, type.str());
  ParserConfig config(ctx);
  OwningOpRef<ModuleOp> parsed = parseSourceString<ModuleOp>(text, config);
  if (!parsed) {
    why = "the kernel template does not parse";
    return failure();
  }
  auto module = last->getParentOfType<ModuleOp>();
  func::FuncOp kernel;
  for (auto func : parsed->getOps<func::FuncOp>()) {
    if (!func.isDeclaration()) {
      kernel = func;
      continue;
    }
    if (!module.lookupSymbol(func.getSymName()))
      OpBuilder::atBlockBegin(module.getBody()).clone(*func);
  }
  if (chain.kTranspose)
    chain.k = materializeK(chain);
  OpBuilder b(last);
  Location loc = last->getLoc();
  IRMapping map;
  Block &body = kernel.getBody().front();
  Value operands[] = {chain.q, chain.k, chain.v, chain.out};
  for (auto [arg, operand] : llvm::zip(body.getArguments(), operands))
    map.map(arg, asKernelOperand(b, loc, operand));
  map.map(body.getArgument(4),
          arith::ConstantOp::create(b, loc, b.getF32FloatAttr(chain.scale)));
  SmallVector<MmaMapOp> hooks;
  for (Operation &op : body.without_terminator())
    b.clone(op, map)->walk([&](MmaMapOp map) {
      if (isScoreHook(map))
        hooks.push_back(map);
    });
  for (MmaMapOp hook : hooks) {
    if (chain.steps.empty() && chain.hookScale == 1.0)
      removeHook(hook);
    else
      HookBuilder(hook, chain).build();
  }
  eraseChain(chain);
  return success();
}
