//===- SanitizerDefaults.cpp - ASan defaults of croq's tools --------------===//
//
// Linked into croq-opt, croq-translate and croq-fuzz in sanitizer builds
// (CROQ_ENABLE_SANITIZERS): the AddressSanitizer options those tools need
// whatever the environment says. See utils/sanitizers/README.md.
//
//===----------------------------------------------------------------------===//

/// ASAN_OPTIONS applied before the environment's. allow_user_poisoning=0:
/// croq's instrumented copy of LLVM's inline BumpPtrAllocator code poisons
/// slabs that libMLIR's uninstrumented copy then hands out unpoisoned.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}
