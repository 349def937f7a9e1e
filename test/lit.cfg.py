# -*- Python -*-
# lit configuration for the croq regression tests.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "CROQ"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.croq_obj_root, "test")
config.excludes = ["Inputs", "CMakeLists.txt", "README.md", "lit.cfg.py",
                   "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%croq_src_root", config.croq_src_root))
config.substitutions.append(("%croq_obj_root", config.croq_obj_root))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.croq_tools_dir, config.llvm_tools_dir]
tools = ["croq-opt", "croq-translate", "croq-capi-test"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# test/Embedding configures and builds an external project against the
# installed croq package, with the generator, compiler and linker of this
# build: %cmake, and %croq_consumer_cmake_args for its configure step.
config.substitutions.append(("%cmake", config.cmake_executable))
consumer_args = [
    "-G", '"%s"' % config.cmake_generator,
    "-DCMAKE_MAKE_PROGRAM=%s" % config.cmake_make_program,
    "-DCMAKE_BUILD_TYPE=%s" % (config.cmake_build_type or "Release"),
    "-DCMAKE_CXX_COMPILER=%s" % config.cxx_compiler,
]
consumer_link_flags = []
if config.llvm_use_linker:
    consumer_link_flags.append("-fuse-ld=%s" % config.llvm_use_linker)
# A project that links a sanitizer build of croq links the sanitizer
# runtimes too.
if config.croq_sanitizers:
    consumer_link_flags.append("-fsanitize=address,undefined")
if consumer_link_flags:
    consumer_args.append('"-DCMAKE_EXE_LINKER_FLAGS=%s"'
                         % " ".join(consumer_link_flags))
config.substitutions.append(("%croq_consumer_cmake_args",
                             " ".join(consumer_args)))

# ptxas assembles generated PTX for sm_90a where the CUDA toolkit is present.
if config.ptxas_executable and os.path.exists(config.ptxas_executable):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas_executable))

# In a sanitizer build (CROQ_ENABLE_SANITIZERS), every report aborts the
# tool, so that it fails a test even on a `not croq-opt ...` line, and
# LeakSanitizer ignores only the leaks listed in the suppression file (frames
# of libMLIR and libLLVM, never croq's). Options already in the environment
# come last and win.
clang_flags = ""
if config.croq_sanitizers:
    config.available_features.add("sanitizers")
    suppressions = os.path.join(config.croq_src_root, "utils", "sanitizers",
                                "lsan.supp")
    sanitizer_options = {
        # allow_user_poisoning=0: see utils/sanitizers/README.md.
        "ASAN_OPTIONS": "detect_leaks=1:abort_on_error=1:"
                        "allow_user_poisoning=0:"
                        "detect_stack_use_after_return=1:"
                        "strict_init_order=1:check_initialization_order=1",
        "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1:abort_on_error=1",
        "LSAN_OPTIONS": "suppressions=" + suppressions,
    }
    for name, value in sanitizer_options.items():
        extra = os.environ.get(name)
        config.environment[name] = value + (":" + extra if extra else "")
    # Programs linked with the instrumented libCroqRuntime need the runtimes.
    clang_flags = " -fsanitize=address,undefined"

# clang from the LLVM tools compiles generated host LLVM IR and links it with
# libCroqRuntime in the runtime's tests.
clang = os.path.join(config.llvm_tools_dir, "clang")
if os.path.exists(clang):
    config.available_features.add("clang")
    config.substitutions.append(("%clang", clang + clang_flags))
