//===- Passes.h - croq transformation passes --------------------*- C++ -*-===//
//
// Declares the croq-to-croq passes and their registration.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_TRANSFORMS_PASSES_H
#define CROQ_DIALECT_CROQ_TRANSFORMS_PASSES_H

#include "Croq/Dialect/Croq/IR/CroqDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace croq {

#define GEN_PASS_DECL
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"

} // namespace croq
} // namespace mlir

#endif // CROQ_DIALECT_CROQ_TRANSFORMS_PASSES_H
