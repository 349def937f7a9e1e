//===- TensorMapCache.cpp - tensor maps encoded once and reused -----------===//
//
// Caches encoded tensor maps by (device, parameters), so that launching a
// kernel again on the same tensors neither re-encodes nor allocates, holding
// at most a capacity of them (least recently used evicted first); and
// mgpuTensorMapEncodeTiledMemref, the upstream host call, which answers from
// the same cache with a device copy of the map made once per entry.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "Error.h"
#include "TensorMap.h"

#include "Croq/Runtime/CroqRuntime.h"

#include <cstring>
#include <deque>
#include <list>
#include <memory>
#include <mutex>
#include <type_traits>
#include <unordered_map>

using namespace croq::rt;

namespace {

/// Everything a map's bytes depend on, plus the device it was made for. Laid
/// out without padding so that bytes compare and hash as values.
struct CacheKey {
  uint64_t address;
  uint64_t dims[kMaxTensorMapRank];
  uint64_t strides[kMaxTensorMapRank - 1];
  uint32_t box[kMaxTensorMapRank];
  uint32_t elementStrides[kMaxTensorMapRank];
  int32_t device;
  int32_t elementType;
  uint32_t rank;
  int32_t swizzle;
  int32_t l2Promotion;
  int32_t oobFill;
  /// Im2col maps: the corners (innermost spatial dimension first), channels
  /// per pixel and pixels per column; zero for tiled maps.
  int32_t lowerCorner[kMaxTensorMapRank - 2];
  int32_t upperCorner[kMaxTensorMapRank - 2];
  uint32_t channelsPerPixel;
  uint32_t pixelsPerColumn;
  int32_t im2col;
  int32_t unused;

  bool operator==(const CacheKey &other) const {
    return std::memcmp(this, &other, sizeof(CacheKey)) == 0;
  }
};
static_assert(std::has_unique_object_representations_v<CacheKey>,
              "CacheKey must have no padding");

struct CacheKeyHash {
  /// FNV-1a over the key's bytes.
  std::size_t operator()(const CacheKey &key) const {
    const auto *bytes = reinterpret_cast<const unsigned char *>(&key);
    uint64_t hash = 14695981039346656037ull;
    for (std::size_t i = 0; i < sizeof(CacheKey); ++i)
      hash = (hash ^ bytes[i]) * 1099511628211ull;
    return static_cast<std::size_t>(hash);
  }
};

struct CacheEntry {
  alignas(128) unsigned char map[CROQ_RT_TENSOR_MAP_BYTES];
  /// A copy of `map` in device memory, made on first request.
  cu::DevicePtr deviceCopy = 0;
  /// Where the entry is in the cache's use order.
  std::list<CacheKey>::iterator use;
};

struct TensorMapCache {
  std::mutex mutex;
  std::unordered_map<CacheKey, std::unique_ptr<CacheEntry>, CacheKeyHash>
      entries;
  /// The keys, most recently used first.
  std::list<CacheKey> useOrder;
  /// Evicted entries, kept a while so that a map handed out just before
  /// stays readable (the generated code reads it right after its call);
  /// oldest first.
  std::deque<std::unique_ptr<CacheEntry>> retired;
  uint64_t capacity = kDefaultCapacity;
  uint64_t hits = 0;
  uint64_t evictions = 0;

  /// Entries the cache holds by default.
  static constexpr uint64_t kDefaultCapacity = 4096;
  /// Evicted entries kept readable before their memory is reused.
  static constexpr std::size_t kRetired = 1024;
};

} // namespace

/// The process's cache; never destroyed, so that it outlives every caller.
static TensorMapCache &cache() {
  static auto *instance = new TensorMapCache;
  return *instance;
}

/// The key of validated `p` on the calling thread's device.
static CacheKey makeKey(const TensorMapParams &p) {
  CacheKey key;
  std::memset(&key, 0, sizeof(key));
  key.address = reinterpret_cast<uintptr_t>(p.globalAddress);
  for (uint32_t i = 0; i < p.rank; ++i) {
    key.dims[i] = p.globalDims[i];
    key.box[i] = p.boxDims ? p.boxDims[i] : 0;
    key.elementStrides[i] = p.elementStrides ? p.elementStrides[i] : 1;
  }
  for (uint32_t i = 0; i + 1 < p.rank; ++i)
    key.strides[i] = p.globalStrides[i];
  key.device = currentDevice();
  key.elementType = p.elementType;
  key.rank = p.rank;
  key.swizzle = p.swizzle;
  key.l2Promotion = p.l2Promotion;
  key.oobFill = p.oobFill;
  if (p.im2col) {
    key.im2col = 1;
    for (uint32_t i = 0; i + 2 < p.rank; ++i) {
      key.lowerCorner[i] = p.lowerCorner[i];
      key.upperCorner[i] = p.upperCorner[i];
    }
    key.channelsPerPixel = p.channelsPerPixel;
    key.pixelsPerColumn = p.pixelsPerColumn;
  }
  return key;
}

/// Evicts the least recently used entries while the cache holds more than
/// its capacity. Entries with a device copy stay: a kernel in flight may
/// read it. Called with the cache's mutex held.
static void evictLocked(TensorMapCache &c) {
  auto it = c.useOrder.end();
  while (c.entries.size() > c.capacity && it != c.useOrder.begin()) {
    --it;
    auto found = c.entries.find(*it);
    if (found->second->deviceCopy)
      continue;
    c.retired.push_back(std::move(found->second));
    if (c.retired.size() > TensorMapCache::kRetired)
      c.retired.pop_front();
    c.entries.erase(found);
    it = c.useOrder.erase(it);
    ++c.evictions;
  }
}

/// Validates `p` and returns its cache entry, encoding it on a miss; null
/// after reporting a failure. Called with the cache's mutex held.
static CacheEntry *lookupOrEncode(const char *api, TensorMapCache &c,
                                  const TensorMapParams &p) {
  if (validateTensorMap(api, p) != CROQ_RT_SUCCESS)
    return nullptr;
  CacheKey key = makeKey(p);
  auto it = c.entries.find(key);
  if (it != c.entries.end()) {
    ++c.hits;
    c.useOrder.splice(c.useOrder.begin(), c.useOrder, it->second->use);
    return it->second.get();
  }
  auto entry = std::make_unique<CacheEntry>();
  if (encodeTensorMap(api, entry->map, p) != CROQ_RT_SUCCESS)
    return nullptr;
  c.useOrder.push_front(key);
  entry->use = c.useOrder.begin();
  CacheEntry *result =
      c.entries.emplace(key, std::move(entry)).first->second.get();
  evictLocked(c);
  return result;
}

const void *croq::rt::getCachedTensorMap(const char *api,
                                         const TensorMapParams &params) {
  TensorMapCache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  CacheEntry *entry = lookupOrEncode(api, c, params);
  return entry ? entry->map : nullptr;
}

extern "C" const void *
croqRtTensorMapGetCached(int elementType, uint32_t rank,
                         const void *globalAddress, const uint64_t *globalDims,
                         const uint64_t *globalStrides, const uint32_t *boxDims,
                         const uint32_t *elementStrides, int swizzle,
                         int l2Promotion, int oobFill) {
  TensorMapParams params = {elementType,   rank,    globalAddress,  globalDims,
                            globalStrides, boxDims, elementStrides, swizzle,
                            l2Promotion,   oobFill};
  return getCachedTensorMap("croqRtTensorMapGetCached", params);
}

extern "C" void croqRtTensorMapStats(croqRtTensorMapCacheStats *stats) {
  if (!stats)
    return;
  TensorMapCache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  stats->encodes = tensorMapEncodeCount();
  stats->hits = c.hits;
  stats->entries = c.entries.size();
  stats->fallbacks = tensorMapFallbackCount();
  stats->staged = tensorMapStagedCount();
  stats->evictions = c.evictions;
  stats->capacity = c.capacity;
}

extern "C" uint64_t croqRtTensorMapSetCacheCapacity(uint64_t capacity) {
  TensorMapCache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  uint64_t old = c.capacity;
  c.capacity = capacity ? capacity : TensorMapCache::kDefaultCapacity;
  evictLocked(c);
  return old;
}

extern "C" void croqRtTensorMapCacheClear(void) {
  const char *api = "croqRtTensorMapCacheClear";
  TensorMapCache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  for (auto &[key, entry] : c.entries) {
    if (!entry->deviceCopy)
      continue;
    // Device copies exist only if the driver loaded; free each in the
    // context of the device it was made on.
    int device = currentDevice();
    setCurrentDevice(key.device);
    if (const cu::DriverApi *cuda = ensureContext(api)) {
      if (cu::Result r = cuda->cuMemFree(entry->deviceCopy); r != cu::kSuccess)
        reportDriverError(r, api, "cuMemFree", "ptr=0x%llx",
                          static_cast<unsigned long long>(entry->deviceCopy));
    }
    setCurrentDevice(device);
  }
  c.entries.clear();
  c.useOrder.clear();
  c.retired.clear();
}

/// Saturate the host code's 64-bit values into the ranges validation
/// checks, so that a negative or huge value is reported rather than wrapped.
static uint64_t toUnsigned(int64_t value) {
  return value < 0 ? 0 : static_cast<uint64_t>(value);
}
static int toInt(int64_t value) {
  return value < INT32_MIN || value > INT32_MAX ? INT32_MAX
                                                : static_cast<int>(value);
}

/// Makes (once per entry) the copy of the map in device memory that
/// upstream's kernels read through a global pointer.
static void *deviceCopy(const char *api, CacheEntry &entry) {
  if (entry.deviceCopy)
    return reinterpret_cast<void *>(static_cast<uintptr_t>(entry.deviceCopy));
  const cu::DriverApi *cuda = ensureContext(api);
  if (!cuda)
    return nullptr;
  cu::DevicePtr ptr = 0;
  if (cu::Result r = cuda->cuMemAlloc(&ptr, sizeof(entry.map));
      r != cu::kSuccess) {
    reportDriverError(r, api, "cuMemAlloc", "bytes=%zu", sizeof(entry.map));
    return nullptr;
  }
  if (cu::Result r = cuda->cuMemcpyHtoD(ptr, entry.map, sizeof(entry.map));
      r != cu::kSuccess) {
    reportDriverError(r, api, "cuMemcpyHtoD", "dst=0x%llx, bytes=%zu",
                      static_cast<unsigned long long>(ptr), sizeof(entry.map));
    cuda->cuMemFree(ptr);
    return nullptr;
  }
  entry.deviceCopy = ptr;
  return reinterpret_cast<void *>(static_cast<uintptr_t>(ptr));
}

static void *encodeTiledMemref(int64_t tensorRank, void *rankedDescriptor,
                               int64_t tensorDataType, int64_t interleave,
                               int64_t swizzle, int64_t l2Promotion,
                               int64_t oobFill, int64_t *inputBoxDims) {
  const char *api = "mgpuTensorMapEncodeTiledMemref";
  constexpr int kInvalid = CROQ_RT_ERROR_INVALID_ARGUMENT;
  if (tensorRank < 1 || tensorRank > kMaxTensorMapRank) {
    reportError(kInvalid, api, "tensorRank must be in [1, %u], got %lld",
                kMaxTensorMapRank, static_cast<long long>(tensorRank));
    return nullptr;
  }
  if (!rankedDescriptor || !inputBoxDims) {
    reportError(kInvalid, api,
                "rankedDescriptor and inputBoxDims must not be null");
    return nullptr;
  }
  if (interleave != cu::kTensorMapInterleaveNone) {
    reportError(kInvalid, api,
                "interleave must be none (0), got %lld: croq encodes "
                "non-interleaved maps only",
                static_cast<long long>(interleave));
    return nullptr;
  }
  int elementType = elementTypeFromDriverType(tensorDataType);
  if (elementType < 0) {
    reportError(kInvalid, api,
                "tensorDataType must be a CUtensorMapDataType in 0..9, got "
                "%lld",
                static_cast<long long>(tensorDataType));
    return nullptr;
  }

  // A ranked memref descriptor: allocated and aligned pointers, offset, then
  // sizes and strides (in elements, outermost first).
  auto rank = static_cast<uint32_t>(tensorRank);
  auto *fields = static_cast<int64_t *>(rankedDescriptor);
  char *aligned = nullptr;
  std::memcpy(&aligned, &fields[1], sizeof(aligned));
  int64_t offset = fields[2];
  const int64_t *sizes = &fields[3];
  const int64_t *strides = &fields[3 + rank];
  if (strides[rank - 1] != 1) {
    reportError(kInvalid, api,
                "the memref's innermost stride must be 1, got %lld",
                static_cast<long long>(strides[rank - 1]));
    return nullptr;
  }

  unsigned elementBytes = getElementTypeInfo(elementType)->bytes;
  uint64_t dims[kMaxTensorMapRank], byteStrides[kMaxTensorMapRank];
  uint32_t box[kMaxTensorMapRank];
  for (uint32_t i = 0; i < rank; ++i) {
    dims[i] = toUnsigned(sizes[rank - 1 - i]);
    uint64_t boxDim = toUnsigned(inputBoxDims[rank - 1 - i]);
    box[i] = boxDim > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(boxDim);
  }
  for (uint32_t i = 0; i + 1 < rank; ++i)
    byteStrides[i] = toUnsigned(strides[rank - 2 - i]) * elementBytes;
  TensorMapParams params = {
      elementType,   rank,           aligned + offset * int64_t(elementBytes),
      dims,          byteStrides,    box,
      nullptr,       toInt(swizzle), toInt(l2Promotion),
      toInt(oobFill)};

  TensorMapCache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  CacheEntry *entry = lookupOrEncode(api, c, params);
  return entry ? deviceCopy(api, *entry) : nullptr;
}

extern "C" void *
mgpuTensorMapEncodeTiledMemref(int64_t tensorRank, void *rankedDescriptor,
                               int64_t tensorDataType, int64_t interleave,
                               int64_t swizzle, int64_t l2Promotion,
                               int64_t oobFill, int64_t *inputBoxDims) {
  void *map = encodeTiledMemref(tensorRank, rankedDescriptor, tensorDataType,
                                interleave, swizzle, l2Promotion, oobFill,
                                inputBoxDims);
  if (!map)
    noteFailedTensorMap(lastErrorMessage());
  return map;
}
