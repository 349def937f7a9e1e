//===- TargetDescription.cpp - what croq knows of each GPU ----------------===//
//
// The table of GPU architectures croq compiles for: sm_90a (Hopper with its
// architecture-specific features: TMA, wgmma, setmaxnreg), the target croq
// is built for, and sm_80 (Ampere), which has none of them: kernels of dma
// copies, cp.async, element-wise code and events that are only triggered
// compile for it, and what needs a Hopper feature is an error there.
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/TargetDescription.h"
#include "Croq/Dialect/Croq/IR/CroqDialect.h"

#include "mlir/IR/Location.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::croq;

static const TargetDescription kTargets[] = {
    {
        /*chip=*/"sm_90a",
        // 227 KB: the opt-in maximum of cudaFuncAttributeMaxDynamic-
        // SharedMemorySize on compute capability 9.0.
        /*sharedMemoryPerBlock=*/227 * 1024,
        // 228 KB an SM, 1 KB of it kept for each resident block (CUDA
        // programming guide, compute capability 9.0).
        /*sharedMemoryPerMultiprocessor=*/228 * 1024,
        /*sharedMemoryReservedPerBlock=*/1024,
        /*registerFile=*/65536,
        /*maxRegistersPerThread=*/255,
        /*maxThreadsPerBlock=*/1024,
        // H100 SXM and H200 (an H100 PCIe has 114).
        /*multiprocessors=*/132,
        // 989 dense f16 TFLOP/s at 1830 MHz on 132 SMs.
        /*mmaFlopsPerCycle=*/4096,
        // 3.35 TB/s at 1830 MHz (an H100 SXM; an H200 moves 4.8 TB/s).
        /*memoryBytesPerCycle=*/1830,
        // 50 MiB (H100 SXM and H200).
        /*l2Bytes=*/int64_t(50) << 20,
        // Producers carry the software copy that stands in when a tensor
        // breaks a TMA rule: 40 spilled in every GEMM, 56 a few bytes in
        // some, 64 and 72 made ptxas spill and serialize the consumer of
        // the [K, N] GEMM.
        /*producerRegisters=*/56,
        // setmaxnreg takes up to 256 but a thread holds at most 255; asking
        // for 256 hung about one launch in a hundred on an H100.
        /*maxConsumerRegisters=*/240,
        /*hasTma=*/true,
        /*hasWgmma=*/true,
        /*hasMbarrierTryWait=*/true,
        /*hasSetMaxNReg=*/true,
        /*hasClusters=*/true,
        /*wgmmaSwizzleMode128=*/1,
        /*wgmmaSwizzleMode64=*/2,
        /*wgmmaSwizzleMode32=*/3,
        /*wgmmaSwizzleModeNone=*/0,
    },
    {
        /*chip=*/"sm_80",
        // 163 KB: the opt-in maximum on compute capability 8.0.
        /*sharedMemoryPerBlock=*/163 * 1024,
        // 164 KB an SM, 1 KB of it kept for each resident block.
        /*sharedMemoryPerMultiprocessor=*/164 * 1024,
        /*sharedMemoryReservedPerBlock=*/1024,
        /*registerFile=*/65536,
        /*maxRegistersPerThread=*/255,
        /*maxThreadsPerBlock=*/1024,
        // A100.
        /*multiprocessors=*/108,
        // 312 dense f16 TFLOP/s at 1410 MHz on 108 SMs.
        /*mmaFlopsPerCycle=*/2048,
        // 1.56 TB/s at 1410 MHz (A100 40GB).
        /*memoryBytesPerCycle=*/1100,
        // 40 MiB.
        /*l2Bytes=*/int64_t(40) << 20,
        // No setmaxnreg: roles keep the registers they start with.
        /*producerRegisters=*/0,
        /*maxConsumerRegisters=*/0,
        /*hasTma=*/false,
        /*hasWgmma=*/false,
        /*hasMbarrierTryWait=*/false,
        /*hasSetMaxNReg=*/false,
        /*hasClusters=*/false,
        /*wgmmaSwizzleMode128=*/0,
        /*wgmmaSwizzleMode64=*/0,
        /*wgmmaSwizzleMode32=*/0,
        /*wgmmaSwizzleModeNone=*/0,
    },
};

const TargetDescription *mlir::croq::lookupTargetDescription(StringRef chip) {
  for (const TargetDescription &target : kTargets)
    if (target.chip == chip)
      return &target;
  return nullptr;
}

std::string mlir::croq::getKnownChips() {
  std::string names;
  for (const TargetDescription &target : kTargets) {
    if (!names.empty())
      names += ", ";
    names += target.chip.str();
  }
  return names;
}

FailureOr<const TargetDescription *>
mlir::croq::getTargetDescription(Location loc, StringRef chip) {
  if (const TargetDescription *target = lookupTargetDescription(chip))
    return target;
  return emitError(loc) << "croq has no target description for chip '" << chip
                        << "'; known chips: " << getKnownChips();
}

StringAttr mlir::croq::getModuleChip(Operation *op) {
  StringRef name = CroqDialect::TargetAttrHelper::getNameStr();
  for (Operation *holder = op; holder; holder = holder->getParentOp())
    if (auto chip = holder->getAttrOfType<StringAttr>(name))
      return chip;
  return nullptr;
}

FailureOr<const TargetDescription *>
mlir::croq::getModuleTarget(Operation *op) {
  StringAttr chip = getModuleChip(op);
  return getTargetDescription(op->getLoc(),
                              chip ? chip.getValue() : StringRef(kDefaultChip));
}
