# One INTERFACE target carries our warnings and sanitizer flags (as nvbench does); third-party
# headers are included as SYSTEM so their warnings never fail our build.
add_library(gpuperf_warnings INTERFACE)
target_compile_options(gpuperf_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wunused
  -Woverloaded-virtual -Wimplicit-fallthrough)
# Warnings are errors in the project's own CI (scripts/test.sh, .ci/run), never in a user's build:
# a newer compiler's new warning must not stop someone building a release.
if(GPUPERF_WERROR)
  target_compile_options(gpuperf_warnings INTERFACE -Werror)
endif()
# GCC 12 at -O3 (Release) reports -Wrestrict inside libstdc++'s std::string operator+ (GCC bug
# 105329, fixed in 13); the warning is about the library's inlined code, not ours. Only where it
# fires: other build types keep the warning (and their command lines, which ccache shares).
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12
   AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(gpuperf_warnings INTERFACE $<$<CONFIG:Release>:-Wno-restrict>)
endif()

if(GPUPERF_SANITIZE)
  set(_gpuperf_san -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  # GCC 12 reports false -Wmaybe-uninitialized in libstdc++'s <regex> and <functional> once ASan
  # instruments them (GCC bug 105562 and relatives); keep the warning in the normal build only.
  target_compile_options(gpuperf_warnings INTERFACE ${_gpuperf_san} -Wno-maybe-uninitialized)
  target_link_options(gpuperf_warnings INTERFACE ${_gpuperf_san})
endif()

if(GPUPERF_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "GPUPERF_FUZZ needs clang: -DCMAKE_CXX_COMPILER=clang++")
  endif()
  target_compile_options(gpuperf_warnings INTERFACE -fsanitize=fuzzer-no-link,address,undefined)
  target_link_options(gpuperf_warnings INTERFACE -fsanitize=address,undefined)
endif()

# gpuperf_library(name DIR dir [FLAT] DEPS ...): a static library from every .cc below
# <current source dir>/<dir>; FLAT: only the .cc directly in it (the folder's subfolders are
# libraries of their own, as src/analysis' rooms).
function(gpuperf_library name)
  cmake_parse_arguments(ARG "FLAT" "DIR" "DEPS" ${ARGN})
  if(ARG_FLAT)
    file(GLOB _sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${ARG_DIR}/*.cc)
  else()
    file(GLOB_RECURSE _sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${ARG_DIR}/*.cc)
  endif()
  add_library(${name} STATIC ${_sources})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(${name} PUBLIC ${ARG_DEPS} PRIVATE gpuperf_warnings)
endfunction()
