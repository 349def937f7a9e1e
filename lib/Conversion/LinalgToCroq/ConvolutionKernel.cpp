//===- ConvolutionKernel.cpp - implicit GEMMs of linalg convolutions ------===//
//
// What convert-linalg-to-croq emits for a convolution (Convolution.h): the
// views of its operands as GEMM matrices, the fused consumer as a generic
// over the (N P Q) x F output, the input's im2col map, and the im2col
// loads of A in the GEMM's K loop (GemmKernel.cpp).
//
//===----------------------------------------------------------------------===//

#include "Convolution.h"
#include "IndexBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::croq;

/// The channels of one K step (one 128-byte swizzle span of 16-bit
/// elements), as ConvolutionMatch.cpp requires of C.
static constexpr int64_t kStepChannels = 64;

/// `buffer` (static, contiguous) with its dimensions grouped as `groups`
/// say.
static Value collapse(OpBuilder &b, Location loc, Value buffer,
                      ArrayRef<ReassociationIndices> groups) {
  return memref::CollapseShapeOp::create(b, loc, buffer, groups);
}

/// The 4-d epilogue generic over (n, p, q, f) as one over (m, f) with m =
/// (n, p, q): its tiles collapsed to (N P Q) x F, its vectors indexed by
/// f as they were. Replaces the generic in `epilogue`.
static void collapseEpilogue(OpBuilder &b, Location loc, Epilogue &epilogue,
                             Value product, Value collapsedProduct) {
  // Made where the kernel goes (before the convolution), which is where
  // the kernel reads the views; the collapsed generic only carries the body
  // and the operands until the kernel is emitted, and is erased with it.
  linalg::GenericOp generic = epilogue.generic;
  MLIRContext *context = b.getContext();
  AffineExpr f = getAffineDimExpr(3, context);
  AffineExpr col = getAffineDimExpr(1, context);
  ReassociationIndices positions{0, 1, 2}, filters{3};
  llvm::DenseMap<Value, Value> collapsed;
  collapsed[product] = collapsedProduct;
  auto rewrite = [&](OpOperand &operand, SmallVectorImpl<Value> &values,
                     SmallVectorImpl<AffineMap> &maps) {
    Value value = operand.get();
    AffineMap map = generic.getMatchingIndexingMap(&operand);
    auto type = dyn_cast<MemRefType>(value.getType());
    if (type && type.getRank() == 4 && map.isIdentity()) {
      Value &flat = collapsed[value];
      if (!flat)
        flat = collapse(b, loc, value, {positions, filters});
      values.push_back(flat);
      maps.push_back(AffineMap::getMultiDimIdentityMap(2, context));
      return;
    }
    SmallVector<AffineExpr> results;
    for (AffineExpr expr : map.getResults())
      results.push_back(expr == f ? col : expr);
    values.push_back(value);
    maps.push_back(AffineMap::get(2, 0, results, context));
  };
  SmallVector<Value> inputs, outputs;
  SmallVector<AffineMap> maps, outputMaps;
  for (OpOperand *input : generic.getDpsInputOperands())
    rewrite(*input, inputs, maps);
  rewrite(*generic.getDpsInitOperand(0), outputs, outputMaps);
  maps.append(outputMaps);
  SmallVector<utils::IteratorType> loops(2, utils::IteratorType::parallel);
  auto flat = linalg::GenericOp::create(b, generic.getLoc(), TypeRange{},
                                        inputs, outputs, maps, loops);
  flat.getRegion().takeBody(generic.getRegion());
  generic.erase();
  epilogue.generic = flat;
  epilogue.output = outputs.front();
}

ProductSizes mlir::croq::prepareConvolution(OpBuilder &b, Location loc,
                                            MatmulSpec &spec) {
  ConvolutionSpec &conv = *spec.conv;
  IndexBuilder e{b, loc};
  ReassociationIndices positions{0, 1, 2}, filters{3};
  // fhwc: F x (R S C); hwcf: (R S C) x F.
  spec.b = conv.filtersFirst ? collapse(b, loc, conv.filter, {{0}, {1, 2, 3}})
                             : collapse(b, loc, conv.filter, {{0, 1, 2}, {3}});
  spec.c = collapse(b, loc, conv.output, {positions, filters});
  if (spec.epilogue)
    collapseEpilogue(b, loc, *spec.epilogue, conv.output, spec.c);
  ProductSizes sizes;
  sizes.batch = e.c(1);
  sizes.m = e.c(conv.batch * conv.outRows * conv.outCols);
  sizes.n = e.c(conv.filters);
  sizes.k = e.c(conv.filterRows * conv.filterCols * conv.channels);
  if (conv.plain) {
    // The NHWC input is (N H W) x C.
    spec.a = collapse(b, loc, conv.input, {positions, filters});
    sizes.kSteps = e.ceilDiv(sizes.k, getStepElements(spec));
    return sizes;
  }
  spec.a = conv.input;
  sizes.kSteps = e.c(conv.filterRows * conv.filterCols *
                     llvm::divideCeil(conv.channels, kStepChannels));
  return sizes;
}

Value mlir::croq::createIm2colMap(OpBuilder &b, Location loc,
                                  const ConvolutionSpec &conv, int64_t pixels) {
  SmallVector<int32_t> lower, upper;
  for (int i = 0; i < 2; ++i) {
    int64_t extent = i == 0 ? conv.height : conv.width;
    int64_t outputs = i == 0 ? conv.outRows : conv.outCols;
    lower.push_back(-conv.padLow[i]);
    // The box holds exactly the output's positions along the dimension:
    // its last is (outputs - 1) strides past the lower corner.
    upper.push_back(-conv.padLow[i] + (outputs - 1) * conv.strides[i] -
                    (extent - 1));
  }
  return Im2colMapOp::create(
      b, loc, TensorMapType::get(b.getContext(), TensorMapMode::Im2col),
      conv.input, pixels, kStepChannels, lower, upper,
      ArrayRef<int64_t>{conv.strides[0], conv.strides[1]}, Swizzle::B128);
}

SmallVector<Value> mlir::croq::getIm2colStart(OpBuilder &b, Location loc,
                                              const ConvolutionSpec &conv,
                                              Value blockM, int64_t rows) {
  IndexBuilder e{b, loc};
  Value position = e.mul(blockM, e.c(rows));
  Value perImage = e.c(conv.outRows * conv.outCols);
  Value image = e.div(position, perImage);
  Value inImage = e.rem(position, perImage);
  Value row = e.div(inImage, e.c(conv.outCols));
  Value col = e.rem(inImage, e.c(conv.outCols));
  // Padding makes the first pixel negative: sub, not a folded constant.
  Value y = e.sub(e.mul(row, e.c(conv.strides[0])), e.c(conv.padLow[0]));
  Value x = e.sub(e.mul(col, e.c(conv.strides[1])), e.c(conv.padLow[1]));
  return {image, y, x};
}

Value mlir::croq::loadIm2colOperand(OpBuilder &b, Location loc,
                                    const ConvolutionSpec &conv,
                                    ArrayRef<Value> start, Value step,
                                    Value tile) {
  IndexBuilder e{b, loc};
  // Divisions by constants: croq-pipeline-loops recomputes them in the
  // producer.
  Value blocks = e.c(llvm::divideCeil(conv.channels, kStepChannels));
  Value tap = e.div(step, blocks);
  Value channel = e.mul(e.rem(step, blocks), e.c(kStepChannels));
  Value tapRow = e.div(tap, e.c(conv.filterCols));
  Value tapCol = e.rem(tap, e.c(conv.filterCols));
  SmallVector<Value> coords(start);
  coords.push_back(channel);
  SmallVector<Value> offsets{e.mul(tapRow, e.c(conv.dilations[0])),
                             e.mul(tapCol, e.c(conv.dilations[1]))};
  Im2colOp::create(b, loc, /*future=*/Type(), conv.input, tile, coords, offsets,
                   conv.map);
  Value matrix = getMatrixTile(b, loc, tile);
  auto tileType = cast<TileType>(matrix.getType());
  auto fragType =
      FragType::get(b.getContext(), tileType.getShape(),
                    tileType.getElementType(), /*inRegisters=*/false);
  return MmaLoadOp::create(b, loc, fragType, matrix).getResult();
}

bool mlir::croq::hasWholeChannelSteps(const ConvolutionSpec &conv) {
  return conv.channels % kStepChannels == 0;
}

Value mlir::croq::getFilterColumn(OpBuilder &b, Location loc,
                                  const ConvolutionSpec &conv, Value step) {
  IndexBuilder e{b, loc};
  Value blocks = e.c(llvm::divideCeil(conv.channels, kStepChannels));
  Value tap = e.div(step, blocks);
  Value channel = e.mul(e.rem(step, blocks), e.c(kStepChannels));
  return e.add(e.mul(tap, e.c(conv.channels)), channel);
}
