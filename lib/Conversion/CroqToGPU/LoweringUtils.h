//===- LoweringUtils.h - shared state of the croq-to-gpu lowering -*- C++
//-*-===//
//
// What the croq-to-gpu patterns share: the type converter, the thread group
// that executes an op, barriers, and
// the resolution of a buffer (tensor, tile or view) to memref coordinates.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_CROQTOGPU_LOWERINGUTILS_H
#define CROQ_LIB_CONVERSION_CROQTOGPU_LOWERINGUTILS_H

#include "Croq/Conversion/CroqToGPU.h"
#include "Croq/Conversion/Passes.h"
#include "Croq/Dialect/Croq/IR/BufferUtils.h"
#include "Croq/Dialect/Croq/IR/CroqOps.h"
#include "Croq/Dialect/Croq/IR/IndexMath.h"
#include "Croq/Dialect/Croq/IR/TargetDescription.h"
#include "Croq/Dialect/Croq/IR/ThreadGroups.h"
#include "Croq/Dialect/Croq/IR/TileLayout.h"
#include "Croq/Dialect/Croq/Transforms/HostUtils.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <map>
#include <optional>
#include <tuple>
#include <vector>

namespace mlir {
namespace croq {

/// The most registers of one thread an accumulator may take (the register
/// file gives a thread at most 255).
constexpr int64_t kMaxAccRegisters = 255;

/// Whether wgmma m64nN fragments hold an accumulator of this type: rows a
/// multiple of 64, columns a multiple of 8 no larger than 256, and at most
/// kMaxAccRegisters registers in each thread.
bool isHeldInWgmmaFragments(AccType type);

/// The struct a `!croq.vec` is lowered to, or null if no wgmma fragments
/// hold its rows or columns: each thread keeps the values of the rows (two
/// per 64-row block: element 2 i + h is row 64 i + 8 h from its fragment
/// origin) or columns (two per 8: element 2 j + p is column 8 j + p) its
/// accumulator registers cover.
LLVM::LLVMStructType getVecStructType(VecType type);

/// Where register `reg` of 64-row block `block` of a thread's wgmma
/// accumulator fragments lies, relative to the thread's fragment origin:
/// register r = 4 j + q is 64 block + 8 (q / 2) rows and 8 j + q % 2
/// columns further.
struct RegisterOffset {
  int64_t row;
  int64_t column;
};
RegisterOffset getRegisterOffset(int64_t block, int64_t reg);

/// The element of a lowered vector of `type` that goes with register `reg`
/// of 64-row block `block` of an accumulator.
int64_t getVecPosition(VecType type, int64_t block, int64_t reg);

/// The struct an A operand in registers (`!croq.frag<MxKxT, registers>`) is
/// lowered to, or null if wgmma cannot read it: per 64 rows, K / 4 i32
/// registers of two packed 16-bit elements, in the order of the
/// accumulator registers they come from.
LLVM::LLVMStructType getRegisterFragStructType(FragType type);

/// `value` through an empty asm statement that takes and returns it in the
/// same register: uses of the result cannot move above the asm statements
/// before it (a wgmma wait), nor its computation below those after it.
Value pinRegister(OpBuilder &builder, Location loc, Value value);

/// `acc`, a lowered accumulator (one struct per 64 rows), with every
/// register passed through pinRegister, then a wgmma fence: the registers
/// are written before the fence, and a wgmma after it may read them.
Value fenceAccumulator(OpBuilder &builder, Location loc, Value acc);

/// A struct of `type` (one struct of registers per 64 rows, as
/// getAccStructType makes them) whose register `reg` of row block `block`
/// is `element(block, reg)`, computed and inserted in that order.
Value buildRegisterStruct(
    OpBuilder &builder, Location loc, LLVM::LLVMStructType type,
    function_ref<Value(int64_t block, int64_t reg)> element);

/// The LLVM struct of an accumulator in registers: one struct of N / 2
/// elements per 64 rows, as wgmma m64nN takes them. Null where
/// isHeldInWgmmaFragments is false.
LLVM::LLVMStructType getAccStructType(AccType type);

/// The threads that execute an op together: a block, a warpgroup, or one
/// thread.
struct ThreadGroup {
  ParallelLevel level;
  /// Index of this thread in the group.
  Value threadIndex;
  /// Number of threads in the group.
  int64_t size;
  /// For warpgroups: the index of the warpgroup in the block.
  Value warpgroupIndex;
};

/// The group that executes `op`: the innermost enclosing croq.parallel.
/// Copies with a local endpoint run on each thread alone.
FailureOr<ThreadGroup> getThreadGroup(OpBuilder &builder, Operation *op,
                                      bool perThread = false);

/// A barrier of every thread of the block's cluster: arrive (release) and
/// wait (acquire), both aligned.
void emitClusterBarrier(OpBuilder &builder, Location loc);

/// Synchronizes the threads of `group` (a named barrier for a warpgroup).
void emitGroupBarrier(OpBuilder &builder, Location loc,
                      const ThreadGroup &group);

/// `fence.proxy.async.shared::cta`: makes this thread's generic-proxy
/// writes to shared memory visible to the async proxy (TMA, wgmma, bulk
/// copies and reductions) that reads them next.
void emitAsyncSharedFence(OpBuilder &builder, Location loc);

/// A buffer resolved to memref coordinates: element `p` of the buffer is
/// `memref[offsets + p]`, valid when `offsets + p < limits` (no limits: the
/// buffer always lies inside the memref).
struct BufferAccess {
  /// The memref of the tensor or tile.
  Value memref;
  /// What loads and stores address: `memref`, or for a swizzled shared tile
  /// a 1-d view of its storage indexed by swizzled element offsets.
  Value storage;
  /// The swizzle span in bytes of a swizzled shared tile, 0 otherwise.
  int64_t swizzleBytes = 0;
  /// The physical layout of a swizzled shared tile (slabs and swizzle).
  SharedTileLayout layout;
  SmallVector<Value> offsets;
  SmallVector<Value> sizes;
  SmallVector<Value> limits;
  MemorySpace space;
  Type elementType;
  int64_t rank() const { return offsets.size(); }
  /// The static size of dimension `d`, or ShapedType::kDynamic.
  SmallVector<int64_t> staticSizes;
};

/// The indices into `access.storage` of the element at `coords` (relative to
/// the access's origin). For a swizzled tile this is the one element offset
/// where TMA puts that element (SharedTileLayout: span-wide slabs, 16-byte
/// chunk c of 128-byte line l at chunk c ^ (l mod (span / 16))).
SmallVector<Value> getElementIndices(OpBuilder &builder, Location loc,
                                     const BufferAccess &access,
                                     ArrayRef<Value> coords);

/// Resolves `original` (a memref, tile or view of the input IR) after type
/// conversion.
FailureOr<BufferAccess> getBufferAccess(ConversionPatternRewriter &rewriter,
                                        Location loc, Value original);

/// Emits the loop in which the threads of `group` share `total` items: each
/// thread takes items tid, tid + size, ... and the builder is left in the
/// loop body, where the item index is returned. With a static total the loop
/// counts rounds from zero, so its trip count is static and the back end can
/// unroll it and overlap the rounds' memory accesses; items past the end of
/// the last round are guarded.
Value emitDistributedLoop(OpBuilder &builder, Location loc,
                          const ThreadGroup &group, Value total);

/// Whether `access`'s origin and the strides of its outer dimensions are
/// multiples of `alignBytes` at run time (elements of `eltBytes` bytes).
Value isAccessAligned(OpBuilder &builder, Location loc,
                      const BufferAccess &access, int64_t eltBytes,
                      int64_t alignBytes);

/// Whether the innermost dimension of `memref` has unit stride statically.
bool hasUnitInnerStride(Value memref);

/// Adds the patterns that lower each thread's moves (croq-distribute-copies'
/// output) and the waits of their futures.
void populateCroqMoveToGPUPatterns(CroqTypeConverter &converter,
                                   RewritePatternSet &patterns);

/// Whether `op` is an f32 math.exp2 with approximate functions allowed
/// (fastmath<afn>) inside a croq.parallel region: it becomes
/// ex2.approx.ftz.f32, results below 2^-126 flushed to zero.
bool isApproximateKernelExp2(math::Exp2Op op);

/// Adds the patterns that lower croq.foreach, croq.read and croq.write,
/// and approximate exp2 in kernels (isApproximateKernelExp2).
void populateCroqElementToGPUPatterns(CroqTypeConverter &converter,
                                      RewritePatternSet &patterns);

/// A tensor map as the host code holds it before a launch.
struct HostTensorMap {
  /// The map's 128 bytes (getTensorMapValueType), which the kernel receives
  /// by value.
  Value map;
  /// An i32, non-zero when TMA can move the tensor; zero when the kernel
  /// must fall back to the software copy.
  Value usable;
};

/// Emits, on the host after `usable` (a croqRtTensorMapGet* result), the
/// call that makes the next launch fail when the map is not usable
/// (croqRtTensorMapRequire): for kernels without the software copy. Fails
/// where the runtime function's name is taken.
LogicalResult emitHostRequire(OpBuilder &builder, Location loc, Operation *at,
                              Value usable);

/// The type a tensor map's bytes travel in from the host to the kernel
/// (vector<16xi64>: 128 bytes, 128-byte aligned in the launch's argument
/// buffer); croq-pass-tensor-maps-by-value makes the kernel's parameter a
/// grid-constant byval parameter.
VectorType getTensorMapValueType(MLIRContext *context);

/// Emits, at the builder's position on the host, the code that asks the
/// runtime for the tensor map of `tensor` (a memref) with boxes of `box`
/// (outermost first) and `swizzle`. A `staged` tensor may be copied into an
/// aligned buffer if TMA cannot describe it; the host releases the buffer
/// after `releaseAfter` (the kernel). Fails if the element type has no
/// tensor-map encoding or the code is not in a function.
FailureOr<HostTensorMap> emitHostTensorMap(OpBuilder &builder, Location loc,
                                           Value tensor, ArrayRef<int64_t> box,
                                           Swizzle swizzle, bool staged,
                                           Operation *releaseAfter);

/// Adds the pattern that lowers croq.tensor_map to these runtime calls.
void populateCroqTensorMapToHostPatterns(CroqTypeConverter &converter,
                                         RewritePatternSet &patterns);

/// Emits, on the host, the code that asks the runtime for the im2col tensor
/// map that `op` describes (croqRtTensorMapGetIm2col) and refuses the next
/// launch when it cannot be made (croqRtTensorMapRequire); returns the map's
/// bytes. Fails as emitHostTensorMap.
FailureOr<Value> emitHostIm2colMap(OpBuilder &builder, Location loc,
                                   Im2colMapOp op, Value tensor);

/// The byte offset of shared tile `tile` in its block's dynamic shared
/// memory: a planned allocation, or a stage of one; fails for any other.
FailureOr<Value> getSharedTileByteOffset(OpBuilder &builder, Location loc,
                                         Value tile);

/// Adds the pattern that lowers croq.im2col loads.
void populateCroqIm2colToGPUPatterns(CroqTypeConverter &converter,
                                     RewritePatternSet &patterns);

/// Reports, on the op, why a tma copy cannot be lowered yet (box splitting,
/// groups smaller than a block), or succeeds.
LogicalResult checkTmaLowerable(CopyOp op);

/// Adds the patterns that lower tma copies and the waits of their futures.
void populateCroqTmaToGPUPatterns(CroqTypeConverter &converter,
                                  RewritePatternSet &patterns);

/// Adds the patterns that lower event arrays to mbarriers; a trigger after
/// tma loads expects the bytes of those that took the TMA path.
void populateCroqEventToGPUPatterns(CroqTypeConverter &converter,
                                    RewritePatternSet &patterns);

/// Reports, on the op, why an mma op cannot be lowered to wgmma, or
/// succeeds.
LogicalResult checkMmaLowerable(Operation *op);

/// Places an nvvm.wgmma.fence.aligned before each croq.mma whose registers
/// the threads may have written since the last fence: an A operand in
/// registers, an accumulator that comes from croq.mma.map or through a
/// branch rather than from wgmma (copies at loop and branch edges write
/// registers too). Runs on croq IR, before the conversion changes the
/// types of loops and their arguments.
void insertWgmmaFences(ModuleOp module);

/// Adds the pattern that lowers croq.mma.store to stores of each thread's
/// fragment (stmatrix into 16-bit shared tiles).
void populateCroqMmaStoreToGPUPatterns(CroqTypeConverter &converter,
                                       RewritePatternSet &patterns);

/// Adds the patterns that lower croq.mma.accumulate (atomic adds into a
/// global workspace) and the turn counters that order them.
void populateCroqAccumulateToGPUPatterns(CroqTypeConverter &converter,
                                         RewritePatternSet &patterns);

/// Where a thread holds its part of a wgmma accumulator: its warp and lane
/// in the warpgroup, and the row and column of its register 0 of 64-row
/// block 0 (16 w + l / 4 and 2 (l % 4)). Register r = 4 j + q of block i is
/// at row + 64 i + 8 (q / 2), column + 8 j + q % 2.
struct FragmentOrigin {
  Value warp;
  Value lane;
  Value row;
  Value column;
};

/// The warp and lane of `threadIndex` (a thread's index in its warpgroup);
/// row and column are left null until getFragmentOrigin fills them.
FragmentOrigin getWarpAndLane(OpBuilder &builder, Location loc,
                              Value threadIndex);

/// `origin` with its row and column computed from its warp and lane.
FragmentOrigin getFragmentOrigin(OpBuilder &builder, Location loc,
                                 FragmentOrigin origin);

/// The row (rows) or column (cols) of element `position` of a thread's
/// lowered vector of `type`, from the thread's fragment origin.
Value getVecIndex(OpBuilder &builder, Location loc, VecType type,
                  const FragmentOrigin &origin, int64_t position);

/// Adds the patterns that lower croq.mma.map and croq.vec.map to their
/// bodies, unrolled over each thread's registers.
void populateCroqMmaMapToGPUPatterns(CroqTypeConverter &converter,
                                     RewritePatternSet &patterns);

/// Adds the patterns that lower croq.mma.reduce (shuffles across lanes,
/// shared memory across warps) and croq.mma.convert (packed A registers).
void populateCroqMmaReduceToGPUPatterns(CroqTypeConverter &converter,
                                        RewritePatternSet &patterns);

/// Adds the pattern that lowers croq.mma.cluster_sum (distributed shared
/// memory and a cluster-scope mbarrier).
void populateCroqClusterSumToGPUPatterns(CroqTypeConverter &converter,
                                         RewritePatternSet &patterns);

/// Adds the patterns that lower mma ops to wgmma.
void populateCroqMmaToGPUPatterns(CroqTypeConverter &converter,
                                  const TargetDescription &target,
                                  RewritePatternSet &patterns);

/// Adds the patterns that lower croq memory, data movement and element ops.
void populateCroqDataToGPUPatterns(CroqTypeConverter &converter,
                                   RewritePatternSet &patterns);

/// Lowers the croq.parallel and croq.inthreads regions under `root`,
/// innermost first. Runs after the data ops are lowered.
LogicalResult lowerCroqRegions(Operation *root,
                               const TargetDescription &target);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_CROQTOGPU_LOWERINGUTILS_H
