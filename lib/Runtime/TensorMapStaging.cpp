//===- TensorMapStaging.cpp - misaligned tensors copied for TMA -----------===//
//
// croqRtTensorMapGetStaged, the host call of croq's generated code for a
// tensor that its kernel only reads. Where TMA cannot describe the tensor
// because of its address or its row strides (rows of 4093 f16 are 8186
// bytes apart, not a multiple of 16), the tensor is copied on the device
// into a buffer with an aligned address and rows padded to a multiple of 16
// bytes, and the kernel's TMA loads read the copy. The copy costs one pass
// over the tensor; the software copy it replaces costs far more in the
// kernel. Buffers come from a pool, so that launching again on tensors of
// the same size allocates nothing.
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

// The stream pool of Stream.cpp.
extern "C" void *mgpuStreamCreate(void);
extern "C" void mgpuStreamDestroy(void *stream);

namespace {

/// A device buffer that holds one staged tensor while its kernel runs.
struct StagingBuffer {
  int device;
  cu::DevicePtr ptr;
  std::size_t bytes;
  bool inUse;
};

struct StagingPool {
  std::mutex mutex;
  std::vector<std::unique_ptr<StagingBuffer>> buffers;
};

} // namespace

/// The process's pool; never destroyed, so that it outlives every caller.
static StagingPool &pool() {
  static auto *instance = new StagingPool;
  return *instance;
}

static std::atomic<uint64_t> stagedCount{0};
static std::atomic<bool> stagingEnabled{true};

/// Idle bytes the pool keeps on a device for reuse; when a new buffer would
/// take it past this, the idle ones are freed first.
static constexpr std::size_t kIdleBytesLimit = std::size_t(2) << 30;

/// At most this many 2-d copies (one per index of the dimensions outside the
/// innermost two) stage a tensor; more would cost more than the software
/// copy saves.
static constexpr int64_t kMaxRowCopies = CROQ_RT_STAGING_MAX_ROW_COPIES;

uint64_t croq::rt::tensorMapStagedCount() { return stagedCount.load(); }

/// Frees `buffer`'s memory in the context of its device.
static void freeBuffer(const char *api, const StagingBuffer &buffer) {
  int device = currentDevice();
  setCurrentDevice(buffer.device);
  if (const cu::DriverApi *cuda = ensureContext(api))
    if (cu::Result r = cuda->cuMemFree(buffer.ptr); r != cu::kSuccess)
      reportDriverError(r, api, "cuMemFree", "ptr=0x%llx",
                        static_cast<unsigned long long>(buffer.ptr));
  setCurrentDevice(device);
}

/// Frees the idle buffers of `device` (every device if -1). The pool's
/// mutex must be held.
static void freeIdleLocked(const char *api, StagingPool &p, int device) {
  auto idle = [&](const std::unique_ptr<StagingBuffer> &b) {
    return !b->inUse && (device < 0 || b->device == device);
  };
  for (const std::unique_ptr<StagingBuffer> &b : p.buffers)
    if (idle(b))
      freeBuffer(api, *b);
  p.buffers.erase(std::remove_if(p.buffers.begin(), p.buffers.end(), idle),
                  p.buffers.end());
}

void croq::rt::freeIdleStagingBuffers() {
  StagingPool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  freeIdleLocked("croqRtTensorMapCacheClear", p, -1);
}

/// An idle buffer of at least `bytes` (and at most twice that) on the
/// current device, or a new one; null after reporting a failed allocation.
static StagingBuffer *acquireBuffer(const char *api,
                                    const cu::DriverApi *cuda,
                                    std::size_t bytes) {
  int device = currentDevice();
  StagingPool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  StagingBuffer *best = nullptr;
  std::size_t idleBytes = 0;
  for (const std::unique_ptr<StagingBuffer> &b : p.buffers) {
    if (b->inUse || b->device != device)
      continue;
    idleBytes += b->bytes;
    if (b->bytes >= bytes && b->bytes / 2 <= bytes &&
        (!best || b->bytes < best->bytes))
      best = b.get();
  }
  if (best) {
    best->inUse = true;
    return best;
  }
  if (idleBytes + bytes > kIdleBytesLimit)
    freeIdleLocked(api, p, device);
  cu::DevicePtr ptr = 0;
  cu::Result r = cuda->cuMemAlloc(&ptr, bytes);
  if (r != cu::kSuccess && idleBytes > 0) {
    // Out of memory, perhaps because of the pool: give back and retry.
    freeIdleLocked(api, p, device);
    r = cuda->cuMemAlloc(&ptr, bytes);
  }
  if (r != cu::kSuccess) {
    reportDriverError(r, api, "cuMemAlloc", "bytes=%zu", bytes);
    return nullptr;
  }
  p.buffers.push_back(
      std::make_unique<StagingBuffer>(StagingBuffer{device, ptr, bytes, true}));
  return p.buffers.back().get();
}

static void releaseBuffer(StagingBuffer *buffer) {
  StagingPool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  for (const std::unique_ptr<StagingBuffer> &b : p.buffers)
    if (b.get() == buffer) {
      b->inUse = false;
      return;
    }
  reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, "croqRtTensorMapReleaseStaged",
              "staging=%p is not a staging buffer in use",
              static_cast<void *>(buffer));
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

/// Copies `tensor` into a staging buffer laid out as `plan` says and waits
/// for the copy. Returns the buffer, or null with the reason in `why`.
static StagingBuffer *stageTensor(const StridedTensor &tensor,
                                  const StagingPlan &plan,
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
  StagingBuffer *buffer = acquireBuffer(api, cuda, std::size_t(plan.bytes));
  if (!buffer)
    return fail();
  void *stream = mgpuStreamCreate();
  if (!stream) {
    releaseBuffer(buffer);
    return fail();
  }
  auto source = static_cast<cu::DevicePtr>(
      reinterpret_cast<uintptr_t>(tensor.address));
  cu::Result r = cu::kSuccess;
  const char *call = "cuMemcpyAsync";
  if (rank == 1) {
    r = cuda->cuMemcpyAsync(buffer->ptr, source, std::size_t(width),
                            static_cast<cu::Stream>(stream));
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
      r = cuda->cuMemcpy2DAsync(&copy, static_cast<cu::Stream>(stream));
      for (int64_t d = int64_t(rank) - 3; d >= 0; --d) {
        if (++index[d] < tensor.sizes[d])
          break;
        index[d] = 0;
      }
    }
  }
  // Wait even after a failed copy: the earlier ones must be done before
  // the buffer goes back to the pool.
  cu::Result synced = cuda->cuStreamSynchronize(static_cast<cu::Stream>(stream));
  if (r == cu::kSuccess && synced != cu::kSuccess) {
    call = "cuStreamSynchronize";
    r = synced;
  }
  mgpuStreamDestroy(stream);
  if (r != cu::kSuccess) {
    reportDriverError(r, api, call, "src=%p, rows=%lld, width=%lld bytes",
                      tensor.address, static_cast<long long>(rows),
                      static_cast<long long>(width));
    releaseBuffer(buffer);
    return fail();
  }
  return buffer;
}

extern "C" int croqRtTensorMapGetStaged(int elementType, uint32_t rank,
                                        const void *globalAddress,
                                        const int64_t *sizes,
                                        const int64_t *byteStrides,
                                        const int64_t *boxDims, int swizzle,
                                        const void **tensorMap,
                                        void **staging) {
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
  StagingBuffer *buffer = stageTensor(tensor, plan, why);
  if (!buffer)
    return fallBackStrided(tensorMap, why);
  staged.address = reinterpret_cast<const void *>(
      static_cast<uintptr_t>(buffer->ptr));
  if (!getStridedTensorMap(staged, /*readOnly=*/true, why, tensorMap)) {
    releaseBuffer(buffer);
    return fallBackStrided(tensorMap, why);
  }
  ++stagedCount;
  *staging = buffer;
  return 1;
}

extern "C" void croqRtTensorMapReleaseStaged(void *staging) {
  if (staging)
    releaseBuffer(static_cast<StagingBuffer *>(staging));
}

extern "C" int croqRtTensorMapSetStaging(int enabled) {
  return stagingEnabled.exchange(enabled != 0) ? 1 : 0;
}
