//===- BlockScaled.h - block-scaled 8-bit float products --------*- C++ -*-===//
//
// The linalg.generic form of a block-scaled 8-bit float matrix product (the
// DeepSeek-V3 recipe), which convert-linalg-to-croq computes as a GEMM that
// scales each K step's partial product as it adds it into the f32
// accumulator.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_CONVERSION_LINALGTOCROQ_BLOCKSCALED_H
#define CROQ_LIB_CONVERSION_LINALGTOCROQ_BLOCKSCALED_H

#include "GemmKernel.h"

namespace mlir {
namespace croq {

/// The elements of K (and of N for B's scales) one scale covers.
constexpr int64_t kScaleBlock = 128;

/// Whether `op` reads as an attempt at a block-scaled product: a generic
/// with a reduction loop, an 8-bit float input and an input indexed through
/// `floordiv`. getBlockScaledSpec then takes it or says why not.
bool isBlockScaledCandidate(linalg::GenericOp op);

/// The spec of the block-scaled product `op` (A, B, the output and the two
/// scale operands), or an error on `op` that names what does not match:
///
///   out[m, n] += (extf(a[m, k]) * sa[m, k floordiv 128])
///              * (extf(b[n, k]) * sb[n floordiv 128, k floordiv 128])
///
/// over loops (m, n, k) = (parallel, parallel, reduction), A and B of one
/// 8-bit float type, f32 scales and an f32 output; the inputs in any order,
/// the multiplications' operands either way round.
FailureOr<MatmulSpec> getBlockScaledSpec(linalg::GenericOp op);

} // namespace croq
} // namespace mlir

#endif // CROQ_LIB_CONVERSION_LINALGTOCROQ_BLOCKSCALED_H
