//===- GemmKernel.h - the croq kernels of a linalg GEMM ---------*- C++ -*-===//
//
// What convert-linalg-to-croq emits for one linalg.matmul: the block
// program of a tile (GemmKernel.cpp) and, for a K loop split among
// blocks, the partial products and their reduction (SplitK.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_GEMMKERNEL_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_GEMMKERNEL_H

#include "FuseEpilogue.h"
#include "TileChoice.h"

#include "Croq/Dialect/Croq/IR/CroqOps.h"

namespace mlir {
namespace croq {

/// A 2-d convolution (linalg.conv_2d_nhwc_fhwc or conv_2d_nhwc_hwcf) as
/// the GEMM computes it (ConvolutionMatch.cpp, ConvolutionKernel.cpp): M =
/// N P Q output positions, N = F filters, K = R S C with the tap outer and
/// the channels inner. The extents are static.
struct ConvolutionSpec {
  /// The convolution's operands as linalg has them (4-d); `input` is the
  /// unpadded source where a padded copy is folded into the im2col map.
  Value input, filter, output;
  /// Whether the filters are F x R x S x C (fhwc) rather than R x S x C x F.
  bool filtersFirst = true;
  int64_t batch = 0, height = 0, width = 0, channels = 0;
  int64_t filters = 0, filterRows = 0, filterCols = 0;
  int64_t outRows = 0, outCols = 0;
  int64_t strides[2] = {1, 1}, dilations[2] = {1, 1};
  /// The zero padding before the first row and column of `input`.
  int64_t padLow[2] = {0, 0};
  /// Whether it is a plain GEMM: 1x1 filters, stride 1, no padding (the
  /// NHWC input seen as (N H W) x C); otherwise A is loaded by im2col.
  bool plain = false;
  /// The padded copy folded into the map (its buffer, the zero fill, the
  /// view of its interior, the copy, the deallocations), erased with the
  /// convolution: the padded buffer is never written.
  SmallVector<Operation *> paddedCopy;
  /// The input's im2col map (croq.im2col_map on the host), made when the
  /// kernel is emitted.
  Value map;
};

/// A linalg.matmul or linalg.batch_matmul as the croq GEMM sees it.
struct MatmulSpec {
  Value a, b, c;
  /// Whether the operands are batches of matrices (linalg.batch_matmul):
  /// their first dimension is the batch.
  bool batched = false;
  /// Whether A is stored K x M (`col`) instead of M x K, and B N x K
  /// (`row`) instead of K x N (`col`).
  bool aTransposed = false;
  bool bTransposed = false;
  /// Whether the output was zeroed right before (the fill is dropped).
  linalg::FillOp zeroFill;
  /// The elementwise consumer computed in the epilogue, if any.
  std::optional<Epilogue> epilogue;
  /// The K steps of an 8-bit float product whose partial sums wgmma
  /// accumulates before they are added into the f32 main accumulator (0:
  /// wgmma accumulates the whole K loop). wgmma's f8 accumulator keeps
  /// fewer mantissa bits than f32 (GemmKernel.cpp).
  int64_t promoteSteps = 0;
  /// The f32 scales of a block-scaled 8-bit float product (null for
  /// others): A's per row and 128-element group of K (M x ceil(K / 128)),
  /// B's per 128 x 128 block (ceil(N / 128) x ceil(K / 128)), applied to
  /// each K step's partial product as it is added into the main
  /// accumulator (every K step is promoted).
  Value aScales, bScales;
  /// A convolution's geometry: A is then its N x H x W x C input, read by
  /// im2col loads unless the convolution is a plain GEMM.
  std::optional<ConvolutionSpec> conv;

  /// Where the kernels write: the consumer's output when there is one.
  Value getOutput() const { return epilogue ? epilogue->output : c; }
};

/// The extents of a product, and its K steps (kStepBytes of each operand
/// row); the number of matrices of a batched one.
struct ProductSizes {
  Value m, n, k, kSteps;
  Value batch;
};

/// The K steps of one block: [first, first + count), first null for 0.
struct KRange {
  Value first;
  Value count;
};

/// The element type of `spec`'s accumulator: i32 for i8 operands (s8
/// wgmma), f32 for floats (tf32 for f32 operands).
Type getAccElementType(const MatmulSpec &spec);

/// `x` + `c`, an accumulator element and an output element (linalg.matmul
/// accumulates into its output), `c` first widened to `x`'s type: addi on
/// integers, addf on floats.
Value addToAccumulator(OpBuilder &builder, Location loc, Value x, Value c);

/// The elements of one K step of `spec`'s operands.
int64_t getStepElements(const MatmulSpec &spec);

/// `croq.alloc` of a shared tile.
Value allocSharedTile(OpBuilder &builder, Location loc, ArrayRef<int64_t> shape,
                      Type element, Swizzle swizzle);

/// `tile` as the matrix wgmma reads or writes: a 1 x rows x cols tile of a
/// batched operand as rows x cols (croq.span_as), a matrix tile itself.
Value getMatrixTile(OpBuilder &builder, Location loc, Value tile);

/// The shared tiles of one K step of A and B for an M x N block tile (1 x
/// the matrix tile for a batched product).
std::pair<Value, Value> allocOperandTiles(OpBuilder &builder, Location loc,
                                          const MatmulSpec &spec,
                                          const TileConfig &config);

/// The K loop of one block over `range`: each step copies A's and B's K
/// slices into `aTile` and `bTile` and multiplies them into an accumulator
/// of `accType` (getAccElementType), which it returns. In a cluster of
/// `config`, the operand the cluster's blocks share is a multicast copy. A
/// batched product's block reads matrix `batch` of each operand.
Value emitKLoop(OpBuilder &builder, Location loc, const MatmulSpec &spec,
                Value blockM, Value blockN, const KRange &range, Value aTile,
                Value bTile, AccType accType, const TileConfig &config,
                Value batch = Value());

/// A two-dimensional block grid of `extents` whose body has the block's
/// coordinates; the builder inserts into the body.
ParallelOp createBlockGrid(OpBuilder &builder, Location loc,
                           ValueRange extents);

/// Marks `kernel` for the passes that make it a GEMM of `config`:
/// croq.persistent and croq.consumers.
void setGemmAttributes(ParallelOp kernel, const TileConfig &config,
                       bool persistent);

/// Stores the complete accumulator `acc` into the 128B-swizzled shared
/// `tile` (1 x rows x cols for a batched product) and copies the tile to
/// the global `view` by an async tma copy left in flight; with `transpose`,
/// the accumulator's transpose (a tile of C^T stored as C's).
void emitTileStore(OpBuilder &builder, Location loc, Value acc, Value tile,
                   Value view, bool transpose = false);

/// The shared tile the result of a `config` tile is stored through by
/// TMA: swizzled (stores without bank conflicts, one bulk copy per swizzle
/// span), in column parts through a narrower tile where that leaves room
/// for more stages (TileConfig::resultPartCols).
Value allocResultTile(OpBuilder &builder, Location loc, const MatmulSpec &spec,
                      const TileConfig &config);

/// The end of a tile's block program: the complete accumulator `acc` of
/// tile (`blockM`, `blockN`), plus the output where linalg.matmul
/// accumulates, through the fused consumer (its inputs `epilogue`, loaded
/// by loadEpilogueInputs; null without one), stored through `cTile`
/// (allocResultTile).
void emitTileResult(OpBuilder &builder, Location loc, const MatmulSpec &spec,
                    const TileConfig &config, Value acc, Value cTile,
                    const EpilogueOperands *epilogue, Value blockM,
                    Value blockN, Value batch = Value());

/// Emits the kernel of `spec` in tiles of `config` with each tile's K loop
/// split among the `splits` blocks of a thread block cluster
/// (ClusterSplitK.cpp).
void emitClusterSplitProgram(OpBuilder &builder, Location loc,
                             const MatmulSpec &spec, const TileConfig &config,
                             const ProductSizes &sizes, int64_t splits);

/// `spec` as the product C^T = B^T A^T that a swapped tile
/// (TileConfig::swapped) computes: A and B exchanged, each seen transposed.
/// Its output stays C, which the tiles' results are stored into
/// transposed (emitTileResult).
MatmulSpec getSwappedSpec(const MatmulSpec &spec);

/// Emits the croq kernel that computes `spec` in tiles of `config`, each
/// block with the whole K loop: every tile, or where `tileCols` is given,
/// the tiles of the first `tileCols` columns of tiles. For a swapped
/// `config`, `spec` and `sizes` are those of C^T (getSwappedSpec, M and N
/// exchanged).
void emitBlockProgram(OpBuilder &builder, Location loc, const MatmulSpec &spec,
                      const TileConfig &config, const ProductSizes &sizes,
                      Value tileCols = Value());

/// The element tile of one block of the reduction of partials: 16 x 32
/// elements, one group of four consecutive columns per thread of a
/// 128-thread block.
constexpr int64_t kReduceRows = 16;
constexpr int64_t kReduceCols = 32;

/// The workspace of `rows` x `cols` partial elements of type `element`,
/// allocated on the device by the host code (croq-host-entries queues it
/// on the stream).
Value allocWorkspace(OpBuilder &builder, Location loc, Value rows, Value cols,
                     Type element);

/// Where the reduction of partial tiles finds them: `workspace` holds
/// slots of `partialRows` rows one under another, the elements of output
/// column group (of kReduceCols columns) `firstColumnGroup` + j in its
/// column group j (null: 0); the reduction covers `columnGroups` groups,
/// and `countPartials` gives the number of slots that hold partials of
/// reduction block (i, j), in the kernel.
struct PartialLayout {
  Value workspace;
  Value partialRows;
  Value firstColumnGroup;
  Value columnGroups;
  function_ref<Value(OpBuilder &, Location, Value, Value)> countPartials;
};

/// Emits the kernel that sums, in slot order, the partials of each result
/// element laid out as `layout` says, adds the output where linalg.matmul
/// accumulates, computes the fused consumer and writes the result.
void emitPartialReduction(OpBuilder &builder, Location loc,
                          const MatmulSpec &spec, const ProductSizes &sizes,
                          const PartialLayout &layout);

/// Stores the accumulator `acc` of a `config` tile into the global `view`
/// (tiles of the tile's shape, or of `partCols` columns where narrower,
/// `acc` sliced) at tile (`row`, `col`) through the shared `tile` (1 x
/// rows x cols for a batched product).
void emitTileStoreInParts(OpBuilder &builder, Location loc, Value acc,
                          const TileConfig &config, int64_t partCols,
                          Value tile, Value tensor, Value row, Value col,
                          Value batch = Value());

/// Emits the kernels that compute `spec` in stream-K form in tiles of
/// `config` on `multiprocessors` SMs (planStreamK): the whole waves by
/// emitBlockProgram, a kernel whose blocks store the partials of their
/// ranges of K steps in a workspace on the device, the reduction, and the
/// workspace's release.
void emitStreamKKernels(OpBuilder &builder, Location loc,
                        const MatmulSpec &spec, const TileConfig &config,
                        const ProductSizes &sizes, int64_t multiprocessors);

/// Emits the kernels that compute `spec` in tiles of `config` with the K
/// loop split `splits` ways: a workspace of the accumulator's type (f32 or
/// i32) on the device, a kernel whose
/// blocks write the partial product of their tile and K range into it, a
/// kernel that sums the partials (adding the output where linalg.matmul
/// accumulates, computing the fused consumer) and writes the result, and
/// the workspace's release.
void emitSplitKernels(OpBuilder &builder, Location loc, const MatmulSpec &spec,
                      const TileConfig &config, const ProductSizes &sizes,
                      Value splits);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_GEMMKERNEL_H
