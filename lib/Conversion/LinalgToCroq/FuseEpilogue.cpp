//===- FuseEpilogue.cpp - elementwise consumers of a linalg GEMM ----------===//
//
// Matches the elementwise linalg.generic that consumes a GEMM's product and
// emits its body on the accumulator in registers (croq.mma.map).
//
//===----------------------------------------------------------------------===//

#include "FuseEpilogue.h"

#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::croq;

namespace {
/// How the generic reads one input at the element (m, n): a tile, a vector
/// per column or per row, a value, or the one element of a memref (every
/// dimension of extent 1, as TOSA passes a scalar operand).
enum class InputKind { Tile, Columns, Rows, Scalar, Element };
} // namespace

/// The position among `map`'s results of the one result that indexes a
/// dimension of `memref` of extent other than 1, where there is exactly
/// one; none otherwise (or where a constant other than 0, or a constant 0
/// on a longer dimension, indexes one).
static std::optional<unsigned> getOnlyVaryingResult(MemRefType memref,
                                                    AffineMap map) {
  std::optional<unsigned> varying;
  for (auto [position, expr] : llvm::enumerate(map.getResults())) {
    auto constant = dyn_cast<AffineConstantExpr>(expr);
    if (memref.getDimSize(position) == 1 &&
        (!constant || constant.getValue() == 0))
      continue;
    if (varying || constant)
      return std::nullopt;
    varying = position;
  }
  return varying;
}

/// How `operand`, read through `map`, is indexed; none if not fusable. The
/// loops are (m, n), or (b, m, n) for a batched product, whose tiles are
/// indexed (b, m, n) and vectors (n) or (m) (the same for every batch). A
/// vector may be stored with further dimensions of extent 1 (a bias of
/// 1 x 1 x N, indexed (0, 0, n) or (b, 0, n)); `dim` is then its dimension
/// that the loop indexes.
static std::optional<InputKind> classify(Value operand, AffineMap map,
                                         unsigned *dim = nullptr) {
  MLIRContext *context = map.getContext();
  unsigned loops = map.getNumDims();
  if (loops != 2 && loops != 3)
    return std::nullopt;
  AffineExpr m = getAffineDimExpr(loops - 2, context);
  AffineExpr n = getAffineDimExpr(loops - 1, context);
  auto memref = dyn_cast<MemRefType>(operand.getType());
  if (!memref)
    return map.getNumResults() == 0 && operand.getType().isIntOrFloat()
               ? std::optional(InputKind::Scalar)
               : std::nullopt;
  if (memref.getRank() == loops && map.isIdentity())
    return InputKind::Tile;
  // (Buffers of rank 0 are views of one dimension by now: RankZero.cpp.)
  if (memref.getRank() != 0 && memref.hasStaticShape() &&
      memref.getNumElements() == 1 &&
      llvm::all_of(map.getResults(), [](AffineExpr expr) {
        auto constant = dyn_cast<AffineConstantExpr>(expr);
        return !constant || constant.getValue() == 0;
      }))
    return InputKind::Element;
  std::optional<unsigned> varying = getOnlyVaryingResult(memref, map);
  if (!varying)
    return std::nullopt;
  if (dim)
    *dim = *varying;
  if (map.getResult(*varying) == n)
    return InputKind::Columns;
  if (map.getResult(*varying) == m)
    return InputKind::Rows;
  return std::nullopt;
}

/// `vector`, a memref of at most one dimension of extent above 1 (the
/// others of extent 1), as a memref of that one.
static Value collapseToVector(OpBuilder &b, Location loc, Value vector) {
  auto type = cast<MemRefType>(vector.getType());
  if (type.getRank() == 1)
    return vector;
  ReassociationIndices all;
  for (int64_t i = 0; i < type.getRank(); ++i)
    all.push_back(i);
  return memref::CollapseShapeOp::create(b, loc, vector,
                                         ArrayRef<ReassociationIndices>{all});
}

/// The allocation of the buffer `product`, where it is a temporary that
/// only the fill, the product, `generic` and deallocations use (directly or
/// through `product`, a view of it; views nothing reads do not count);
/// collects the deallocations.
static memref::AllocOp getTemporary(Value product, Operation *matmul,
                                    linalg::GenericOp generic,
                                    SmallVectorImpl<Operation *> &deallocs) {
  auto isProductUser = [&](Operation *user) {
    return user == matmul || user == generic || isa<linalg::FillOp>(user);
  };
  Value buffer = product;
  if (auto view = product.getDefiningOp<memref::CollapseShapeOp>()) {
    buffer = view.getSrc();
    if (!llvm::all_of(view->getUsers(), isProductUser))
      return nullptr;
  }
  auto alloc = buffer.getDefiningOp<memref::AllocOp>();
  if (!alloc)
    return nullptr;
  for (Operation *user : alloc->getUsers()) {
    // Views of it nothing reads are left behind.
    if (isProductUser(user) || user == product.getDefiningOp() ||
        (isa<ViewLikeOpInterface>(user) && user->use_empty()))
      continue;
    if (!isa<memref::DeallocOp>(user))
      return nullptr;
    deallocs.push_back(user);
  }
  return alloc;
}

std::optional<Epilogue> mlir::croq::matchEpilogue(linalg::LinalgOp matmul,
                                                  Value product) {
  // Views made between them (pure) do not count.
  Operation *next = matmul->getNextNode();
  while (isa_and_nonnull<ViewLikeOpInterface>(next))
    next = next->getNextNode();
  auto generic = dyn_cast_or_null<linalg::GenericOp>(next);
  // The product's loops less K: (m, n), or (b, m, n) batched.
  unsigned loops = matmul.getNumLoops() - 1;
  if (!generic || !generic.hasPureBufferSemantics() ||
      generic.getNumLoops() != loops ||
      generic.getNumParallelLoops() != loops || generic.getNumDpsInits() != 1)
    return std::nullopt;
  Epilogue epilogue;
  epilogue.generic = generic;
  OpOperand *init = generic.getDpsInitOperand(0);
  epilogue.output = init->get();
  // The generic writes the product's buffer in place (its final value), or
  // the product went through a temporary only the generic reads.
  if (epilogue.output != product) {
    epilogue.temporary =
        getTemporary(product, matmul, generic, epilogue.deallocs);
    if (!epilogue.temporary)
      return std::nullopt;
  }
  Type outputType = getElementTypeOrSelf(epilogue.output.getType());
  if (classify(epilogue.output, generic.getMatchingIndexingMap(init)) !=
      InputKind::Tile)
    return std::nullopt;
  // The body computes on the accumulator's element and yields the same
  // type (croq.mma.map): f32 rounded to an f16, bf16 or f32 output by the
  // store. An i32 product (of i8 operands) is fused only into a consumer
  // whose output is i32 too; one that converts it (a dequantization to a
  // float, say) stays an elementwise kernel of its own.
  Type productType = getElementTypeOrSelf(product.getType());
  bool fits =
      isa<IntegerType>(productType)
          ? outputType == productType
          : outputType.isF16() || outputType.isBF16() || outputType.isF32();
  if (!fits)
    return std::nullopt;
  auto acceptsInput = [](Value value, AffineMap map) {
    return classify(value, map).has_value();
  };
  auto acceptsProduct = [&](AffineMap map) {
    return classify(product, map) == InputKind::Tile;
  };
  if (!matchEpilogueInputsAndBody(epilogue, product, acceptsInput,
                                  acceptsProduct, /*allowIndex=*/true))
    return std::nullopt;
  return epilogue;
}

bool mlir::croq::matchEpilogueInputsAndBody(
    Epilogue &epilogue, Value product,
    function_ref<bool(Value, AffineMap)> acceptsInput,
    function_ref<bool(AffineMap)> acceptsProduct, bool allowIndex) {
  linalg::GenericOp generic = epilogue.generic;
  std::optional<unsigned> productInput;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    AffineMap map = generic.getMatchingIndexingMap(input);
    if (!acceptsInput(input->get(), map))
      return false;
    if (input->get() == product) {
      if (!acceptsProduct(map) || productInput)
        return false;
      productInput = input->getOperandNumber();
    }
  }
  if (!productInput)
    return false;
  epilogue.productInput = *productInput;
  // The body computes on values only, without reading the output.
  if (!generic.getMatchingBlockArgument(generic.getDpsInitOperand(0))
           .use_empty())
    return false;
  for (Operation &op : generic.getRegion().front().without_terminator())
    if (op.getNumRegions() || !isMemoryEffectFree(&op) ||
        (!allowIndex && isa<linalg::IndexOp>(op)))
      return false;
  return true;
}

SmallVector<EpilogueExtent>
mlir::croq::getEpilogueExtents(const Epilogue &epilogue) {
  linalg::GenericOp generic = epilogue.generic;
  SmallVector<EpilogueExtent> extents;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    if (input->getOperandNumber() == epilogue.productInput)
      continue;
    Value tensor = input->get();
    unsigned operand = input->getOperandNumber();
    unsigned dim = 0;
    switch (*classify(tensor, generic.getMatchingIndexingMap(input), &dim)) {
    case InputKind::Tile: {
      // (m, n), or (b, m, n) batched: the product's dimensions from the
      // last.
      unsigned rank = cast<MemRefType>(tensor.getType()).getRank();
      for (unsigned dim = 0; dim < rank; ++dim)
        extents.push_back({operand, tensor, dim, 3 - rank + dim});
      break;
    }
    case InputKind::Columns:
      extents.push_back({operand, tensor, dim, 2});
      break;
    case InputKind::Rows:
      extents.push_back({operand, tensor, dim, 1});
      break;
    case InputKind::Scalar:
    case InputKind::Element:
      break;
    }
  }
  return extents;
}

Value mlir::croq::buildTileView(OpBuilder &b, Location loc, Value tensor,
                                ArrayRef<int64_t> shape, ValueRange at,
                                Value batch, ArrayRef<int64_t> steps) {
  SmallVector<int64_t> viewShape(shape);
  SmallVector<int64_t> viewSteps(steps);
  SmallVector<Value> viewAt(at);
  if (batch) {
    viewShape.insert(viewShape.begin(), 1);
    viewAt.insert(viewAt.begin(), batch);
    if (!viewSteps.empty())
      viewSteps.insert(viewSteps.begin(), 1);
  }
  Type element = getElementTypeOrSelf(tensor.getType());
  auto type = ViewType::get(b.getContext(), viewShape, element,
                            MemorySpace::Global, Swizzle::None);
  DenseI64ArrayAttr stepAttr =
      viewSteps.empty() ? nullptr : b.getDenseI64ArrayAttr(viewSteps);
  return SubspanOp::create(b, loc, type, tensor, /*sizes=*/ValueRange{},
                           viewShape, /*steps=*/ValueRange{}, stepAttr, viewAt)
      .getResult();
}

/// The element of `window`, a window of one element (an input of
/// InputKind::Element).
static Value readOnlyElement(OpBuilder &b, Location loc, Type type,
                             Value window) {
  return ReadOp::create(b, loc, type, window,
                        ValueRange{arith::ConstantIndexOp::create(b, loc, 0)},
                        /*inBounds=*/true);
}

Value mlir::croq::readTileElement(OpBuilder &b, Location loc, Type type,
                                  Value window, Value row, Value col) {
  SmallVector<Value> at{row, col};
  if (cast<ViewType>(window.getType()).getRank() == 3)
    at.insert(at.begin(), arith::ConstantIndexOp::create(b, loc, 0));
  return ReadOp::create(b, loc, type, window, at, /*inBounds=*/false);
}

EpilogueInputs mlir::croq::prepareEpilogueInputs(OpBuilder &b, Location loc,
                                                 const Epilogue &epilogue,
                                                 int64_t rows, int64_t cols,
                                                 Value blockM, Value blockN,
                                                 Value batch) {
  linalg::GenericOp generic = epilogue.generic;
  EpilogueInputs inputs;
  if (!generic.getRegion().front().getOps<linalg::IndexOp>().empty()) {
    if (generic.getNumLoops() == 3)
      inputs.origin.push_back(
          batch ? batch
                : arith::ConstantIndexOp::create(b, loc, 0).getResult());
    inputs.origin.push_back(arith::MulIOp::create(
        b, loc, blockM, arith::ConstantIndexOp::create(b, loc, rows)));
    inputs.origin.push_back(arith::MulIOp::create(
        b, loc, blockN, arith::ConstantIndexOp::create(b, loc, cols)));
  }
  for (OpOperand *input : generic.getDpsInputOperands()) {
    InputKind kind =
        *classify(input->get(), generic.getMatchingIndexingMap(input));
    Value value = input->get();
    if (input->getOperandNumber() == epilogue.productInput)
      value = nullptr;
    else if (kind == InputKind::Tile)
      value = buildTileView(b, loc, value, {rows, cols},
                            ValueRange{blockM, blockN}, batch);
    else if (kind == InputKind::Columns)
      value = buildTileView(b, loc, collapseToVector(b, loc, value), {cols},
                            ValueRange{blockN});
    else if (kind == InputKind::Rows)
      value = buildTileView(b, loc, collapseToVector(b, loc, value), {rows},
                            ValueRange{blockM});
    else if (kind == InputKind::Element)
      value =
          buildTileView(b, loc, collapseToVector(b, loc, value), {1},
                        ValueRange{arith::ConstantIndexOp::create(b, loc, 0)});
    inputs.inputs.push_back({static_cast<unsigned>(kind), value});
  }
  return inputs;
}

Value mlir::croq::emitEpilogueElement(OpBuilder &b, Location loc,
                                      const Epilogue &epilogue,
                                      const EpilogueInputs &inputs, Value row,
                                      Value col, Value x) {
  linalg::GenericOp generic = epilogue.generic;
  Block &body = generic.getRegion().front();
  IRMapping mapping;
  for (auto [i, input] : llvm::enumerate(inputs.inputs)) {
    auto kind = static_cast<InputKind>(input.kind);
    BlockArgument arg = body.getArgument(i);
    Value element;
    if (!input.value) {
      // The product as the temporary buffer held it.
      element = x;
      if (arg.getType() != x.getType())
        element = arith::TruncFOp::create(b, loc, arg.getType(), x);
    } else if (kind == InputKind::Scalar) {
      element = input.value;
    } else if (kind == InputKind::Tile) {
      element = readTileElement(b, loc, arg.getType(), input.value, row, col);
    } else if (kind == InputKind::Element) {
      element = readOnlyElement(b, loc, arg.getType(), input.value);
    } else {
      Value at = kind == InputKind::Columns ? col : row;
      element = ReadOp::create(b, loc, arg.getType(), input.value,
                               ValueRange{at}, /*inBounds=*/false);
    }
    mapping.map(arg, element);
  }
  for (Operation &op : body.without_terminator()) {
    auto index = dyn_cast<linalg::IndexOp>(op);
    if (!index) {
      b.clone(op, mapping);
      continue;
    }
    // The element's position: the tile's first's, plus (row, col).
    unsigned dim = index.getDim();
    unsigned loops = inputs.origin.size();
    Value position = inputs.origin[dim];
    if (dim + 2 >= loops)
      position =
          arith::AddIOp::create(b, loc, position, dim + 2 == loops ? row : col);
    mapping.map(index.getResult(), position);
  }
  Value result = mapping.lookupOrDefault(
      cast<linalg::YieldOp>(body.getTerminator()).getOperand(0));
  // A last rounding of an f32 value to the output's type is the one the
  // store makes (to nearest even, both): the f32 value is the result, not
  // the rounded value widened again.
  if (auto round = result.getDefiningOp<arith::TruncFOp>();
      round && round.getIn().getType() == x.getType() &&
      !round.getRoundingmodeAttr() &&
      round.getType() == getElementTypeOrSelf(epilogue.output.getType())) {
    Value unrounded = round.getIn();
    // The clone is dead now: left in the body, it would be one more use of
    // the f32 value (which croq-fold-store-relu needs to be the only one).
    if (round->use_empty())
      round->erase();
    return unrounded;
  }
  if (result.getType() != x.getType())
    result = arith::ExtFOp::create(b, loc, x.getType(), result);
  return result;
}

/// Whether the first element of `tensor`, a memref with the identity layout
/// (offset 0), lies at an address that is a multiple of `bytes`, computed
/// where the kernel runs.
static Value isAligned(OpBuilder &b, Location loc, Value tensor,
                       int64_t bytes) {
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, tensor);
  Value rest = arith::RemUIOp::create(
      b, loc, base, arith::ConstantIndexOp::create(b, loc, bytes));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rest,
                               arith::ConstantIndexOp::create(b, loc, 0));
}

/// The `rows` or `cols` vector of `window`'s `size` elements (zero past
/// its edge): each thread reads the rows or columns its accumulator
/// fragments cover once, where a read in the mma.map body would run once
/// per element.
static Value loadVector(OpBuilder &b, Location loc, Value window, int64_t size,
                        AccAxis axis) {
  Type element = getElementTypeOrSelf(window.getType());
  auto type = VecType::get(b.getContext(), size, element, axis);
  // `pairs`: element i taken from the two-element read at i & ~1, which it
  // shares with element i ^ 1 (the same load once the body is unrolled).
  auto build = [&](OpBuilder &b, bool inBounds, bool pairs) -> Value {
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
    Value fill = VecFillOp::create(b, loc, type, zero);
    auto map = VecMapOp::create(b, loc, fill);
    Block &body = map.getBody().front();
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&body);
    Value index = body.getArgument(0);
    Value value;
    if (pairs) {
      Value even = arith::AndIOp::create(
          b, loc, index, arith::ConstantIndexOp::create(b, loc, ~int64_t(1)));
      Value odd = arith::AndIOp::create(
          b, loc, index, arith::ConstantIndexOp::create(b, loc, 1));
      Value pair = ReadOp::create(b, loc, VectorType::get({2}, element), window,
                                  ValueRange{even}, /*inBounds=*/true);
      value = vector::ExtractOp::create(b, loc, pair, OpFoldResult(odd));
    } else {
      value =
          ReadOp::create(b, loc, element, window, ValueRange{index}, inBounds);
    }
    YieldOp::create(b, loc, ValueRange{value});
    return map.getResult();
  };
  // A vector per column whose window lies inside its tensor (every tile but
  // the last of a row of tiles) and starts at an address aligned to a pair
  // of elements is read without edge tests, a pair of columns a read:
  // tested one by one, each of a thread's 64 reads took a compare and a
  // branch of its own, on the consumers' path before every tile's K loop.
  // (Vectors per row are split between the consumers by
  // croq-split-accumulators and keep one form.)
  auto subspan = window.getDefiningOp<SubspanOp>();
  auto tensor = subspan ? dyn_cast<MemRefType>(subspan.getSource().getType())
                        : MemRefType();
  if (axis != AccAxis::Cols || !tensor || tensor.getRank() != 1 ||
      subspan.getIndices().size() != 1 || !subspan.getSteps().empty() ||
      subspan.getStaticSteps())
    return build(b, /*inBounds=*/false, /*pairs=*/false);
  Value at = subspan.getIndices().front();
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value end =
      arith::MulIOp::create(b, loc, arith::AddIOp::create(b, loc, at, one),
                            arith::ConstantIndexOp::create(b, loc, size));
  Value extent = memref::DimOp::create(b, loc, subspan.getSource(), 0);
  Value fast =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, end, extent);
  // The window starts at a multiple of `size` elements: where that is even,
  // its pairs are aligned where the tensor's start is. (Pairs and single
  // reads without tests as two fast forms would share the odd elements'
  // loads, which LLVM then hoists out of both.)
  int64_t pairBytes = 2 * tensor.getElementTypeBitWidth() / 8;
  bool pairs = size % 2 == 0 && tensor.getLayout().isIdentity() &&
               (pairBytes == 4 || pairBytes == 8);
  if (pairs)
    fast = arith::AndIOp::create(
        b, loc, fast, isAligned(b, loc, subspan.getSource(), pairBytes));
  auto ifFast = scf::IfOp::create(b, loc, TypeRange{type}, fast,
                                  /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifFast.thenBlock());
  scf::YieldOp::create(b, loc, build(b, /*inBounds=*/true, pairs));
  b.setInsertionPointToStart(ifFast.elseBlock());
  scf::YieldOp::create(b, loc, build(b, /*inBounds=*/false, /*pairs=*/false));
  return ifFast.getResult(0);
}

EpilogueOperands mlir::croq::loadEpilogueInputs(OpBuilder &b, Location loc,
                                                const Epilogue &epilogue,
                                                int64_t rows, int64_t cols,
                                                Value blockM, Value blockN,
                                                Value batch) {
  EpilogueOperands operands;
  operands.inputs = prepareEpilogueInputs(b, loc, epilogue, rows, cols, blockM,
                                          blockN, batch);
  for (auto [i, input] : llvm::enumerate(operands.inputs.inputs)) {
    auto kind = static_cast<InputKind>(input.kind);
    // One element is read once, a value in the body.
    if (kind == InputKind::Element) {
      input = {static_cast<unsigned>(InputKind::Scalar),
               readOnlyElement(b, loc,
                               getElementTypeOrSelf(input.value.getType()),
                               input.value)};
      continue;
    }
    if (kind == InputKind::Columns)
      operands.vectors.push_back(
          loadVector(b, loc, input.value, cols, AccAxis::Cols));
    else if (kind == InputKind::Rows)
      operands.vectors.push_back(
          loadVector(b, loc, input.value, rows, AccAxis::Rows));
    else
      continue;
    operands.vectorInputs.push_back(i);
  }
  return operands;
}

Value mlir::croq::emitEpilogue(OpBuilder &b, Location loc,
                               const Epilogue &epilogue,
                               const EpilogueOperands &operands, Value acc) {
  auto map = MmaMapOp::create(b, loc, acc, operands.vectors);
  Block &mapBody = map.getBody().front();
  // In the body, a row's or column's element is the broadcast vector's.
  EpilogueInputs inputs = operands.inputs;
  for (auto [index, input] : llvm::enumerate(operands.vectorInputs))
    inputs.inputs[input] = {static_cast<unsigned>(InputKind::Scalar),
                            mapBody.getArgument(3 + index)};
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&mapBody);
  Value result =
      emitEpilogueElement(b, loc, epilogue, inputs, mapBody.getArgument(0),
                          mapBody.getArgument(1), mapBody.getArgument(2));
  YieldOp::create(b, loc, ValueRange{result});
  return map.getResult();
}
