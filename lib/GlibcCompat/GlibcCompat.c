//===- GlibcCompat.c - glibc 2.28 replacements for the wheel's binaries ---===//
//
// Part of the croq project. The wheel's binaries (croq-tool,
// libCroqRuntime.so) are linked against link-time stubs of glibc 2.28
// (cmake/CroqGlibcCompat.cmake), so every glibc symbol they import exists in
// 2.28. The static C++ runtime and LLVM, compiled against this machine's
// newer glibc, also call functions 2.28 does not have; these local, hidden
// definitions stand in for them, built from what 2.28 has. Each one behaves
// the same on old and new glibc, so the binaries need no run-time check.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define CROQ_COMPAT __attribute__((visibility("hidden")))

// libstdc++ (GCC 12+, glibc 2.32+) reads this to skip atomic reference
// counting while a process has one thread; glibc 2.28 has no such flag.
// Zero says "maybe threaded": always atomic, correct in every process.
CROQ_COMPAT char __libc_single_threaded = 0;

// glibc 2.33 made stat, fstat and lstat exported functions; before, they
// were inline wrappers (libc_nonshared.a) over __xstat, __fxstat and
// __lxstat, which every glibc since 2.2.5 exports. Version 1
// (_STAT_VER_LINUX on x86_64) is the kernel's struct stat, which is the
// struct stat of the headers.
int __xstat(int Ver, const char *Path, struct stat *Buf);
int __fxstat(int Ver, int Fd, struct stat *Buf);
int __lxstat(int Ver, const char *Path, struct stat *Buf);
enum { StatVerLinux = 1 };

CROQ_COMPAT int stat(const char *Path, struct stat *Buf) {
  return __xstat(StatVerLinux, Path, Buf);
}
CROQ_COMPAT int fstat(int Fd, struct stat *Buf) {
  return __fxstat(StatVerLinux, Fd, Buf);
}
CROQ_COMPAT int lstat(const char *Path, struct stat *Buf) {
  return __lxstat(StatVerLinux, Path, Buf);
}

// LLVM's Process::GetMallocUsage calls mallinfo2 (2.33). mallinfo's int
// fields wrap past 2 GiB; read as unsigned they are right below 4 GiB.
CROQ_COMPAT struct mallinfo2 mallinfo2(void) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  struct mallinfo Old = mallinfo();
#pragma GCC diagnostic pop
  struct mallinfo2 New;
  New.arena = (unsigned)Old.arena;
  New.ordblks = (unsigned)Old.ordblks;
  New.smblks = (unsigned)Old.smblks;
  New.hblks = (unsigned)Old.hblks;
  New.hblkhd = (unsigned)Old.hblkhd;
  New.usmblks = (unsigned)Old.usmblks;
  New.fsmblks = (unsigned)Old.fsmblks;
  New.uordblks = (unsigned)Old.uordblks;
  New.fordblks = (unsigned)Old.fordblks;
  New.keepcost = (unsigned)Old.keepcost;
  return New;
}

// std::random_device's default source calls arc4random (2.36). getrandom
// (2.25) from the kernel's pool, as glibc's arc4random does; /dev/urandom
// where the kernel lacks the call (before Linux 3.17). arc4random cannot
// fail, so neither does this: it aborts where no randomness is to be had.
CROQ_COMPAT uint32_t arc4random(void) {
  uint32_t Value;
  for (;;) {
    ssize_t N = getrandom(&Value, sizeof(Value), 0);
    if (N == (ssize_t)sizeof(Value))
      return Value;
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0 && errno != ENOSYS)
      abort();
    break;
  }
  int Fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (Fd < 0 || read(Fd, &Value, sizeof(Value)) != (ssize_t)sizeof(Value))
    abort();
  close(Fd);
  return Value;
}

// libgcc's unwinder (GCC 12+, glibc 2.35+) finds the .eh_frame_hdr of the
// object holding a return address with _dl_find_object and has no other
// way when built so: without a right answer here no C++ exception is
// caught. dl_iterate_phdr (2.2.5) walks the loaded objects as the older
// unwinder did: the object whose PT_LOAD segments hold the address, and
// its PT_GNU_EH_FRAME segment. The unwinder reads dlfo_eh_frame only
// (x86_64 has no dlfo_eh_dbase); dlfo_link_map stays null, since
// dl_iterate_phdr does not give it.
struct FindObject {
  uintptr_t Pc;
  struct dl_find_object *Result;
};

static int findObjectIn(struct dl_phdr_info *Info, size_t Size, void *Data) {
  (void)Size;
  struct FindObject *Find = Data;
  uintptr_t Start = UINTPTR_MAX, End = 0;
  int Holds = 0;
  void *EhFrame = NULL;
  for (size_t I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) *Phdr = &Info->dlpi_phdr[I];
    uintptr_t Begin = Info->dlpi_addr + Phdr->p_vaddr;
    if (Phdr->p_type == PT_GNU_EH_FRAME)
      EhFrame = (void *)Begin;
    if (Phdr->p_type != PT_LOAD)
      continue;
    uintptr_t Stop = Begin + Phdr->p_memsz;
    Holds |= Find->Pc >= Begin && Find->Pc < Stop;
    Start = Begin < Start ? Begin : Start;
    End = Stop > End ? Stop : End;
  }
  if (!Holds)
    return 0;
  Find->Result->dlfo_flags = 0;
  Find->Result->dlfo_map_start = (void *)Start;
  Find->Result->dlfo_map_end = (void *)End;
  Find->Result->dlfo_link_map = NULL;
  Find->Result->dlfo_eh_frame = EhFrame;
  return 1;
}

CROQ_COMPAT int _dl_find_object(void *Pc, struct dl_find_object *Result) {
  struct FindObject Find = {(uintptr_t)Pc, Result};
  return dl_iterate_phdr(findObjectIn, &Find) ? 0 : -1;
}
