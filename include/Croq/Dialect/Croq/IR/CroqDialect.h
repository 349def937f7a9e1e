//===- CroqDialect.h - croq dialect declaration -----------------*- C++ -*-===//
//
// Declares the croq dialect class.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_IR_CROQDIALECT_H
#define CROQ_DIALECT_CROQ_IR_CROQDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dialect.h"

#include "Croq/Dialect/Croq/IR/CroqDialect.h.inc"

namespace mlir {
namespace croq {
/// The most consumer warpgroups a warp-specialized block has next to its
/// producer: four warpgroups of 128 threads fill a 512-thread block.
constexpr int64_t kMaxConsumerWarpgroups = 3;
} // namespace croq
} // namespace mlir

#endif // CROQ_DIALECT_CROQ_IR_CROQDIALECT_H
