//===- Extents.cpp - the extents a linalg product's operands share --------===//
//
// croqRtRequireEqualExtents: the check croq's generated host code makes
// before it launches the kernels of a linalg product whose extents are
// dynamic. Operands that disagree would make the kernels read past an
// operand's edge as zeros (TMA clips), so the product would be silently
// wrong: the call fails instead, naming the extents, and launches nothing.
//
//===----------------------------------------------------------------------===//

#include "Error.h"

#include "Croq/Runtime/CroqRuntime.h"

using namespace croq::rt;

extern "C" int croqRtRequireEqualExtents(int64_t first, int64_t second,
                                         int check, int input) {
  if (first == second)
    return 1;
  const char *api = "croqRtRequireEqualExtents";
  auto a = static_cast<long long>(first);
  auto b = static_cast<long long>(second);
  switch (check) {
  case CROQ_RT_EXTENTS_M:
    reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                "the product's M extents differ: A has %lld rows, the output "
                "%lld; nothing was launched",
                a, b);
    break;
  case CROQ_RT_EXTENTS_N:
    reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                "the product's N extents differ: B has %lld columns, the "
                "output %lld; nothing was launched",
                a, b);
    break;
  case CROQ_RT_EXTENTS_K:
    reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                "the product's K extents differ: A has %lld columns, B %lld "
                "rows; nothing was launched",
                a, b);
    break;
  case CROQ_RT_EXTENTS_BATCH:
    reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                "the batch extents differ: A has %lld matrices, B %lld; "
                "nothing was launched",
                a, b);
    break;
  case CROQ_RT_EXTENTS_BATCH_OUTPUT:
    reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                "the batch extents differ: A has %lld matrices, the output "
                "%lld; nothing was launched",
                a, b);
    break;
  case CROQ_RT_EXTENTS_EPILOGUE_INPUT:
    reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                "operand %d of the fused elementwise op has an extent of "
                "%lld where the product has %lld; nothing was launched",
                input, a, b);
    break;
  case CROQ_RT_EXTENTS_OPERAND:
    reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                "operand %d of a linalg op has an extent of %lld where the "
                "loop that indexes it has %lld; nothing was launched",
                input, a, b);
    break;
  case CROQ_RT_EXTENTS_ATTENTION: {
    static const char *const names[] = {"Q",
                                        "K",
                                        "V",
                                        "the output",
                                        "the log-sum-exp",
                                        "dO",
                                        "dQ",
                                        "dK",
                                        "dV",
                                        "delta",
                                        "the dQ workspace",
                                        "the dQ turn counters"};
    const char *name = input >= 0 && input < 12 ? names[input] : "an operand";
    reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                "%s of the attention has an extent of %lld where %lld is "
                "expected (Q, K, V, the output, dO and the gradients as "
                "[batch * heads, rows, D]: V's, dK's and dV's heads and keys "
                "are K's, the others' Q's; the log-sum-exp and delta as "
                "[batch * heads, rows]; the dQ workspace as [batch * heads "
                "* tiles * 64, D] f32, flat in the fused kernel, its turn "
                "counters as [batch * heads * tiles * 2] i32, tiles = "
                "ceil(rows / 64)); nothing was launched",
                name, a, b);
    break;
  }
  case CROQ_RT_EXTENTS_DECODE: {
    static const char *const names[] = {"Q",
                                        "the K cache",
                                        "the V cache",
                                        "the output",
                                        "cache_seqlens",
                                        "the block table",
                                        "the split workspace",
                                        "the log-sum-exp workspace"};
    const char *name = input >= 0 && input < 8 ? names[input] : "an operand";
    reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                "%s of the decoding attention has an extent of %lld where "
                "%lld is expected (Q and the output as [batch * kv_heads, "
                "group * queries, D], the cache as [batch * kv_heads, keys, "
                "D] or paged as [pages, page_size, kv_heads * D], "
                "cache_seqlens as [batch], the block table as [batch, "
                "pages]); nothing was launched",
                name, a, b);
    break;
  }
  case CROQ_RT_EXTENTS_VARLEN: {
    static const char *const names[] = {
        "Q", "K", "V", "the output", "cu_seqlens_q", "cu_seqlens_k"};
    const char *name = input >= 0 && input < 6 ? names[input] : "an operand";
    reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                "%s of the variable-length attention has an extent of %lld "
                "where %lld is expected (Q and the output as [1, total_q, "
                "heads * D], K and V as [1, total_k, kv_heads * D], "
                "cu_seqlens_q and cu_seqlens_k as [batch + 1], at least one "
                "offset); nothing was launched",
                name, a, b);
    break;
  }
  default:
    reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                "extents %lld and %lld differ (check %d); nothing was "
                "launched",
                a, b, check);
    break;
  }
  refuseLaunches();
  return 0;
}

extern "C" int croqRtRequireMultiple(int64_t value, int64_t divisor,
                                     int check) {
  if (divisor > 0 && value % divisor == 0)
    return 1;
  const char *api = "croqRtRequireMultiple";
  auto a = static_cast<long long>(value);
  auto b = static_cast<long long>(divisor);
  if (check == CROQ_RT_MULTIPLE_HEAD_GROUPS)
    reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                "the query heads (%lld, batch included) are not a multiple "
                "of the key and value heads (%lld): grouped-query attention "
                "gives each key/value head the same number of query heads; "
                "nothing was launched",
                a, b);
  else if (check == CROQ_RT_MULTIPLE_PAGE_SIZE)
    reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                "the page size of the KV cache (%lld keys) is not a multiple "
                "of the decoding attention's key tile (%lld keys); nothing "
                "was launched",
                a, b);
  else if (check == CROQ_RT_MULTIPLE_DECODE_SEQUENCES)
    reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                "Q's first extent (%lld, batch * kv_heads) is not a multiple "
                "of the sequences (%lld, cache_seqlens' extent); nothing was "
                "launched",
                a, b);
  else if (check == CROQ_RT_MULTIPLE_HEAD_DIM)
    reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                "the paged KV cache's rows (%lld elements, kv_heads * D) are "
                "not a multiple of the head dimension (%lld); nothing was "
                "launched",
                a, b);
  else if (check == CROQ_RT_MULTIPLE_VARLEN_HEAD_DIM)
    reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                "the packed rows of the variable-length attention's Q or K "
                "(%lld elements, heads * D) are not a multiple of the head "
                "dimension (%lld); nothing was launched",
                a, b);
  else
    reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, api,
                "%lld is not a multiple of %lld (check %d); nothing was "
                "launched",
                a, b, check);
  refuseLaunches();
  return 0;
}
