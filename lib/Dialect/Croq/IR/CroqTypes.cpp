//===- CroqTypes.cpp - croq types -----------------------------------------===//
//
// Parsing, printing and verification of the croq types, and the helpers that
// read shape, memory space and layout off buffer-like types.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/CroqTypes.h"
#include "Croq/Dialect/Croq/IR/CroqDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::croq;

#include "Croq/Dialect/Croq/IR/CroqEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "Croq/Dialect/Croq/IR/CroqTypes.cpp.inc"

void CroqDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "Croq/Dialect/Croq/IR/CroqTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

std::optional<MemorySpace> mlir::croq::getMemorySpaceOf(Type type) {
  if (isa<MemRefType>(type))
    return MemorySpace::Global;
  if (auto tile = dyn_cast<TileType>(type))
    return tile.getMemorySpace();
  if (auto view = dyn_cast<ViewType>(type))
    return view.getMemorySpace();
  if (auto tiles = dyn_cast<TilesType>(type))
    return tiles.getMemorySpace();
  return std::nullopt;
}

Swizzle mlir::croq::getSwizzleOf(Type type) {
  if (auto tile = dyn_cast<TileType>(type))
    return tile.getSwizzle();
  if (auto view = dyn_cast<ViewType>(type))
    return view.getSwizzle();
  if (auto tiles = dyn_cast<TilesType>(type))
    return tiles.getSwizzle();
  return Swizzle::None;
}

int64_t mlir::croq::getSwizzleBytes(Swizzle swizzle) {
  switch (swizzle) {
  case Swizzle::B32:
    return 32;
  case Swizzle::B64:
    return 64;
  case Swizzle::B128:
    return 128;
  case Swizzle::None:
  case Swizzle::Auto:
    return 0;
  }
  return 0;
}

int64_t mlir::croq::getElementSizeInBytes(Type elementType) {
  if (elementType.isIntOrIndexOrFloat() && !elementType.isIndex())
    return std::max<int64_t>(1, elementType.getIntOrFloatBitWidth() / 8);
  return 8;
}

std::string mlir::croq::stringifySwizzleValue(Swizzle swizzle) {
  return stringifySwizzle(swizzle).str();
}

//===----------------------------------------------------------------------===//
// Shared parsing and printing
//===----------------------------------------------------------------------===//

/// Parses `swizzle = none|auto|32|64|128`, after the `swizzle` keyword.
static ParseResult parseSwizzleAfterKeyword(AsmParser &parser,
                                            Swizzle &swizzle) {
  if (parser.parseEqual())
    return failure();
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword("none"))) {
    swizzle = Swizzle::None;
    return success();
  }
  if (succeeded(parser.parseOptionalKeyword("auto"))) {
    swizzle = Swizzle::Auto;
    return success();
  }
  int64_t bytes;
  if (parser.parseInteger(bytes))
    return failure();
  switch (bytes) {
  case 0:
    swizzle = Swizzle::None;
    return success();
  case 32:
    swizzle = Swizzle::B32;
    return success();
  case 64:
    swizzle = Swizzle::B64;
    return success();
  case 128:
    swizzle = Swizzle::B128;
    return success();
  default:
    return parser.emitError(loc, "expected swizzle none, auto, 32, 64 or "
                                 "128, got ")
           << bytes;
  }
}

/// Parses `<shape x element-type [, space] [, swizzle = N]>`. The memory
/// space defaults to `defaultSpace`.
static ParseResult parseBufferBody(AsmParser &parser,
                                   SmallVectorImpl<int64_t> &shape,
                                   Type &elementType, MemorySpace &space,
                                   Swizzle &swizzle, bool allowDynamic,
                                   MemorySpace defaultSpace) {
  space = defaultSpace;
  swizzle = Swizzle::None;
  if (parser.parseDimensionList(shape, allowDynamic,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return failure();
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc loc = parser.getCurrentLocation();
    StringRef keyword;
    if (parser.parseKeyword(&keyword))
      return failure();
    if (keyword == "swizzle") {
      if (parseSwizzleAfterKeyword(parser, swizzle))
        return failure();
      continue;
    }
    std::optional<MemorySpace> parsed = symbolizeMemorySpace(keyword);
    if (!parsed)
      return parser.emitError(loc, "expected memory space global, shared or "
                                   "local, or swizzle, got '")
             << keyword << "'";
    space = *parsed;
  }
  return success();
}

static void printShape(AsmPrinter &printer, ArrayRef<int64_t> shape) {
  for (int64_t dim : shape) {
    if (ShapedType::isDynamic(dim))
      printer << "?";
    else
      printer << dim;
    printer << "x";
  }
}

static void printBufferBody(AsmPrinter &printer, ArrayRef<int64_t> shape,
                            Type elementType, MemorySpace space,
                            Swizzle swizzle, bool printSpace) {
  printShape(printer, shape);
  printer << elementType;
  if (printSpace)
    printer << ", " << stringifyMemorySpace(space);
  if (swizzle != Swizzle::None)
    printer << ", swizzle = " << stringifySwizzle(swizzle);
}

/// The size in bytes of `count` buffers of static `shape`, or std::nullopt
/// if it does not fit in int64_t.
static std::optional<int64_t> getStaticSizeInBytes(ArrayRef<int64_t> shape,
                                                   Type elementType,
                                                   int64_t count = 1) {
  std::optional<int64_t> bytes =
      llvm::checkedMul(getElementSizeInBytes(elementType), count);
  for (int64_t dim : shape) {
    if (!bytes)
      break;
    bytes = llvm::checkedMul(*bytes, dim);
  }
  return bytes;
}

/// Checks what every buffer type shares: a scalar element type, and swizzle
/// only on shared memory. An on-chip buffer (`allowDynamic` false) must have
/// a size in bytes that int64_t holds, so that sizes and offsets computed
/// from it cannot overflow.
static LogicalResult
verifyBufferType(function_ref<InFlightDiagnostic()> emitError,
                 ArrayRef<int64_t> shape, Type elementType, MemorySpace space,
                 Swizzle swizzle, bool allowDynamic) {
  if (!elementType.isIntOrIndexOrFloat())
    return emitError() << "expected an integer or floating-point element "
                          "type, got "
                       << elementType;
  for (auto [index, dim] : llvm::enumerate(shape)) {
    if (ShapedType::isDynamic(dim) && !allowDynamic)
      return emitError() << "on-chip buffers need a static shape, but "
                         << "dimension " << index << " is dynamic";
    if (!ShapedType::isDynamic(dim) && dim <= 0)
      return emitError() << "expected positive dimensions, got " << dim;
  }
  if (!allowDynamic && !getStaticSizeInBytes(shape, elementType))
    return emitError() << "on-chip buffer is too large: its size in bytes "
                          "does not fit in 64 bits";
  if (swizzle != Swizzle::None && space != MemorySpace::Shared)
    return emitError() << "only shared memory has a swizzle layout, got "
                       << stringifyMemorySpace(space) << " memory with swizzle "
                       << stringifySwizzle(swizzle);
  return success();
}

//===----------------------------------------------------------------------===//
// TileType
//===----------------------------------------------------------------------===//

Type TileType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  MemorySpace space;
  Swizzle swizzle;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parseBufferBody(parser, shape, elementType, space, swizzle,
                      /*allowDynamic=*/true, MemorySpace::Shared) ||
      parser.parseGreater())
    return {};
  if (space == MemorySpace::Global) {
    parser.emitError(loc, "a tile lives in shared or local memory; global "
                          "tensors are memrefs");
    return {};
  }
  return parser.getChecked<TileType>(loc, parser.getContext(), shape,
                                     elementType, space, swizzle);
}

void TileType::print(AsmPrinter &printer) const {
  printer << "<";
  printBufferBody(printer, getShape(), getElementType(), getMemorySpace(),
                  getSwizzle(), /*printSpace=*/true);
  printer << ">";
}

LogicalResult TileType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType,
                               MemorySpace space, Swizzle swizzle) {
  if (space == MemorySpace::Global)
    return emitError() << "a tile lives in shared or local memory";
  return verifyBufferType(emitError, shape, elementType, space, swizzle,
                          /*allowDynamic=*/false);
}

bool TileType::hasRank() const { return true; }

ShapedType TileType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                               Type elementType) const {
  return TileType::get(getContext(), shape ? *shape : getShape(), elementType,
                       getMemorySpace(), getSwizzle());
}

// Verified tile types have a byte size that int64_t holds (verifyBufferType),
// so neither product overflows.
int64_t TileType::getNumElements() const {
  int64_t count = 1;
  for (int64_t dim : getShape())
    count *= dim;
  return count;
}

int64_t TileType::getSizeInBytes() const {
  return getNumElements() * getElementSizeInBytes(getElementType());
}

//===----------------------------------------------------------------------===//
// TilesType
//===----------------------------------------------------------------------===//

Type TilesType::parse(AsmParser &parser) {
  int64_t numStages;
  SmallVector<int64_t> shape;
  Type elementType;
  MemorySpace space;
  Swizzle swizzle;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseInteger(numStages) ||
      parser.parseKeyword("x") ||
      parseBufferBody(parser, shape, elementType, space, swizzle,
                      /*allowDynamic=*/true, MemorySpace::Shared) ||
      parser.parseGreater())
    return {};
  return parser.getChecked<TilesType>(loc, parser.getContext(), numStages,
                                      shape, elementType, space, swizzle);
}

void TilesType::print(AsmPrinter &printer) const {
  printer << "<" << getNumStages() << " x ";
  printBufferBody(printer, getShape(), getElementType(), getMemorySpace(),
                  getSwizzle(), /*printSpace=*/true);
  printer << ">";
}

LogicalResult TilesType::verify(function_ref<InFlightDiagnostic()> emitError,
                                int64_t numStages, ArrayRef<int64_t> shape,
                                Type elementType, MemorySpace space,
                                Swizzle swizzle) {
  if (numStages <= 0)
    return emitError() << "expected a positive number of stages, got "
                       << numStages;
  if (space == MemorySpace::Global)
    return emitError() << "a tile lives in shared or local memory";
  if (failed(verifyBufferType(emitError, shape, elementType, space, swizzle,
                              /*allowDynamic=*/false)))
    return failure();
  if (!getStaticSizeInBytes(shape, elementType, numStages))
    return emitError() << "stage array of " << numStages
                       << " stages is too large: its size in bytes does not "
                          "fit in 64 bits";
  // Every stage must start where a swizzle pattern starts.
  if (int64_t span = getSwizzleBytes(swizzle)) {
    int64_t bytes = *getStaticSizeInBytes(shape, elementType);
    if (bytes % (8 * span) != 0)
      return emitError() << "each stage of a " << span
                         << "-byte swizzled stage array must hold whole "
                         << 8 * span << "-byte swizzle patterns, got " << bytes
                         << " bytes per stage";
  }
  return success();
}

TileType TilesType::getTileType() const {
  return TileType::get(getContext(), getShape(), getElementType(),
                       getMemorySpace(), getSwizzle());
}

//===----------------------------------------------------------------------===//
// ViewType
//===----------------------------------------------------------------------===//

Type ViewType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  MemorySpace space;
  Swizzle swizzle;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parseBufferBody(parser, shape, elementType, space, swizzle,
                      /*allowDynamic=*/true, MemorySpace::Global) ||
      parser.parseGreater())
    return {};
  return parser.getChecked<ViewType>(loc, parser.getContext(), shape,
                                     elementType, space, swizzle);
}

void ViewType::print(AsmPrinter &printer) const {
  printer << "<";
  printBufferBody(printer, getShape(), getElementType(), getMemorySpace(),
                  getSwizzle(),
                  /*printSpace=*/getMemorySpace() != MemorySpace::Global);
  printer << ">";
}

LogicalResult ViewType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType,
                               MemorySpace space, Swizzle swizzle) {
  return verifyBufferType(emitError, shape, elementType, space, swizzle,
                          /*allowDynamic=*/true);
}

bool ViewType::hasRank() const { return true; }

ShapedType ViewType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                               Type elementType) const {
  return ViewType::get(getContext(), shape ? *shape : getShape(), elementType,
                       getMemorySpace(), getSwizzle());
}

//===----------------------------------------------------------------------===//
// EventsType
//===----------------------------------------------------------------------===//

LogicalResult EventsType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t count) {
  if (count <= 0)
    return emitError() << "expected a positive number of events, got " << count;
  return success();
}

//===----------------------------------------------------------------------===//
// PhasesType
//===----------------------------------------------------------------------===//

LogicalResult PhasesType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t count) {
  if (count <= 0 || count > EventsType::kMaxLoweredSlots)
    return emitError() << "expected phases of 1 to "
                       << EventsType::kMaxLoweredSlots
                       << " slots (one bit each in 64 bits), got " << count;
  return success();
}

//===----------------------------------------------------------------------===//
// AccType and FragType
//===----------------------------------------------------------------------===//

/// Parses `<MxNxT>` for matrix-shaped register types.
static ParseResult parseMatrixBody(AsmParser &parser,
                                   SmallVectorImpl<int64_t> &shape,
                                   Type &elementType) {
  return failure(parser.parseLess() ||
                 parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                           /*withTrailingX=*/true) ||
                 parser.parseType(elementType) || parser.parseGreater());
}

static LogicalResult
verifyMatrixType(function_ref<InFlightDiagnostic()> emitError, StringRef what,
                 ArrayRef<int64_t> shape, Type elementType) {
  if (shape.size() != 2)
    return emitError() << "expected a 2-d " << what << ", got rank "
                       << shape.size();
  for (int64_t dim : shape) {
    if (ShapedType::isDynamic(dim))
      return emitError() << "expected a static " << what << " shape";
    if (dim <= 0)
      return emitError() << "expected positive dimensions, got " << dim;
  }
  if (!elementType.isIntOrFloat())
    return emitError() << "expected an integer or floating-point element "
                          "type, got "
                       << elementType;
  return success();
}

Type AccType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  SMLoc loc = parser.getCurrentLocation();
  if (parseMatrixBody(parser, shape, elementType))
    return {};
  return parser.getChecked<AccType>(loc, parser.getContext(), shape,
                                    elementType);
}

void AccType::print(AsmPrinter &printer) const {
  printer << "<";
  printShape(printer, getShape());
  printer << getElementType() << ">";
}

LogicalResult AccType::verify(function_ref<InFlightDiagnostic()> emitError,
                              ArrayRef<int64_t> shape, Type elementType) {
  return verifyMatrixType(emitError, "accumulator", shape, elementType);
}

Type FragType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return {};
  bool inRegisters = false;
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("registers"))
      return {};
    inRegisters = true;
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<FragType>(loc, parser.getContext(), shape,
                                     elementType, inRegisters);
}

void FragType::print(AsmPrinter &printer) const {
  printer << "<";
  printShape(printer, getShape());
  printer << getElementType();
  if (getInRegisters())
    printer << ", registers";
  printer << ">";
}

LogicalResult FragType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType,
                               bool inRegisters) {
  return verifyMatrixType(emitError, "mma operand", shape, elementType);
}

//===----------------------------------------------------------------------===//
// VecType
//===----------------------------------------------------------------------===//

// !croq.vec<NxT, rows|cols>
Type VecType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  StringRef axisName;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma())
    return {};
  SMLoc axisLoc = parser.getCurrentLocation();
  if (parser.parseKeyword(&axisName) || parser.parseGreater())
    return {};
  std::optional<AccAxis> axis = symbolizeAccAxis(axisName);
  if (!axis) {
    parser.emitError(axisLoc, "expected 'rows' or 'cols', got '")
        << axisName << "'";
    return {};
  }
  if (shape.size() != 1) {
    parser.emitError(loc, "expected a 1-d vector, got rank ") << shape.size();
    return {};
  }
  return parser.getChecked<VecType>(loc, parser.getContext(), shape[0],
                                    elementType, *axis);
}

void VecType::print(AsmPrinter &printer) const {
  printer << "<" << getSize() << "x" << getElementType() << ", "
          << stringifyAccAxis(getAxis()) << ">";
}

LogicalResult VecType::verify(function_ref<InFlightDiagnostic()> emitError,
                              int64_t size, Type elementType, AccAxis axis) {
  if (ShapedType::isDynamic(size))
    return emitError() << "expected a static vector size";
  if (size <= 0)
    return emitError() << "expected a positive size, got " << size;
  if (!elementType.isIntOrFloat())
    return emitError() << "expected an integer or floating-point element "
                          "type, got "
                       << elementType;
  return success();
}
