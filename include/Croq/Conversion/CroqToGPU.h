//===- CroqToGPU.h - croq to gpu, nvgpu and nvvm patterns -------*- C++ -*-===//
//
// The public entry points of convert-croq-to-gpu, for compilers that embed
// croq and build their own conversion: the type converter, the state the
// patterns share while one module is converted, and the pattern sets by
// family.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_CONVERSION_CROQTOGPU_H
#define CROQ_CONVERSION_CROQTOGPU_H

#include "mlir/Transforms/DialectConversion.h"

#include <memory>

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

/// What the patterns of one conversion share: how each async tma load
/// completes (for the croq.wait of its future) and each event array's
/// per-thread phase mask. Make one per applyPartialConversion, and keep it
/// alive while the patterns run.
class CroqToGPULoweringState {
public:
  CroqToGPULoweringState();
  ~CroqToGPULoweringState();
  struct Impl;
  Impl &impl() { return *state; }

private:
  std::unique_ptr<Impl> state;
};

/// croq.alloc, croq.stage, croq.span_as, dma copies, transposes, pads,
/// croq.wait of their futures, croq.foreach, croq.read and croq.write.
void populateCroqDataToGPUConversionPatterns(CroqTypeConverter &converter,
                                             RewritePatternSet &patterns);

/// croq.tensor_map (host runtime calls), tma copies, croq.wait of their
/// futures and croq.wait_stores.
void populateCroqTmaToGPUConversionPatterns(CroqTypeConverter &converter,
                                            CroqToGPULoweringState &state,
                                            RewritePatternSet &patterns);

/// Event arrays, triggers and waits to mbarriers.
void populateCroqEventToGPUConversionPatterns(CroqTypeConverter &converter,
                                              CroqToGPULoweringState &state,
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
                                         CroqToGPULoweringState &state,
                                         const TargetDescription &target,
                                         RewritePatternSet &patterns);

} // namespace croq
} // namespace mlir

#endif // CROQ_CONVERSION_CROQTOGPU_H
