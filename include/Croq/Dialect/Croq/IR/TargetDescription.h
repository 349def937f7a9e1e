//===- TargetDescription.h - what croq knows of each GPU -------*- C++ -*-===//
//
// The facts of a GPU architecture that croq's passes read: shared-memory
// capacity, the register file and the register counts of warp roles, and
// the features the lowering may use. The chip is named once in the IR, by
// the `croq.target` attribute of the module (croq-set-target writes it);
// passes that need a limit read it through getModuleTarget, and nothing
// else hard-codes them.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_IR_TARGETDESCRIPTION_H
#define CROQ_DIALECT_CROQ_IR_TARGETDESCRIPTION_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
namespace croq {

/// One GPU architecture as croq's passes see it.
struct TargetDescription {
  /// The chip name as ptxas and the NVVM target take it ("sm_90a").
  StringRef chip;
  /// Shared memory one block may use, in bytes (the opt-in maximum).
  int64_t sharedMemoryPerBlock;
  /// Shared memory of one SM, which its resident blocks share, and the
  /// part of it the hardware keeps for each resident block: blocks of B
  /// bytes each fit floor(perSM / (B + reserved)) to an SM.
  int64_t sharedMemoryPerMultiprocessor;
  int64_t sharedMemoryReservedPerBlock;
  /// 32-bit registers of one SM, shared by the threads of its blocks.
  int64_t registerFile;
  /// The most registers one thread may hold.
  int64_t maxRegistersPerThread;
  /// The most threads in one block.
  int64_t maxThreadsPerBlock;
  /// Streaming multiprocessors of the chip's largest part: blocks that run
  /// at once, one per SM, in the cost model of tile choices.
  int64_t multiprocessors;
  /// Dense tensor-core operations of one SM per clock for 16-bit operands
  /// (an 8-bit product does twice as many): the cost model's time of a
  /// tile's K step.
  int64_t mmaFlopsPerCycle;
  /// Bytes of device memory the whole chip moves per SM clock: the cost
  /// model's time of a split-K reduction.
  int64_t memoryBytesPerCycle;
  /// Bytes of the L2 cache: the cost model's bound on an operand that the
  /// blocks of one wave share through it.
  int64_t l2Bytes;
  /// Registers a warp-specialized producer keeps (setmaxnreg.dec): enough
  /// for its loads and their software-copy fallback.
  int64_t producerRegisters;
  /// The most registers a consumer asks for (setmaxnreg.inc).
  int64_t maxConsumerRegisters;
  /// Tensor memory accelerator (cp.async.bulk.tensor) and mbarrier
  /// transaction counts.
  bool hasTma;
  /// Warpgroup mma on shared-memory descriptors.
  bool hasWgmma;
  /// mbarrier try_wait with a phase parity, which event waits lower to.
  bool hasMbarrierTryWait;
  /// Register reallocation between warpgroups (setmaxnreg).
  bool hasSetMaxNReg;
  /// Thread block clusters: cluster launches, ranks and barriers.
  bool hasClusters;
  /// The layout-type field (bits 62-63) of a wgmma shared-memory
  /// descriptor for 128-, 64- and 32-byte swizzles and none.
  uint64_t wgmmaSwizzleMode128;
  uint64_t wgmmaSwizzleMode64;
  uint64_t wgmmaSwizzleMode32;
  uint64_t wgmmaSwizzleModeNone;
};

/// The description of `chip`, or null if croq does not know it.
const TargetDescription *lookupTargetDescription(StringRef chip);

/// The chips croq knows, comma-separated, for error messages.
std::string getKnownChips();

/// The description of `chip`; emits an error at `loc` naming the known
/// chips if there is none.
FailureOr<const TargetDescription *> getTargetDescription(Location loc,
                                                          StringRef chip);

/// The target the pipeline compiles for when none is named.
constexpr llvm::StringLiteral kDefaultChip = "sm_90a";

/// The chip named by the `croq.target` attribute of the closest op that
/// holds `op` (or of `op` itself), or null if none names one.
StringAttr getModuleChip(Operation *op);

/// The target `op` compiles for: the description of the chip its module's
/// `croq.target` names, or of sm_90a where none is named. Emits an error
/// naming the known chips if croq has no description of that chip.
FailureOr<const TargetDescription *> getModuleTarget(Operation *op);

} // namespace croq
} // namespace mlir

#endif // CROQ_DIALECT_CROQ_IR_TARGETDESCRIPTION_H
