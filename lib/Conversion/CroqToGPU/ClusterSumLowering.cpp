//===- ClusterSumLowering.cpp - accumulators summed across a cluster ------===//
//
// Lowers croq.mma.cluster_sum: the blocks of rank r > 0 of a thread block
// cluster store their accumulator registers into slot r - 1 of the scratch
// tile of the block of rank 0 (st.shared::cluster through mapa) and arrive,
// each thread, on an mbarrier of that block with release semantics at
// cluster scope; the leader's threads wait on it (acquire at cluster scope)
// and add the slots to their registers in rank order. The mbarrier is made
// at the kernel's start, initialized by thread 0 and fenced before a
// cluster barrier, so that no peer arrives on it earlier.
//
// Thread t of a warpgroup keeps R registers; register group c (registers
// 4 c .. 4 c + 3) of slot j lies at 16-byte chunk (j R / 4 + c) x 128 + t
// of the scratch: the 32 lanes of a warp write 512 consecutive bytes, no
// bank conflicts, and thread t of the leader reads what thread t of a peer
// wrote, with the same fragment layout.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::croq;

/// Registers of one 16-byte chunk.
static constexpr int64_t kChunkRegisters = 4;

/// The shared-memory address, as an i64, of the first slot of `group` (an
/// nvgpu mbarrier group of one slot).
static Value getBarrierAddress(OpBuilder &b, Location loc, Value group) {
  MLIRContext *context = b.getContext();
  auto memrefType = MemRefType::get(
      {1}, b.getI64Type(), nullptr,
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup));
  Value slots = UnrealizedConversionCastOp::create(b, loc, memrefType, group)
                    .getResult(0);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, slots);
  return arith::IndexCastUIOp::create(b, loc, b.getI64Type(), base);
}

/// Makes, at the start of `kernel`, an mbarrier of `arrivals` that every
/// block of the cluster has initialized before any of its threads goes on:
/// returns its address (i64) in this block's shared memory.
static Value createClusterBarrier(ConversionPatternRewriter &rewriter,
                                  Location loc, ParallelOp kernel,
                                  int64_t arrivals) {
  MLIRContext *context = rewriter.getContext();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(&kernel.getBody().front());
  auto type = nvgpu::MBarrierGroupType::get(
      context,
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup), 1);
  Value group = nvgpu::MBarrierCreateOp::create(rewriter, loc, type);
  Value tid = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                      tid, indexConstant(rewriter, loc, 0));
  nvgpu::MBarrierInitOp::create(rewriter, loc, group,
                                indexConstant(rewriter, loc, arrivals),
                                indexConstant(rewriter, loc, 0), first);
  NVVM::FenceMbarrierInitOp::create(rewriter, loc);
  emitClusterBarrier(rewriter, loc);
  return getBarrierAddress(rewriter, loc, group);
}

/// `address` (an i64) + `bytes` as a pointer of address space `space`.
static Value getPointer(OpBuilder &b, Location loc, Value address, Value bytes,
                        NVVM::NVVMMemorySpace space) {
  auto ptrType =
      LLVM::LLVMPointerType::get(b.getContext(), static_cast<unsigned>(space));
  Value sum = arith::AddIOp::create(b, loc, address, bytes);
  return LLVM::IntToPtrOp::create(b, loc, ptrType, sum);
}

namespace {
/// The registers of a lowered accumulator and where each 16-byte chunk of
/// them lies in a slot.
struct Fragment {
  LLVM::LLVMStructType type;
  int64_t rowBlocks;
  int64_t registersPerBlock;
  /// Threads of the group that holds the accumulator.
  int64_t threads;
  Type element;

  int64_t registers() const { return rowBlocks * registersPerBlock; }
  int64_t slotBytes() const { return registers() * threads * 4; }
};

/// croq.mma.cluster_sum  =>  peers: st.shared::cluster of each register
/// chunk into the leader's slot, mbarrier.arrive.release.cluster on the
/// leader's barrier; leader: mbarrier.try_wait.parity.acquire.cluster,
/// then ld.shared of each slot's chunk and an add per register.
struct MmaClusterSumOpLowering : OpConversionPattern<MmaClusterSumOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MmaClusterSumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    AccType accType = op.getAcc().getType();
    Fragment frag;
    frag.type = getAccStructType(accType);
    if (!frag.type)
      return rewriter.notifyMatchFailure(op, "not in wgmma fragments");
    FailureOr<ThreadGroup> group = getThreadGroup(rewriter, op);
    if (failed(group))
      return failure();
    frag.rowBlocks = accType.getShape()[0] / 64;
    frag.registersPerBlock = accType.getShape()[1] / 2;
    frag.threads = group->size;
    frag.element = accType.getElementType();
    if (frag.registers() * frag.threads !=
        accType.getShape()[0] * accType.getShape()[1])
      return op.emitOpError("is lowered where one warpgroup holds the "
                            "accumulator in wgmma fragments, got a group of ")
             << group->size << " threads";
    ParallelOp kernel = getKernel(op);
    int64_t blocks = kernel.getClusterBlocks();
    FailureOr<int64_t> warps = countWarpsRunning(op);
    if (failed(warps))
      return failure();
    Value barrier = createClusterBarrier(
        rewriter, loc, kernel, (blocks - 1) * *warps * kThreadsPerWarp);
    FailureOr<Value> scratch = getScratchAddress(rewriter, loc, op);
    if (failed(scratch))
      return failure();
    Value rank = NVVM::ClusterId::create(rewriter, loc, rewriter.getI32Type());
    Value leader = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, rank,
        arith::ConstantIntOp::create(rewriter, loc, 0, 32));
    // This thread's first chunk: 16 bytes per thread and register group.
    Value thread = arith::IndexCastUIOp::create(
        rewriter, loc, rewriter.getI64Type(), group->threadIndex);
    Value own = arith::MulIOp::create(
        rewriter, loc, thread,
        arith::ConstantIntOp::create(rewriter, loc, 16, 64));
    auto branch = scf::IfOp::create(rewriter, loc, TypeRange{frag.type}, leader,
                                    /*withElse=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&branch.getThenRegion().front());
      Value sum = emitLeader(rewriter, loc, frag, adaptor.getAcc(), barrier,
                             *scratch, own, blocks);
      scf::YieldOp::create(rewriter, loc, sum);
      rewriter.setInsertionPointToStart(&branch.getElseRegion().front());
      emitPeer(rewriter, loc, frag, adaptor.getAcc(), barrier, *scratch, own,
               rank);
      scf::YieldOp::create(rewriter, loc, adaptor.getAcc());
    }
    rewriter.replaceOp(op, branch.getResult(0));
    return success();
  }

  /// The address (i64) of the first element of the op's scratch tile or
  /// view in this block's shared memory.
  static FailureOr<Value> getScratchAddress(ConversionPatternRewriter &b,
                                            Location loc, MmaClusterSumOp op) {
    FailureOr<BufferAccess> access = getBufferAccess(b, loc, op.getScratch());
    if (failed(access))
      return failure();
    auto metadata =
        memref::ExtractStridedMetadataOp::create(b, loc, access->memref);
    Value linear = metadata.getOffset();
    for (auto [offset, stride] :
         llvm::zip(access->offsets, metadata.getStrides()))
      linear = arith::AddIOp::create(
          b, loc, linear, arith::MulIOp::create(b, loc, offset, stride));
    Value base =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, access->memref);
    Value address = arith::AddIOp::create(
        b, loc, base,
        arith::MulIOp::create(b, loc, linear, indexConstant(b, loc, 4)));
    return arith::IndexCastUIOp::create(b, loc, b.getI64Type(), address)
        .getResult();
  }

  /// The byte offset of chunk `chunk` of slot `slot` from a thread's own
  /// first chunk.
  static int64_t getChunkOffset(const Fragment &frag, int64_t slot,
                                int64_t chunk) {
    return slot * frag.slotBytes() + chunk * frag.threads * 16;
  }

  /// Waits for the peers' arrivals, then adds their slots, in rank order,
  /// to `acc`.
  static Value emitLeader(OpBuilder &b, Location loc, const Fragment &frag,
                          Value acc, Value barrier, Value scratch, Value own,
                          int64_t blocks) {
    auto sharedPtr = LLVM::LLVMPointerType::get(
        b.getContext(), static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
    Value barrierPtr = LLVM::IntToPtrOp::create(b, loc, sharedPtr, barrier);
    Value phase = arith::ConstantIntOp::create(b, loc, 0, 32);
    auto wait = scf::WhileOp::create(b, loc, TypeRange{}, ValueRange{});
    {
      OpBuilder::InsertionGuard guard(b);
      Block *before = b.createBlock(&wait.getBefore());
      Value done = NVVM::MBarrierTryWaitOp::create(
          b, loc, b.getI1Type(), barrierPtr, phase, /*ticks=*/Value(),
          NVVM::MemScopeKind::CLUSTER, /*relaxed=*/false);
      Value pending = arith::XOrIOp::create(
          b, loc, done, arith::ConstantIntOp::create(b, loc, 1, 1));
      scf::ConditionOp::create(b, loc, pending, ValueRange{});
      b.createBlock(&wait.getAfter());
      scf::YieldOp::create(b, loc);
      (void)before;
    }
    Value base = arith::AddIOp::create(b, loc, scratch, own);
    auto chunkType = VectorType::get({kChunkRegisters}, frag.element);
    SmallVector<Value> registers;
    for (int64_t block = 0; block < frag.rowBlocks; ++block)
      for (int64_t reg = 0; reg < frag.registersPerBlock; ++reg)
        registers.push_back(LLVM::ExtractValueOp::create(
            b, loc, acc, ArrayRef<int64_t>{block, reg}));
    int64_t chunks = frag.registers() / kChunkRegisters;
    for (int64_t slot = 0; slot + 1 < blocks; ++slot)
      for (int64_t chunk = 0; chunk < chunks; ++chunk) {
        Value offset = arith::ConstantIntOp::create(
            b, loc, getChunkOffset(frag, slot, chunk), 64);
        Value ptr =
            getPointer(b, loc, base, offset, NVVM::NVVMMemorySpace::Shared);
        Value values = LLVM::LoadOp::create(b, loc, chunkType, ptr,
                                            /*alignment=*/16);
        for (int64_t q = 0; q < kChunkRegisters; ++q) {
          Value &x = registers[chunk * kChunkRegisters + q];
          Value y = LLVM::ExtractElementOp::create(
              b, loc, values, arith::ConstantIntOp::create(b, loc, q, 32));
          x = isa<FloatType>(frag.element)
                  ? arith::AddFOp::create(b, loc, x, y).getResult()
                  : arith::AddIOp::create(b, loc, x, y).getResult();
        }
      }
    return buildRegisterStruct(
        b, loc, frag.type, [&](int64_t block, int64_t reg) {
          return registers[block * frag.registersPerBlock + reg];
        });
  }

  /// Stores `acc` into slot `rank` - 1 of the leader's scratch and arrives
  /// on its barrier.
  static void emitPeer(OpBuilder &b, Location loc, const Fragment &frag,
                       Value acc, Value barrier, Value scratch, Value own,
                       Value rank) {
    Value zero = arith::ConstantIntOp::create(b, loc, 0, 32);
    auto sharedPtr = LLVM::LLVMPointerType::get(
        b.getContext(), static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
    auto clusterPtr = LLVM::LLVMPointerType::get(
        b.getContext(),
        static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
    Value slot = arith::ExtUIOp::create(
        b, loc, b.getI64Type(),
        arith::SubIOp::create(b, loc, rank,
                              arith::ConstantIntOp::create(b, loc, 1, 32)));
    Value slotOffset = arith::MulIOp::create(
        b, loc, slot,
        arith::ConstantIntOp::create(b, loc, frag.slotBytes(), 64));
    Value first = arith::AddIOp::create(b, loc, scratch, own);
    Value address = arith::AddIOp::create(b, loc, first, slotOffset);
    Value local = LLVM::IntToPtrOp::create(b, loc, sharedPtr, address);
    Value remote = NVVM::MapaOp::create(b, loc, clusterPtr, local, zero);
    auto chunkType = VectorType::get({kChunkRegisters}, frag.element);
    int64_t chunks = frag.registers() / kChunkRegisters;
    for (int64_t chunk = 0; chunk < chunks; ++chunk) {
      Value values = LLVM::UndefOp::create(b, loc, chunkType);
      for (int64_t q = 0; q < kChunkRegisters; ++q) {
        int64_t reg = chunk * kChunkRegisters + q;
        Value x = LLVM::ExtractValueOp::create(
            b, loc, acc,
            ArrayRef<int64_t>{reg / frag.registersPerBlock,
                              reg % frag.registersPerBlock});
        values = LLVM::InsertElementOp::create(
            b, loc, values, x, arith::ConstantIntOp::create(b, loc, q, 32));
      }
      Value ptr =
          LLVM::GEPOp::create(b, loc, clusterPtr, b.getI8Type(), remote,
                              ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(
                                  getChunkOffset(frag, 0, chunk))});
      LLVM::StoreOp::create(b, loc, values, ptr, /*alignment=*/16);
    }
    Value remoteBarrier = NVVM::MapaOp::create(
        b, loc, clusterPtr,
        LLVM::IntToPtrOp::create(b, loc, sharedPtr, barrier), zero);
    NVVM::MBarrierArriveOp::create(b, loc, /*res=*/Type(), remoteBarrier,
                                   /*count=*/Value(),
                                   NVVM::MemScopeKind::CLUSTER,
                                   /*relaxed=*/false);
  }
};
} // namespace

void mlir::croq::populateCroqClusterSumToGPUPatterns(
    CroqTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<MmaClusterSumOpLowering>(converter, patterns.getContext());
}
