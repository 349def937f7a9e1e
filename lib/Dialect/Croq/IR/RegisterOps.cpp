//===- RegisterOps.cpp - croq ops on accumulators in registers ------------===//
//
// Parsing, printing and verification of the ops that compute on
// accumulators and accumulator vectors where they live, in registers:
// croq.mma.map, croq.vec.map (with croq.yield), croq.mma.reduce and
// croq.mma.convert, croq.mma.cluster_sum.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/BufferUtils.h"
#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::croq;

/// The element type of an accumulator or vector.
static Type getElementTypeOf(Type type) {
  if (auto acc = dyn_cast<AccType>(type))
    return acc.getElementType();
  return cast<VecType>(type).getElementType();
}

/// Builds a map op over `first` and `inputs` whose result has the type of
/// `first`, and its body: `indices` index arguments, then one element of
/// each operand.
static void buildMapOp(OpBuilder &builder, OperationState &state,
                       unsigned indices, Value first, ValueRange inputs) {
  state.addOperands(first);
  state.addOperands(inputs);
  state.addTypes(first.getType());
  OpBuilder::InsertionGuard guard(builder);
  Region *body = state.addRegion();
  Block *block = builder.createBlock(body);
  Location loc = state.location;
  for (unsigned i = 0; i < indices; ++i)
    block->addArgument(builder.getIndexType(), loc);
  for (Value operand : state.operands)
    block->addArgument(getElementTypeOf(operand.getType()), loc);
}

/// Parses `%a, %b... (%i..., %x...) : type, type... attr-dict { body }`: the
/// operands, `indices` index arguments and one element of each operand.
static ParseResult parseMapOp(OpAsmParser &parser, OperationState &result,
                              unsigned indices, StringRef indexNames) {
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<Type> types;
  SMLoc operandsLoc = parser.getCurrentLocation();
  if (parser.parseOperandList(operands) ||
      parser.parseArgumentList(args, OpAsmParser::Delimiter::Paren) ||
      parser.parseColonTypeList(types) ||
      parser.resolveOperands(operands, types, operandsLoc, result.operands))
    return failure();
  if (args.size() != indices + operands.size())
    return parser.emitError(parser.getNameLoc(), "expected ")
           << indices + operands.size() << " block arguments (" << indexNames
           << ", then one element per operand), got " << args.size();
  for (unsigned i = 0; i < indices; ++i)
    args[i].type = parser.getBuilder().getIndexType();
  for (auto [arg, type] : llvm::zip(llvm::drop_begin(args, indices), types)) {
    if (!isa<AccType, VecType>(type))
      return parser.emitError(parser.getNameLoc(),
                              "expected accumulator or vector operands, got ")
             << type;
    arg.type = getElementTypeOf(type);
  }
  Region *body = result.addRegion();
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      parser.parseRegion(*body, args))
    return failure();
  // `{}` parses as a region without a block; the verifier names it.
  result.addTypes(types.front());
  return success();
}

static void printMapOp(OpAsmPrinter &printer, Operation *op, Region &body) {
  printer << " ";
  printer.printOperands(op->getOperands());
  printer << " (";
  llvm::interleaveComma(body.front().getArguments(), printer,
                        [&](BlockArgument arg) { printer << arg; });
  printer << ") : ";
  llvm::interleaveComma(op->getOperandTypes(), printer);
  printer.printOptionalAttrDictWithKeyword(op->getAttrs());
  printer << " ";
  printer.printRegion(body, /*printEntryBlockArgs=*/false);
}

/// The region rules of map ops: the arguments the operands give, one
/// croq.yield of the result's element type, and a body that only computes
/// and reads (each thread runs it once per element it holds).
static LogicalResult verifyMapBody(Operation *op, Region &region,
                                   unsigned indices, StringRef indexNames) {
  if (region.empty())
    return op->emitOpError("expected a body (")
           << indexNames << ", elements) -> croq.yield";
  Block &body = region.front();
  SmallVector<Type> expected(indices, IndexType::get(op->getContext()));
  for (Type type : op->getOperandTypes())
    expected.push_back(getElementTypeOf(type));
  if (body.getArgumentTypes() != ArrayRef<Type>(expected)) {
    std::string types;
    llvm::raw_string_ostream os(types);
    llvm::interleaveComma(expected, os);
    return op->emitOpError("expected body arguments (") << types << ")";
  }
  Type element = getElementTypeOf(op->getResult(0).getType());
  auto yield = body.empty() ? YieldOp() : dyn_cast<YieldOp>(body.back());
  if (!yield || yield.getValues().size() != 1 ||
      yield.getValues()[0].getType() != element)
    return op->emitOpError("body must end with croq.yield of one ")
           << element << " value";
  WalkResult walk = region.walk([&](Operation *inner) {
    bool isCroq = isa<CroqDialect>(inner->getDialect());
    if (isa<YieldOp, ReadOp>(inner) ||
        (!isCroq && (isMemoryEffectFree(inner) ||
                     inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>())))
      return WalkResult::advance();
    inner->emitOpError("cannot be in the body of a ")
        << op->getName()
        << ": the body may only compute and read memory (croq.read)";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// MmaMapOp
//===----------------------------------------------------------------------===//

void MmaMapOp::build(OpBuilder &builder, OperationState &state, Value acc,
                     ValueRange inputs) {
  buildMapOp(builder, state, 2, acc, inputs);
}

// croq.mma.map %acc, %in... (%row, %col, %x, %y...) : types attr-dict { body }
ParseResult MmaMapOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseMapOp(parser, result, 2, "row, column");
}

void MmaMapOp::print(OpAsmPrinter &printer) {
  printMapOp(printer, *this, getBody());
}

LogicalResult MmaMapOp::verify() {
  ArrayRef<int64_t> shape = getAcc().getType().getShape();
  for (auto [i, type] : llvm::enumerate(getInputs().getTypes())) {
    if (auto acc = dyn_cast<AccType>(type)) {
      if (acc.getShape() != shape)
        return emitOpError("input ")
               << i + 1 << " is " << acc << ", not an accumulator of the "
               << "mapped one's shape " << shape[0] << "x" << shape[1];
      continue;
    }
    auto vec = cast<VecType>(type);
    bool rows = vec.getAxis() == AccAxis::Rows;
    int64_t extent = rows ? shape[0] : shape[1];
    if (vec.getSize() != extent)
      return emitOpError("input ")
             << i + 1 << " is " << vec << ", but the accumulator has " << extent
             << (rows ? " rows" : " columns");
  }
  return success();
}

LogicalResult MmaMapOp::verifyRegions() {
  return verifyMapBody(*this, getBody(), 2, "row, column");
}

//===----------------------------------------------------------------------===//
// VecMapOp
//===----------------------------------------------------------------------===//

void VecMapOp::build(OpBuilder &builder, OperationState &state, Value vec,
                     ValueRange inputs) {
  buildMapOp(builder, state, 1, vec, inputs);
}

// croq.vec.map %v, %in... (%i, %x, %y...) : types attr-dict { body }
ParseResult VecMapOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseMapOp(parser, result, 1, "index");
}

void VecMapOp::print(OpAsmPrinter &printer) {
  printMapOp(printer, *this, getBody());
}

LogicalResult VecMapOp::verify() {
  VecType type = getVec().getType();
  for (auto [i, input] : llvm::enumerate(getInputs().getTypes())) {
    auto vec = cast<VecType>(input);
    if (vec.getSize() != type.getSize() || vec.getAxis() != type.getAxis())
      return emitOpError("input ")
             << i + 1 << " is " << vec << ", not a vector of the mapped "
             << "one's " << type.getSize() << " "
             << stringifyAccAxis(type.getAxis());
  }
  return success();
}

LogicalResult VecMapOp::verifyRegions() {
  return verifyMapBody(*this, getBody(), 1, "index");
}

//===----------------------------------------------------------------------===//
// VecStoreOp
//===----------------------------------------------------------------------===//

LogicalResult VecStoreOp::verify() {
  VecType vec = getVec().getType();
  auto dest = cast<ShapedType>(getDest().getType());
  if (dest.getElementType() != vec.getElementType())
    return emitOpError("destination element type ")
           << dest.getElementType() << " differs from the vector's "
           << vec.getElementType();
  ArrayRef<int64_t> shape = dest.getShape();
  if (shape.empty() || shape.back() != vec.getSize() ||
      llvm::any_of(shape.drop_back(), [](int64_t d) { return d != 1; }))
    return emitOpError("destination must be 1 x .. x 1 x ")
           << vec.getSize() << " (the vector's elements along its innermost "
           << "dimension), got " << dest;
  return success();
}

//===----------------------------------------------------------------------===//
// MmaReduceOp
//===----------------------------------------------------------------------===//

LogicalResult MmaReduceOp::verify() {
  AccType acc = getAcc().getType();
  VecType result = getResult().getType();
  if (result.getElementType() != acc.getElementType())
    return emitOpError("result element type ")
           << result.getElementType() << " does not match the accumulator's "
           << acc.getElementType();
  bool rows = result.getAxis() == AccAxis::Rows;
  int64_t extent = rows ? acc.getShape()[0] : acc.getShape()[1];
  if (result.getSize() != extent)
    return emitOpError("a reduction of each ")
           << (rows ? "row" : "column") << " of " << acc << " has " << extent
           << " elements, not " << result.getSize();
  std::string scratchType;
  llvm::raw_string_ostream os(scratchType);
  os << "4x" << acc.getShape()[1] << "x" << acc.getElementType();
  Value scratch = getScratch();
  if (rows) {
    if (scratch)
      return emitOpError("rows reduce across the lanes of a quad; a scratch "
                         "tile is only for column reductions");
    return success();
  }
  if (!scratch)
    return emitOpError("a column reduction combines the four warps' partial "
                       "results in shared memory: give it a scratch tile of ")
           << scratchType;
  auto type = cast<ShapedType>(scratch.getType());
  if (getMemorySpaceOf(scratch.getType()) != MemorySpace::Shared ||
      type.getShape() != ArrayRef<int64_t>{4, acc.getShape()[1]} ||
      type.getElementType() != acc.getElementType())
    return emitOpError("scratch must be a shared tile of ")
           << scratchType << ", got " << scratch.getType();
  return success();
}

//===----------------------------------------------------------------------===//
// MmaConvertOp
//===----------------------------------------------------------------------===//

LogicalResult MmaConvertOp::verify() {
  AccType acc = getAcc().getType();
  FragType frag = getResult().getType();
  if (!frag.getInRegisters())
    return emitOpError("converts to an operand in registers: the result "
                       "type needs ', registers'");
  if (frag.getShape() != acc.getShape())
    return emitOpError("result shape ")
           << frag.getShape()[0] << "x" << frag.getShape()[1]
           << " differs from the accumulator's " << acc.getShape()[0] << "x"
           << acc.getShape()[1];
  Type element = frag.getElementType();
  if (!element.isF16() && !element.isBF16())
    return emitOpError("an A operand in registers is f16 or bf16, got ")
           << element;
  if (!acc.getElementType().isF32())
    return emitOpError("converts f32 accumulators, got ")
           << acc.getElementType();
  if (acc.getShape()[0] % 64 != 0 || acc.getShape()[1] % 16 != 0)
    return emitOpError("an A operand in registers is a multiple of 64 rows "
                       "(one wgmma) by a multiple of 16 columns (its K), got ")
           << acc.getShape()[0] << "x" << acc.getShape()[1];
  return success();
}

//===----------------------------------------------------------------------===//
// MmaSliceOp
//===----------------------------------------------------------------------===//

LogicalResult MmaSliceOp::verify() {
  AccType acc = getAcc().getType();
  AccType result = getResult().getType();
  if (result.getElementType() != acc.getElementType())
    return emitOpError("result element type ")
           << result.getElementType() << " differs from the accumulator's "
           << acc.getElementType();
  if (result.getShape()[0] != acc.getShape()[0])
    return emitOpError("result has ")
           << result.getShape()[0] << " rows, the accumulator "
           << acc.getShape()[0] << ": a slice takes columns of every row";
  int64_t column = getColumn(), width = result.getShape()[1];
  if (column % 8 != 0 || width % 8 != 0)
    return emitOpError("column ")
           << column << " and width " << width
           << " must be multiples of 8, the columns of one register group "
              "of the accumulator";
  if (column < 0 || column + width > acc.getShape()[1])
    return emitOpError("columns [")
           << column << ", " << column + width
           << ") are not inside the accumulator's " << acc.getShape()[1];
  return success();
}

//===----------------------------------------------------------------------===//
// MmaClusterSumOp
//===----------------------------------------------------------------------===//

LogicalResult MmaClusterSumOp::verify() {
  ParallelOp kernel = getKernel(*this);
  if (!kernel || !kernel.getCluster())
    return emitOpError("sums the accumulators of a cluster's blocks: it must "
                       "be inside a block-level croq.parallel region "
                       "launched in clusters (`cluster [...]`)");
  int64_t blocks = kernel.getClusterBlocks();
  if (blocks < 2)
    return emitOpError("needs a cluster of at least 2 blocks, got ") << blocks;
  for (Operation *parent = (*this)->getParentOp(); parent != kernel;
       parent = parent->getParentOp())
    if (isa<LoopLikeOpInterface>(parent))
      return emitOpError("runs once per block and launch (its mbarrier "
                         "completes one phase): it must not be inside a "
                         "loop of its kernel, got '")
             << parent->getName() << "'";
  AccType acc = getAcc().getType();
  Type element = acc.getElementType();
  if (!element.isF32() && !element.isInteger(32))
    return emitOpError("sums f32 or i32 accumulators, got ") << element;
  Type scratchType = getScratch().getType();
  auto shaped = cast<ShapedType>(scratchType);
  int64_t rows = (blocks - 1) * acc.getShape()[0];
  if (getMemorySpaceOf(scratchType) != MemorySpace::Shared ||
      getSwizzleOf(scratchType) != Swizzle::None ||
      shaped.getElementType() != element ||
      shaped.getShape() != ArrayRef<int64_t>{rows, acc.getShape()[1]}) {
    std::string expected;
    llvm::raw_string_ostream os(expected);
    os << rows << "x" << acc.getShape()[1] << "x" << element;
    return emitOpError("scratch must be an unswizzled shared tile of ")
           << expected
           << " (one slot of the accumulator's shape for each other block "
              "of the cluster of "
           << blocks << "), got " << scratchType;
  }
  return success();
}
