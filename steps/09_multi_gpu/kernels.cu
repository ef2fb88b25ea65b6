// Step 09's transpose, compiled once for the four element types (kernel.cuh declares them
// extern everywhere else).
#define TP_STEP09_INSTANTIATE
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "09_multi_gpu/kernel.cuh"

namespace tp::step09 {
template void transpose<float>(float*, const float*, int, int, ncclComm_t, cudaStream_t, int);
template void transpose<double>(double*, const double*, int, int, ncclComm_t, cudaStream_t, int);
template void transpose<__half>(__half*, const __half*, int, int, ncclComm_t, cudaStream_t, int);
template void transpose<__nv_bfloat16>(__nv_bfloat16*, const __nv_bfloat16*, int, int, ncclComm_t, cudaStream_t, int);
template class Plan<float>;
template class Plan<double>;
template class Plan<__half>;
template class Plan<__nv_bfloat16>;
}  // namespace tp::step09
