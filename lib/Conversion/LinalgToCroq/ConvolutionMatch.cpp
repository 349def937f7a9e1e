//===- ConvolutionMatch.cpp - which linalg convolutions croq takes --------===//
//
// Reads a linalg.conv_2d_nhwc_fhwc or conv_2d_nhwc_hwcf on memrefs as an
// implicit GEMM (Convolution.h), with the padding a frontend writes as a
// zero-filled larger buffer (a bufferized tensor.pad) folded into the
// im2col map's corners, and declines by name what it cannot compute.
//
//===----------------------------------------------------------------------===//

#include "Convolution.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::croq;

/// The corners of a rank-4 im2col map range over [-128, 127] (the
/// hardware's 8-bit fields).
static constexpr int64_t kMinCorner = -128;
static constexpr int64_t kMaxCorner = 127;

bool mlir::croq::isGemmConvolution(Operation *op) {
  return isa<linalg::Conv2DNhwcFhwcOp, linalg::Conv2DNhwcHwcfOp>(op);
}

/// Whether `value` is a zero constant.
static bool isZeroConstant(Value value) {
  return matchPattern(value, m_AnyZeroFloat()) || matchPattern(value, m_Zero());
}

/// Whether `op` fills all of `buffer` with zeros: a linalg.fill of zero, or
/// an outs-only all-parallel op (linalg.map, generic) that yields a zero
/// constant, as a bufferized tensor.pad's fill is.
static bool isZeroFillOf(Operation *op, Value buffer) {
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return fill.hasPureBufferSemantics() && fill.getDpsInits()[0] == buffer &&
           isZeroConstant(fill.getDpsInputs()[0]);
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureBufferSemantics() ||
      linalgOp.getNumDpsInputs() != 0 || linalgOp.getNumDpsInits() != 1 ||
      linalgOp.getDpsInits()[0] != buffer ||
      linalgOp.getNumParallelLoops() != linalgOp.getNumLoops() ||
      !linalgOp.getMatchingIndexingMap(linalgOp.getDpsInitOperand(0))
           .isIdentity())
    return false;
  Block &body = op->getRegion(0).front();
  for (Operation &inner : body.without_terminator())
    if (!isa<linalg::IndexOp>(inner))
      return false;
  Operation *yield = body.getTerminator();
  return yield->getNumOperands() == 1 && isZeroConstant(yield->getOperand(0));
}

/// Folds a padded copy of the input into `conv`: the input is a buffer
/// (memref.alloc) that is zero-filled, then gets a contiguous N x H x W x C
/// source copied into its interior (a unit-stride subview at [0, top,
/// left, 0]), and is read by the convolution only. The convolution then
/// reads the source, the padding as the map's corners. Leaves `conv` as
/// it is where the input is not such a copy.
static void foldPaddedCopy(Operation *op, ConvolutionSpec &conv) {
  auto alloc = conv.input.getDefiningOp<memref::AllocOp>();
  if (!alloc)
    return;
  Operation *fill = nullptr, *copy = nullptr;
  memref::SubViewOp interior;
  SmallVector<Operation *> deallocs;
  for (Operation *user : alloc->getUsers()) {
    if (user == op)
      continue;
    if (isa<memref::DeallocOp>(user)) {
      deallocs.push_back(user);
      continue;
    }
    if (!fill && isZeroFillOf(user, alloc)) {
      fill = user;
      continue;
    }
    auto view = dyn_cast<memref::SubViewOp>(user);
    if (interior || !view || !view->hasOneUse())
      return;
    interior = view;
  }
  if (!fill || !interior || fill->getBlock() != op->getBlock() ||
      !fill->isBeforeInBlock(op))
    return;
  copy = *interior->user_begin();
  Value source;
  if (auto memrefCopy = dyn_cast<memref::CopyOp>(copy);
      memrefCopy && memrefCopy.getTarget() == interior)
    source = memrefCopy.getSource();
  if (auto linalgCopy = dyn_cast<linalg::CopyOp>(copy);
      linalgCopy && linalgCopy.hasPureBufferSemantics() &&
      linalgCopy.getDpsInits()[0] == interior)
    source = linalgCopy.getDpsInputs()[0];
  auto sourceType =
      dyn_cast_or_null<MemRefType>(source ? source.getType() : Type());
  if (!sourceType || !sourceType.hasStaticShape() ||
      !sourceType.getLayout().isIdentity() ||
      copy->getBlock() != op->getBlock() || !fill->isBeforeInBlock(copy) ||
      !copy->isBeforeInBlock(op))
    return;
  ArrayRef<int64_t> offsets = interior.getStaticOffsets();
  ArrayRef<int64_t> strides = interior.getStaticStrides();
  auto padded = cast<MemRefType>(conv.input.getType());
  if (ShapedType::isDynamicShape(offsets) || offsets[0] != 0 ||
      offsets[3] != 0 ||
      llvm::any_of(strides, [](int64_t s) { return s != 1; }) ||
      interior.getType().getShape() != sourceType.getShape() ||
      sourceType.getDimSize(0) != padded.getDimSize(0) ||
      sourceType.getDimSize(3) != padded.getDimSize(3))
    return;
  conv.input = source;
  conv.padLow[0] = offsets[1];
  conv.padLow[1] = offsets[2];
  conv.height = sourceType.getDimSize(1);
  conv.width = sourceType.getDimSize(2);
  conv.paddedCopy = {copy, interior, fill};
  llvm::append_range(conv.paddedCopy, deallocs);
  conv.paddedCopy.push_back(alloc);
}

/// Reads the geometry of `op` (static by now) into `conv`.
static void readGeometry(linalg::LinalgOp op, ConvolutionSpec &conv) {
  conv.input = op.getDpsInputs()[0];
  conv.filter = op.getDpsInputs()[1];
  conv.output = op.getDpsInits()[0];
  conv.filtersFirst = isa<linalg::Conv2DNhwcFhwcOp>(op);
  auto input = cast<MemRefType>(conv.input.getType());
  auto filter = cast<MemRefType>(conv.filter.getType());
  auto output = cast<MemRefType>(conv.output.getType());
  conv.batch = input.getDimSize(0);
  conv.height = input.getDimSize(1);
  conv.width = input.getDimSize(2);
  conv.channels = input.getDimSize(3);
  conv.outRows = output.getDimSize(1);
  conv.outCols = output.getDimSize(2);
  conv.filters = output.getDimSize(3);
  conv.filterRows = filter.getDimSize(conv.filtersFirst ? 1 : 0);
  conv.filterCols = filter.getDimSize(conv.filtersFirst ? 2 : 1);
  auto strides = op->getAttrOfType<DenseIntElementsAttr>("strides");
  auto dilations = op->getAttrOfType<DenseIntElementsAttr>("dilations");
  for (int i = 0; i < 2; ++i) {
    conv.strides[i] = strides ? strides.getValues<int64_t>()[i] : 1;
    conv.dilations[i] = dilations ? dilations.getValues<int64_t>()[i] : 1;
  }
}

/// The im2col map's upper corner along spatial dimension `i` (0: H, 1: W):
/// the box from the lower corner (-padLow) holds exactly the output's
/// positions, `outRows` (or `outCols`) steps of the stride, relative to
/// the input's last pixel.
static int64_t getUpperCorner(const ConvolutionSpec &conv, int i) {
  int64_t extent = i == 0 ? conv.height : conv.width;
  int64_t positions = i == 0 ? conv.outRows : conv.outCols;
  return -conv.padLow[i] + (positions - 1) * conv.strides[i] - (extent - 1);
}

/// Checks the rules of the element types: f16 or bf16 operands of one type,
/// an f32 or operand-type output (f32 accumulation).
static LogicalResult checkTypes(linalg::LinalgOp op) {
  Type input = getElementTypeOrSelf(op.getDpsInputs()[0].getType());
  Type filter = getElementTypeOrSelf(op.getDpsInputs()[1].getType());
  Type output = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  if (input != filter || !(input.isF16() || input.isBF16()))
    return op.emitOpError("convert-linalg-to-croq takes convolutions of f16 "
                          "or bf16 inputs and filters of one type, got ")
           << input << " and " << filter;
  if (output != input && !output.isF32())
    return op.emitOpError("convert-linalg-to-croq writes convolutions' "
                          "outputs as f32 or the inputs' type (f32 "
                          "accumulation), got ")
           << output;
  return success();
}

/// Checks the rules of the operands' shapes and layouts.
static LogicalResult checkShapes(linalg::LinalgOp op) {
  for (Value operand : op->getOperands()) {
    auto type = cast<MemRefType>(operand.getType());
    if (!type.hasStaticShape())
      return op.emitOpError("convert-linalg-to-croq takes convolutions of "
                            "static shapes, got ")
             << type;
    if (!type.getLayout().isIdentity())
      return op.emitOpError("convert-linalg-to-croq takes convolutions of "
                            "contiguous (identity-layout) buffers, got ")
             << type;
  }
  return success();
}

/// Checks the rules of the im2col path: strides, channels, corners, taps.
static LogicalResult checkIm2col(linalg::LinalgOp op,
                                 const ConvolutionSpec &conv) {
  for (int i = 0; i < 2; ++i)
    if (conv.strides[i] < 1 || conv.strides[i] > 8)
      return op.emitOpError("convert-linalg-to-croq takes convolution "
                            "strides of 1 to 8 (the im2col map's), got [")
             << conv.strides[0] << ", " << conv.strides[1] << "]";
  // TMA steps through pixels of 16-byte multiples.
  if (conv.channels % 8 != 0)
    return op.emitOpError("convert-linalg-to-croq takes convolutions whose "
                          "input channels are a multiple of 8 (16-byte "
                          "pixels for the im2col map), got C = ")
           << conv.channels;
  int64_t lower[2] = {-conv.padLow[0], -conv.padLow[1]};
  int64_t upper[2] = {getUpperCorner(conv, 0), getUpperCorner(conv, 1)};
  auto inRange = [](int64_t corner) {
    return corner >= kMinCorner && corner <= kMaxCorner;
  };
  if (!llvm::all_of(lower, inRange) || !llvm::all_of(upper, inRange))
    return op.emitOpError("convert-linalg-to-croq takes convolutions whose "
                          "im2col corners lie in [")
           << kMinCorner << ", " << kMaxCorner
           << "] (padding and filter extents of NHWC maps), got lower ["
           << lower[0] << ", " << lower[1] << "] upper [" << upper[0] << ", "
           << upper[1] << "]";
  for (int i = 0; i < 2; ++i) {
    int64_t taps = i == 0 ? conv.filterRows : conv.filterCols;
    if (conv.dilations[i] < 1 ||
        conv.dilations[i] * (taps - 1) > std::numeric_limits<uint16_t>::max())
      return op.emitOpError("convert-linalg-to-croq takes convolutions whose "
                            "dilated taps are 16-bit im2col offsets, got "
                            "dilation ")
             << conv.dilations[i] << " over " << taps << " taps";
  }
  return success();
}

/// Whether `operand`, read through `map` by a generic over (n, p, q, f),
/// is one the epilogue computes with: the product's shape indexed by every
/// loop, a vector indexed by f (possibly stored with further dimensions of
/// extent 1 indexed by 0), or a scalar.
static bool isEpilogueOperand(Value operand, AffineMap map) {
  auto type = dyn_cast<MemRefType>(operand.getType());
  if (!type)
    return map.getNumResults() == 0 && operand.getType().isIntOrFloat();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return false;
  if (type.getRank() == 4 && map.isIdentity())
    return true;
  AffineExpr f = getAffineDimExpr(3, map.getContext());
  int varying = 0;
  for (auto [position, expr] : llvm::enumerate(map.getResults())) {
    if (expr == f) {
      ++varying;
      continue;
    }
    auto constant = dyn_cast<AffineConstantExpr>(expr);
    if (!constant || constant.getValue() != 0 || type.getDimSize(position) != 1)
      return false;
  }
  return varying == 1;
}

/// The elementwise generic right after the convolution `op` that reads its
/// output `product`, where the kernel can compute it in its epilogue (the
/// rules of matchEpilogue, over (n, p, q, f)); ConvolutionKernel.cpp
/// makes it a generic over (N P Q) x F when the kernel is emitted.
static std::optional<Epilogue> matchConvolutionEpilogue(linalg::LinalgOp op,
                                                        Value product) {
  Operation *next = op->getNextNode();
  while (isa_and_nonnull<ViewLikeOpInterface>(next))
    next = next->getNextNode();
  auto generic = dyn_cast_or_null<linalg::GenericOp>(next);
  if (!generic || !generic.hasPureBufferSemantics() ||
      generic.getNumLoops() != 4 || generic.getNumParallelLoops() != 4 ||
      generic.getNumDpsInits() != 1)
    return std::nullopt;
  Epilogue epilogue;
  epilogue.generic = generic;
  OpOperand *init = generic.getDpsInitOperand(0);
  epilogue.output = init->get();
  if (epilogue.output != product) {
    auto alloc = product.getDefiningOp<memref::AllocOp>();
    if (!alloc)
      return std::nullopt;
    for (Operation *user : alloc->getUsers()) {
      if (user == op.getOperation() || user == generic ||
          isa<linalg::FillOp>(user))
        continue;
      if (!isa<memref::DeallocOp>(user))
        return std::nullopt;
      epilogue.deallocs.push_back(user);
    }
    epilogue.temporary = alloc;
  }
  Type outputType = getElementTypeOrSelf(epilogue.output.getType());
  if (!(outputType.isF16() || outputType.isBF16() || outputType.isF32()) ||
      !isa<MemRefType>(epilogue.output.getType()) ||
      cast<MemRefType>(epilogue.output.getType()).getRank() != 4 ||
      !isEpilogueOperand(epilogue.output, generic.getMatchingIndexingMap(init)))
    return std::nullopt;
  // The loops change meaning when the generic is collapsed: no indices.
  if (!matchEpilogueInputsAndBody(
          epilogue, product, isEpilogueOperand,
          [](AffineMap map) { return map.isIdentity(); },
          /*allowIndex=*/false))
    return std::nullopt;
  return epilogue;
}

FailureOr<MatmulSpec> mlir::croq::getConvolutionSpec(linalg::LinalgOp op) {
  if (failed(checkTypes(op)) || failed(checkShapes(op)))
    return failure();
  ConvolutionSpec conv;
  readGeometry(op, conv);
  // TMA moves rows of 16-byte multiples: the output's (and an hwcf
  // filter's) rows of F elements.
  if (conv.filters % 8 != 0)
    return op.emitOpError("convert-linalg-to-croq takes convolutions whose "
                          "filter count is a multiple of 8 (16-byte output "
                          "rows for TMA), got F = ")
           << conv.filters;
  conv.plain = conv.filterRows == 1 && conv.filterCols == 1 &&
               conv.strides[0] == 1 && conv.strides[1] == 1 &&
               conv.height == conv.outRows && conv.width == conv.outCols;
  if (conv.plain) {
    if (conv.channels % 8 != 0)
      return op.emitOpError("convert-linalg-to-croq takes 1x1 convolutions "
                            "whose input channels are a multiple of 8 "
                            "(16-byte rows for TMA), got C = ")
             << conv.channels;
  } else {
    foldPaddedCopy(op, conv);
    if (failed(checkIm2col(op, conv)))
      return failure();
  }
  MatmulSpec spec;
  spec.a = conv.input;
  spec.b = conv.filter;
  spec.c = conv.output;
  // fhwc filters are F x (R S C): B stored N x K.
  spec.bTransposed = conv.filtersFirst;
  if (auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
      fill && fill.hasPureBufferSemantics() &&
      fill.getDpsInits()[0] == spec.c && isZeroConstant(fill.getDpsInputs()[0]))
    spec.zeroFill = fill;
  if (spec.zeroFill)
    spec.epilogue = matchConvolutionEpilogue(op, spec.c);
  spec.conv = std::move(conv);
  return spec;
}

void mlir::croq::erasePaddedCopy(ConvolutionSpec &conv) {
  for (Operation *op : conv.paddedCopy)
    op->erase();
  conv.paddedCopy.clear();
}
