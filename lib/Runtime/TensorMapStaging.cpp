//===- TensorMapStaging.cpp - misaligned tensors copied for TMA -----------===//
//
// croqRtTensorMapGetStaged, the host call of croq's generated code for a
// tensor that its kernel only reads. Where TMA cannot describe the tensor
// because of its address or its row strides (rows of 4093 f16 are 8186
// bytes apart, not a multiple of 16), the tensor is copied on the device
// into a buffer with an aligned address and rows padded to a multiple of 16
// bytes, and the kernel's TMA loads read the copy. The copy costs one pass
// over the tensor; the software copy it replaces costs far more in the
// kernel. The copy and the buffer's allocation and release are queued on
// the stream of the call (stream-ordered allocation from the device's
// default memory pool, which keeps freed memory for reuse): nothing on the
// host waits, and a CUDA graph captures them.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "Error.h"
#include "TensorMap.h"

#include "Croq/Runtime/CroqRuntime.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

using namespace croq::rt;

namespace {

/// A device buffer that holds one staged tensor while its kernel runs,
/// allocated and freed on the stream of the call (stream-ordered, so that
/// nothing on the host waits and a CUDA graph can capture it).
struct StagingBuffer {
  int device;
  cu::DevicePtr ptr;
  std::size_t bytes;
};

/// The buffers handed out and not yet released.
struct StagingRegistry {
  std::mutex mutex;
  std::vector<std::unique_ptr<StagingBuffer>> buffers;
};

} // namespace

/// The process's registry; never destroyed, so that it outlives every
/// caller.
static StagingRegistry &registry() {
  static auto *instance = new StagingRegistry;
  return *instance;
}

static std::atomic<uint64_t> stagedCount{0};
static std::atomic<bool> stagingEnabled{true};

/// At most this many 2-d copies (one per index of the dimensions outside the
/// innermost two) stage a tensor; more would cost more than the software
/// copy saves.
static constexpr int64_t kMaxRowCopies = CROQ_RT_STAGING_MAX_ROW_COPIES;

uint64_t croq::rt::tensorMapStagedCount() { return stagedCount.load(); }

/// A buffer of `bytes` allocated on `stream` (from the device's default
/// memory pool, which keeps freed memory for reuse); null after reporting a
/// failed allocation.
static StagingBuffer *acquireBuffer(const char *api, const cu::DriverApi *cuda,
                                    std::size_t bytes, cu::Stream stream) {
  cu::DevicePtr ptr = 0;
  if (cu::Result r = cuda->cuMemAllocAsync(&ptr, bytes, stream);
      r != cu::kSuccess) {
    reportDriverError(r, api, "cuMemAllocAsync", "bytes=%zu, stream=%p", bytes,
                      static_cast<void *>(stream));
    return nullptr;
  }
  StagingRegistry &reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  reg.buffers.push_back(std::make_unique<StagingBuffer>(
      StagingBuffer{currentDevice(), ptr, bytes}));
  return reg.buffers.back().get();
}

/// Frees `buffer` on `stream`, after the work queued there.
static void releaseBuffer(const char *api, StagingBuffer *buffer,
                          cu::Stream stream) {
  std::unique_ptr<StagingBuffer> owned;
  {
    StagingRegistry &reg = registry();
    std::lock_guard<std::mutex> lock(reg.mutex);
    auto it = std::find_if(reg.buffers.begin(), reg.buffers.end(),
                           [&](const std::unique_ptr<StagingBuffer> &b) {
                             return b.get() == buffer;
                           });
    if (it == reg.buffers.end()) {
      reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                  "staging=%p is not a staging buffer in use",
                  static_cast<void *>(buffer));
      return;
    }
    owned = std::move(*it);
    reg.buffers.erase(it);
  }
  int device = currentDevice();
  setCurrentDevice(owned->device);
  if (const cu::DriverApi *cuda = ensureContext(api))
    if (cu::Result r = cuda->cuMemFreeAsync(owned->ptr, stream);
        r != cu::kSuccess)
      reportDriverError(r, api, "cuMemFreeAsync", "ptr=0x%llx, stream=%p",
                        static_cast<unsigned long long>(owned->ptr),
                        static_cast<void *>(stream));
  setCurrentDevice(device);
}

/// Whether staging can repair a tensor that breaks `rule`: rules on where
/// the tensor and its rows start, not on its shape or the boxes.
static bool isStageable(const char *rule) {
  return !std::strcmp(rule, "address-alignment") ||
         !std::strcmp(rule, "swizzle-address-alignment") ||
         !std::strcmp(rule, "stride-alignment") ||
         !std::strcmp(rule, "stride-range");
}

static int64_t roundUp(int64_t value, int64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

/// How a tensor is staged: its rows, as 2-d copies, and the packed layout
/// of the copy.
struct StagingPlan {
  int64_t width;        // bytes per row
  int64_t rows;         // rows per 2-d copy
  int64_t srcPitch;     // bytes between the source's rows
  int64_t pitch;        // bytes between the staged rows
  int64_t rowCopies;    // 2-d copies, one per index of the outer dimensions
  int64_t bytes;        // size of the staging buffer
  int64_t stagedStrides[kMaxTensorMapRank]; // memref order
};

/// Plans the staging of `tensor`: packed, rows padded to 16 bytes (128 for
/// rows of 512 bytes or more). False, with the reason in `why`, if the
/// tensor cannot be staged.
static bool planStaging(const StridedTensor &tensor, unsigned elementBytes,
                        StagingPlan &plan, StridedFallback &why) {
  uint32_t rank = tensor.rank;
  for (uint32_t d = 0; d < rank; ++d) {
    if (tensor.sizes[d] <= 0)
      return why.set("staging", "dimension %u has %lld elements", d,
                     static_cast<long long>(tensor.sizes[d]));
    if (tensor.byteStrides[d] < 0)
      return why.set("staging",
                     "dimension %u has a negative stride (%lld bytes)", d,
                     static_cast<long long>(tensor.byteStrides[d]));
  }
  int64_t width = tensor.sizes[rank - 1] * int64_t(elementBytes);
  int64_t rows = rank >= 2 ? tensor.sizes[rank - 2] : 1;
  int64_t srcPitch = rank >= 2 && rows > 1 ? tensor.byteStrides[rank - 2]
                                           : width;
  if (srcPitch < width)
    return why.set("staging", "rows of %lld bytes overlap (%lld bytes apart)",
                   static_cast<long long>(width),
                   static_cast<long long>(srcPitch));
  int64_t rowCopies = 1;
  for (uint32_t d = 0; d + 2 < rank; ++d)
    rowCopies *= tensor.sizes[d];
  if (rowCopies > kMaxRowCopies)
    return why.set("staging", "%lld row copies, more than %lld",
                   static_cast<long long>(rowCopies),
                   static_cast<long long>(kMaxRowCopies));

  int64_t pitch = roundUp(width, width >= 512 ? 128 : 16);
  int64_t *stagedStrides = plan.stagedStrides;
  stagedStrides[rank - 1] = elementBytes;
  if (rank >= 2)
    stagedStrides[rank - 2] = pitch;
  for (int64_t d = int64_t(rank) - 3; d >= 0; --d)
    stagedStrides[d] = stagedStrides[d + 1] * tensor.sizes[d + 1];
  plan.width = width;
  plan.rows = rows;
  plan.srcPitch = srcPitch;
  plan.pitch = pitch;
  plan.rowCopies = rowCopies;
  plan.bytes = rank >= 2 ? stagedStrides[0] * tensor.sizes[0] : pitch;
  return true;
}

/// Queues on `stream` the copy of `tensor` into a staging buffer laid out as
/// `plan` says. Returns the buffer, or null with the reason in `why`.
static StagingBuffer *stageTensor(const StridedTensor &tensor,
                                  const StagingPlan &plan, cu::Stream stream,
                                  StridedFallback &why) {
  const char *api = "croqRtTensorMapGetStaged";
  uint32_t rank = tensor.rank;
  int64_t width = plan.width, rows = plan.rows, srcPitch = plan.srcPitch,
          pitch = plan.pitch, rowCopies = plan.rowCopies;
  const int64_t *stagedStrides = plan.stagedStrides;
  // Failures of the driver were reported; the reason repeats the report.
  auto fail = [&why]() -> StagingBuffer * {
    why.set("staging", "%s", lastErrorMessage().c_str());
    return nullptr;
  };
  const cu::DriverApi *cuda = ensureContext(api);
  if (!cuda)
    return fail();
  StagingBuffer *buffer =
      acquireBuffer(api, cuda, std::size_t(plan.bytes), stream);
  if (!buffer)
    return fail();
  auto source = static_cast<cu::DevicePtr>(
      reinterpret_cast<uintptr_t>(tensor.address));
  cu::Result r = cu::kSuccess;
  const char *call = "cuMemcpyAsync";
  if (rank == 1) {
    r = cuda->cuMemcpyAsync(buffer->ptr, source, std::size_t(width), stream);
  } else {
    call = "cuMemcpy2DAsync";
    // One 2-d copy per index of the outer dimensions, odometer order.
    int64_t index[kMaxTensorMapRank] = {};
    for (int64_t n = 0; n < rowCopies && r == cu::kSuccess; ++n) {
      int64_t srcOffset = 0, dstOffset = 0;
      for (uint32_t d = 0; d + 2 < rank; ++d) {
        srcOffset += index[d] * tensor.byteStrides[d];
        dstOffset += index[d] * stagedStrides[d];
      }
      cu::Memcpy2D copy = {};
      copy.srcMemoryType = cu::kMemoryTypeDevice;
      copy.srcDevice = source + cu::DevicePtr(srcOffset);
      copy.srcPitch = std::size_t(srcPitch);
      copy.dstMemoryType = cu::kMemoryTypeDevice;
      copy.dstDevice = buffer->ptr + cu::DevicePtr(dstOffset);
      copy.dstPitch = std::size_t(pitch);
      copy.WidthInBytes = std::size_t(width);
      copy.Height = std::size_t(rows);
      r = cuda->cuMemcpy2DAsync(&copy, stream);
      for (int64_t d = int64_t(rank) - 3; d >= 0; --d) {
        if (++index[d] < tensor.sizes[d])
          break;
        index[d] = 0;
      }
    }
  }
  if (r != cu::kSuccess) {
    reportDriverError(r, api, call, "src=%p, rows=%lld, width=%lld bytes",
                      tensor.address, static_cast<long long>(rows),
                      static_cast<long long>(width));
    // Freed on the stream after the copies queued before the failure.
    releaseBuffer(api, buffer, stream);
    return fail();
  }
  return buffer;
}

extern "C" int croqRtTensorMapGetStaged(
    int elementType, uint32_t rank, const void *globalAddress,
    const int64_t *sizes, const int64_t *byteStrides, const int64_t *boxDims,
    int swizzle, croqRtStream stream, const void **tensorMap, void **staging) {
  if (!tensorMap || !staging) {
    reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, "croqRtTensorMapGetStaged",
                "tensorMap and staging must not be null");
    return 0;
  }
  *staging = nullptr;
  StridedTensor tensor = {elementType, rank,    globalAddress, sizes,
                          byteStrides, boxDims, swizzle};
  StridedFallback why;
  if (getStridedTensorMap(tensor, /*readOnly=*/true, why, tensorMap))
    return 1;
  if (!stagingEnabled.load() || !isStageable(why.rule))
    return fallBackStrided(tensorMap, why);

  // The rules checked so far hold for rank, element type and arrays. The
  // staged tensor must break no other rule (its boxes, say) before anything
  // is copied: checked at an address as aligned as a staging buffer's.
  const ElementTypeInfo *type = getElementTypeInfo(elementType);
  StagingPlan plan;
  if (!planStaging(tensor, type->bytes, plan, why))
    return fallBackStrided(tensorMap, why);
  StridedTensor staged = tensor;
  staged.address = reinterpret_cast<const void *>(uintptr_t(256));
  staged.byteStrides = plan.stagedStrides;
  if (!getStridedTensorMap(staged, /*readOnly=*/true, why, /*map=*/nullptr))
    return fallBackStrided(tensorMap, why);
  auto queue = static_cast<cu::Stream>(stream);
  StagingBuffer *buffer = stageTensor(tensor, plan, queue, why);
  if (!buffer)
    return fallBackStrided(tensorMap, why);
  staged.address = reinterpret_cast<const void *>(
      static_cast<uintptr_t>(buffer->ptr));
  if (!getStridedTensorMap(staged, /*readOnly=*/true, why, tensorMap)) {
    releaseBuffer("croqRtTensorMapGetStaged", buffer, queue);
    return fallBackStrided(tensorMap, why);
  }
  ++stagedCount;
  *staging = buffer;
  return 1;
}

extern "C" void croqRtTensorMapReleaseStaged(void *staging,
                                             croqRtStream stream) {
  if (staging)
    releaseBuffer("croqRtTensorMapReleaseStaged",
                  static_cast<StagingBuffer *>(staging),
                  static_cast<cu::Stream>(stream));
}

extern "C" int croqRtTensorMapSetStaging(int enabled) {
  return stagingEnabled.exchange(enabled != 0) ? 1 : 0;
}
