//===- DecomposeSoftmax.cpp - linalg.softmax on buffers as generics -------===//
//
// linalg.softmax is an aggregate op: upstream decomposes it on tensors
// only. On buffers it becomes the generics of its definition, which
// croq-fuse-elementwise and the row chains of convert-linalg-to-croq then
// make one kernel of:
//   max = max over d of x;  e = exp(x - max);  sum = sum over d of e;
//   out = e / sum.
//
//===----------------------------------------------------------------------===//

#include "DecomposeSoftmax.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::croq;

/// A new buffer of `source`'s shape without dimension `dim`, filled with
/// `init`.
static Value allocReduced(OpBuilder &b, Location loc, Value source,
                          unsigned dim, TypedAttr init) {
  auto type = cast<MemRefType>(source.getType());
  SmallVector<int64_t> shape;
  SmallVector<Value> dynamicSizes;
  for (int64_t i = 0, e = type.getRank(); i < e; ++i) {
    if (static_cast<unsigned>(i) == dim)
      continue;
    shape.push_back(type.getDimSize(i));
    if (type.isDynamicDim(i))
      dynamicSizes.push_back(memref::DimOp::create(b, loc, source, i));
  }
  Value buffer = memref::AllocOp::create(
      b, loc, MemRefType::get(shape, type.getElementType()), dynamicSizes);
  Value value = arith::ConstantOp::create(b, loc, init);
  linalg::FillOp::create(b, loc, ValueRange{value}, ValueRange{buffer});
  return buffer;
}

/// Emits a generic over `source`'s loops (`dim` a reduction where
/// `reduce`), reading `inputs` (each indexed in full or without `dim`, as
/// their rank says) into `output`; `body` computes the yielded value from
/// the block's arguments.
static void
emitGeneric(OpBuilder &b, Location loc, unsigned rank, unsigned dim,
            bool reduce, ValueRange inputs, Value output,
            function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  AffineMap reduced = identity.dropResult(dim);
  auto mapOf = [&](Value value) {
    return cast<MemRefType>(value.getType()).getRank() ==
                   static_cast<int64_t>(rank)
               ? identity
               : reduced;
  };
  SmallVector<AffineMap> maps;
  for (Value input : inputs)
    maps.push_back(mapOf(input));
  maps.push_back(mapOf(output));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  if (reduce)
    iterators[dim] = utils::IteratorType::reduction;
  linalg::GenericOp::create(
      b, loc, inputs, ValueRange{output}, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(nested, nestedLoc,
                                body(nested, nestedLoc, args));
      });
}

LogicalResult mlir::croq::decomposeSoftmax(linalg::SoftmaxOp op) {
  Value input = op.getInput(), output = op.getOutput();
  auto type = dyn_cast<MemRefType>(input.getType());
  auto elementType =
      type ? dyn_cast<FloatType>(type.getElementType()) : FloatType();
  if (!type || !elementType || !isa<MemRefType>(output.getType()))
    return failure();
  OpBuilder b(op);
  Location loc = op.getLoc();
  unsigned rank = type.getRank(), dim = op.getDimension();
  auto lowest = b.getFloatAttr(elementType,
                               APFloat::getInf(elementType.getFloatSemantics(),
                                               /*Negative=*/true));
  Value max = allocReduced(b, loc, input, dim, lowest);
  emitGeneric(b, loc, rank, dim, /*reduce=*/true, input, max,
              [](OpBuilder &nb, Location l, ValueRange args) -> Value {
                return arith::MaximumFOp::create(nb, l, args[0], args[1]);
              });
  SmallVector<Value> dynamicSizes;
  for (int64_t i = 0, e = type.getRank(); i < e; ++i)
    if (type.isDynamicDim(i))
      dynamicSizes.push_back(memref::DimOp::create(b, loc, input, i));
  Value exps = memref::AllocOp::create(
      b, loc, MemRefType::get(type.getShape(), elementType), dynamicSizes);
  emitGeneric(b, loc, rank, dim, /*reduce=*/false, {input, max}, exps,
              [](OpBuilder &nb, Location l, ValueRange args) -> Value {
                Value shifted = arith::SubFOp::create(nb, l, args[0], args[1]);
                return math::ExpOp::create(nb, l, shifted);
              });
  Value sum = allocReduced(b, loc, input, dim, b.getFloatAttr(elementType, 0));
  emitGeneric(b, loc, rank, dim, /*reduce=*/true, exps, sum,
              [](OpBuilder &nb, Location l, ValueRange args) -> Value {
                return arith::AddFOp::create(nb, l, args[0], args[1]);
              });
  emitGeneric(b, loc, rank, dim, /*reduce=*/false, {exps, sum}, output,
              [](OpBuilder &nb, Location l, ValueRange args) -> Value {
                return arith::DivFOp::create(nb, l, args[0], args[1]);
              });
  op.erase();
  return success();
}
