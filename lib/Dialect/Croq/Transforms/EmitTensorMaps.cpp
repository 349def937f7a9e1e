//===- EmitTensorMaps.cpp - host tensor maps of the kernels' tma copies ---===//
//
// Implements croq-emit-tensor-maps: before each kernel, one croq.tensor_map
// per global tensor, box and swizzle its tma copies move, which the copies
// take as an operand. It decides which maps may be staged (tensors the
// kernel only reads) and which copies carry the software copy that runs
// when the runtime cannot give a map (tma-fallback).
//
//===----------------------------------------------------------------------===//

#include "Croq/Dialect/Croq/IR/BufferUtils.h"
#include "Croq/Dialect/Croq/IR/ThreadGroups.h"
#include "Croq/Dialect/Croq/Transforms/HostUtils.h"
#include "Croq/Dialect/Croq/Transforms/Passes.h"

#include <map>

namespace mlir {
namespace croq {
#define GEN_PASS_DEF_CROQEMITTENSORMAPS
#include "Croq/Dialect/Croq/Transforms/Passes.h.inc"
} // namespace croq
} // namespace mlir

using namespace mlir;
using namespace mlir::croq;

/// Whether a tma copy of `tensor` carries the software copy: always, never,
/// or (auto) unless its static type proves that the runtime gives it a
/// usable map (`staged`: the runtime stages it where its address or row
/// strides break a rule).
static bool needsSoftwareCopy(TmaFallback mode, bool staged, Value tensor) {
  switch (mode) {
  case TmaFallback::Always:
    return true;
  case TmaFallback::Never:
    return false;
  case TmaFallback::Auto:
    return !isTmaUsableStatically(cast<MemRefType>(tensor.getType()), staged);
  }
  return true;
}

namespace {
/// What one tma copy needs from the host.
struct MapRequest {
  CopyOp copy;
  Value tensor;
  SmallVector<int64_t> box;
  Swizzle swizzle;
  bool staged;
  bool fallback;
};
} // namespace

/// The tensor map `copy` needs, or an error on it.
static FailureOr<MapRequest> getRequest(CopyOp copy, ParallelOp kernel,
                                        bool stageInputs, TmaFallback mode) {
  bool isLoad =
      getMemorySpaceOf(copy.getDest().getType()) == MemorySpace::Shared;
  Value tensor = getTmaGlobalTensor(copy);
  if (!isa<MemRefType>(tensor.getType()))
    return copy.emitOpError("the global side of a tma copy must be a tensor "
                            "(memref) or a croq.view of one");
  if (Operation *def = tensor.getDefiningOp(); def && kernel->isAncestor(def))
    return copy.emitOpError("the tensor of a tma copy must be defined "
                            "outside the kernel, so its tensor map can be "
                            "encoded on the host");
  auto tileType = dyn_cast<TileType>(
      (isLoad ? copy.getDest() : copy.getSource()).getType());
  if (!tileType)
    return copy.emitOpError("tma copies are lowered between a global view "
                            "and a whole shared tile");
  if (!getTensorMapElementType(tileType.getElementType()))
    return copy.emitOpError("has no tensor-map encoding for element type ")
           << tileType.getElementType();
  if (!copy.getBox())
    return copy.emitOpError("has no boxes: run croq-plan-tma-boxes first");
  MapRequest request;
  request.copy = copy;
  request.tensor = tensor;
  request.box = llvm::to_vector(*copy.getBox());
  request.swizzle = tileType.getSwizzle();
  request.staged = stageInputs && isLoad && isOnlyReadIn(kernel, tensor);
  request.fallback = needsSoftwareCopy(mode, request.staged, tensor);
  return request;
}

/// Emits the maps of the tma copies of `kernel` before it and hands them to
/// the copies.
static LogicalResult emitMaps(ParallelOp kernel, bool stageInputs,
                              TmaFallback mode) {
  SmallVector<MapRequest> requests;
  WalkResult walk = kernel.walk([&](CopyOp copy) {
    if (copy.getEngine() != CopyEngine::TMA || copy.getMap())
      return WalkResult::advance();
    FailureOr<MapRequest> request = getRequest(copy, kernel, stageInputs, mode);
    if (failed(request))
      return WalkResult::interrupt();
    requests.push_back(*request);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // One map per tensor, box and swizzle; it is required when a copy that
  // uses it has no software copy.
  using Key = std::tuple<void *, std::vector<int64_t>, int>;
  std::map<Key, SmallVector<MapRequest *>> byMap;
  SmallVector<Key> order;
  for (MapRequest &request : requests) {
    Key key{request.tensor.getAsOpaquePointer(),
            std::vector<int64_t>(request.box.begin(), request.box.end()),
            static_cast<int>(request.swizzle)};
    auto [it, inserted] = byMap.try_emplace(key);
    if (inserted)
      order.push_back(key);
    it->second.push_back(&request);
  }
  OpBuilder builder(kernel);
  for (const Key &key : order) {
    ArrayRef<MapRequest *> users = byMap[key];
    MapRequest &first = *users.front();
    bool required = llvm::any_of(
        users, [](MapRequest *request) { return !request->fallback; });
    bool staged = llvm::all_of(
        users, [](MapRequest *request) { return request->staged; });
    auto map = TensorMapOp::create(builder, first.copy.getLoc(), first.tensor,
                                   builder.getDenseI64ArrayAttr(first.box),
                                   first.swizzle, staged, required);
    for (MapRequest *request : users) {
      request->copy.getMapMutable().assign(map.getMap());
      if (request->fallback)
        request->copy.getUsableMutable().assign(map.getUsable());
    }
  }
  return success();
}

namespace {
struct CroqEmitTensorMapsPass
    : croq::impl::CroqEmitTensorMapsBase<CroqEmitTensorMapsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(forEachKernel(getOperation(), [&](ParallelOp kernel) {
          return emitMaps(kernel, stageMisalignedInputs, tmaFallback);
        })))
      signalPassFailure();
  }
};
} // namespace
