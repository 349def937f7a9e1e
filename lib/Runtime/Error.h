//===- Error.h - error reporting inside the croq runtime --------*- C++ -*-===//
//
// How the runtime reports a failure: one message, stored as the calling
// thread's last error and printed to stderr, and a croqRtStatus to return.
// Messages are formatted only on failure, so successful calls allocate
// nothing.
//
//===----------------------------------------------------------------------===//

#ifndef CROQ_LIB_RUNTIME_ERROR_H
#define CROQ_LIB_RUNTIME_ERROR_H

#include "DriverApi.h"

#include <string>

namespace croq::rt {

/// Reports "croq runtime: <api>: <message>" and returns `status`.
[[gnu::format(printf, 3, 4)]] int reportError(int status, const char *api,
                                              const char *format, ...);

/// "<NAME> (<driver's description>)" for `result`, or "CUresult <n> (...)"
/// for a code the driver cannot name.
std::string describeDriverError(cu::Result result);

/// Reports that the driver call `call` failed with `result`:
/// "croq runtime: <api>: <call>(<arguments>) failed: <NAME> (<text>)", where
/// the arguments come from `argFormat`. Returns CROQ_RT_ERROR_DRIVER.
[[gnu::format(printf, 4, 5)]] int reportDriverError(cu::Result result,
                                                    const char *api,
                                                    const char *call,
                                                    const char *argFormat, ...);

/// Remembers, for the calling thread, that a tensor map the generated host
/// code asked for could not be encoded, or cannot be used by a kernel that
/// has no software copy, with the reason.
void noteFailedTensorMap(const std::string &reason);

/// Takes the reason a tensor map failed since the last launch, or an empty
/// string. The next launch of the thread refuses to run with a null map.
std::string takeFailedTensorMap();

/// Refuses the calling thread's launches until its call ends
/// (croqRtCallEnd) or another begins (croqRtCallBegin): a precondition of
/// the call failed and was reported.
void refuseLaunches();

/// Whether the calling thread's launches are refused.
bool launchesRefused();

/// Forgets the variants the calling thread recorded
/// (croqRtReportVariant): a call begins.
void forgetReportedVariants();

/// The calling thread's last error message.
std::string lastErrorMessage();

} // namespace croq::rt

#endif // CROQ_LIB_RUNTIME_ERROR_H
