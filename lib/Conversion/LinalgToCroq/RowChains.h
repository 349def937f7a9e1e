//===- RowChains.h - row-wise chains of linalg ops as one kernel -*- C++
//-*-===//
//
// A softmax, a layer norm or an RMS norm reaches croq as a few linalg ops
// over the same rows: reductions along the rows, elementwise ops over the
// rows' elements and over per-row values. convert-linalg-to-croq computes
// such a chain in one kernel of one block per row, which reads a row from
// memory once and again from the L2, instead of one kernel per op.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_ROWCHAINS_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_ROWCHAINS_H

#include "Classify.h"

namespace mlir {
namespace croq {

/// One op of a row chain.
struct RowMember {
  enum Kind {
    /// A reduction along the rows (its last loop), with a combiner.
    Reduction,
    /// An elementwise op over the rows' elements (its last loop the
    /// columns).
    Elementwise,
    /// An elementwise op over one value per row.
    PerRow,
  };
  linalg::GenericOp op;
  Kind kind;
  /// The fill that gives a reduction its starting value, or null.
  linalg::FillOp start;
};

/// Consecutive ops of host code over the same rows and columns, at least
/// one of them a reduction, whose buffers passed from one to the next are
/// read and written a row at a time.
struct RowChain {
  SmallVector<RowMember> members;
};

/// An extent as chains compare them: a constant (no value), or dimension
/// `dim` of a buffer (-1: the index value itself).
struct ExtentKey {
  Value value;
  int64_t dim;
  bool operator==(const ExtentKey &other) const {
    return value == other.value && dim == other.dim;
  }
  bool isOne() const { return !value && dim == 1; }
};

/// The rows and columns of an op of a chain, as keys and loops.
struct MemberShape {
  SmallVector<ExtentKey> rows;
  SmallVector<unsigned> rowLoops;
  std::optional<ExtentKey> columns;
};

/// The key of every loop of `op`, from the first operand it indexes.
std::optional<SmallVector<ExtentKey>> getLoopKeys(linalg::GenericOp op);

/// The shape of `op` as a member of kind `kind`: its row loops (all loops
/// but the last, or all of them for a per-row op) without unit ones, and
/// its columns.
MemberShape getShape(linalg::GenericOp op, RowMember::Kind kind,
                     ArrayRef<ExtentKey> keys);

/// The loops of `member` at the chain's row `row` (the linear index of its
/// row loops, whose extents are in `extents`, by loop): its row loops
/// delinearized, its unit loops 0, its columns' loop unset (null) unless
/// `member` is per-row.
SmallVector<Value> getRowLoops(OpBuilder &b, Location loc, RowMember member,
                               Value row, ArrayRef<Value> extents);

/// Moves the ops of `work` that form row chains (two ops or more, one a
/// reduction) from its elementwise and reduction lists into `chains`.
void formRowChains(HostWork &work, SmallVectorImpl<RowChain> &chains);

/// Emits, at the chain's last op, the kernel that computes `chain`: where
/// a row fits in registers (up to 32 elements a thread at 256 threads), a
/// group of threads per row holds it in registers across the ops
/// (emitRegisterRows); otherwise blocks of 256 threads in groups of 32 to
/// 256 stream each op's row from memory with a block barrier between the
/// ops. Where the row length is known only at run time, a kernel of each
/// form and a host branch choosing one. The ops are not erased.
void emitRowChainKernel(OpBuilder &b, const RowChain &chain);

/// Threads of a row chain kernel's blocks.
constexpr int64_t kRowThreads = 256;

/// The shape of a row chain's kernel that keeps rows in registers: groups
/// of `groupThreads` threads, each thread `slots` chunks of `width` columns
/// and one column more.
struct RegisterRows {
  int64_t width;
  int64_t groupThreads;
  int64_t slots;
};

/// The chunk width (V) at which `chain` can keep its rows in registers: 16
/// bytes of the widest element it reads or writes in memory along the
/// columns; none where it cannot (no such operand, or an elementwise
/// output without an element per column).
std::optional<int64_t> getRegisterWidth(const RowChain &chain);

/// Emits where `b` inserts (in the thread region of a kernel of
/// kRowThreads threads, `block` and `thread` its indices) the ops of
/// `chain` over rows held in registers, in groups of `shape`: each group
/// one row of `rows` (groups past the end compute the last row and write
/// nothing; `rows` must be positive and the columns too). `extents` holds
/// every member's loop extents, `scratch` every reduction's tiles of warp
/// partials (one element per warp of the block).
void emitRegisterRows(OpBuilder &b, Location loc, const RowChain &chain,
                      ArrayRef<SmallVector<Value>> extents, RegisterRows shape,
                      Value block, Value thread, Value rows,
                      ArrayRef<SmallVector<Value>> scratch);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_ROWCHAINS_H
