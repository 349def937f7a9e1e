//===- CroqOps.cpp - croq op assembly and region ops ----------------------===//
//
// Custom assembly directives shared by croq ops, the generated op
// definitions, and the parallel, allocation and element-access ops.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/ThreadGroups.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::croq;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

/// `[%i, _, %k]`: a chunk coordinate or `_` (whole dimension) per dimension.
static ParseResult
parseChunkIndices(OpAsmParser &parser,
                  SmallVectorImpl<OpAsmParser::UnresolvedOperand> &indices,
                  DenseBoolArrayAttr &partitioned) {
  SmallVector<bool> flags;
  auto parseOne = [&]() -> ParseResult {
    if (succeeded(parser.parseOptionalKeyword("_"))) {
      flags.push_back(false);
      return success();
    }
    OpAsmParser::UnresolvedOperand operand;
    if (parser.parseOperand(operand))
      return failure();
    indices.push_back(operand);
    flags.push_back(true);
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseOne))
    return failure();
  partitioned = parser.getBuilder().getDenseBoolArrayAttr(flags);
  return success();
}

static void printChunkIndices(OpAsmPrinter &printer, Operation *,
                              OperandRange indices,
                              DenseBoolArrayAttr partitioned) {
  printer << "[";
  unsigned next = 0;
  llvm::interleaveComma(partitioned.asArrayRef(), printer, [&](bool isIndex) {
    if (isIndex && next < indices.size())
      printer << indices[next++];
    else
      printer << "_";
  });
  printer << "]";
}

/// An optional `keyword [mixed index list]`.
static ParseResult parseOptionalKeywordIndexList(
    OpAsmParser &parser, StringRef keyword,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &values,
    DenseI64ArrayAttr &integers) {
  if (failed(parser.parseOptionalKeyword(keyword)))
    return success();
  return parseDynamicIndexList(parser, values, integers);
}

static void printOptionalKeywordIndexList(OpAsmPrinter &printer,
                                          Operation *op, StringRef keyword,
                                          OperandRange values,
                                          DenseI64ArrayAttr integers) {
  if (!integers)
    return;
  printer << " " << keyword << " ";
  printDynamicIndexList(printer, op, values, integers);
}

static ParseResult
parseOptionalStep(OpAsmParser &parser,
                  SmallVectorImpl<OpAsmParser::UnresolvedOperand> &values,
                  DenseI64ArrayAttr &integers) {
  return parseOptionalKeywordIndexList(parser, "step", values, integers);
}

static void printOptionalStep(OpAsmPrinter &printer, Operation *op,
                              OperandRange values,
                              DenseI64ArrayAttr integers) {
  printOptionalKeywordIndexList(printer, op, "step", values, integers);
}

static ParseResult
parseOptionalWithin(OpAsmParser &parser,
                    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &values,
                    DenseI64ArrayAttr &integers) {
  return parseOptionalKeywordIndexList(parser, "within", values, integers);
}

static void printOptionalWithin(OpAsmPrinter &printer, Operation *op,
                                OperandRange values,
                                DenseI64ArrayAttr integers) {
  printOptionalKeywordIndexList(printer, op, "within", values, integers);
}

/// `async`: the op returns a `!croq.future`.
static ParseResult parseAsyncResult(OpAsmParser &parser, Type &futureType) {
  if (succeeded(parser.parseOptionalKeyword("async")))
    futureType = FutureType::get(parser.getContext());
  return success();
}

static void printAsyncResult(OpAsmPrinter &printer, Operation *,
                             Type futureType) {
  if (futureType)
    printer << " async";
}

/// `swizzle = none|auto|32|64|128`, optional.
static ParseResult parseOptionalSwizzle(OpAsmParser &parser,
                                        SwizzleAttr &swizzle) {
  if (failed(parser.parseOptionalKeyword("swizzle")))
    return success();
  if (parser.parseEqual())
    return failure();
  SMLoc loc = parser.getCurrentLocation();
  std::optional<Swizzle> value;
  if (succeeded(parser.parseOptionalKeyword("none")))
    value = Swizzle::None;
  else if (succeeded(parser.parseOptionalKeyword("auto")))
    value = Swizzle::Auto;
  else {
    int64_t bytes;
    if (parser.parseInteger(bytes))
      return failure();
    value = symbolizeSwizzle(std::to_string(bytes));
    if (!value || bytes == 0)
      return parser.emitError(loc, "expected swizzle none, auto, 32, 64 or "
                                   "128, got ")
             << bytes;
  }
  swizzle = SwizzleAttr::get(parser.getContext(), *value);
  return success();
}

static void printOptionalSwizzle(OpAsmPrinter &printer, Operation *,
                                 SwizzleAttr swizzle) {
  if (swizzle)
    printer << " swizzle = " << stringifySwizzle(swizzle.getValue());
}

/// `multicast` or `multicast along 1`, optional: a tma load shared among
/// the blocks of its cluster, or among those that differ in one cluster
/// coordinate.
static ParseResult parseMulticast(OpAsmParser &parser, UnitAttr &multicast,
                                  IntegerAttr &dim) {
  if (failed(parser.parseOptionalKeyword("multicast")))
    return success();
  multicast = parser.getBuilder().getUnitAttr();
  if (failed(parser.parseOptionalKeyword("along")))
    return success();
  int64_t value;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseInteger(value))
    return failure();
  if (value < 0)
    return parser.emitError(loc, "expected a cluster dimension (>= 0), got ")
           << value;
  dim = parser.getBuilder().getI64IntegerAttr(value);
  return success();
}

static void printMulticast(OpAsmPrinter &printer, Operation *,
                           UnitAttr multicast, IntegerAttr dim) {
  if (!multicast)
    return;
  printer << " multicast";
  if (dim)
    printer << " along " << dim.getInt();
}

/// `boxes [64, 64] at [[0, 0], [0, 64]]`, optional: a tma copy's box shape
/// and the origins of its boxes (flattened in `origins`).
static ParseResult parseTmaBoxes(OpAsmParser &parser, DenseI64ArrayAttr &box,
                                 DenseI64ArrayAttr &origins) {
  if (failed(parser.parseOptionalKeyword("boxes")))
    return success();
  SmallVector<int64_t> shape;
  SmallVector<int64_t> flat;
  auto parseInt = [&](SmallVectorImpl<int64_t> &into) -> ParseResult {
    return parser.parseInteger(into.emplace_back());
  };
  auto parseOrigin = [&]() -> ParseResult {
    return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                          [&] { return parseInt(flat); });
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     [&] { return parseInt(shape); }) ||
      parser.parseKeyword("at") ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     parseOrigin))
    return failure();
  box = parser.getBuilder().getDenseI64ArrayAttr(shape);
  origins = parser.getBuilder().getDenseI64ArrayAttr(flat);
  return success();
}

static void printTmaBoxes(OpAsmPrinter &printer, Operation *,
                          DenseI64ArrayAttr box, DenseI64ArrayAttr origins) {
  if (!box)
    return;
  printer << " boxes [";
  llvm::interleaveComma(box.asArrayRef(), printer);
  printer << "] at [";
  ArrayRef<int64_t> flat = origins ? origins.asArrayRef() : ArrayRef<int64_t>();
  size_t rank = std::max<size_t>(1, box.size());
  for (size_t i = 0; i < flat.size(); i += rank) {
    if (i)
      printer << ", ";
    printer << "[";
    llvm::interleaveComma(flat.slice(i, std::min(rank, flat.size() - i)),
                          printer);
    printer << "]";
  }
  printer << "]";
}

/// `(%i, %j) in [4, %n]`: induction variables and mixed extents of a region
/// op. Fills `arguments` with index-typed block arguments.
static ParseResult
parseInductionSpace(OpAsmParser &parser, OperationState &result,
                    SmallVectorImpl<OpAsmParser::Argument> &arguments) {
  SmallVector<OpAsmParser::UnresolvedOperand> extents;
  DenseI64ArrayAttr staticExtents;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseArgumentList(arguments, AsmParser::Delimiter::Paren) ||
      parser.parseKeyword("in") ||
      parseDynamicIndexList(parser, extents, staticExtents))
    return failure();
  if (static_cast<int64_t>(arguments.size()) != staticExtents.size())
    return parser.emitError(loc, "expected ")
           << staticExtents.size() << " induction variables, got "
           << arguments.size();
  Type indexType = parser.getBuilder().getIndexType();
  for (OpAsmParser::Argument &argument : arguments)
    argument.type = indexType;
  if (parser.resolveOperands(extents, indexType, result.operands))
    return failure();
  result.addAttribute("staticExtents", staticExtents);
  return success();
}

static void printInductionSpace(OpAsmPrinter &printer, Operation *op,
                                Block::BlockArgListType ivs,
                                OperandRange extents,
                                DenseI64ArrayAttr staticExtents) {
  printer << " (";
  llvm::interleaveComma(ivs, printer);
  printer << ") in ";
  printDynamicIndexList(printer, op, extents, staticExtents);
}

/// `: !croq.view<64x64xf16> -> vector<8xf16>`: the buffer's type, then the
/// type an element access reads or writes if it is not the buffer's element
/// type.
static ParseResult parseAccessTypes(OpAsmParser &parser, Type &bufferType,
                                    Type &accessType) {
  if (parser.parseColonType(bufferType))
    return failure();
  if (succeeded(parser.parseOptionalArrow()))
    return parser.parseType(accessType);
  accessType = getElementTypeOrSelf(bufferType);
  return success();
}

static void printAccessTypes(OpAsmPrinter &printer, Operation *,
                             Type bufferType, Type accessType) {
  printer << ": " << bufferType;
  if (accessType != getElementTypeOrSelf(bufferType))
    printer << " -> " << accessType;
}

#define GET_OP_CLASSES
#include "Croq/Dialect/Croq/IR/CroqOps.cpp.inc"

//===----------------------------------------------------------------------===//
// ParallelOp
//===----------------------------------------------------------------------===//

ParseResult ParallelOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> ivs;
  StringRef levelName;
  if (parseInductionSpace(parser, result, ivs) || parser.parseColon())
    return failure();
  SMLoc levelLoc = parser.getCurrentLocation();
  if (parser.parseKeyword(&levelName))
    return failure();
  std::optional<ParallelLevel> level = symbolizeParallelLevel(levelName);
  if (!level)
    return parser.emitError(levelLoc, "expected parallel level block, "
                                      "warpgroup or thread, got '")
           << levelName << "'";
  result.addAttribute("level",
                      ParallelLevelAttr::get(parser.getContext(), *level));
  if (succeeded(parser.parseOptionalKeyword("cluster"))) {
    SmallVector<int64_t> cluster;
    if (parser.parseCommaSeparatedList(
            OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
              return parser.parseInteger(cluster.emplace_back());
            }))
      return failure();
    result.addAttribute("cluster",
                        parser.getBuilder().getDenseI64ArrayAttr(cluster));
  }
  Region *body = result.addRegion();
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      parser.parseRegion(*body, ivs))
    return failure();
  // `{}` without induction variables parses as a region with no block.
  if (body->empty())
    body->emplaceBlock();
  return success();
}

void ParallelOp::print(OpAsmPrinter &printer) {
  printInductionSpace(printer, *this, getInductionVars(), getDynamicExtents(),
                      getStaticExtentsAttr());
  printer << " : " << stringifyParallelLevel(getLevel());
  if (std::optional<ArrayRef<int64_t>> cluster = getCluster()) {
    printer << " cluster [";
    llvm::interleaveComma(*cluster, printer);
    printer << "]";
  }
  printer.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {"staticExtents", "level", "cluster"});
  printer << " ";
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult ParallelOp::verifyCluster() {
  std::optional<ArrayRef<int64_t>> cluster = getCluster();
  if (!cluster)
    return success();
  if (getLevel() != ParallelLevel::Block)
    return emitOpError("only block-level regions are launched in clusters, "
                       "got a cluster on a '")
           << stringifyParallelLevel(getLevel()) << "' region";
  if (cluster->size() != getRank())
    return emitOpError("expected a cluster size for each of the ")
           << getRank() << " dimensions of the grid, got " << cluster->size();
  int64_t blocks = 1;
  for (auto [size, extent] : llvm::zip(*cluster, getStaticExtents())) {
    if (size <= 0)
      return emitOpError("expected positive cluster sizes, got ") << size;
    blocks = saturatingMul(blocks, size);
    if (!ShapedType::isDynamic(extent) && extent % size != 0)
      return emitOpError("a grid extent must be a multiple of the cluster's "
                         "size in its dimension, got extent ")
             << extent << " for a cluster size of " << size;
  }
  if (blocks > kMaxClusterBlocks)
    return emitOpError("a cluster has at most ")
           << kMaxClusterBlocks << " blocks, got " << blocks;
  return success();
}

int64_t ParallelOp::getClusterBlocks() {
  int64_t blocks = 1;
  if (std::optional<ArrayRef<int64_t>> cluster = getCluster())
    for (int64_t size : *cluster)
      blocks = saturatingMul(blocks, size);
  return blocks;
}

SmallVector<OpFoldResult> ParallelOp::getMixedExtents() {
  return getMixedValues(getStaticExtents(), getDynamicExtents(), getContext());
}

LogicalResult ParallelOp::verify() {
  if (failed(verifyListOfOperandsOrIntegers(*this, "extent", getRank(),
                                            getStaticExtents(),
                                            getDynamicExtents())))
    return failure();
  for (int64_t extent : getStaticExtents())
    if (!ShapedType::isDynamic(extent) && extent <= 0)
      return emitOpError("expected positive extents, got ") << extent;
  if (getRank() == 0)
    return emitOpError("expected at least one dimension");

  if (getSharedMemory() && getLevel() != ParallelLevel::Block)
    return emitOpError("only block-level regions have shared memory, got "
                       "'shared_memory' on a '")
           << stringifyParallelLevel(getLevel()) << "' region";
  if (failed(verifyCluster()))
    return failure();
  auto parent = (*this)->getParentOfType<ParallelOp>();
  switch (getLevel()) {
  case ParallelLevel::Block:
    if (parent)
      return emitOpError("a block-level region cannot be nested in another "
                         "croq.parallel region");
    break;
  case ParallelLevel::Warpgroup:
    if (!parent || parent.getLevel() != ParallelLevel::Block)
      return emitOpError("a warpgroup-level region must be nested directly "
                         "in a block-level croq.parallel region");
    break;
  case ParallelLevel::Thread:
    if (!parent || parent.getLevel() == ParallelLevel::Thread)
      return emitOpError("a thread-level region must be nested in a block- "
                         "or warpgroup-level croq.parallel region");
    break;
  }
  return success();
}

LogicalResult ParallelOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getRank())
    return emitOpError("expected ")
           << getRank() << " induction variables, got "
           << body.getNumArguments();
  for (BlockArgument arg : body.getArguments())
    if (!arg.getType().isIndex())
      return emitOpError("induction variables must be of index type, got ")
             << arg.getType();
  return success();
}

//===----------------------------------------------------------------------===//
// InthreadsOp
//===----------------------------------------------------------------------===//

LogicalResult InthreadsOp::verifyRegions() {
  auto parallel = (*this)->getParentOfType<ParallelOp>();
  if (!parallel)
    return emitOpError("must be nested in a croq.parallel region");
  if (std::optional<int64_t> registers = getRegisters()) {
    if (!getAsync() || parallel.getLevel() != ParallelLevel::Warpgroup)
      return emitOpError("'registers' sets the register count of a "
                         "warp-specialized role: an async region directly in "
                         "a warpgroup-level croq.parallel");
    if (*registers % 8 != 0)
      return emitOpError("'registers' must be a multiple of 8 (setmaxnreg), "
                         "got ")
             << *registers;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// AllocOp and StageOp
//===----------------------------------------------------------------------===//

LogicalResult AllocOp::verify() {
  Type type = getResult().getType();
  MemorySpace space = *getMemorySpaceOf(type);
  auto parallel = (*this)->getParentOfType<ParallelOp>();
  if (!parallel)
    return emitOpError("on-chip buffers must be allocated inside a "
                       "croq.parallel region");
  if (space == MemorySpace::Shared &&
      parallel.getLevel() != ParallelLevel::Block)
    return emitOpError("shared buffers belong to a block: the nearest "
                       "enclosing croq.parallel is '")
           << stringifyParallelLevel(parallel.getLevel())
           << "', expected 'block'";
  if (std::optional<int64_t> offset = getOffset()) {
    if (space != MemorySpace::Shared)
      return emitOpError("only shared buffers have an offset in shared "
                         "memory, got one on a ")
             << stringifyMemorySpace(space) << " buffer";
    int64_t align = getSharedAlignment(getSwizzleOf(type));
    if (*offset % align != 0)
      return emitOpError("offset ") << *offset << " is not a multiple of the "
                                    << align << "-byte alignment of its layout";
  }
  return success();
}

LogicalResult StageOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location>,
                                        StageOp::Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  auto tiles = dyn_cast<TilesType>(adaptor.getTiles().getType());
  if (!tiles)
    return failure();
  types.push_back(tiles.getTileType());
  return success();
}

LogicalResult StageOp::verify() {
  auto tiles = cast<TilesType>(getTiles().getType());
  if (std::optional<int64_t> index = getConstantIntValue(getIndex()))
    if (*index < 0 || *index >= tiles.getNumStages())
      return emitOpError("stage index ")
             << *index << " is out of range for " << tiles.getNumStages()
             << " stages";
  return success();
}

//===----------------------------------------------------------------------===//
// ForeachOp
//===----------------------------------------------------------------------===//

ParseResult ForeachOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> ivs;
  if (parseInductionSpace(parser, result, ivs))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      parser.parseRegion(*body, ivs))
    return failure();
  // `{}` without induction variables parses as a region with no block.
  if (body->empty())
    body->emplaceBlock();
  return success();
}

void ForeachOp::print(OpAsmPrinter &printer) {
  printInductionSpace(printer, *this, getInductionVars(), getDynamicExtents(),
                      getStaticExtentsAttr());
  printer.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                           {"staticExtents"});
  printer << " ";
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

SmallVector<OpFoldResult> ForeachOp::getMixedExtents() {
  return getMixedValues(getStaticExtents(), getDynamicExtents(), getContext());
}

LogicalResult ForeachOp::verify() {
  unsigned rank = getStaticExtents().size();
  if (failed(verifyListOfOperandsOrIntegers(*this, "extent", rank,
                                            getStaticExtents(),
                                            getDynamicExtents())))
    return failure();
  if (rank == 0)
    return emitOpError("expected at least one dimension");
  for (int64_t extent : getStaticExtents())
    if (!ShapedType::isDynamic(extent) && extent <= 0)
      return emitOpError("expected positive extents, got ") << extent;
  return success();
}

LogicalResult ForeachOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getStaticExtents().size())
    return emitOpError("expected ")
           << getStaticExtents().size() << " induction variables, got "
           << body.getNumArguments();
  for (BlockArgument arg : body.getArguments())
    if (!arg.getType().isIndex())
      return emitOpError("induction variables must be of index type, got ")
             << arg.getType();
  return success();
}
