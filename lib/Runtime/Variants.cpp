//===- Variants.cpp - the variants of a product compiled on first call ----===//
//
// croqRtRequireVariant: the check a specialization (convert-linalg-to-croq's
// `variants`: the kernels of one shape class only) makes before a
// product's kernels, that the cost model's choice for the call's extents is
// the variant it was compiled with. croqRtReportVariant and
// croqRtGetReportedVariants: what the classifier (`classify`: no kernels)
// tells its caller, the shape class of the call, which croq.jit compiles
// alone the first time it is seen; the dispatcher reports the same, the
// variant it took. croqRtRequestVariants, croqRtRequestedVariant and
// croqRtGetVariantCounts: the variants a caller asks the host code to take
// (an autotuner timing each) and how many each product has.
//
//===----------------------------------------------------------------------===//

#include "Error.h"

#include "Croq/Runtime/CroqRuntime.h"

#include <algorithm>
#include <vector>

using namespace croq::rt;

/// The variants the calling thread's classifier reported, by product (-1:
/// not reached), since its call began.
static thread_local std::vector<int64_t> reported;

/// The variants each product has, as the calling thread's host code asked
/// for its request (0: not reached), since its call began.
static thread_local std::vector<int64_t> counted;

/// The variants the calling thread asks for, by product (-1: the model's
/// choice); they outlast its calls.
static thread_local std::vector<int64_t> requested;

void croq::rt::forgetReportedVariants() {
  reported.clear();
  counted.clear();
}

extern "C" int croqRtRequireVariant(int64_t product, int64_t chosen,
                                    int64_t compiled) {
  if (chosen == compiled)
    return 1;
  auto p = static_cast<long long>(product);
  auto c = static_cast<long long>(chosen);
  if (compiled < 0)
    reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, "croqRtRequireVariant",
                "product %lld was compiled without kernels (a specialization "
                "for another function's shape class); the cost model chose "
                "variant %lld for these extents; nothing was launched",
                p, c);
  else
    reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, "croqRtRequireVariant",
                "product %lld was compiled for variant %lld only (one shape "
                "class); the cost model chose variant %lld for these "
                "extents; nothing was launched",
                p, static_cast<long long>(compiled), c);
  refuseLaunches();
  return 0;
}

extern "C" void croqRtReportVariant(int64_t product, int64_t products,
                                    int64_t chosen) {
  if (product < -1 || product >= products)
    return;
  if (static_cast<int64_t>(reported.size()) < products)
    reported.resize(products, -1);
  if (product >= 0)
    reported[product] = chosen;
}

extern "C" int64_t croqRtGetReportedVariants(int64_t *variants,
                                             int64_t capacity) {
  auto count = static_cast<int64_t>(reported.size());
  if (variants)
    std::copy_n(reported.begin(),
                std::min(count, std::max<int64_t>(capacity, 0)), variants);
  return count;
}

extern "C" int croqRtRequestVariants(const int64_t *variants, int64_t count) {
  if (count < 0 || (count > 0 && !variants)) {
    reportError(CROQ_RT_ERROR_INVALID_ARGUMENT, "croqRtRequestVariants",
                "%lld variants requested from %s",
                static_cast<long long>(count), variants ? "a list" : "null");
    return 0;
  }
  requested.assign(variants, variants + count);
  return 1;
}

extern "C" int64_t croqRtRequestedVariant(int64_t product, int64_t variants) {
  if (product < 0)
    return -1;
  if (static_cast<int64_t>(counted.size()) <= product)
    counted.resize(product + 1, 0);
  counted[product] = variants;
  if (product >= static_cast<int64_t>(requested.size()))
    return -1;
  return requested[product];
}

extern "C" int64_t croqRtGetVariantCounts(int64_t *counts, int64_t capacity) {
  auto count = static_cast<int64_t>(counted.size());
  if (counts)
    std::copy_n(counted.begin(),
                std::min(count, std::max<int64_t>(capacity, 0)), counts);
  return count;
}
