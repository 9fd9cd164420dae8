# One place for warnings, sanitizers and the test helper.

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

# kernelopt_add_test(NAME SOURCES ... LABELS ...): a gtest binary registered with CTest.
function(kernelopt_add_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE kernelopt::lib GTest::gtest GTest::gtest_main)
  kernelopt_set_options(${name})
  target_compile_definitions(${name} PRIVATE
    KERNELOPT_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES LABELS "${ARG_LABELS}"
    ENVIRONMENT "KERNELOPT_PYTHON=${KERNELOPT_PYTHON}")
endfunction()
