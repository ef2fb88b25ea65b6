# Build helpers shared by common/, steps/, lab/ and tests/.

# Warnings are errors, for host code (g++) and device code (nvcc) alike. Device code also
# keeps line information (-lineinfo) so that the profiler and compute-sanitizer can point at
# source lines in a Release build.
function(tp_strict_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Werror>
    $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Wall,-Wextra,-Werror -lineinfo>)
endfunction()

# tp_add_program(<name> <source> [libraries...]): a benchmark program built from one source
# file into bin/<name>, with the step kernels (tp_steps), the given libraries and strict
# warnings.
function(tp_add_program name source)
  add_executable(${name} ${source})
  target_link_libraries(${name} PRIVATE tp_steps ${ARGN})
  tp_strict_warnings(${name})
endfunction()

# tp_add_step(<name>), in steps/<name>/CMakeLists.txt: the step's kernels (kernels.cu) join
# the library tp_steps, compiled once; its benchmark binary is built from main.cu into
# bin/<name>, e.g. `cmake --build build --target 00_copy`.
function(tp_add_step name)
  target_sources(tp_steps PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/kernels.cu)
  tp_add_program(${name} main.cu)
endfunction()

# tp_add_gtest_entry(<name> <binary> <filter> <label>): one ctest entry that runs the tests
# of a GoogleTest binary matching a --gtest_filter, in one process (one CUDA context). An
# entry whose tests were skipped (no GPU) and none failed shows as skipped (exit 77, from
# tests/gtest_main.cpp); one with a failed test fails.
function(tp_add_gtest_entry name binary filter label)
  add_test(NAME ${name} COMMAND ${binary} --gtest_filter=${filter})
  set_tests_properties(${name} PROPERTIES LABELS ${label} SKIP_RETURN_CODE 77)
endfunction()
