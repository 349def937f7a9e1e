//===- CroqToGPU.h - croq to gpu, nvgpu and nvvm patterns -------*- C++ -*-===//
//
// The public entry points of convert-croq-to-gpu, for compilers that embed
// croq and build their own conversion: the type converter and the pattern
// sets by family. The patterns share nothing outside the IR: a lowered
// event array or tma load future is an unrealized_conversion_cast of its
// parts (mbarriers, phase bits, whether TMA was usable) that its users take
// apart; once they are lowered, the casts are dead.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_CONVERSION_CROQTOGPU_H
#define CROQ_CONVERSION_CROQTOGPU_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace croq {

struct TargetDescription;

/// Converts croq types: tiles to memrefs (shared tiles in the workgroup
/// address space, with a dynamic offset so that stages and views of them
/// share one type), tensor maps to their 128 bytes (vector<16xi64>),
/// futures to cp.async tokens, event arrays to mbarrier groups, mma
/// operands to shared-memory start addresses (i64) and accumulators to the
/// LLVM structs wgmma reads and writes (one per 64 rows).
class CroqTypeConverter : public TypeConverter {
public:
  explicit CroqTypeConverter(MLIRContext *context);
};

/// croq.alloc, croq.stage, croq.span_as, dma copies, transposes, pads,
/// croq.wait of their futures, croq.foreach, croq.read and croq.write.
void populateCroqDataToGPUConversionPatterns(CroqTypeConverter &converter,
                                             RewritePatternSet &patterns);

/// croq.tensor_map (host runtime calls), tma copies, croq.wait of their
/// futures and croq.wait_stores.
void populateCroqTmaToGPUConversionPatterns(CroqTypeConverter &converter,
                                            RewritePatternSet &patterns);

/// Event arrays, triggers and waits to mbarriers.
void populateCroqEventToGPUConversionPatterns(CroqTypeConverter &converter,
                                              RewritePatternSet &patterns);

/// croq.mma.fill, mma.load, mma, mma.commit and mma.store to wgmma,
/// stmatrix and stores; the wgmma descriptors' layout types come from
/// `target` (lookupTargetDescription in Croq/Dialect/Croq/IR/
/// TargetDescription.h).
void populateCroqMmaToGPUConversionPatterns(CroqTypeConverter &converter,
                                            const TargetDescription &target,
                                            RewritePatternSet &patterns);

/// All of the above: what convert-croq-to-gpu applies (with scf's
/// structural type conversions, for accumulators carried through loops).
void populateCroqToGPUConversionPatterns(CroqTypeConverter &converter,
                                         const TargetDescription &target,
                                         RewritePatternSet &patterns);

} // namespace croq
} // namespace mlir

#endif // CROQ_CONVERSION_CROQTOGPU_H
