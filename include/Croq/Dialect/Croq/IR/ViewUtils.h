//===- ViewUtils.h - normalized views ---------------------------*- C++ -*-===//
//
// Every croq view op selects a window of its source: element offsets, sizes
// and optional bounds. These helpers compute that window and compose the
// windows of a chain of views into one, which is how view chains fold and
// how the tiling passes resolve views to coordinates.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_IR_VIEWUTILS_H
#define CROQ_DIALECT_CROQ_IR_VIEWUTILS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

namespace mlir {
namespace croq {

/// A window of `source`: element `p` of the window is element `offsets + p`
/// of the source, and is valid when it is inside the source and, if
/// `bounds` is not empty, below `bounds` in source coordinates.
struct ViewWindow {
  Value source;
  SmallVector<OpFoldResult> offsets;
  SmallVector<OpFoldResult> sizes;
  SmallVector<OpFoldResult> bounds;
};

/// Whether `op` is one of the croq view ops (chunkat, subspan, view).
bool isViewOp(Operation *op);

/// The window that the view op `op` selects of its own source. Creates arith
/// ops at `builder`'s insertion point for sizes and offsets that are not
/// constants. Fails when a chunk count cannot be determined.
FailureOr<ViewWindow> getViewWindow(OpBuilder &builder, Operation *op);

/// The window `outer` selects of `inner.source`, given that `outer` is a
/// window of the view that `inner` describes.
ViewWindow composeWindows(OpBuilder &builder, Location loc,
                          const ViewWindow &inner, const ViewWindow &outer);

/// The sizes of a buffer value: static dimensions as attributes, dynamic
/// ones read from the defining view op or with memref.dim.
FailureOr<SmallVector<OpFoldResult>> getBufferSizes(OpBuilder &builder,
                                                    Location loc, Value value);

class ViewType;

/// Builds the `croq.view` op that selects `window` with result type `type`.
Value buildViewOp(OpBuilder &builder, Location loc, ViewType type,
                  const ViewWindow &window);

/// A normalized buffer as index values: element `p` of the buffer is element
/// `offsets + p` of its root (the tensor or tile), inside the root's tensor
/// when `offsets + p < limits` (no limits: the buffer is the root itself).
struct BufferWindow {
  SmallVector<Value> offsets;
  SmallVector<Value> sizes;
  SmallVector<Value> limits;
  /// The buffer's static sizes (ShapedType::kDynamic where dynamic).
  SmallVector<int64_t> staticSizes;
};
/// The tensor or tile that `buffer` (itself, or one croq.view of it) lies in.
Value getWindowRoot(Value buffer);
/// The window `buffer` selects of its root, built at `builder`'s insertion
/// point; the root's dynamic sizes are read with memref.dim from
/// `dimSource` (the root, or what it is converted to). The root must not be
/// a view (run croq-normalize-views).
BufferWindow getBufferWindow(OpBuilder &builder, Location loc, Value buffer,
                             Value dimSource);
/// Rewrites every chunkat, subspan and chain of views under `root` into one
/// croq.view of the root tensor or tile. Reports an error on a view whose
/// chunk counts or sizes cannot be determined.
LogicalResult normalizeViews(Operation *root);

} // namespace croq
} // namespace mlir

#endif // CROQ_DIALECT_CROQ_IR_VIEWUTILS_H
