//===- UnswitchTmaFallbacks.cpp - tma answers tested before the loop ------===//
//
// Implements croq-unswitch-tma-fallbacks: the outermost loop of a kernel
// around tma copies that carry software copies (`if %ok`) runs in two
// versions, chosen once by the runtime's answers: as it is, and with the
// answers known to be non-zero, where the lowering keeps the bulk copies
// alone.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQUNSWITCHTMAFALLBACKS
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

/// The outermost scf.for around `op` inside its kernel (the block-level
/// croq.parallel), or null.
static scf::ForOp getOutermostKernelLoop(Operation *op) {
  scf::ForOp outermost;
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (auto block = dyn_cast<ParallelOp>(parent);
        block && block.getLevel() == ParallelLevel::Block)
      return outermost;
    if (auto loop = dyn_cast<scf::ForOp>(parent))
      outermost = loop;
  }
  return nullptr;
}

/// Versions `loop` on `answers` (i32, non-zero where TMA can move the
/// tensor): scf.if (all non-zero) { the loop, the answers replaced by 1 }
/// else { the loop }.
static void unswitch(scf::ForOp loop, ArrayRef<Value> answers) {
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Value zero = arith::ConstantIntOp::create(b, loc, 0, 32);
  Value all;
  for (Value answer : answers) {
    Value usable =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, answer, zero);
    all = all ? arith::AndIOp::create(b, loc, all, usable).getResult() : usable;
  }
  auto branch = scf::IfOp::create(
      b, loc, all,
      // The version for tensors TMA takes: every answer is 1.
      [&](OpBuilder &then, Location at) {
        Value one = arith::ConstantIntOp::create(then, at, 1, 32);
        IRMapping mapping;
        for (Value answer : answers)
          mapping.map(answer, one);
        scf::YieldOp::create(then, at,
                             then.clone(*loop, mapping)->getResults());
      },
      // The loop as it is, for the others.
      [&](OpBuilder &otherwise, Location at) {
        scf::YieldOp::create(otherwise, at,
                             otherwise.clone(*loop)->getResults());
      });
  loop->replaceAllUsesWith(branch.getResults());
  loop->erase();
}

namespace {
struct CroqUnswitchTmaFallbacks
    : croq::impl::CroqUnswitchTmaFallbacksBase<CroqUnswitchTmaFallbacks> {
  void runOnOperation() override {
    // The loops to version and the answers each tests, in program order.
    llvm::MapVector<Operation *, llvm::SetVector<Value>> loops;
    getOperation()->walk([&](CopyOp copy) {
      // A loop of loads that issues one K step an iteration pays for the
      // software copies on every step; a tile loop with a store at its end
      // pays once a tile, which is not worth a second copy of the loop.
      Value answer = copy.getUsable();
      if (!answer || !copy.isTmaLoad())
        return;
      scf::ForOp loop = getOutermostKernelLoop(copy);
      if (loop && loop.isDefinedOutsideOfLoop(answer))
        loops[loop].insert(answer);
    });
    for (auto &[op, answers] : loops) {
      // A loop that also multiplies (no ring, or a ring pipelined in place)
      // is left whole: its wgmma dominate an iteration, and a second copy
      // would double the consumer's code.
      auto loop = cast<scf::ForOp>(op);
      if (loop->walk([](MmaOp) { return WalkResult::interrupt(); })
              .wasInterrupted())
        continue;
      unswitch(loop, answers.getArrayRef());
    }
  }
};
} // namespace
