//===- CroqTypes.h - croq type declarations ---------------------*- C++ -*-===//
//
// Declares the croq types, their enums, and helpers shared by verifiers and
// passes that look at the shape, memory space and layout of buffers.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_IR_CROQTYPES_H
#define CROQ_DIALECT_CROQ_IR_CROQTYPES_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#include "Croq/Dialect/Croq/IR/CroqEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "Croq/Dialect/Croq/IR/CroqTypes.h.inc"

namespace mlir {
namespace croq {

/// The memory space of a buffer-like type: memrefs are global, tiles and
/// views carry theirs. Returns std::nullopt for other types.
std::optional<MemorySpace> getMemorySpaceOf(Type type);

/// The swizzle layout of a buffer-like type (none for memrefs).
Swizzle getSwizzleOf(Type type);

/// The swizzle span in bytes (0 for none and auto).
int64_t getSwizzleBytes(Swizzle swizzle);

/// Size of one element in bytes, rounding sub-byte types up.
int64_t getElementSizeInBytes(Type elementType);

/// Prints `swizzle` the way croq writes it: none, auto, 32, 64 or 128.
std::string stringifySwizzleValue(Swizzle swizzle);

} // namespace croq
} // namespace mlir

#endif // CROQ_DIALECT_CROQ_IR_CROQTYPES_H
