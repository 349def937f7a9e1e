//===- FuseEpilogue.h - elementwise consumers of a linalg GEMM --*- C++ -*-===//
//
// What convert-linalg-to-croq fuses into a GEMM's epilogue: the elementwise
// linalg.generic that reads the product from a temporary buffer, computed
// in registers on the accumulator before the store.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_FUSEEPILOGUE_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_FUSEEPILOGUE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>

namespace mlir {
namespace croq {

/// An elementwise linalg.generic that consumes a GEMM's product.
struct Epilogue {
  linalg::GenericOp generic;
  /// Which of the generic's inputs is the product.
  unsigned productInput;
  /// The temporary buffer the product went through, and its deallocations:
  /// both go away (none where the generic writes the product's buffer in
  /// place).
  memref::AllocOp temporary;
  SmallVector<Operation *> deallocs;
  /// Where the generic writes.
  Value output;
};

/// The elementwise linalg.generic right after `matmul` that reads its
/// product, if the kernel can compute it in its epilogue: the product went
/// into a zeroed buffer (`product`) that is either a temporary
/// (memref.alloc, or a view of one) nothing else uses or the generic's own
/// output (updated in place, as bufferization leaves `bias + A B` into a
/// function's result);
/// the generic's loops are parallel, its output and the product indexed
/// (m, n), its other inputs indexed (m, n), (n), (m) (vectors possibly
/// stored with more dimensions of extent 1, indexed by constant 0s),
/// scalars or the one element of a memref of extents 1 (TOSA's scalar
/// operands); its body computes without memory and does not read the output;
/// the output is f16, bf16 or f32, or i32 for an i32 product. For a
/// linalg.batch_matmul the loops are (b, m, n), and the output, the product
/// and the other tiles are indexed (b, m, n).
std::optional<Epilogue> matchEpilogue(linalg::LinalgOp matmul, Value product);

/// Makes the elementwise linalg.generic right after each product of host
/// code (linalg.matmul, linalg.batch_matmul, a convolution taken as a GEMM)
/// that reads its output the consumer matchEpilogue takes where it can: the
/// allocations and views between them moved before the product (and its
/// fill), each splat constant input a value in the body, each input read
/// twice through one map read once. Where the product writes a
/// memref.collapse_shape view of a buffer (a product of one matrix viewed
/// without its batch dimension, croq-specialize-contractions) and the
/// generic reads that buffer, the generic reads, in place of each operand
/// that is a tile of its loops stored with dimensions of extent 1 between
/// (indexed by constant 0s, as croq-fuse-elementwise leaves them), a view
/// without those dimensions: the product's own view for the product's
/// buffer. So matchEpilogue finds the product among its inputs, indexed
/// (m, n).
void prepareProductConsumers(ModuleOp module);

/// The part of an epilogue's match that GEMMs and convolutions share:
/// every input of `epilogue.generic` is one `acceptsInput` takes (given its
/// indexing map), `product` is read by exactly one of them, through a map
/// `acceptsProduct` takes (recorded as `epilogue.productInput`), and the body
/// computes on values only: the output is not read, no op has regions or
/// memory effects, and with `allowIndex` false none is a linalg.index.
bool matchEpilogueInputsAndBody(
    Epilogue &epilogue, Value product,
    function_ref<bool(Value, AffineMap)> acceptsInput,
    function_ref<bool(AffineMap)> acceptsProduct, bool allowIndex);

/// An extent of an input of the epilogue's generic that must equal one of
/// the product's: dimension `dim` of `tensor` (the generic's operand
/// `operand`) and the product's batch (0), rows (1) or columns (2).
struct EpilogueExtent {
  unsigned operand;
  Value tensor;
  unsigned dim;
  unsigned productDim;
};

/// The extents of the generic's inputs other than the product (tiles and
/// vectors; scalars have none) that the product's must match.
SmallVector<EpilogueExtent> getEpilogueExtents(const Epilogue &epilogue);

/// `croq.subspan %tensor [shape] at [at]`: tile `at` of a global tensor, in
/// tiles of `shape`; with `batch`, that tile of matrix `batch` of a batched
/// tensor (a 1 x `shape` window).
/// With `steps`, tile `at` starts at element `at * steps` (a window wider
/// than the grid's step).
Value buildTileView(OpBuilder &builder, Location loc, Value tensor,
                    ArrayRef<int64_t> shape, ValueRange at,
                    Value batch = Value(), ArrayRef<int64_t> steps = {});

/// `croq.read` of element (row, col) of a matrix window (1 x rows x cols
/// for a batched one, buildTileView's), zero past its edge.
Value readTileElement(OpBuilder &builder, Location loc, Type type, Value window,
                      Value row, Value col);

/// An input of the generic as the kernel reads it: a window of a tensor at
/// the block's tile (or null for the product, or a scalar value), and how
/// the element indexes it.
struct EpilogueInput {
  unsigned kind;
  Value value;
};

/// What the epilogue of one tile reads: its inputs and, where the body
/// reads its element's position (linalg.index), the tile's first element's
/// (the matrix of a batched product, the row and the column).
struct EpilogueInputs {
  SmallVector<EpilogueInput> inputs;
  SmallVector<Value> origin;
};

/// The windows, at tile (blockM, blockN) of a rows x cols tiling, of the
/// generic's inputs, made where `builder` inserts; for a batched product
/// (`batch` not null) the tiles' windows are 1 x rows x cols at the batch.
EpilogueInputs prepareEpilogueInputs(OpBuilder &builder, Location loc,
                                     const Epilogue &epilogue, int64_t rows,
                                     int64_t cols, Value blockM, Value blockN,
                                     Value batch = Value());

/// The generic's computation of one element: `x` (f32, or i32 for an i32
/// product) the product at
/// (row, col) of the tile, the other inputs read from `inputs` there (zero
/// past their edges), its position in the product `inputs.origin` plus
/// (row, col). Returns the f32 result, which the store rounds to the
/// output's type.
Value emitEpilogueElement(OpBuilder &builder, Location loc,
                          const Epilogue &epilogue,
                          const EpilogueInputs &inputs, Value row, Value col,
                          Value x);

/// What the epilogue of one block reads: the windows of the generic's
/// inputs at the block's tile and, for the inputs indexed by the row or the
/// column, `rows` or `cols` vectors of their elements already in
/// registers.
struct EpilogueOperands {
  EpilogueInputs inputs;
  SmallVector<Value> vectors;
  /// The index in `inputs` of each vector's input.
  SmallVector<unsigned> vectorInputs;
};

/// Makes the windows of the block at tile (blockM, blockN) of a rows x
/// cols tiling and reads the inputs indexed by the row or the column into
/// registers, once per thread and row or column (zero past their edges).
/// Emitted before the K loop, the reads' latency hides behind it.
EpilogueOperands loadEpilogueInputs(OpBuilder &builder, Location loc,
                                    const Epilogue &epilogue, int64_t rows,
                                    int64_t cols, Value blockM, Value blockN,
                                    Value batch = Value());

/// Emits the generic's computation on the complete accumulator `acc`
/// (f32), in a croq.mma.map: the product's element rounded to the
/// temporary's type, the vectors of `operands` broadcast, the other inputs
/// (tiles) read at the element's row and column (zero past their edges).
/// Returns the new accumulator, whose elements the store rounds to the
/// output's type.
Value emitEpilogue(OpBuilder &builder, Location loc, const Epilogue &epilogue,
                   const EpilogueOperands &operands, Value acc);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_FUSEEPILOGUE_H
