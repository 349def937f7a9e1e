#===- CroqGlibcCompat.cmake - link the wheel's binaries for glibc 2.28 ----===#
#
# The wheel's binaries (croq-tool, libCroqRuntime.so) must run on glibc 2.28
# (manylinux_2_28), but this machine has a newer glibc and no older sysroot.
# Linked against it, they import the newest versions of what they call
# (pthread_create@GLIBC_2.34, exp@GLIBC_2.29, ...). Instead they link
# against stubs of glibc 2.28's libraries (utils/glibc-compat/make_stubs.py,
# from glibc 2.28's abilists in utils/glibc-2.28): every reference binds to
# the version 2.28 has, recorded against the library 2.28 has it in, and
# the link fails on anything 2.28 lacks. lib/GlibcCompat defines the few
# functions the static C++ runtime and LLVM call that 2.28 lacks.
#
# Why stubs, not `.symver` references against this machine's libc.so.6:
# glibc 2.34+ moved pthread_* and dl* into libc.so.6, so such a reference
# would name libc.so.6, and ld.so before 2.30 fails a lookup that reaches
# the named library without finding the symbol there (elf/dl-lookup.c,
# do_lookup_x; 2.30's commit f0b2132b35, BZ #24741, lifted that). Naming
# libpthread.so.0, as the stubs do, works on every version: 2.30+ matches
# by version name whatever the library named, and 2.34+ finds the symbol
# in libc.so.6.
#
# croq_link_glibc_228(target EXECUTABLE|SHARED) links a target so; only the
# wheel's binaries use it (CROQ_STATIC_TOOLS, CROQ_WHEEL_TOOL), on x86_64.
#
#===----------------------------------------------------------------------===#

option(CROQ_GLIBC_228
  "Link the wheel's binaries against glibc 2.28 stubs (x86_64 Linux)" ON)
if(NOT CROQ_GLIBC_228 OR NOT CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64"
    OR NOT CMAKE_SYSTEM_NAME STREQUAL "Linux")
  function(croq_link_glibc_228 target kind)
  endfunction()
  return()
endif()

find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(CROQ_GLIBC_STUB_DIR ${CMAKE_BINARY_DIR}/glibc-2.28-stubs)
set(abilists ${PROJECT_SOURCE_DIR}/utils/glibc-2.28)
set(make_stubs ${PROJECT_SOURCE_DIR}/utils/glibc-compat/make_stubs.py)
# abilist -> soname, and the name -l looks for (libc.so is the script
# below; ld.so is reached through it).
set(croq_glibc_libs
  "libc:libc.so.6:" "libm:libm.so.6:libm.so"
  "libpthread:libpthread.so.0:libpthread.so" "libdl:libdl.so.2:libdl.so"
  "librt:librt.so.1:librt.so" "ld:ld-linux-x86-64.so.2:")
set(stub_files)
foreach(entry ${croq_glibc_libs})
  string(REPLACE ":" ";" fields "${entry}:")
  list(GET fields 0 lib)
  list(GET fields 1 soname)
  list(GET fields 2 linkname)
  set(stem ${CROQ_GLIBC_STUB_DIR}/${lib})
  set(out ${CROQ_GLIBC_STUB_DIR}/${soname})
  set(link_cmd)
  if(linkname)
    set(link_cmd COMMAND ${CMAKE_COMMAND} -E create_symlink ${soname}
      ${CROQ_GLIBC_STUB_DIR}/${linkname})
  endif()
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CROQ_GLIBC_STUB_DIR}
    COMMAND ${Python3_EXECUTABLE} ${make_stubs} ${abilists}/${lib}.abilist
      ${stem}.s ${stem}.map
    COMMAND ${CMAKE_C_COMPILER} -nostdlib -shared
      -Wl,-soname,${soname} -Wl,--version-script,${stem}.map ${stem}.s
      -o ${out}
    ${link_cmd}
    DEPENDS ${make_stubs} ${abilists}/${lib}.abilist
    COMMENT "Writing the glibc 2.28 link stub ${soname}"
    VERBATIM)
  list(APPEND stub_files ${out})
endforeach()

# -lc finds this script: the stub libc, this machine's libc_nonshared.a
# (atexit and friends, calling only symbols 2.28 has) and the stub ld.so.
execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libc_nonshared.a
  OUTPUT_VARIABLE libc_nonshared OUTPUT_STRIP_TRAILING_WHITESPACE)
file(MAKE_DIRECTORY ${CROQ_GLIBC_STUB_DIR})
file(WRITE ${CROQ_GLIBC_STUB_DIR}/libc.so
  "GROUP ( ${CROQ_GLIBC_STUB_DIR}/libc.so.6 ${libc_nonshared} "
  "AS_NEEDED ( ${CROQ_GLIBC_STUB_DIR}/ld-linux-x86-64.so.2 ) )\n")
add_custom_target(CroqGlibcStubs DEPENDS ${stub_files})

add_library(CroqGlibcCompat OBJECT
  ${PROJECT_SOURCE_DIR}/lib/GlibcCompat/GlibcCompat.c)
add_library(CroqGlibcCompatStart OBJECT
  ${PROJECT_SOURCE_DIR}/lib/GlibcCompat/GlibcCompatStart.c)
set_target_properties(CroqGlibcCompat CroqGlibcCompatStart PROPERTIES
  POSITION_INDEPENDENT_CODE ON)

function(croq_link_glibc_228 target kind)
  # As objects, not an archive, so that every definition is linked
  # whatever the link order.
  target_sources(${target} PRIVATE $<TARGET_OBJECTS:CroqGlibcCompat>)
  add_dependencies(${target} CroqGlibcStubs)
  # -L makes -lc, -lm, -ldl, -lrt, -lpthread find the stubs first; the
  # stub libpthread is named since pthread_create is only there in 2.28.
  target_link_options(${target} PRIVATE -L${CROQ_GLIBC_STUB_DIR})
  # What this machine's libz and libzstd import from its glibc is no
  # concern of the stubs: on the user's machine, that machine's build of
  # them is loaded. (lld checks it for executables by default.)
  target_link_options(${target} PRIVATE -Wl,--allow-shlib-undefined)
  target_link_libraries(${target} PRIVATE pthread)
  if(kind STREQUAL "EXECUTABLE")
    target_sources(${target} PRIVATE $<TARGET_OBJECTS:CroqGlibcCompatStart>)
    target_link_options(${target} PRIVATE -Wl,--wrap=__libc_start_main)
  endif()
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${stub_files})
endfunction()

# Runs what the layer stands in for, linked like croq-tool (ci-wheel.sh and
# build-wheel.sh run it; lib/GlibcCompat/GlibcCompatCheck.cpp).
add_executable(croq-glibc-compat-check
  ${PROJECT_SOURCE_DIR}/lib/GlibcCompat/GlibcCompatCheck.cpp)
target_compile_options(croq-glibc-compat-check PRIVATE -fexceptions -frtti)
# dlopen is in libdl on 2.28: the stubs reject the link without it.
target_link_libraries(croq-glibc-compat-check PRIVATE ${CMAKE_DL_LIBS})
target_link_options(croq-glibc-compat-check PRIVATE
  -static-libstdc++ -static-libgcc)
set_target_properties(croq-glibc-compat-check PROPERTIES
  EXCLUDE_FROM_ALL ON RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
croq_link_glibc_228(croq-glibc-compat-check EXECUTABLE)
