//===- Elementwise.h - elementwise linalg ops as croq kernels ---*- C++ -*-===//
//
// What convert-linalg-to-croq emits for a linalg.generic whose loops are
// all parallel (the named elementwise ops, fills, copies and transposes
// become such generics first): one croq kernel that computes every element
// of its outputs.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_ELEMENTWISE_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_ELEMENTWISE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <string>

namespace mlir {
namespace croq {

/// Why no croq kernel can read the inputs of `op` or compute its body (an
/// input indexed by other than loops and constant 0s, a buffer of elements
/// that are neither integers nor floats, a body op with regions or memory
/// effects), or an empty string; the elementwise and reduction kernels
/// share these rules.
std::string getInputsAndBodyDecline(linalg::GenericOp op);

/// Why the elementwise kernel cannot compute `op` (a linalg.generic on
/// memrefs whose loops are all parallel), or an empty string if it can.
std::string getElementwiseDecline(linalg::GenericOp op);

/// Emits, before `op`, the croq kernel that computes it: a grid of blocks
/// of 256 threads, each thread one chunk of consecutive elements along the
/// loop of the first output's innermost dimension, read and written as
/// 16-byte vectors: where the rows are whole chunks and the operands are
/// aligned, the chunks as they come; otherwise every row peeled to its
/// first aligned chunk (RowPeeling.h), a thread per full chunk and one per
/// head or tail column, an operand misaligned otherwise than the row's
/// first vector output read element by element. `op` must have passed
/// getElementwiseDecline; it is not erased.
void emitElementwiseKernel(OpBuilder &b, linalg::GenericOp op);

/// The chunk width (V) of `op`'s kernel: 16 bytes of the widest element
/// read or written as a vector along the first output's innermost loop.
int64_t getElementwiseChunkWidth(linalg::GenericOp op);

/// Emits where `b` inserts the chunk of V elements of `op` that starts at
/// `col0` on the loop of the first output's innermost dimension (of extent
/// `inner`), the other loops at `loops` (one value per loop, the chunk's
/// ignored): as vectors where the chunk lies inside its row and the
/// operands are aligned, element by element otherwise. The row kernels of
/// RowChains.cpp compute their elementwise ops with it.
void emitElementwiseChunk(OpBuilder &b, Location loc, linalg::GenericOp op,
                          ArrayRef<Value> loops, Value col0, Value inner);

/// The element type of the splat constant that `buffer` holds, as a
/// constant attribute, when it is a memref.get_global of a constant global
/// whose initial value is a splat; null otherwise.
TypedAttr getSplatConstant(Value buffer);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_ELEMENTWISE_H
