# One place for warnings, sanitizers, precompiled headers and the test helper.

function(kernelopt_set_options target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion)
  if(KERNELOPT_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(KERNELOPT_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=${KERNELOPT_SANITIZE}
                                             -fno-omit-frame-pointer -fno-sanitize-recover=all)
    target_link_options(${target} PRIVATE -fsanitize=${KERNELOPT_SANITIZE})
  endif()
endfunction()

# The third-party and standard headers most files include, compiled once per kind of target (the
# stages share one precompiled header, the test binaries another). Off by default: a file that
# forgets an include still compiles with them, so the lint, which reads each file alone, catches it.
option(KERNELOPT_PCH "Precompile the common headers (CI builds)" OFF)
set(KERNELOPT_PCH_HEADERS <algorithm> <filesystem> <functional> <map> <optional> <set> <string>
                          <vector> <nlohmann/json.hpp> <fmt/format.h> <fmt/ranges.h>)

# kernelopt_use_pch(TARGET [EXTRA headers...]): TARGET compiles with the precompiled header of the
# first target of its kind (one with the same EXTRA headers), or makes it if it is the first.
function(kernelopt_use_pch target)
  if(NOT KERNELOPT_PCH)
    return()
  endif()
  string(MD5 kind "${ARGN}")
  get_property(first GLOBAL PROPERTY KERNELOPT_PCH_${kind})
  if(first)
    target_precompile_headers(${target} REUSE_FROM ${first})
  else()
    target_precompile_headers(${target} PRIVATE ${KERNELOPT_PCH_HEADERS} ${ARGN})
    set_property(GLOBAL PROPERTY KERNELOPT_PCH_${kind} ${target})
  endif()
endfunction()

# kernelopt_add_test(BINARY SOURCES ... LABELS ...): one gtest binary from SOURCES and, for each
# source file, a CTest test named after it that runs that file's suites. One binary for many files
# saves a link per file; the tests stay as fine-grained as the files.
function(kernelopt_add_test binary)
  cmake_parse_arguments(ARG "" "" "SOURCES;LABELS" ${ARGN})
  add_executable(${binary} ${ARG_SOURCES})
  target_link_libraries(${binary} PRIVATE kernelopt::lib GTest::gtest GTest::gtest_main)
  kernelopt_set_options(${binary})
  target_compile_definitions(${binary} PRIVATE KERNELOPT_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  kernelopt_use_pch(${binary} <fstream> <sstream> <gtest/gtest.h>)
  set(seen "")
  foreach(src IN LISTS ARG_SOURCES)
    kernelopt_test_filter(${src} suites filter)
    foreach(suite IN LISTS suites)
      if(suite IN_LIST seen)
        message(FATAL_ERROR "${src}: test suite ${suite} is also in another file of ${binary}")
      endif()
    endforeach()
    list(APPEND seen ${suites})
    get_filename_component(name ${src} NAME_WE)
    add_test(NAME ${name} COMMAND ${binary} --gtest_filter=${filter})
    set_tests_properties(${name} PROPERTIES LABELS "${ARG_LABELS}"
      ENVIRONMENT "KERNELOPT_PYTHON=${KERNELOPT_PYTHON}")
  endforeach()
endfunction()

# The suites that SRC defines (TEST, TEST_F, TEST_P) and the gtest filter that selects them. SRC
# is read when CMake configures, and a change to it configures again.
function(kernelopt_test_filter src suites_var filter_var)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${src})
  file(STRINGS ${src} lines REGEX "^[ \t]*TEST(_F|_P)?[ \t]*\\([ \t]*[A-Za-z0-9_]+")
  set(suites "")
  set(patterns "")
  foreach(line IN LISTS lines)
    string(REGEX MATCH "^[ \t]*TEST(_F|_P)?[ \t]*\\([ \t]*([A-Za-z0-9_]+)" _ "${line}")
    list(APPEND suites ${CMAKE_MATCH_2})
    list(APPEND patterns "${CMAKE_MATCH_2}.*")
    if(CMAKE_MATCH_1 STREQUAL "_P")
      list(APPEND patterns "*/${CMAKE_MATCH_2}.*")  # instantiated as PREFIX/Suite.Test/param
    endif()
  endforeach()
  if(NOT suites)
    message(FATAL_ERROR "${src} defines no TEST, TEST_F or TEST_P")
  endif()
  list(REMOVE_DUPLICATES suites)
  list(REMOVE_DUPLICATES patterns)
  list(JOIN patterns ":" filter)
  set(${suites_var} ${suites} PARENT_SCOPE)
  set(${filter_var} ${filter} PARENT_SCOPE)
endfunction()
