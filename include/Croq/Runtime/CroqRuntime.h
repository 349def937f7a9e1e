/*===- CroqRuntime.h - the C ABI of libCroqRuntime ----------------*- C -*-===*\
|*                                                                            *|
|* The host functions that croq's generated code, MLIR's gpu-to-llvm output   *|
|* and the croq Python package call: driver set-up, module loading, kernel    *|
|* launch, tensor maps, streams, events and memory, on the CUDA Driver API    *|
|* loaded at run time (libcuda.so.1). Plain C, usable from C and C++.         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CROQ_RUNTIME_CROQRUNTIME_H
#define CROQ_RUNTIME_CROQRUNTIME_H

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#if defined(__GNUC__)
#define CROQ_RT_EXPORT __attribute__((visibility("default")))
#else
#define CROQ_RT_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*===----------------------------------------------------------------------===*\
|* Conventions                                                                *|
|*                                                                            *|
|* Every croqRt* function that can fail returns a croqRtStatus. On failure    *|
|* the runtime stores a message for the calling thread (croqRtGetLastError);  *|
|* it prints it to stderr too when CROQ_RUNTIME_VERBOSE is set (to anything   *|
|* but "" or "0"). A message names the function that failed, the              *|
|* driver call and its key arguments where there is one, and the driver's     *|
|* error name and text. The mgpu* functions cannot return errors: they report *|
|* the same way and return null (or nothing).                                 *|
|*                                                                            *|
|* The driver is loaded, initialized and the primary context of the calling   *|
|* thread's device (0 unless set) made current on first use, so these         *|
|* functions may run from global constructors. CROQ_RUNTIME_LIBCUDA in the    *|
|* environment names the driver library to load instead of libcuda.so.1.      *|
\*===----------------------------------------------------------------------===*/

typedef enum croqRtStatus {
  CROQ_RT_SUCCESS = 0,
  /// An argument broke a documented rule; nothing reached the driver.
  CROQ_RT_ERROR_INVALID_ARGUMENT = 1,
  /// libcuda.so.1 (or a function the call needs) could not be loaded.
  CROQ_RT_ERROR_NO_DRIVER = 2,
  /// A driver call returned an error.
  CROQ_RT_ERROR_DRIVER = 3,
} croqRtStatus;

/// Driver handles, passed around as opaque pointers (CUmodule, CUfunction,
/// CUstream, CUevent). A null stream is the legacy default stream.
typedef void *croqRtModule;
typedef void *croqRtFunction;
typedef void *croqRtStream;
typedef void *croqRtEvent;

/*===-- Errors ------------------------------------------------------------===*/

/// The message of the last error reported on the calling thread, or "" if
/// there was none since the thread started or last called
/// croqRtClearLastError. Successful calls leave it unchanged. The string stays
/// valid until the thread's next failing runtime call.
CROQ_RT_EXPORT const char *croqRtGetLastError(void);
CROQ_RT_EXPORT void croqRtClearLastError(void);

/// The bracket of one call of a croq entry point (croq-host-entries emits
/// both): croqRtCallBegin forgets the calling thread's earlier failures;
/// croqRtCallEnd returns the croqRtStatus of the first failure since, or
/// CROQ_RT_SUCCESS, and forgets it. The entry point returns that status; the
/// message is croqRtGetLastError's.
CROQ_RT_EXPORT void croqRtCallBegin(void);
CROQ_RT_EXPORT int croqRtCallEnd(void);

/*===-- Driver and devices ------------------------------------------------===*/

/// Loads the driver, initializes it and makes the primary context of the
/// calling thread's device current. Every other function does this lazily.
CROQ_RT_EXPORT int croqRtInit(void);

/// Selects the device later calls on this thread use (0 by default).
CROQ_RT_EXPORT int croqRtSetDevice(int device);
CROQ_RT_EXPORT int croqRtGetDevice(int *device);
CROQ_RT_EXPORT int croqRtGetDeviceCount(int *count);

typedef struct croqRtDeviceInfo {
  char name[256];
  int computeCapabilityMajor;
  int computeCapabilityMinor;
  int multiprocessorCount;
  /// Shared memory a block gets without opting in (48 KB on Hopper).
  int sharedMemPerBlock;
  /// Shared memory a block may opt into (227 KB on Hopper).
  int sharedMemPerBlockOptin;
  /// Non-zero when the device supports thread block clusters.
  int clusterLaunch;
} croqRtDeviceInfo;

CROQ_RT_EXPORT int croqRtGetDeviceInfo(int device, croqRtDeviceInfo *info);

/*===-- Modules and launch ------------------------------------------------===*/

/// Loads a cubin, fatbin or NUL-terminated PTX image (cuModuleLoadData).
CROQ_RT_EXPORT int croqRtModuleLoad(const void *image, size_t size,
                                    croqRtModule *module);
/// JIT-compiles NUL-terminated PTX at optimization level `optLevel` (0..4);
/// on failure the message carries the JIT's error log.
CROQ_RT_EXPORT int croqRtModuleLoadPTX(const char *ptx, int optLevel,
                                       croqRtModule *module);
/// Unloading null does nothing.
CROQ_RT_EXPORT int croqRtModuleUnload(croqRtModule module);
CROQ_RT_EXPORT int croqRtModuleGetFunction(croqRtModule module,
                                           const char *name,
                                           croqRtFunction *function);

/// Launches `function` on `grid` blocks of `block` threads. `cluster` is
/// null for an ordinary launch, or the cluster shape (each grid dimension a
/// multiple of it). `params` holds one pointer per kernel parameter, pointing
/// at its value (a tensor map from croqRtTensorMapGetCached can be passed as
/// is). Dynamic shared memory above 48 KB is opted into first.
CROQ_RT_EXPORT int
croqRtLaunchKernel(croqRtFunction function, const uint32_t grid[3],
                   const uint32_t block[3], const uint32_t *cluster,
                   uint32_t sharedMemBytes, croqRtStream stream, void **params);

CROQ_RT_EXPORT int croqRtStreamSynchronize(croqRtStream stream);

/*===-- Tensor maps -------------------------------------------------------===*/

/// Element types of a tensor map. FP8 formats travel as bytes (the driver's
/// UINT8); signedness does not matter to a copy.
typedef enum croqRtElementType {
  CROQ_RT_F32 = 0,
  CROQ_RT_F16 = 1,
  CROQ_RT_BF16 = 2,
  CROQ_RT_F8E4M3 = 3,
  CROQ_RT_F8E5M2 = 4,
  CROQ_RT_I8 = 5,
  CROQ_RT_U8 = 6,
  CROQ_RT_I16 = 7,
  CROQ_RT_U16 = 8,
  CROQ_RT_I32 = 9,
  CROQ_RT_U32 = 10,
  CROQ_RT_I64 = 11,
  CROQ_RT_U64 = 12,
  CROQ_RT_F64 = 13,
} croqRtElementType;

/// Shared-memory swizzle; the values are the driver's CUtensorMapSwizzle.
typedef enum croqRtSwizzle {
  CROQ_RT_SWIZZLE_NONE = 0,
  CROQ_RT_SWIZZLE_32B = 1,
  CROQ_RT_SWIZZLE_64B = 2,
  CROQ_RT_SWIZZLE_128B = 3,
} croqRtSwizzle;

/// L2 fetch granularity; the values are the driver's CUtensorMapL2promotion.
typedef enum croqRtL2Promotion {
  CROQ_RT_L2_PROMOTION_NONE = 0,
  CROQ_RT_L2_PROMOTION_64B = 1,
  CROQ_RT_L2_PROMOTION_128B = 2,
  CROQ_RT_L2_PROMOTION_256B = 3,
} croqRtL2Promotion;

/// What out-of-bounds elements read as; NaN only for f16, bf16, f32, f64.
typedef enum croqRtOobFill {
  CROQ_RT_OOB_FILL_ZERO = 0,
  CROQ_RT_OOB_FILL_NAN = 1,
} croqRtOobFill;

/// The size and alignment of an encoded tensor map (CUtensorMap).
#define CROQ_RT_TENSOR_MAP_BYTES 128
#define CROQ_RT_TENSOR_MAP_ALIGN 64
/// croqRtTensorMapGetStaged copies a tensor with at most this many 2-d
/// copies (one per index of the dimensions outside the innermost two); a
/// tensor that needs more is not staged.
#define CROQ_RT_STAGING_MAX_ROW_COPIES 65536

/// Encodes a tiled tensor map (cuTensorMapEncodeTiled, no interleave) into
/// the 128 bytes at `tensorMap` (64-byte aligned, as the driver requires; a
/// CUDA 13 CUtensorMap is 128-byte aligned). Dimension 0 is the innermost,
/// contiguous one, as for the driver:
///   globalDims[rank]        elements per dimension, each in [1, 2^32]
///   globalStrides[rank - 1] bytes between consecutive indices of dimensions
///                           1..rank-1, multiples of 16 below 2^40 (null when
///                           rank is 1)
///   boxDims[rank]           the tile, each in [1, 256]; boxDims[0] times the
///                           element size is a multiple of 16 bytes and, with
///                           a swizzle, at most the swizzle span
///   elementStrides[rank]    traversal steps in [1, 8]; null means all 1
/// `globalAddress` must be 16-byte aligned. Every rule is checked before the
/// driver is called; a broken one fails with CROQ_RT_ERROR_INVALID_ARGUMENT
/// and a message naming the parameter, the rule and the value.
CROQ_RT_EXPORT int croqRtTensorMapEncodeTiled(
    void *tensorMap, int elementType, uint32_t rank, const void *globalAddress,
    const uint64_t *globalDims, const uint64_t *globalStrides,
    const uint32_t *boxDims, const uint32_t *elementStrides, int swizzle,
    int l2Promotion, int oobFill);

/// Like croqRtTensorMapEncodeTiled, but returns a tensor map owned by the
/// runtime, encoded once per distinct (device, parameters) and reused, so a
/// kernel launched again on the same tensors does not re-encode. Returns null
/// on error. The cache holds at most croqRtTensorMapSetCacheCapacity's
/// number of maps (4096 by default), evicting the least recently used; an
/// evicted map's bytes stay readable for the next 1024 evictions, so read
/// (copy) them right after the call. croqRtTensorMapCacheClear frees them
/// all.
CROQ_RT_EXPORT const void *
croqRtTensorMapGetCached(int elementType, uint32_t rank,
                         const void *globalAddress, const uint64_t *globalDims,
                         const uint64_t *globalStrides, const uint32_t *boxDims,
                         const uint32_t *elementStrides, int swizzle,
                         int l2Promotion, int oobFill);

typedef struct croqRtTensorMapCacheStats {
  /// Successful encodings, cached or not, since the process started.
  uint64_t encodes;
  /// Lookups (croqRtTensorMapGetCached, croqRtTensorMapGetStrided) answered
  /// from the cache.
  uint64_t hits;
  /// Maps held in the cache now.
  uint64_t entries;
  /// croqRtTensorMapGetStrided and croqRtTensorMapGetStaged calls that sent
  /// a tensor to the software copy since the process started.
  uint64_t fallbacks;
  /// croqRtTensorMapGetStaged calls that copied a tensor into an aligned
  /// staging buffer since the process started.
  uint64_t staged;
  /// Maps evicted to keep the cache within its capacity, since the process
  /// started.
  uint64_t evictions;
  /// The most maps the cache holds (croqRtTensorMapSetCacheCapacity).
  uint64_t capacity;
} croqRtTensorMapCacheStats;

CROQ_RT_EXPORT void croqRtTensorMapStats(croqRtTensorMapCacheStats *stats);

/// Sets the most maps the cache holds (0: the default, 4096), evicting the
/// least recently used ones beyond it now and later; maps with a device copy
/// (mgpuTensorMapEncodeTiledMemref) are not evicted, as a kernel may still
/// read them. Returns the previous capacity.
CROQ_RT_EXPORT uint64_t croqRtTensorMapSetCacheCapacity(uint64_t capacity);

/// The host call of croq's generated code before a kernel with tma copies:
/// decides whether the tensor can be moved by TMA and, if so, points
/// `*tensorMap` at the cached map (as croqRtTensorMapGetCached: encoded once
/// per parameters) and returns 1. The kernel receives the map's 128 bytes by
/// value (a __grid_constant__ parameter).
///
/// The tensor is described in memref order, outermost dimension first:
///   sizes[rank]       elements per dimension
///   byteStrides[rank] bytes between consecutive indices (the innermost
///                     must be the element size)
///   boxDims[rank]     the box each bulk copy moves
/// with L2 promotion to 128 bytes and zero fill for out-of-bounds elements.
/// When the tensor breaks a rule of TMA (address not 16-byte aligned, or not
/// 128-byte aligned with a swizzle; a stride not a multiple of 16 bytes or
/// too large; a size of 0 or above 2^32; an innermost stride that is not the
/// element size) or the encoding fails, it returns 0, points `*tensorMap` at
/// 128 zero bytes and counts a fallback: the kernel then moves that tensor
/// with the software (dma) copy. croqRtTensorMapFallbackReason tells why.
/// Only a failed encoding is reported as an error.
CROQ_RT_EXPORT int
croqRtTensorMapGetStrided(int elementType, uint32_t rank,
                          const void *globalAddress, const int64_t *sizes,
                          const int64_t *byteStrides, const int64_t *boxDims,
                          int swizzle, const void **tensorMap);

/// Why the calling thread's most recent croqRtTensorMapGetStrided call that
/// fell back did so (later usable maps leave it):
/// "<rule>: <the rule and the value that breaks it>", where <rule> is one of
/// arguments, rank, element-type, null-address, address-alignment,
/// swizzle-address-alignment, inner-stride, dim-range, stride-alignment,
/// stride-range, box-range, box-inner-bytes, box-swizzle-span, inner-bytes
/// or encode; ""
/// if none of its calls fell back.
CROQ_RT_EXPORT const char *croqRtTensorMapFallbackReason(void);

/// The host call of croq's generated code before a kernel that only reads
/// `globalAddress` through tma copies: as croqRtTensorMapGetStrided, except
/// that
///   - the inner-bytes rule does not apply (TMA loads clip per element; only
///     stores write whole 16-byte chunks), and
///   - a tensor whose address or strides break a rule of TMA
///     (address-alignment, swizzle-address-alignment, stride-alignment,
///     stride-range) but whose rows are contiguous is staged: copied, on
///     `stream` (queued, not waited for), into a buffer allocated on that
///     stream (cuMemAllocAsync) with 256-byte aligned address and padded
///     rows, and the map of that copy is returned (1) instead of falling
///     back.
/// `*staging` receives the staging buffer's handle, or null when the tensor
/// was not staged; the caller passes it to croqRtTensorMapReleaseStaged
/// with the same stream once the kernel that reads it is queued there
/// (croq's generated host code does so right after the launch). The kernel
/// sees the tensor as it was when the copy ran on the stream: writes during
/// the kernel through another memref that aliases it are not seen. Tensors
/// that cannot be staged fall back as with croqRtTensorMapGetStrided (rule
/// "staging" when the copy itself failed).
CROQ_RT_EXPORT int croqRtTensorMapGetStaged(
    int elementType, uint32_t rank, const void *globalAddress,
    const int64_t *sizes, const int64_t *byteStrides, const int64_t *boxDims,
    int swizzle, croqRtStream stream, const void **tensorMap, void **staging);

/// The host call of croq's generated code after croqRtTensorMapGetStrided
/// or croqRtTensorMapGetStaged for a tma copy compiled without a software
/// copy (tma-fallback): returns `usable`; when it is 0, the kernel cannot
/// move the tensor, and the thread's next launch is refused with the rule
/// the tensor broke (croqRtTensorMapFallbackReason) in its error.
CROQ_RT_EXPORT int croqRtTensorMapRequire(int usable);

/// The host call of croq's generated code for a croq.im2col_map before a
/// kernel with im2col loads: points `*tensorMap` at the cached im2col
/// tensor map (cuTensorMapEncodeIm2col; encoded once per parameters) of the
/// tensor and returns 1; the kernel receives the map's 128 bytes by value.
///
/// The tensor is channels-last, of rank 3 to 5 (N, spatial dimensions, C),
/// described in memref order, outermost dimension first:
///   sizes[rank], byteStrides[rank]   as for croqRtTensorMapGetStrided
///   lowerCorner[rank - 2]            the bounding box's lower corner,
///   upperCorner[rank - 2]            its upper corner (relative to the last
///                                    pixel), and
///   strides[rank - 2]                the traversal strides (1 to 8), one
///                                    per spatial dimension, outermost first
///   channels, pixels                 channels per pixel (at most 256) and
///                                    pixels per column (at most 1024)
/// with L2 promotion none and zero fill. When the tensor or the parameters
/// break a rule of cuTensorMapEncodeIm2col (the rules of
/// croqRtTensorMapGetStrided, and rank, corner-range, empty-box,
/// element-stride-range, channels-range, pixels-range, channels-bytes,
/// channels-swizzle-span) or the encoding fails, it returns 0, points
/// `*tensorMap` at 128 zero bytes and remembers the rule
/// (croqRtTensorMapFallbackReason); croqRtTensorMapRequireIm2col then
/// refuses the launch.
CROQ_RT_EXPORT int
croqRtTensorMapGetIm2col(int elementType, uint32_t rank,
                         const void *globalAddress, const int64_t *sizes,
                         const int64_t *byteStrides, const int32_t *lowerCorner,
                         const int32_t *upperCorner, const int64_t *strides,
                         uint32_t channels, uint32_t pixels, int swizzle,
                         const void **tensorMap);

/// The host call of croq's generated code after croqRtTensorMapGetIm2col:
/// returns `usable`; when it is 0 the thread's next launch is refused with
/// the rule the tensor broke (im2col loads have no software copy).
CROQ_RT_EXPORT int croqRtTensorMapRequireIm2col(int usable);

/// What croqRtRequireEqualExtents compares: the extents a linalg product's
/// operands must share (croq's generated host code checks those that are
/// dynamic before it launches the product's kernels).
typedef enum croqRtExtentCheck {
  /// A's rows (M) and the output's rows.
  CROQ_RT_EXTENTS_M = 0,
  /// B's columns (N) and the output's columns.
  CROQ_RT_EXTENTS_N = 1,
  /// A's columns and B's rows (K).
  CROQ_RT_EXTENTS_K = 2,
  /// The matrices of A and of B in a batched product.
  CROQ_RT_EXTENTS_BATCH = 3,
  /// The matrices of A and of the output in a batched product.
  CROQ_RT_EXTENTS_BATCH_OUTPUT = 4,
  /// An extent of an input of the fused elementwise op (`input` its
  /// operand number) and the product's extent it is read along.
  CROQ_RT_EXTENTS_EPILOGUE_INPUT = 5,
  /// An extent of an operand of a linalg op without a product (`input` its
  /// operand number) and the extent of the loop that indexes it.
  CROQ_RT_EXTENTS_OPERAND = 6,
  /// An extent of an operand of an attention kernel (`input`: 0 for Q, 1
  /// K, 2 V, 3 the output, 4 the log-sum-exp, 5 dO, 6 dQ, 7 dK, 8 dV,
  /// 9 delta, 10 the dQ workspace, 11 its turn counters; tensors as
  /// [batch * heads, rows, D], the log-sum-exp and delta as [batch * heads,
  /// rows]) and the extent the others give it:
  /// V's, dK's and dV's heads and keys are K's, the others' heads and rows
  /// Q's.
  CROQ_RT_EXTENTS_ATTENTION = 7,
  /// An extent of an operand of a decoding attention kernel (`input`: 0 Q,
  /// 1 the K cache, 2 the V cache, 3 the output, 4 cache_seqlens, 5 the
  /// block table, 6 the split workspace, 7 the log-sum-exp workspace) and
  /// the extent the others give it.
  CROQ_RT_EXTENTS_DECODE = 8,
  /// An extent of an operand of a variable-length attention kernel
  /// (`input`: 0 Q, 1 K, 2 V, 3 the output, 4 cu_seqlens_q, 5
  /// cu_seqlens_k; Q, K, V and the output as [1, total rows, heads * D],
  /// the offsets as [batch + 1]) and the extent the others give it.
  CROQ_RT_EXTENTS_VARLEN = 9,
} croqRtExtentCheck;

/// The host call of croq's generated code for a linalg product whose
/// extents are known only at run time: returns 1 when `first` and `second`
/// are equal; otherwise reports CROQ_RT_ERROR_INVALID_ARGUMENT with the
/// extents `check` (a croqRtExtentCheck) names, returns 0, and refuses
/// every launch of the calling thread until its call ends (croqRtCallEnd),
/// so that the product's kernels do not run on operands that disagree.
CROQ_RT_EXPORT int croqRtRequireEqualExtents(int64_t first, int64_t second,
                                             int check, int input);

/// What croqRtRequireMultiple checks.
typedef enum croqRtMultipleCheck {
  /// The query heads of grouped-query attention and its key/value heads
  /// (each key/value head serves a group of consecutive query heads).
  CROQ_RT_MULTIPLE_HEAD_GROUPS = 0,
  /// The keys of a page of a paged KV cache and the key tile of the
  /// decoding attention kernels (a tile never spans two pages).
  CROQ_RT_MULTIPLE_PAGE_SIZE = 1,
  /// The rows of a decoding attention's Q (batch * kv_heads) and the
  /// sequences (cache_seqlens' extent).
  CROQ_RT_MULTIPLE_DECODE_SEQUENCES = 2,
  /// The columns of a paged KV cache (kv_heads * D) and the head dimension.
  CROQ_RT_MULTIPLE_HEAD_DIM = 3,
  /// The columns of a variable-length attention's packed Q or K (heads *
  /// D) and the head dimension.
  CROQ_RT_MULTIPLE_VARLEN_HEAD_DIM = 4,
} croqRtMultipleCheck;

/// The host call of croq's generated code for an extent that must be a
/// multiple of another: returns 1 when `divisor` is positive and divides
/// `value`; otherwise reports CROQ_RT_ERROR_INVALID_ARGUMENT naming both
/// and what `check` (a croqRtMultipleCheck) requires, returns 0 and refuses
/// the calling thread's launches until its call ends, as
/// croqRtRequireEqualExtents does.
CROQ_RT_EXPORT int croqRtRequireMultiple(int64_t value, int64_t divisor,
                                         int check);

/// The host call of croq's generated code for a linalg product of dynamic
/// extents compiled for one variant only (convert-linalg-to-croq's
/// `variants`): returns 1 when the cost model's choice for the call's
/// extents, `chosen`, is the variant `compiled`; otherwise (also for
/// `compiled` -1: no variant) reports CROQ_RT_ERROR_INVALID_ARGUMENT naming
/// product `product` and both variants, returns 0 and refuses the calling
/// thread's launches until its call ends, as croqRtRequireEqualExtents does.
CROQ_RT_EXPORT int croqRtRequireVariant(int64_t product, int64_t chosen,
                                        int64_t compiled);

/// The host call of croq's classifier (convert-linalg-to-croq's
/// `classify`): records, for the calling thread, that product `product` of
/// the module's `products` whose variant the host code chooses chose
/// variant `chosen`; product -1 records the count only (each function of
/// the classifier does at its start, so that a call that reaches no product
/// still tells how many the module has). croqRtCallBegin forgets what the
/// thread recorded.
CROQ_RT_EXPORT void croqRtReportVariant(int64_t product, int64_t products,
                                        int64_t chosen);

/// Copies the variants the calling thread recorded since its last
/// croqRtCallBegin (croqRtReportVariant), by product, into `variants` (at
/// most `capacity`; -1 for a product the call did not reach) and returns
/// the number of products, 0 when nothing was recorded.
CROQ_RT_EXPORT int64_t croqRtGetReportedVariants(int64_t *variants,
                                                 int64_t capacity);

/// Sets the variants the calling thread's later calls ask for, by product
/// (the products whose variant the host code chooses, in the module's
/// order): `variants[p]` for product p < `count`, -1 (or p >= `count`) for
/// the cost model's choice. The host code takes a requested variant where
/// the cost model could (croqRtReportVariant tells which it took) and the
/// model's choice elsewhere. `count` 0 clears the requests; they last until
/// the next call of this function on the thread. An autotuner times each
/// variant so (croq.autotune_variants). Returns 0, with
/// CROQ_RT_ERROR_INVALID_ARGUMENT, where `count` is negative or `variants`
/// null with a positive `count`.
CROQ_RT_EXPORT int croqRtRequestVariants(const int64_t *variants,
                                         int64_t count);

/// The host call of croq's generated code before the cost model chooses a
/// variant for product `product`, which has `variants` of them: the
/// variant the calling thread requested for it (croqRtRequestVariants), or
/// -1. Also records `variants` for croqRtGetVariantCounts.
CROQ_RT_EXPORT int64_t croqRtRequestedVariant(int64_t product,
                                              int64_t variants);

/// Copies the number of variants of each product the calling thread's host
/// code asked about since its last croqRtCallBegin (croqRtRequestedVariant)
/// into `counts` (at most `capacity`; 0 for a product it did not reach) and
/// returns the number of products it reached.
CROQ_RT_EXPORT int64_t croqRtGetVariantCounts(int64_t *counts,
                                              int64_t capacity);

/// Frees a staging buffer on `stream` (cuMemFreeAsync: after the work
/// queued there before this call, such as the kernel that reads it); null
/// does nothing.
CROQ_RT_EXPORT void croqRtTensorMapReleaseStaged(void *staging,
                                                 croqRtStream stream);

/// Turns staging on (non-zero, the default) or off for the whole process,
/// and returns whether it was on. With staging off, croqRtTensorMapGetStaged
/// sends misaligned tensors to the software copy, as croqRtTensorMapGetStrided
/// does.
CROQ_RT_EXPORT int croqRtTensorMapSetStaging(int enabled);

/// Drops every cached map (and the device copies made for
/// mgpuTensorMapEncodeTiledMemref); pointers handed out before are
/// dangling.
CROQ_RT_EXPORT void croqRtTensorMapCacheClear(void);

/// Testing: replaces the driver's encoder (after validation) with `encoder`,
/// or restores the driver when it is null, so that the validation and the
/// cache can be tested on machines without a GPU. `elementType` is the
/// croqRtElementType and the pointers are those the caller passed.
typedef int (*croqRtTensorMapEncoder)(
    void *tensorMap, int elementType, uint32_t rank, const void *globalAddress,
    const uint64_t *globalDims, const uint64_t *globalStrides,
    const uint32_t *boxDims, const uint32_t *elementStrides, int swizzle,
    int l2Promotion, int oobFill);
CROQ_RT_EXPORT void
croqRtSetTensorMapEncoderForTesting(croqRtTensorMapEncoder encoder);

/*===----------------------------------------------------------------------===*\
|* MLIR host-code ABI                                                         *|
|*                                                                            *|
|* The functions MLIR 22's gpu-to-llvm output and gpu.binary translation call *|
|* (the names and signatures of upstream's CudaRuntimeWrappers). Errors are   *|
|* reported as described above; null is returned where a value is expected.  *|
\*===----------------------------------------------------------------------===*/

/// Loads a cubin or fatbin of `size` bytes (gpu-module-to-binary bin/fatbin).
CROQ_RT_EXPORT void *mgpuModuleLoad(void *data, size_t size);
/// JIT-compiles NUL-terminated PTX (gpu-module-to-binary format=isa).
CROQ_RT_EXPORT void *mgpuModuleLoadJIT(void *data, int optLevel);
CROQ_RT_EXPORT void mgpuModuleUnload(void *module);
CROQ_RT_EXPORT void *mgpuModuleGetFunction(void *module, const char *name);

/// Dimensions must fit in 32 bits; `paramsCount` is not needed by the driver.
CROQ_RT_EXPORT void mgpuLaunchKernel(void *function, intptr_t gridX,
                                     intptr_t gridY, intptr_t gridZ,
                                     intptr_t blockX, intptr_t blockY,
                                     intptr_t blockZ, int32_t smem,
                                     void *stream, void **params, void **extra,
                                     size_t paramsCount);
/// `grid` counts blocks (each dimension a multiple of the cluster's), as for
/// cuLaunchKernelEx.
CROQ_RT_EXPORT void
mgpuLaunchClusterKernel(void *function, intptr_t clusterX, intptr_t clusterY,
                        intptr_t clusterZ, intptr_t gridX, intptr_t gridY,
                        intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                        intptr_t blockZ, int32_t smem, void *stream,
                        void **params, void **extra);

/// Streams are non-blocking (they do not synchronize with stream 0).
CROQ_RT_EXPORT void *mgpuStreamCreate(void);
CROQ_RT_EXPORT void mgpuStreamDestroy(void *stream);
CROQ_RT_EXPORT void mgpuStreamSynchronize(void *stream);
CROQ_RT_EXPORT void mgpuStreamWaitEvent(void *stream, void *event);

/// Events are created without timing.
CROQ_RT_EXPORT void *mgpuEventCreate(void);
CROQ_RT_EXPORT void mgpuEventDestroy(void *event);
CROQ_RT_EXPORT void mgpuEventSynchronize(void *event);
CROQ_RT_EXPORT void mgpuEventRecord(void *event, void *stream);

/// Allocates device memory, stream-ordered on `stream` (the legacy default
/// stream when null) from the device's default pool, or managed memory when
/// `isHostShared`; a size of zero returns null without an error.
CROQ_RT_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, void *stream,
                                  bool isHostShared);
/// Releases what mgpuMemAlloc allocated: device memory after the work queued
/// on `stream` (the host does not wait), managed memory at once.
CROQ_RT_EXPORT void mgpuMemFree(void *ptr, void *stream);
CROQ_RT_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                               void *stream);
CROQ_RT_EXPORT void mgpuMemset32(void *dst, unsigned int value, size_t count,
                                 void *stream);
CROQ_RT_EXPORT void mgpuMemset16(void *dst, unsigned short value, size_t count,
                                 void *stream);

/// Selects the device for later calls on this thread (croqRtSetDevice).
CROQ_RT_EXPORT void mgpuSetDefaultDevice(int32_t device);

/// nvgpu.tma.create.descriptor's host call: encodes a map for the ranked
/// memref descriptor `rankedDescriptor` of rank `tensorRank` (dense or
/// strided, innermost stride 1), with `tensorDataType` a CUtensorMapDataType
/// and box dims outermost first, and returns a device pointer to a copy of
/// the map in global memory. Maps and copies are cached per parameters, so
/// repeated calls allocate nothing. Interleave must be none.
CROQ_RT_EXPORT void *
mgpuTensorMapEncodeTiledMemref(int64_t tensorRank, void *rankedDescriptor,
                               int64_t tensorDataType, int64_t interleave,
                               int64_t swizzle, int64_t l2Promotion,
                               int64_t oobFill, int64_t *inputBoxDims);

#ifdef __cplusplus
}
#endif

#endif /* CROQ_RUNTIME_CROQRUNTIME_H */
