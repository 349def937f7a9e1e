//===- Passes.h - croq transformation passes --------------------*- C++ -*-===//
//
// Declares the croq-to-croq passes and their registration.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_TRANSFORMS_PASSES_H
#define CROQ_DIALECT_CROQ_TRANSFORMS_PASSES_H

#include "Croq/Dialect/Croq/IR/CroqDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace croq {

/// Where a tma copy carries the software (dma) copy that runs when the
/// runtime cannot give its tensor a tensor map.
enum class TmaFallback {
  /// Where static facts cannot prove that the runtime will give a map.
  Auto,
  /// On every tma copy.
  Always,
  /// Nowhere: a call whose tensor TMA cannot take fails with the runtime's
  /// reason.
  Never,
};

#define GEN_PASS_DECL
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"

/// Replaces `op` (a dma croq.copy, croq.transpose or croq.pad inside a
/// croq.parallel) by the moves of one thread of the group that runs it, as
/// croq-distribute-copies does; the conversion uses it for the software copy
/// that stands in for a tma copy. Fails, after an error on `op`, where a
/// buffer cannot be resolved or the group's size is unknown.
LogicalResult distributeMove(RewriterBase &rewriter, Operation *op);

#define GEN_PASS_REGISTRATION
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"

} // namespace croq
} // namespace mlir

#endif // CROQ_DIALECT_CROQ_TRANSFORMS_PASSES_H
