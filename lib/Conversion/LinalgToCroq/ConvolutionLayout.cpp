//===- ConvolutionLayout.cpp - NCHW convolutions through NHWC copies ------===//
//
// croq computes channels-last convolutions (Convolution.h): TMA's im2col
// mode gathers pixels whose channels are contiguous. A
// linalg.conv_2d_nchw_fchw becomes a linalg.conv_2d_nhwc_fhwc between
// transposes: the input to NHWC and the filters to FHWC before, the output
// back to NCHW after (through an NHWC temporary, zero-filled where the
// NCHW output was zeroed right before, else a transposed copy of it). The
// transposes are elementwise kernels of their own: three extra passes over
// the input, filters and output, which a channels-last frontend avoids.
//
//===----------------------------------------------------------------------===//

#include "Convolution.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::croq;

/// Whether `op` is a convolution the rewrite takes: on static, contiguous
/// memrefs. Others are left to be declined by name.
static bool isRewritable(linalg::Conv2DNchwFchwOp op) {
  if (!op.hasPureBufferSemantics() || op->getParentOfType<ParallelOp>())
    return false;
  return llvm::all_of(op->getOperandTypes(), [](Type type) {
    auto memref = dyn_cast<MemRefType>(type);
    return memref && memref.hasStaticShape() && memref.getLayout().isIdentity();
  });
}

/// `value` permuted by `permutation` into a new buffer of its element type
/// (memref.alloc).
static Value transposeInto(OpBuilder &b, Location loc, Value value,
                           ArrayRef<int64_t> permutation) {
  auto type = cast<MemRefType>(value.getType());
  SmallVector<int64_t> shape;
  for (int64_t dim : permutation)
    shape.push_back(type.getDimSize(dim));
  Value buffer = memref::AllocOp::create(
      b, loc, MemRefType::get(shape, type.getElementType()));
  linalg::TransposeOp::create(b, loc, value, buffer, permutation);
  return buffer;
}

/// The zero fill of `output` right before `op`, if any.
static linalg::FillOp getZeroFill(Operation *op, Value output) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
  if (!fill || !fill.hasPureBufferSemantics() ||
      fill.getDpsInits()[0] != output)
    return nullptr;
  Value value = fill.getDpsInputs()[0];
  if (!matchPattern(value, m_AnyZeroFloat()) && !matchPattern(value, m_Zero()))
    return nullptr;
  return fill;
}

/// Replaces `op` by its NHWC form between transposes, the temporaries
/// released after.
static void rewriteToChannelsLast(linalg::Conv2DNchwFchwOp op) {
  // Found before the transposes go between them.
  linalg::FillOp fill = getZeroFill(op, op.getOutputs()[0]);
  OpBuilder b(op);
  Location loc = op.getLoc();
  static constexpr int64_t kToLast[] = {0, 2, 3, 1};
  static constexpr int64_t kToFirst[] = {0, 3, 1, 2};
  Value input = transposeInto(b, loc, op.getInputs()[0], kToLast);
  Value filters = transposeInto(b, loc, op.getInputs()[1], kToLast);
  Value output = op.getOutputs()[0];
  SmallVector<Value> temporaries{input, filters};
  // The NHWC output starts as the NCHW one does: zeros, or its values.
  Value nhwc;
  if (fill) {
    auto type = cast<MemRefType>(output.getType());
    SmallVector<int64_t> shape;
    for (int64_t dim : kToLast)
      shape.push_back(type.getDimSize(dim));
    nhwc = memref::AllocOp::create(
        b, loc, MemRefType::get(shape, type.getElementType()));
    linalg::FillOp::create(b, loc, fill.getDpsInputs()[0], nhwc);
    fill.erase();
  } else {
    nhwc = transposeInto(b, loc, output, kToLast);
  }
  temporaries.push_back(nhwc);
  SmallVector<NamedAttribute> attributes;
  for (StringRef name : {"strides", "dilations"})
    if (Attribute attr = op->getAttr(name))
      attributes.push_back(b.getNamedAttr(name, attr));
  linalg::Conv2DNhwcFhwcOp::create(b, loc, ValueRange{input, filters},
                                   ValueRange{nhwc}, attributes);
  linalg::TransposeOp::create(b, loc, nhwc, output, kToFirst);
  for (Value temporary : temporaries)
    memref::DeallocOp::create(b, loc, temporary);
  op.erase();
}

void mlir::croq::rewriteNchwConvolutions(ModuleOp module) {
  SmallVector<linalg::Conv2DNchwFchwOp> convolutions;
  module.walk([&](linalg::Conv2DNchwFchwOp op) {
    if (isRewritable(op))
      convolutions.push_back(op);
  });
  for (linalg::Conv2DNchwFchwOp op : convolutions)
    rewriteToChannelsLast(op);
}
