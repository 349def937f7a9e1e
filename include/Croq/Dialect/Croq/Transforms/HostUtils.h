//===- HostUtils.h - host code of croq's kernels ----------------*- C++ -*-===//
//
// The host and tensor-map helpers of croq-emit-tensor-maps and
// croq-host-entries, which the conversion to gpu shares: the stream of an
// entry point, declarations of runtime functions, and the static facts of
// tensors and their maps.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_TRANSFORMS_HOSTUTILS_H
#define CROQ_DIALECT_CROQ_TRANSFORMS_HOSTUTILS_H

#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>

namespace mlir {
namespace croq {

/// The stream argument (marked croq.stream by croq-host-entries) of the
/// function around `op`, or of `op` if it is a function; null if it has
/// none.
Value getLaunchStream(Operation *op);

/// getLaunchStream, or a null pointer (the default stream) where the
/// function has no stream argument.
Value getLaunchStreamOrNull(OpBuilder &builder, Location loc, Operation *op);

/// `stream` (an !llvm.ptr) as a !gpu.async.token that gpu ops depend on to
/// be queued on it: the GPU-to-LLVM conversion turns tokens into streams,
/// and the cast folds away.
Value getStreamToken(OpBuilder &builder, Location loc, Value stream);

/// The private declaration of the croq runtime function `name` of `type`
/// in `module`, added by `builder` at the module's start if missing; null,
/// after an error on the op, where `name` is taken by something else.
func::FuncOp lookupOrDeclareRuntimeFunction(OpBuilder &builder, ModuleOp module,
                                            StringRef name, FunctionType type);

/// Whether an entry point (a function that launches kernels) may take an
/// argument of scalar type `type`: i1, i8, i16, i32, i64, index, f32 or f64.
/// croq-host-entries passes such arguments by reference.
bool isEntryScalarType(Type type);

/// The global tensor a tma copy moves to or from, before views: the source
/// of the copy's croq.view, or the copy's global operand itself.
Value getTmaGlobalTensor(CopyOp op);

/// The croqRtElementType of `type`, if tensor maps can hold it.
std::optional<int> getTensorMapElementType(Type type);

/// Whether the runtime gives a tensor of `type` a usable tensor map on
/// every call, as its static sizes and strides prove: contiguous rows, sizes
/// and strides in TMA's ranges. The address and the row strides' alignment
/// are facts of the call, so only a `staged` tensor (one the runtime copies
/// into an aligned buffer where they break a rule) can be proven.
bool isTmaUsableStatically(MemRefType type, bool staged);

/// Whether the ops of `kernel` only read the buffer that `tensor` views:
/// every use inside the kernel of that buffer, or of any view of it taken
/// inside or outside the kernel, is the source of a copy, transpose, pad or
/// mma.load, or a croq.read. Other memrefs that alias the buffer are not
/// seen.
bool isOnlyReadIn(Operation *kernel, Value tensor);

} // namespace croq
} // namespace mlir

#endif // CROQ_DIALECT_CROQ_TRANSFORMS_HOSTUTILS_H
