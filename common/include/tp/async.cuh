/// @file async.cuh
/// @brief Device helpers that steps 07 and 08 share: cp.async copies from global to shared
/// memory (compute capability 8.0 and newer; a plain 16-byte copy on older GPUs) and the
/// 16-byte stores, plain and evict-first.
#pragma once

#include <cuda_runtime.h>

namespace tp {

/// Copies 16 bytes from global to shared memory without passing through registers
/// (`cp.async.cg`: cached in L2 only). Both addresses must be 16-byte aligned. The copy is
/// asynchronous: cp_async_wait_all() before the shared memory is read.
__device__ __forceinline__ void cp_async16(void* shared, const void* global) {
#if __CUDA_ARCH__ >= 800
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(global) : "memory");
#else
  *static_cast<uint4*>(shared) = *static_cast<const uint4*>(global);
#endif
}

/// Waits until all of this thread's cp.async copies have landed in shared memory. Other
/// threads' copies need a __syncthreads() after this as well.
__device__ __forceinline__ void cp_async_wait_all() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

/// A 16-byte store with the default cache policy (PTX `st.global.wb`, the policy of a plain
/// store; SASS shows `STG.E.128.STRONG.SM`). Not written as `*p = value`: where `value` was
/// just packed from smaller pieces, the compiler may split that store into 4- or 8-byte ones
/// (it did, in step 07's ablation); __stwb keeps it one 16-byte store.
__device__ __forceinline__ void store16(void* global, uint4 value) {
  __stwb(static_cast<uint4*>(global), value);
}

/// A 16-byte store with the evict-first hint (`st.global.cs`): the written lines are the
/// first L2 gives up, so they do not push out lines that are still to be read.
__device__ __forceinline__ void store16_evict_first(void* global, uint4 value) {
  __stcs(static_cast<uint4*>(global), value);
}

}  // namespace tp
