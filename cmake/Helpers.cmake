# Build helpers shared by common/, steps/ and tests/.

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

# tp_add_step(<name>): the benchmark binary of one step, built from steps/<name>/main.cu
# into bin/<name>, e.g. `cmake --build build --target 00_copy`.
function(tp_add_step name)
  tp_add_program(${name} main.cu)
endfunction()
