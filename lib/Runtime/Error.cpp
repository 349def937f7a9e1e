//===- Error.cpp - the runtime's last-error slot and reporting ------------===//
//
// Formats failure messages, keeps the last one per thread (and the status of
// the first one since croqRtCallBegin), and prints each to stderr when
// CROQ_RUNTIME_VERBOSE is set.
//
//===----------------------------------------------------------------------===//

#include "Error.h"

#include "Driver.h"

#include "Croq/Runtime/CroqRuntime.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace croq::rt;

/// The last message reported on this thread.
static thread_local std::string lastError;

/// The status of the first error reported on this thread since its last
/// croqRtCallBegin.
static thread_local int callStatus = CROQ_RT_SUCCESS;

/// Whether this thread's launches are refused until its call ends.
static thread_local bool refused = false;

/// Appends printf-style output to `out`.
static void appendFormatted(std::string &out, const char *format,
                            va_list args) {
  va_list copy;
  va_copy(copy, args);
  int size = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  if (size <= 0)
    return;
  std::size_t start = out.size();
  out.resize(start + size + 1);
  std::vsnprintf(&out[start], size + 1, format, args);
  out.resize(start + size);
}

/// Whether failures are also printed to stderr: CROQ_RUNTIME_VERBOSE set
/// to anything but "" or "0" when the first failure is reported.
static bool printsFailures() {
  static const bool verbose = [] {
    const char *value = std::getenv("CROQ_RUNTIME_VERBOSE");
    return value && *value && std::strcmp(value, "0") != 0;
  }();
  return verbose;
}

/// Stores `message` as this thread's last error, notes `status` as the
/// call's if it is its first error, and prints the message if asked to.
static void publish(std::string message, int status) {
  if (callStatus == CROQ_RT_SUCCESS)
    callStatus = status;
  lastError = std::move(message);
  if (printsFailures()) {
    std::fprintf(stderr, "%s\n", lastError.c_str());
    std::fflush(stderr);
  }
}

std::string croq::rt::describeDriverError(cu::Result result) {
  const char *name = driverErrorName(result);
  std::string text = name ? name : "CUresult " + std::to_string(result);
  const char *description = driverErrorString(result);
  text += " (";
  text += description ? description : "no description from the driver";
  text += ")";
  return text;
}

int croq::rt::reportError(int status, const char *api, const char *format,
                          ...) {
  std::string message = "croq runtime: ";
  message += api;
  message += ": ";
  va_list args;
  va_start(args, format);
  appendFormatted(message, format, args);
  va_end(args);
  publish(std::move(message), status);
  return status;
}

int croq::rt::reportDriverError(cu::Result result, const char *api,
                                const char *call, const char *argFormat, ...) {
  std::string message = "croq runtime: ";
  message += api;
  message += ": ";
  message += call;
  message += "(";
  va_list args;
  va_start(args, argFormat);
  appendFormatted(message, argFormat, args);
  va_end(args);
  message += ") failed: ";
  message += describeDriverError(result);
  publish(std::move(message), CROQ_RT_ERROR_DRIVER);
  return CROQ_RT_ERROR_DRIVER;
}

extern "C" const char *croqRtGetLastError(void) { return lastError.c_str(); }

extern "C" void croqRtClearLastError(void) { lastError.clear(); }

extern "C" void croqRtCallBegin(void) {
  callStatus = CROQ_RT_SUCCESS;
  refused = false;
  forgetReportedVariants();
}

extern "C" int croqRtCallEnd(void) {
  int status = callStatus;
  callStatus = CROQ_RT_SUCCESS;
  refused = false;
  return status;
}

void croq::rt::refuseLaunches() { refused = true; }

bool croq::rt::launchesRefused() { return refused; }

static thread_local std::string failedTensorMap;

void croq::rt::noteFailedTensorMap(const std::string &reason) {
  failedTensorMap = reason;
}

std::string croq::rt::takeFailedTensorMap() {
  std::string reason;
  reason.swap(failedTensorMap);
  return reason;
}

std::string croq::rt::lastErrorMessage() { return lastError; }
