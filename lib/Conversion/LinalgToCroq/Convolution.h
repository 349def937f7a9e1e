//===- Convolution.h - linalg convolutions as implicit GEMMs ----*- C++ -*-===//
//
// convert-linalg-to-croq computes linalg.conv_2d_nhwc_fhwc and
// conv_2d_nhwc_hwcf as GEMMs: the output positions (N P Q) are the rows,
// the filters (F) the columns, the taps and channels (R S C) the K loop.
// A is gathered from the NHWC input by TMA im2col loads (croq.im2col), one
// per K step; 1x1 convolutions of stride 1 without padding are plain GEMMs
// of the input seen as (N H W) x C. ConvolutionMatch.cpp decides what is
// taken (and declines the rest by name), ConvolutionKernel.cpp emits it.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_CONVOLUTION_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_CONVOLUTION_H

#include "GemmKernel.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace croq {

/// Whether `op` is a convolution convert-linalg-to-croq computes as a GEMM
/// (or declines by its rules): conv_2d_nhwc_fhwc or conv_2d_nhwc_hwcf.
bool isGemmConvolution(Operation *op);

/// Rewrites every linalg.conv_2d_nchw_fchw of host code on static,
/// contiguous memrefs as a conv_2d_nhwc_fhwc between transposes
/// (ConvolutionLayout.cpp); the others are declined by name.
void rewriteNchwConvolutions(ModuleOp module);

/// Checks that croq can compute the convolution `op` (on memrefs), and
/// how: its geometry, a padded copy of its input to fold into the im2col
/// map, the zero fill before it and the elementwise consumer after it.
/// Fails with an error naming the rule it breaks. Changes nothing.
FailureOr<MatmulSpec> getConvolutionSpec(linalg::LinalgOp op);

/// Makes the views the GEMM of the convolution `spec` reads and writes,
/// before its kernels: B the filters as F x (R S C) or (R S C) x F, the
/// output as (N P Q) x F, A the input as (N H W) x C for a plain GEMM, and
/// the fused consumer as a generic over (N P Q) x F. Returns the GEMM's
/// extents (all constants).
ProductSizes prepareConvolution(OpBuilder &builder, Location loc,
                                MatmulSpec &spec);

/// The croq.im2col_map of the convolution's input for columns of `pixels`
/// output positions, made on the host where `builder` inserts.
Value createIm2colMap(OpBuilder &builder, Location loc,
                      const ConvolutionSpec &conv, int64_t pixels);

/// The coordinates (image, row, column) of the input pixel where the
/// im2col column of the block's first output position starts: position
/// `blockM * rows`, times the strides, less the padding (possibly
/// negative).
SmallVector<Value> getIm2colStart(OpBuilder &builder, Location loc,
                                  const ConvolutionSpec &conv, Value blockM,
                                  int64_t rows);

/// The im2col load of K step `step` (tap `step / ceil(C / 64)`, channel
/// block `step % ceil(C / 64)`; channels past C read zero) of the column
/// starting at `start` into the shared `tile`, and the fragment the mma reads
/// from it.
Value loadIm2colOperand(OpBuilder &builder, Location loc,
                        const ConvolutionSpec &conv, ArrayRef<Value> start,
                        Value step, Value tile);

/// Whether the convolution's channels are whole K steps (a multiple of 64):
/// K step k then starts at column 64 k of the filters' matrix.
bool hasWholeChannelSteps(const ConvolutionSpec &conv);

/// The filters' K column where K step `step` starts: tap `step / blocks`
/// times C plus 64 times its channel block (`blocks` = ceil(C / 64)). The
/// last block of a tap reads the next tap's first columns too, where A's
/// im2col load reads zeros (channels past C): they add nothing.
Value getFilterColumn(OpBuilder &builder, Location loc,
                      const ConvolutionSpec &conv, Value step);

/// Erases the padded copy folded into the im2col map, once the
/// convolution that read it is gone.
void erasePaddedCopy(ConvolutionSpec &conv);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_CONVOLUTION_H
