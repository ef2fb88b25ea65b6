/// @file steps/00_copy/exercise.cuh
/// @brief Exercise 00: make every load and every store of a copy move 16 bytes.
///
/// The kernel below is step 00's copy_vec_kernel with its two key lines taken out; the
/// launcher is done: one thread per Vec-sized piece of the matrix, Vec = uint4 (16 bytes)
/// when both pointers are 16-byte aligned, Vec = T otherwise. Fill in the two TODOs: (1) the
/// copy of vector number i, (2) the few elements at the end that do not fill a vector.
///
/// The solution is this step's own kernel.cuh: tp::step00::copy_vec_kernel. Read it only after
/// trying.
///
/// Check your work (the tests fail until the TODOs are done right):
///
///     cmake -S . -B build -DTP_EXERCISES=ON && cmake --build build -j
///     ctest --test-dir build -L exercise -R 00 --output-on-failure
///     build/bin/00_copy --exercise --predict P    # P: your prediction, % of cudaMemcpy
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "00_copy/kernel.cuh"  // the step's launcher and alignment test
#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step00::exercise {

template <typename T, typename Vec>
__global__ void copy_vec_kernel(T* __restrict__ out, const T* __restrict__ in, std::size_t n) {
  constexpr std::size_t kPerVec = sizeof(Vec) / sizeof(T);  // elements per vector: 16 / sizeof(T)
  const std::size_t n_vec = n / kPerVec;                     // whole vectors
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n_vec) {
    // TODO(1): copy vector number i with ONE load and ONE store of a whole Vec.
    //   Hint 1: an instruction moves as many bytes as the type it reads or writes. Indexing
    //           `in` and `out` as T moves sizeof(T) bytes; what must they point to instead?
    //   Hint 2: Vec is that type (uint4 on the 16-byte path). View both pointers as pointers
    //           to Vec; vector i is then their element i, not element i * kPerVec.
  }
  // TODO(2): copy the tail: the elements after the last whole vector (fewer than kPerVec).
  //   Hint 1: n need not be a multiple of kPerVec. Which elements has no thread copied yet,
  //           and are there enough threads to take one each?
  //   Hint 2: the tail starts where the n_vec whole vectors end; the launcher starts at least
  //           one thread per tail element. Let thread i take tail element number i, and check
  //           that it is below n.
}

/// Same API as tp::step00::copy_vec16.
template <typename T>
void copy_vec16(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  const std::size_t n = std::size_t(rows) * std::size_t(cols);
  if (n == 0) return;
  // The step's launcher and alignment test (kernel.cuh), with your kernel.
  if (step00::aligned16(out, in)) step00::launch_copy_vec<T, uint4>(out, in, n, stream, copy_vec_kernel<T, uint4>);
  else step00::launch_copy_vec<T, T>(out, in, n, stream, copy_vec_kernel<T, T>);
}

}  // namespace tp::step00::exercise
