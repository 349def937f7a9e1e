//===- runtime_smoke.cpp - libCroqRuntime on a real Hopper GPU ------------===//
//
// A smoke test for the GPU machine (not run by lit): JIT-loads hand-written
// sm_90a PTX through the mgpu* entry points, then checks, on poisoned outputs
// and random inputs,
//   - a copy staged through 200 KB of dynamic shared memory (the >48 KB
//     opt-in),
//   - a TMA tile copy whose tensor map comes from croqRtTensorMapGetCached
//     and croqRtTensorMapGetStrided (with a fallback for a misaligned
//     tensor), passed by value as a kernel parameter, and from
//     mgpuTensorMapEncodeTiledMemref, read through a global pointer,
//   - cluster launches (each block records its rank in the cluster),
//   - clear errors for a launch over the shared-memory limit and a bad map.
// Prints PASS or FAIL per check and overall. Build and run: see README.md.
//
//===----------------------------------------------------------------------===//

#include "Croq/Runtime/CroqRuntime.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

const char *const kPtx = R"PTX(
.version 8.0
.target sm_90a
.address_size 64

.extern .shared .align 1024 .b8 dsmem[];

// out[i] = in[i], staged through the last ntid words of `smem_bytes` of
// dynamic shared memory.
.visible .entry copy_smem(
    .param .u64 copy_smem_in,
    .param .u64 copy_smem_out,
    .param .u32 copy_smem_n,
    .param .u32 copy_smem_bytes)
{
  .reg .pred %p<2>;
  .reg .b32 %r<13>;
  .reg .b64 %rd<8>;
  .reg .f32 %f<3>;

  ld.param.u64 %rd1, [copy_smem_in];
  ld.param.u64 %rd2, [copy_smem_out];
  ld.param.u32 %r1, [copy_smem_n];
  ld.param.u32 %r2, [copy_smem_bytes];
  mov.u32 %r3, %tid.x;
  mov.u32 %r4, %ctaid.x;
  mov.u32 %r5, %ntid.x;
  mad.lo.u32 %r6, %r4, %r5, %r3;
  setp.ge.u32 %p1, %r6, %r1;
  @%p1 bra COPY_DONE;
  shl.b32 %r7, %r5, 2;
  sub.u32 %r8, %r2, %r7;
  shl.b32 %r9, %r3, 2;
  add.u32 %r10, %r8, %r9;
  mov.u32 %r11, dsmem;
  add.u32 %r12, %r11, %r10;
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mul.wide.u32 %rd5, %r6, 4;
  add.s64 %rd6, %rd3, %rd5;
  add.s64 %rd7, %rd4, %rd5;
  ld.global.f32 %f1, [%rd6];
  st.shared.f32 [%r12], %f1;
  ld.shared.f32 %f2, [%r12];
  st.global.f32 [%rd7], %f2;
COPY_DONE:
  ret;
}

// Block (bx, by) loads the 32x32 f32 tile at (32 bx, 32 by) with TMA into
// dynamic shared memory and writes it to out (row length `width`). The map
// is the by-value parameter, or the one `map_ptr` points to when non-null.
.visible .entry tma_tile_copy(
    .param .align 64 .b8 tma_tile_copy_map[128],
    .param .u64 tma_tile_copy_map_ptr,
    .param .u64 tma_tile_copy_out,
    .param .u32 tma_tile_copy_width)
{
  .reg .pred %p<5>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<10>;
  .reg .f32 %f<2>;
  .shared .align 8 .b64 tma_bar;

  mov.u32 %r1, %tid.x;
  mov.u32 %r2, tma_bar;
  mov.u32 %r3, %ctaid.x;
  shl.b32 %r4, %r3, 5;
  mov.u32 %r5, %ctaid.y;
  shl.b32 %r6, %r5, 5;
  mov.u32 %r7, dsmem;
  setp.eq.u32 %p1, %r1, 0;
  @!%p1 bra TMA_SYNC;
  mbarrier.init.shared::cta.b64 [%r2], 1;
  fence.mbarrier_init.release.cluster;
  fence.proxy.async.shared::cta;
TMA_SYNC:
  bar.sync 0;
  @!%p1 bra TMA_WAIT;
  ld.param.u64 %rd1, [tma_tile_copy_map_ptr];
  setp.ne.u64 %p2, %rd1, 0;
  @%p2 bra TMA_ISSUE;
  mov.u64 %rd2, tma_tile_copy_map;
  cvta.param.u64 %rd1, %rd2;
TMA_ISSUE:
  mbarrier.arrive.expect_tx.shared::cta.b64 %rd3, [%r2], 4096;
  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r7], [%rd1, {%r4, %r6}], [%r2];
TMA_WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r2], 0;
  @!%p3 bra TMA_WAIT;
  ld.param.u64 %rd4, [tma_tile_copy_out];
  cvta.to.global.u64 %rd5, %rd4;
  ld.param.u32 %r8, [tma_tile_copy_width];
  mov.u32 %r9, %ntid.x;
  mov.u32 %r10, %r1;
TMA_LOOP:
  setp.ge.u32 %p4, %r10, 1024;
  @%p4 bra TMA_DONE;
  shr.u32 %r11, %r10, 5;
  and.b32 %r12, %r10, 31;
  add.u32 %r13, %r6, %r11;
  add.u32 %r14, %r4, %r12;
  mad.lo.u32 %r15, %r13, %r8, %r14;
  mul.wide.u32 %rd6, %r15, 4;
  add.s64 %rd7, %rd5, %rd6;
  shl.b32 %r16, %r10, 2;
  add.u32 %r17, %r7, %r16;
  ld.shared.f32 %f1, [%r17];
  st.global.f32 [%rd7], %f1;
  add.u32 %r10, %r10, %r9;
  bra TMA_LOOP;
TMA_DONE:
  ret;
}

// out[blockIdx.x] = the block's rank in its cluster.
.visible .entry cluster_rank(.param .u64 cluster_rank_out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<5>;

  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra RANK_DONE;
  ld.param.u64 %rd1, [cluster_rank_out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %cluster_ctarank;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r3;
RANK_DONE:
  ret;
}
)PTX";

int failures = 0;

void check(bool ok, const char *what) {
  std::printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
  if (!ok) {
    ++failures;
    if (*croqRtGetLastError())
      std::printf("  last error: %s\n", croqRtGetLastError());
  }
  croqRtClearLastError();
}

/// A ranked memref descriptor of rank 2, as MLIR's host code passes it.
struct MemRef2D {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];
};

std::vector<float> randomFloats(size_t count) {
  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
  std::vector<float> values(count);
  for (float &value : values)
    value = dist(rng);
  return values;
}

/// Fills `count` floats at `device` with NaN so that unwritten outputs show.
void poison(void *device, size_t count, void *stream) {
  mgpuMemset32(device, 0xffffffffu, count, stream);
}

bool sameBits(const std::vector<float> &a, const std::vector<float> &b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

void checkSharedMemoryCopy(void *module, void *stream) {
  void *kernel = mgpuModuleGetFunction(module, "copy_smem");
  check(kernel != nullptr, "look up copy_smem");
  const uint32_t n = 1u << 20, smem = 200 * 1024;
  std::vector<float> in = randomFloats(n), out(n);
  void *dIn = mgpuMemAlloc(n * sizeof(float), stream, false);
  void *dOut = mgpuMemAlloc(n * sizeof(float), stream, false);
  mgpuMemcpy(dIn, in.data(), n * sizeof(float), stream);
  poison(dOut, n, stream);
  uint32_t count = n, bytes = smem;
  void *params[] = {&dIn, &dOut, &count, &bytes};
  mgpuLaunchKernel(kernel, n / 256, 1, 1, 256, 1, 1, int32_t(smem), stream,
                   params, nullptr, 4);
  check(!*croqRtGetLastError(), "launch copy_smem with 200 KB of dynamic smem");
  mgpuMemcpy(out.data(), dOut, n * sizeof(float), stream);
  mgpuStreamSynchronize(stream);
  check(sameBits(in, out), "copy_smem output equals its input");

  mgpuLaunchKernel(kernel, 1, 1, 1, 256, 1, 1, 300 * 1024, stream, params,
                   nullptr, 4);
  check(std::strstr(croqRtGetLastError(), "exceed the device's limit") !=
            nullptr,
        "300 KB of dynamic smem is refused with a clear error");
  mgpuMemFree(dIn, stream);
  mgpuMemFree(dOut, stream);
}

/// Launches tma_tile_copy over a rows x width f32 matrix and checks `out`.
void runTileCopy(void *kernel, const void *map, void *mapPtr, void *dOut,
                 const std::vector<float> &in, uint32_t rows, uint32_t width,
                 void *stream, const char *what) {
  std::vector<float> out(in.size());
  poison(dOut, in.size(), stream);
  uint32_t w = width;
  void *params[] = {const_cast<void *>(map), &mapPtr, &dOut, &w};
  uint32_t grid[3] = {width / 32, rows / 32, 1}, block[3] = {128, 1, 1};
  int status = croqRtLaunchKernel(kernel, grid, block, nullptr, 4096 + 1024,
                                  stream, params);
  check(status == CROQ_RT_SUCCESS, what);
  mgpuMemcpy(out.data(), dOut, in.size() * sizeof(float), stream);
  mgpuStreamSynchronize(stream);
  check(sameBits(in, out), "TMA tile copy output equals its input");
}

void checkTensorMaps(void *module, void *stream) {
  void *kernel = mgpuModuleGetFunction(module, "tma_tile_copy");
  check(kernel != nullptr, "look up tma_tile_copy");
  const uint32_t rows = 256, width = 512;
  std::vector<float> in = randomFloats(size_t(rows) * width);
  void *dIn = mgpuMemAlloc(in.size() * sizeof(float), stream, false);
  void *dOut = mgpuMemAlloc(in.size() * sizeof(float), stream, false);
  mgpuMemcpy(dIn, in.data(), in.size() * sizeof(float), stream);

  uint64_t dims[2] = {width, rows}, strides[1] = {width * sizeof(float)};
  uint32_t box[2] = {32, 32};
  croqRtTensorMapCacheStats before, after;
  croqRtTensorMapStats(&before);
  const void *map = croqRtTensorMapGetCached(
      CROQ_RT_F32, 2, dIn, dims, strides, box, nullptr, CROQ_RT_SWIZZLE_NONE,
      CROQ_RT_L2_PROMOTION_128B, CROQ_RT_OOB_FILL_ZERO);
  check(map != nullptr, "encode a tensor map through the driver (cached)");
  runTileCopy(kernel, map, nullptr, dOut, in, rows, width, stream,
              "launch tma_tile_copy with the map by value");
  const void *again = croqRtTensorMapGetCached(
      CROQ_RT_F32, 2, dIn, dims, strides, box, nullptr, CROQ_RT_SWIZZLE_NONE,
      CROQ_RT_L2_PROMOTION_128B, CROQ_RT_OOB_FILL_ZERO);
  croqRtTensorMapStats(&after);
  check(again == map && after.encodes == before.encodes + 1 &&
            after.hits == before.hits + 1,
        "the second lookup hits the cache without encoding");
  runTileCopy(kernel, again, nullptr, dOut, in, rows, width, stream,
              "launch tma_tile_copy again with the cached map");

  MemRef2D memref = {dIn, dIn, 0, {rows, width}, {width, 1}};
  int64_t memrefBox[2] = {32, 32};
  void *deviceMap = mgpuTensorMapEncodeTiledMemref(2, &memref, /*FLOAT32=*/7,
                                                   0, 0, 0, 0, memrefBox);
  check(deviceMap != nullptr, "mgpuTensorMapEncodeTiledMemref");
  check(mgpuTensorMapEncodeTiledMemref(2, &memref, 7, 0, 0, 0, 0,
                                       memrefBox) == deviceMap,
        "mgpuTensorMapEncodeTiledMemref reuses its device copy");
  runTileCopy(kernel, map, deviceMap, dOut, in, rows, width, stream,
              "launch tma_tile_copy with the map in global memory");

  // The generated host code's call: memref-order sizes and byte strides,
  // then the map by value; a misaligned start falls back with its rule.
  int64_t sizes[2] = {rows, width}, byteStrides[2] = {width * 4, 4};
  int64_t boxes[2] = {32, 32};
  const void *strided = nullptr;
  check(croqRtTensorMapGetStrided(CROQ_RT_F32, 2, dIn, sizes, byteStrides,
                                  boxes, CROQ_RT_SWIZZLE_NONE, &strided) == 1,
        "croqRtTensorMapGetStrided encodes a usable map through the driver");
  runTileCopy(kernel, strided, nullptr, dOut, in, rows, width, stream,
              "launch tma_tile_copy with the map of croqRtTensorMapGetStrided");
  croqRtTensorMapCacheStats fallbackBefore, fallbackAfter;
  croqRtTensorMapStats(&fallbackBefore);
  const void *none = nullptr;
  check(croqRtTensorMapGetStrided(CROQ_RT_F32, 2,
                                  static_cast<char *>(dIn) + 4, sizes,
                                  byteStrides, boxes, CROQ_RT_SWIZZLE_NONE,
                                  &none) == 0 &&
            none != nullptr,
        "a misaligned tensor falls back");
  croqRtTensorMapStats(&fallbackAfter);
  check(fallbackAfter.fallbacks == fallbackBefore.fallbacks + 1 &&
            std::strncmp(croqRtTensorMapFallbackReason(),
                         "address-alignment:", 18) == 0,
        "the fallback is counted and names its rule");

  uint32_t badBox[2] = {33, 32};
  check(croqRtTensorMapGetCached(CROQ_RT_F32, 2, dIn, dims, strides, badBox,
                                 nullptr, CROQ_RT_SWIZZLE_NONE, 0, 0) ==
                nullptr &&
            std::strstr(croqRtGetLastError(), "multiple of 16 bytes"),
        "a 132-byte box row is refused before the driver");
  croqRtClearLastError();
  mgpuMemFree(dIn, stream);
  mgpuMemFree(dOut, stream);
}

void checkClusters(void *module, void *stream) {
  void *kernel = mgpuModuleGetFunction(module, "cluster_rank");
  check(kernel != nullptr, "look up cluster_rank");
  const uint32_t blocks = 16;
  void *dOut = mgpuMemAlloc(blocks * sizeof(uint32_t), stream, false);
  void *params[] = {&dOut};
  for (uint32_t cluster : {2u, 4u}) {
    std::vector<uint32_t> out(blocks);
    mgpuMemset32(dOut, 0xffffffffu, blocks, stream);
    if (cluster == 2) {
      mgpuLaunchClusterKernel(kernel, cluster, 1, 1, blocks, 1, 1, 32, 1, 1, 0,
                              stream, params, nullptr);
    } else {
      uint32_t grid[3] = {blocks, 1, 1}, block[3] = {32, 1, 1},
               shape[3] = {cluster, 1, 1};
      croqRtLaunchKernel(kernel, grid, block, shape, 0, stream, params);
    }
    mgpuMemcpy(out.data(), dOut, blocks * sizeof(uint32_t), stream);
    mgpuStreamSynchronize(stream);
    bool ok = true;
    for (uint32_t i = 0; i < blocks; ++i)
      ok &= out[i] == i % cluster;
    std::string what =
        "cluster launch of " + std::to_string(cluster) + " blocks per cluster";
    check(ok, what.c_str());
  }
  mgpuMemFree(dOut, stream);
}

} // namespace

int main() {
  croqRtDeviceInfo info;
  if (croqRtInit() != CROQ_RT_SUCCESS ||
      croqRtGetDeviceInfo(0, &info) != CROQ_RT_SUCCESS) {
    std::printf("FAIL: no usable GPU: %s\n", croqRtGetLastError());
    return 1;
  }
  std::printf("device 0: %s, sm_%d%d, %d SMs, %d bytes of smem per block "
              "(opt-in), clusters %s\n",
              info.name, info.computeCapabilityMajor,
              info.computeCapabilityMinor, info.multiprocessorCount,
              info.sharedMemPerBlockOptin, info.clusterLaunch ? "yes" : "no");
  if (info.computeCapabilityMajor < 9) {
    std::printf("FAIL: needs a Hopper (sm_90) GPU\n");
    return 1;
  }

  void *module = mgpuModuleLoadJIT(const_cast<char *>(kPtx), 3);
  check(module != nullptr, "JIT-load the PTX module");
  if (!module)
    return 1;
  void *stream = mgpuStreamCreate();
  void *event = mgpuEventCreate();
  checkSharedMemoryCopy(module, stream);
  checkTensorMaps(module, stream);
  checkClusters(module, stream);
  mgpuEventRecord(event, stream);
  mgpuEventSynchronize(event);
  check(!*croqRtGetLastError(), "record and wait for an event");
  mgpuEventDestroy(event);
  mgpuStreamDestroy(stream);
  mgpuModuleUnload(module);
  croqRtTensorMapCacheClear();
  check(!*croqRtGetLastError(), "unload and clear the cache");

  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
