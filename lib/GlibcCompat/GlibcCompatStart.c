//===- GlibcCompatStart.c - start an executable the way glibc 2.28 does ---===//
//
// Part of the croq project. This machine's Scrt1.o (glibc 2.34+) calls
// __libc_start_main with null init and fini: since 2.34, libc finds and
// runs the executable's DT_INIT and DT_INIT_ARRAY itself. glibc 2.28 runs
// only what the init argument runs (its ld.so skips the main executable's
// constructors, elf/dl-init.c), so on 2.28 no static constructor would run.
// The wheel's executables link with --wrap=__libc_start_main: Scrt1.o's
// call comes here, and this passes an init function that runs them, which
// 2.34+ also honours ("a legacy program which supplied its own init",
// csu/libc-start.c). The reference binds to __libc_start_main@GLIBC_2.2.5
// through the 2.28 link stubs.
//
// Not run here, because ld.so runs them on both old and new glibc: the
// preinit array (_dl_init) and, at exit, the fini array and DT_FINI
// (_dl_fini; ld.so marks the executable initialized). So fini stays null;
// a fini that ran the fini array would run every destructor twice.
//
//===----------------------------------------------------------------------===//

typedef int (*MainFn)(int, char **, char **);
typedef void (*InitFn)(int, char **, char **);

// Defined by the linker around .init_array, and by crti.o (.init).
extern InitFn __init_array_start[] __attribute__((visibility("hidden")));
extern InitFn __init_array_end[] __attribute__((visibility("hidden")));
extern void _init(void) __attribute__((weak));

int __real___libc_start_main(MainFn Main, int Argc, char **Argv, InitFn Init,
                             void (*Fini)(void), void (*RtldFini)(void),
                             void *StackEnd);

// What glibc 2.34's call_init does for a dynamic executable: DT_INIT, then
// DT_INIT_ARRAY in order.
static void runInit(int Argc, char **Argv, char **Envp) {
  if (_init)
    _init();
  for (InitFn *Fn = __init_array_start; Fn != __init_array_end; ++Fn)
    (*Fn)(Argc, Argv, Envp);
}

__attribute__((visibility("hidden"))) int
__wrap___libc_start_main(MainFn Main, int Argc, char **Argv, InitFn Init,
                         void (*Fini)(void), void (*RtldFini)(void),
                         void *StackEnd) {
  // A crt1 from before 2.34 passes its own init (__libc_csu_init); keep it.
  return __real___libc_start_main(Main, Argc, Argv, Init ? Init : runInit, Fini,
                                  RtldFini, StackEnd);
}
