//===- GlibcCompatCheck.cpp - run what lib/GlibcCompat stands in for -----===//
//
// Part of the croq project. croq-glibc-compat-check is linked like the
// wheel's croq-tool (glibc 2.28 stubs, the static C++ runtime and
// libgcc, lib/GlibcCompat) and runs each thing the compatibility layer
// touches, printing one line per check and exiting 1 on the first failure:
// static constructors (the __libc_start_main wrapper), a C++ exception
// thrown and caught in this executable and one thrown through glibc's
// qsort (the unwinder's _dl_find_object, over two objects), threads
// (pthread_create from the stub libpthread), stat/fstat/lstat, mallinfo2,
// std::random_device (arc4random), dlopen/dlsym, and the math functions
// bound to their 2.2.5 versions. scripts/ci-wheel.sh and
// scripts/build-wheel.sh run it.
//
//===----------------------------------------------------------------------===//

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <fcntl.h>
#include <malloc.h>
#include <random>
#include <stdexcept>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {
int constructed = 0;
struct Constructed {
  Constructed() { ++constructed; }
} constructedOnce;

bool failed = false;
void expect(bool ok, const char *what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAILED", what);
  failed |= !ok;
}

int throwingCompare(const void *, const void *) {
  throw std::runtime_error("from qsort");
}

bool catchesOwnThrow() {
  try {
    throw std::out_of_range("here");
  } catch (const std::logic_error &e) {
    return std::string(e.what()) == "here";
  }
  return false;
}

bool catchesThroughLibc() {
  int values[] = {3, 1, 2};
  try {
    std::qsort(values, 3, sizeof(int), throwingCompare);
  } catch (const std::runtime_error &e) {
    return std::string(e.what()) == "from qsort";
  }
  return false;
}

bool runsThreads() {
  std::atomic<int> sum{0};
  std::vector<std::thread> threads;
  for (int i = 1; i <= 4; ++i)
    threads.emplace_back([&sum, i] { sum += i; });
  for (std::thread &t : threads)
    t.join();
  return sum == 10;
}

bool statsFiles(const char *self) {
  struct stat byPath = {}, byFd = {}, byLink = {};
  int fd = open(self, O_RDONLY);
  bool ok = fd >= 0 && stat(self, &byPath) == 0 && fstat(fd, &byFd) == 0 &&
            lstat(self, &byLink) == 0 && byPath.st_size > 0 &&
            byPath.st_size == byFd.st_size && byPath.st_ino == byLink.st_ino &&
            S_ISREG(byPath.st_mode);
  if (fd >= 0)
    close(fd);
  struct stat missing;
  return ok && stat("/nonexistent/croq", &missing) == -1;
}

bool randomDiffers() {
  std::random_device device;
  unsigned first = device();
  for (int i = 0; i < 8; ++i)
    if (device() != first)
      return true;
  return false;
}
} // namespace

int main(int argc, char **argv) {
  (void)argc;
  expect(constructed == 1, "static constructor ran once");
  expect(catchesOwnThrow(), "exception caught in this executable");
  expect(catchesThroughLibc(), "exception caught through glibc's qsort");
  expect(runsThreads(), "four threads ran and joined");
  expect(statsFiles(argv[0]), "stat, fstat and lstat agree");
  std::vector<char> block(1 << 20, 1);
  expect(mallinfo2().arena > 0 && block[7] == 1, "mallinfo2 reports the heap");
  expect(randomDiffers(), "std::random_device gives varying values");
  void *libm = dlopen("libm.so.6", RTLD_NOW);
  auto *cosine = libm ? (double (*)(double))dlsym(libm, "cos") : nullptr;
  expect(cosine && cosine(0.0) == 1.0, "dlopen and dlsym find cos");
  volatile double two = 2.0;
  expect(std::fabs(std::exp(std::log(two)) - 2.0) < 1e-12 &&
             std::pow(two, 10.0) == 1024.0 && std::exp2(two) == 4.0 &&
             std::log2(two) == 1.0,
         "exp, log, pow, exp2 and log2");
  return failed ? 1 : 0;
}
