//===- Classify.cpp - which kernel each op of host code becomes -----------===//
//
// Sorts the linalg ops of host code by the kernel that computes them and
// declines the rest by name, before convert-linalg-to-croq changes
// anything. Products first: they take the zero fill before them and the
// elementwise consumer after them into their kernels. Then every other
// linalg op: the named ones generalized, those whose loops are all parallel
// to the elementwise kernel. Host ops that would read or write a device
// buffer's data on the host are declined too.
//
//===----------------------------------------------------------------------===//

#include "Classify.h"
#include "BlockScaled.h"
#include "Contractions.h"
#include "Convolution.h"
#include "Elementwise.h"
#include "Reduction.h"

#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::croq;

/// Whether `value` is a zero constant.
static bool isZero(Value value) {
  return matchPattern(value, m_AnyZeroFloat()) || matchPattern(value, m_Zero());
}

/// Reads the operand layouts from the indexing maps of `op`: over (m, n, k),
/// or (b, m, n, k) for a batched product, whose operands are all indexed by
/// the batch b first.
static LogicalResult getLayouts(linalg::LinalgOp op, MatmulSpec &spec) {
  MLIRContext *context = op.getContext();
  unsigned loops = spec.batched ? 4 : 3;
  AffineExpr m = getAffineDimExpr(loops - 3, context);
  AffineExpr n = getAffineDimExpr(loops - 2, context);
  AffineExpr k = getAffineDimExpr(loops - 1, context);
  auto map = [&](AffineExpr i, AffineExpr j) {
    SmallVector<AffineExpr> results{i, j};
    if (spec.batched)
      results.insert(results.begin(), getAffineDimExpr(0, context));
    return AffineMap::get(loops, 0, results, context);
  };
  StringRef batch = spec.batched ? "b, " : "";
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (maps.size() != 3 || maps[2] != map(m, n))
    return op.emitOpError("convert-linalg-to-croq takes a product whose "
                          "output is indexed (")
           << batch << "m, n)";
  if (maps[0] == map(k, m))
    spec.aTransposed = true;
  else if (maps[0] != map(m, k))
    return op.emitOpError("convert-linalg-to-croq takes A indexed (")
           << batch << "m, k) or (" << batch << "k, m), got "
           << AffineMapAttr::get(maps[0]);
  if (maps[1] == map(n, k))
    spec.bTransposed = true;
  else if (maps[1] != map(k, n))
    return op.emitOpError("convert-linalg-to-croq takes B indexed (")
           << batch << "k, n) or (" << batch << "n, k), got "
           << AffineMapAttr::get(maps[1]);
  return success();
}

/// The name of the wgmma kind that multiplies operands of `type`, as the
/// diagnostics spell it, or an empty string when croq's GEMM takes none.
static StringRef getOperandKindName(Type type) {
  if (type.isF16() || type.isBF16())
    return "16-bit float";
  if (isa<Float8E4M3FNType, Float8E5M2Type>(type))
    return "8-bit float";
  if (type.isF32())
    return "tf32";
  if (type.isInteger(8))
    return "s8";
  return "";
}

/// Whether the result type `tc` fits operands of type `ta`: f16, bf16 or
/// f32 for floats (the f32 accumulator rounded), i32 for i8 (the s32
/// accumulator, exact).
static LogicalResult checkResultType(linalg::LinalgOp op, Type ta, Type tc) {
  if (ta.isInteger(8)) {
    if (!tc.isInteger(32))
      return op.emitOpError("convert-linalg-to-croq writes i32 results of "
                            "i8 products (s8 wgmma, s32 accumulator), got ")
             << tc;
    // wgmma.s8 sign-extends; a body that zero-extends is a u8 product.
    WalkResult zeroExtends =
        op->walk([](arith::ExtUIOp) { return WalkResult::interrupt(); });
    if (zeroExtends.wasInterrupted())
      return op.emitOpError("convert-linalg-to-croq takes i8 products that "
                            "sign-extend their operands (cast_signed); this "
                            "one zero-extends them");
    return success();
  }
  if (!(tc.isF16() || tc.isBF16() || tc.isF32()))
    return op.emitOpError("convert-linalg-to-croq writes f16, bf16 or f32 "
                          "results of float products, got ")
           << tc;
  return success();
}

/// Takes the zero fill of the product `op`'s output right before it, and
/// then its elementwise consumer, into `spec`.
static void addFusedOps(linalg::LinalgOp op, MatmulSpec &spec) {
  if (auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
      fill && fill.hasPureBufferSemantics() &&
      fill.getDpsInits()[0] == spec.c && isZero(fill.getDpsInputs()[0]))
    spec.zeroFill = fill;
  // A product into a zeroed temporary may carry its consumer along.
  if (spec.zeroFill)
    spec.epilogue = matchEpilogue(op, spec.c);
}

/// Checks that croq can compute `op`, and how.
static FailureOr<MatmulSpec> getSpec(linalg::LinalgOp op) {
  MatmulSpec spec;
  spec.batched = isa<linalg::BatchMatmulOp>(op);
  spec.a = op.getDpsInputs()[0];
  spec.b = op.getDpsInputs()[1];
  spec.c = op.getDpsInits()[0];
  Type ta = getElementTypeOrSelf(spec.a.getType());
  Type tb = getElementTypeOrSelf(spec.b.getType());
  Type tc = getElementTypeOrSelf(spec.c.getType());
  StringRef kind = getOperandKindName(ta);
  if (ta != tb || kind.empty())
    return op.emitOpError("convert-linalg-to-croq takes f16, bf16, f8E4M3FN, "
                          "f8E5M2, f32 (as tf32) or i8 operands of one type, "
                          "got ")
           << ta << " and " << tb;
  if (failed(checkResultType(op, ta, tc)) || failed(getLayouts(op, spec)))
    return failure();
  // wgmma reads 8-bit and tf32 operands K-major only: A stored M x K, B
  // N x K.
  bool kMajorOnly = !(ta.isF16() || ta.isBF16());
  if (kMajorOnly && (spec.aTransposed || !spec.bTransposed)) {
    StringRef batch = spec.batched ? "b, " : "";
    return op.emitOpError("convert-linalg-to-croq takes products of ")
           << ta << " operands with A indexed (" << batch
           << "m, k) and B indexed (" << batch << "n, k): wgmma reads " << kind
           << " operands K-major only";
  }
  addFusedOps(op, spec);
  return spec;
}

/// Whether `op` runs on the host: outside every croq kernel and GPU module.
static bool isHostOp(Operation *op) {
  return !op->getParentOfType<ParallelOp>() &&
         !op->getParentOfType<gpu::GPUModuleOp>();
}

void mlir::croq::rewriteHostCopies(ModuleOp module) {
  SmallVector<memref::CopyOp> copies;
  module.walk([&](memref::CopyOp copy) {
    if (isHostOp(copy))
      copies.push_back(copy);
  });
  for (memref::CopyOp copy : copies) {
    OpBuilder b(copy);
    linalg::CopyOp::create(b, copy.getLoc(), ValueRange{copy.getSource()},
                           ValueRange{copy.getTarget()});
    copy.erase();
  }
}

/// Whether `op` takes or makes a tensor.
static bool worksOnTensors(Operation *op) {
  auto isTensor = [](Type type) { return isa<TensorType>(type); };
  return llvm::any_of(op->getOperandTypes(), isTensor) ||
         llvm::any_of(op->getResultTypes(), isTensor);
}

/// Declines the host op `op` if no kernel computes it and it would touch a
/// device buffer's data on the host.
static LogicalResult checkHostOp(Operation *op) {
  // A global's splat constant is folded into the kernels that read it;
  // croq-allocate-on-device copies any other into device memory.
  if (isa<memref::GetGlobalOp>(op))
    return success();
  if (op->getDialect() && op->getDialect()->getNamespace() == "linalg" &&
      !isa<linalg::LinalgOp>(op))
    return op->emitOpError("is not a structured linalg op; croq compiles "
                           "linalg.generic and the structured named ops "
                           "(decompose it into those first)");
  if (isa<memref::AllocaOp>(op))
    return op->emitOpError("allocates on the host's stack, where croq "
                           "kernels cannot reach it: use memref.alloc");
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects || isa<memref::AllocOp, memref::DeallocOp>(op))
    return success();
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  for (const MemoryEffects::EffectInstance &effect : instances) {
    Value value = effect.getValue();
    if (!value || !isa<MemRefType>(value.getType()) ||
        !isa<MemoryEffects::Read, MemoryEffects::Write>(effect.getEffect()))
      continue;
    Type element = cast<MemRefType>(value.getType()).getElementType();
    if (element.isIndex() || element.isInteger(1))
      return op->emitOpError(
          "reads or writes a buffer of pointers or flags on the host (as "
          "buffer-deallocation-pipeline's ownership-based deallocation "
          "does, or a branch on a condition kept in a tensor<i1>); croq "
          "buffers live in device memory, where only kernels reach them, and "
          "croq releases temporaries itself (croq-allocate-on-device): lower "
          "without that pipeline, and pass conditions as scalars");
    return op->emitOpError("reads or writes a buffer's elements on the "
                           "host; croq buffers live in device memory, where "
                           "only kernels reach them");
  }
  return success();
}

/// Declines `op`, a linalg op no kernel computes, naming why.
static LogicalResult declineLinalgOp(linalg::LinalgOp op) {
  if (isa<linalg::DepthwiseConv1DNwcWcOp, linalg::DepthwiseConv2DNhwcHwcOp,
          linalg::DepthwiseConv2DNhwcHwcmOp, linalg::DepthwiseConv3DNdhwcDhwcOp,
          linalg::DepthwiseConv2DNhwcHwcQOp,
          linalg::DepthwiseConv2DNhwcHwcmQOp>(op))
    return op.emitOpError("is a depthwise convolution, which croq does not "
                          "compile (no reduction over channels for wgmma; "
                          "a CUDA-core kernel is not built)");
  if (isa<linalg::Conv2DNchwFchwOp>(op))
    return op.emitOpError("is an NCHW convolution croq does not compile: it "
                          "takes those on static, contiguous buffers "
                          "(through NHWC copies)");
  if (isa<linalg::Conv2DNchwFchwQOp, linalg::Conv2DNgchwFgchwOp>(op))
    return op.emitOpError("is a quantized or grouped NCHW convolution, which "
                          "croq does not compile");
  if (linalg::isaConvolutionOpInterface(op))
    return op.emitOpError("is a convolution croq does not compile: it "
                          "computes linalg.conv_2d_nhwc_fhwc and "
                          "conv_2d_nhwc_hwcf (f16 or bf16) as implicit GEMMs");
  return op.emitOpError("has no croq kernel");
}

/// The generic form of `fill`, which replaces it.
static linalg::GenericOp generalizeFill(linalg::FillOp fill) {
  IRRewriter rewriter(fill.getContext());
  rewriter.setInsertionPoint(fill);
  return *linalg::generalizeNamedOp(rewriter, fill);
}

/// Sorts the generalized op `generic` into `work`, or declines it; `start`
/// is the fill right before it into its output, if any.
static LogicalResult classifyGeneric(linalg::GenericOp generic,
                                     linalg::FillOp start, HostWork &work) {
  if (generic.getNumReductionLoops() != 0) {
    if (FailureOr<ContractionForm> form = getContractionForm(generic);
        succeeded(form)) {
      // croq-specialize-contractions leaves a product of 8-bit floats it
      // would have to copy (the elementwise kernels do not take them).
      if (form->a.isZeroExtended() || form->b.isZeroExtended())
        return generic.emitOpError(
            "is a product of unsigned integers (its factors are extended by "
            "arith.extui, as linalg.matmul's cast_unsigned makes them), which "
            "croq does not compute: its integer products take signed 8-bit "
            "operands");
      Type ta = getElementTypeOrSelf(form->a.value.getType());
      Type tb = getElementTypeOrSelf(form->b.value.getType());
      if (ta != tb)
        return generic.emitOpError("is a product of ")
               << ta << " and " << tb
               << " factors, which croq does not convert to one type: "
                  "convert-linalg-to-croq takes products of two operands of "
                  "one type";
      if (ta.getIntOrFloatBitWidth() == 8 && isa<FloatType>(ta) ||
          tb.getIntOrFloatBitWidth() == 8 && isa<FloatType>(tb))
        return generic.emitOpError(
            "is a product of 8-bit floats whose operands croq would have to "
            "copy to read them K-major (wgmma reads 8-bit floats K-major "
            "only, and croq's elementwise kernels do not move 8-bit floats): "
            "store A as M x K and B as N x K, or write it as a "
            "linalg.matmul with those maps");
      return generic.emitOpError(
          "is a matrix product written as a linalg.generic, which "
          "convert-linalg-to-croq takes once croq-specialize-contractions "
          "has made it a linalg.matmul or linalg.batch_matmul (croq-to-nvvm "
          "runs that pass first)");
    }
    std::string reason = getReductionDecline(generic);
    if (!reason.empty())
      return generic.emitOpError("cannot be computed as a reduction by croq: ")
             << reason;
    work.reductions.push_back({generic, start});
    return success();
  }
  if (start) // not a reduction: the fill is a kernel of its own
    work.elementwise.push_back(generalizeFill(start));
  std::string reason = getElementwiseDecline(generic);
  if (!reason.empty())
    return generic.emitOpError("cannot be computed elementwise by croq: ")
           << reason;
  work.elementwise.push_back(generic);
  return success();
}

LogicalResult mlir::croq::classifyHostCode(ModuleOp module, HostWork &work) {
  bool failedAny = false;
  // Products first, with what they fuse.
  llvm::SmallPtrSet<Operation *, 8> fused;
  // The block-scaled products (generics), taken or declined here.
  llvm::SmallPtrSet<Operation *, 4> products;
  module.walk([&](linalg::LinalgOp op) {
    if (op->getParentOfType<ParallelOp>()) {
      op.emitOpError("is inside a croq kernel; convert-linalg-to-croq takes "
                     "the linalg ops of host code");
      failedAny = true;
      return;
    }
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    bool blockScaled = generic && isBlockScaledCandidate(generic);
    bool convolution = isGemmConvolution(op);
    if (!isHostOp(op) || !(blockScaled || convolution ||
                           isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op)))
      return;
    if (!op.hasPureBufferSemantics())
      return; // checkHostOp declines it below.
    FailureOr<MatmulSpec> spec = blockScaled   ? getBlockScaledSpec(generic)
                                 : convolution ? getConvolutionSpec(op)
                                               : getSpec(op);
    if (blockScaled || convolution)
      products.insert(op);
    if (failed(spec)) {
      failedAny = true;
      return;
    }
    if (blockScaled)
      addFusedOps(op, *spec);
    if (spec->zeroFill)
      fused.insert(spec->zeroFill);
    if (spec->epilogue)
      fused.insert(spec->epilogue->generic);
    // The padded copy folded into an im2col map is never made.
    if (spec->conv)
      for (Operation *copyOp : spec->conv->paddedCopy)
        if (isa<linalg::LinalgOp>(copyOp))
          fused.insert(copyOp);
    work.products.push_back({op, *spec});
  });
  // The other ops of host code.
  SmallVector<Operation *> hostOps;
  module.walk([&](Operation *op) {
    if (isa<ModuleOp, gpu::GPUModuleOp>(op) || !isHostOp(op))
      return;
    if (isa<linalg::LinalgOp>(op) &&
        (fused.contains(op) || products.contains(op)))
      return;
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
        linalgOp && isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) &&
        linalgOp.hasPureBufferSemantics())
      return;
    // Ops inside a linalg op's body are the linalg op's.
    if (op->getParentOfType<linalg::LinalgOp>())
      return;
    hostOps.push_back(op);
  });
  // A fill right before a reduction into the same buffer is the
  // reduction's starting value (one kernel, not two).
  llvm::DenseMap<Operation *, linalg::FillOp> startingFills;
  llvm::SmallPtrSet<Operation *, 8> foldedFills;
  for (Operation *op : hostOps) {
    auto fill = dyn_cast<linalg::FillOp>(op);
    auto next = dyn_cast_or_null<linalg::LinalgOp>(op->getNextNode());
    if (!fill || !fill.hasPureBufferSemantics() || !next ||
        !next.hasPureBufferSemantics() || next.getNumReductionLoops() == 0 ||
        next.getNumDpsInits() != 1 ||
        next.getDpsInits()[0] != fill.getDpsInits()[0] ||
        fill.getDpsInputs()[0].getType() !=
            getElementTypeOrSelf(fill.getDpsInits()[0].getType()) ||
        linalg::isaContractionOpInterface(next) ||
        linalg::isaConvolutionOpInterface(next) || fused.contains(next))
      continue;
    startingFills[next] = fill;
    foldedFills.insert(fill);
  }
  IRRewriter rewriter(module.getContext());
  // A function on tensors is declined once, at its first op on tensors.
  llvm::SmallPtrSet<Operation *, 4> onTensors;
  for (Operation *op : hostOps) {
    auto func = op->getParentOfType<FunctionOpInterface>();
    if ((func && onTensors.contains(func)) || foldedFills.contains(op))
      continue;
    if (worksOnTensors(op)) {
      failedAny = true;
      op->emitOpError("works on tensors; convert-linalg-to-croq takes host "
                      "code on memrefs (bufferize first: croq-to-nvvm does, "
                      "with one-shot-bufferize)");
      if (func)
        onTensors.insert(func);
      continue;
    }
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || !linalgOp.hasPureBufferSemantics()) {
      failedAny |= failed(checkHostOp(op));
      continue;
    }
    if (linalg::isaConvolutionOpInterface(linalgOp)) {
      failedAny |= failed(declineLinalgOp(linalgOp));
      continue;
    }
    linalg::FillOp start = startingFills.lookup(op);
    auto generic = dyn_cast<linalg::GenericOp>(op);
    if (!generic) {
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::GenericOp> generalized =
          linalg::generalizeNamedOp(rewriter, linalgOp);
      if (failed(generalized)) {
        failedAny |= failed(declineLinalgOp(linalgOp));
        continue;
      }
      generic = *generalized;
    }
    failedAny |= failed(classifyGeneric(generic, start, work));
  }
  return failure(failedAny);
}
