#===- CroqStaticTools.cmake - link the tools against static MLIR/LLVM ----===#
#
# CROQ_STATIC_TOOLS: croq-tool (tools/croq-tool) links MLIR and LLVM from
# their static archives (Debian's libMLIR*.a, libLLVM*.a) instead of
# libMLIR.so and libLLVM.so, so that it runs where no LLVM is installed (the
# wheel, scripts/build-wheel.sh; or CROQ_WHEEL_TOOL, next to the shared
# tools). Sets CROQ_MLIR_STATIC_LIBS to the static MLIR targets.
#
# Debian builds MLIR's archives against the LLVM dylib: their exported
# targets name `LLVM` (libLLVM.so) among their link dependencies. That entry
# is replaced by CroqLLVMStatic, every static LLVM component; the linker
# takes from the archives only the members something calls, so naming them
# all costs link time, not size.
#
#===----------------------------------------------------------------------===#

if(CROQ_ENABLE_SANITIZERS)
  message(FATAL_ERROR "CROQ_STATIC_TOOLS and CROQ_ENABLE_SANITIZERS exclude "
    "each other")
endif()

# Whether `target` or one of the static libraries it links, through their
# exported link dependencies, names a shared library (memoized in the global
# property CROQ_NEEDS_SHARED_<target>).
function(croq_needs_shared target out)
  get_property(known GLOBAL PROPERTY CROQ_NEEDS_SHARED_${target} SET)
  if(known)
    get_property(needs GLOBAL PROPERTY CROQ_NEEDS_SHARED_${target})
    set(${out} ${needs} PARENT_SCOPE)
    return()
  endif()
  # Assume not while visiting, which ends cycles.
  set_property(GLOBAL PROPERTY CROQ_NEEDS_SHARED_${target} OFF)
  get_target_property(deps ${target} INTERFACE_LINK_LIBRARIES)
  set(needs OFF)
  foreach(dep ${deps})
    if(NOT TARGET ${dep} OR dep STREQUAL "CroqLLVMStatic")
      continue()
    endif()
    get_target_property(dep_type ${dep} TYPE)
    if(dep_type MATCHES "SHARED|MODULE")
      set(needs ON)
    elseif(dep_type STREQUAL "STATIC_LIBRARY")
      croq_needs_shared(${dep} dep_needs)
      if(dep_needs)
        set(needs ON)
      endif()
    endif()
  endforeach()
  set_property(GLOBAL PROPERTY CROQ_NEEDS_SHARED_${target} ${needs})
  set(${out} ${needs} PARENT_SCOPE)
endfunction()

# Left out: the components whose exported dependencies name packages this
# machine lacks (libcurl, libedit, libpfm), those of LLVM's own tools that link
# libLLVM.so (LLVMDiff, LLVMOptDriver, ...), and Polly, exported but not
# packaged. croq uses none of them.
add_library(CroqLLVMStatic INTERFACE)
foreach(lib ${LLVM_AVAILABLE_LIBS})
  if(NOT TARGET ${lib} OR lib MATCHES "^LLVM(Debuginfod|LineEditor|Exegesis.*)$")
    continue()
  endif()
  get_target_property(type ${lib} TYPE)
  get_target_property(location ${lib} LOCATION)
  croq_needs_shared(${lib} needs_shared)
  if(type STREQUAL "STATIC_LIBRARY" AND EXISTS "${location}" AND
      NOT needs_shared)
    target_link_libraries(CroqLLVMStatic INTERFACE ${lib})
  endif()
endforeach()

# LLVMSupport names libz3.so for its SMT solver interface, which nothing in
# croq calls; a machine without Z3 must be able to run the tool, so the link
# fails instead if something starts to need it. Its zstd target needs
# libzstd-dev's CMake files; the run-time library is enough to link.
get_target_property(support_deps LLVMSupport INTERFACE_LINK_LIBRARIES)
list(FILTER support_deps EXCLUDE REGEX "z3")
if(NOT TARGET zstd::libzstd_shared)
  find_library(CROQ_ZSTD_LIBRARY NAMES zstd libzstd.so.1 REQUIRED)
  list(TRANSFORM support_deps REPLACE "^zstd::libzstd_shared$"
    "${CROQ_ZSTD_LIBRARY}")
endif()
set_target_properties(LLVMSupport PROPERTIES
  INTERFACE_LINK_LIBRARIES "${support_deps}")
# LLVMExtensions names Polly, which Debian does not package as archives.
get_target_property(extension_deps LLVMExtensions INTERFACE_LINK_LIBRARIES)
list(FILTER extension_deps EXCLUDE REGEX "^Polly")
set_target_properties(LLVMExtensions PROPERTIES
  INTERFACE_LINK_LIBRARIES "${extension_deps}")

get_property(mlir_all_libs GLOBAL PROPERTY MLIR_ALL_LIBS)
set(mlir_static_libs)
foreach(lib ${mlir_all_libs})
  if(NOT TARGET ${lib})
    continue()
  endif()
  get_target_property(type ${lib} TYPE)
  if(NOT type STREQUAL "STATIC_LIBRARY")
    continue()
  endif()
  get_target_property(deps ${lib} INTERFACE_LINK_LIBRARIES)
  if(deps)
    list(TRANSFORM deps REPLACE "^LLVM$" "CroqLLVMStatic")
    list(TRANSFORM deps REPLACE "^\\$<LINK_ONLY:LLVM>$" "CroqLLVMStatic")
    set_target_properties(${lib} PROPERTIES INTERFACE_LINK_LIBRARIES "${deps}")
  endif()
  list(APPEND mlir_static_libs ${lib})
endforeach()
# Out of the link line: MLIR's test libraries, and the archives that need a
# shared library besides LLVM, themselves or through what they link (the
# JIT's execution engine and its C API, the runners, whatever links
# libMLIR.so itself).
set(CROQ_MLIR_STATIC_LIBS)
foreach(lib ${mlir_static_libs})
  croq_needs_shared(${lib} needs_shared)
  if(NOT lib MATCHES "Test" AND NOT needs_shared)
    list(APPEND CROQ_MLIR_STATIC_LIBS ${lib})
  endif()
endforeach()
message(STATUS "croq: static tools, ${CMAKE_CURRENT_LIST_FILE}")
