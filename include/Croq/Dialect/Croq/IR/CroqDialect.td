//===- CroqDialect.td - croq dialect definition ------------*- tablegen -*-===//
//
// The croq dialect: tile-level data movement and matrix compute for NVIDIA
// Hopper GPUs.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_DIALECT_CROQ_IR_CROQDIALECT_TD
#define CROQ_DIALECT_CROQ_IR_CROQDIALECT_TD

include "mlir/IR/OpBase.td"

def Croq_Dialect : Dialect {
  let name = "croq";
  let cppNamespace = "::mlir::croq";
  let summary = "Tiles, views, copies, events and mma for Hopper GPUs";
  let description = [{
    The `croq` dialect models the Croqtile tile language. A kernel selects a
    tile of a global tensor (a *view*), moves it into on-chip memory (a
    *copy* by the software `dma` engine or the hardware `tma` engine,
    optionally swizzled, zero-filled, transposed or padded), synchronizes
    (*futures* and *events*), computes with tensor cores (*mma*) and writes
    back. Global tensors are plain `memref`s; on-chip buffers are
    `!croq.tile` values whose type carries the memory space and the physical
    swizzle layout, so that copies and mma operand loads agree on the layout
    by construction.
  }];
  let useDefaultTypePrinterParser = 1;
  // Attributes croq passes read from ops of other dialects. The dialect
  // verifies them (verifyOperationAttribute); any other `croq.` attribute
  // is an error, so that a misspelling is not silently ignored.
  let discardableAttrs = (ins
    // On an scf.for: the stage count of its ring (croq-pipeline-loops); 1
    // leaves the loop alone.
    "::mlir::IntegerAttr":$stages,
    // On an scf.for: whether croq-pipeline-loops warp-specializes it.
    "::mlir::BoolAttr":$warp_specialize,
    // On a block-level croq.parallel: how many consumer warpgroups
    // croq-split-accumulators gives it (1 to 3, or 0: as it chooses;
    // croq-pipeline-loops puts 0 on the blocks it warp-specializes).
    "::mlir::IntegerAttr":$consumers,
    // On a block-level croq.parallel: whether croq-persistent-blocks makes
    // it persistent.
    "::mlir::BoolAttr":$persistent,
    // On the !llvm.ptr argument of a function that launches kernels: the
    // stream they are launched on (croq-host-entries).
    "::mlir::UnitAttr":$stream,
    // On a func.func that launches no kernel: an entry point all the same
    // (croq-host-entries gives it the stream and the status). The
    // classifier convert-linalg-to-croq makes (its `classify` option)
    // launches nothing and is called like the module it classifies.
    "::mlir::UnitAttr":$entry,
    // On a builtin.module: the chip its kernels compile for (croq-set-target
    // or the user; sm_90a where no module names one). Every pass that needs
    // a limit or a feature of the GPU reads it (getModuleTarget).
    "::mlir::StringAttr":$target
  );
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerTypes();
  }];
  // View folding creates arith index math and memref.dim of global tensors.
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // CROQ_DIALECT_CROQ_IR_CROQDIALECT_TD
