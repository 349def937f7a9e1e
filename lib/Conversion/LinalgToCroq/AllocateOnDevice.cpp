//===- AllocateOnDevice.cpp - host buffers in device memory ---------------===//
//
// croq-allocate-on-device: the memref.alloc and memref.dealloc of host code
// become gpu.alloc and gpu.dealloc, and a buffer without a release is
// released where its block ends. A global constant the kernels read (not a
// splat, which they fold) is copied into device memory where it is read.
//
//===----------------------------------------------------------------------===//

#include "Elementwise.h"

#include "Croq/Conversion/Passes.h"
#include "Croq/Dialect/Croq/IR/CroqOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQALLOCATEONDEVICE
#include "Croq/Conversion/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

/// Whether `buffer`, or a view of it, is released or leaves its block: a
/// memref.dealloc, or a use by its block's terminator or by a terminator
/// further in.
static bool isReleasedOrEscapes(Value buffer) {
  SmallVector<Value> worklist{buffer};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (isa<memref::DeallocOp>(user) ||
          user->hasTrait<OpTrait::IsTerminator>())
        return true;
      if (isa<ViewLikeOpInterface>(user))
        llvm::append_range(worklist, user->getResults());
    }
  }
  return false;
}

/// Replaces the host global `global` reads by a device copy of it, made
/// where it is read and released where its block ends.
static void copyGlobalToDevice(OpBuilder &b, memref::GetGlobalOp global) {
  b.setInsertionPointAfter(global);
  Location loc = global.getLoc();
  auto device = gpu::AllocOp::create(
      b, loc, global.getType(), /*asyncToken=*/Type(),
      /*asyncDependencies=*/ValueRange{}, /*dynamicSizes=*/ValueRange{},
      /*symbolOperands=*/ValueRange{}, /*hostShared=*/false);
  global.getResult().replaceAllUsesWith(device.getMemref());
  gpu::MemcpyOp::create(b, loc, /*asyncToken=*/Type(), ValueRange{},
                        device.getMemref(), global.getResult());
  b.setInsertionPoint(device->getBlock()->getTerminator());
  gpu::DeallocOp::create(b, loc, /*asyncToken=*/Type(), ValueRange{},
                         device.getMemref());
}

namespace {
struct CroqAllocateOnDevicePass
    : croq::impl::CroqAllocateOnDeviceBase<CroqAllocateOnDevicePass> {
  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    SmallVector<memref::DeallocOp> deallocs;
    SmallVector<memref::GetGlobalOp> globals;
    getOperation().walk([&](Operation *op) {
      if (op->getParentOfType<ParallelOp>() ||
          op->getParentOfType<gpu::GPUModuleOp>())
        return;
      if (auto alloc = dyn_cast<memref::AllocOp>(op))
        allocs.push_back(alloc);
      if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
        deallocs.push_back(dealloc);
      if (auto global = dyn_cast<memref::GetGlobalOp>(op);
          global && !getSplatConstant(global.getResult()))
        globals.push_back(global);
    });
    OpBuilder b(&getContext());
    for (memref::GetGlobalOp global : globals)
      copyGlobalToDevice(b, global);
    for (memref::AllocOp alloc : allocs) {
      b.setInsertionPoint(alloc);
      bool released = isReleasedOrEscapes(alloc.getResult());
      auto device = gpu::AllocOp::create(
          b, alloc.getLoc(), alloc.getType(), /*asyncToken=*/Type(),
          /*asyncDependencies=*/ValueRange{}, alloc.getDynamicSizes(),
          alloc.getSymbolOperands(), /*hostShared=*/false);
      alloc.getResult().replaceAllUsesWith(device.getMemref());
      alloc.erase();
      if (released)
        continue;
      b.setInsertionPoint(device->getBlock()->getTerminator());
      gpu::DeallocOp::create(b, device.getLoc(), /*asyncToken=*/Type(),
                             ValueRange{}, device.getMemref());
    }
    for (memref::DeallocOp dealloc : deallocs) {
      b.setInsertionPoint(dealloc);
      gpu::DeallocOp::create(b, dealloc.getLoc(), /*asyncToken=*/Type(),
                             ValueRange{}, dealloc.getMemref());
      dealloc.erase();
    }
  }
};
} // namespace
