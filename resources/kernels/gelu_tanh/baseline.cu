// Baseline for the gelu_tanh kernel task: plain and correct, the yardstick for speedups.
// One block of 256 threads per row (or a grid-stride loop), scalar loads, fp32 math.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ float load(const float *p, int64_t i) { return p[i]; }
__device__ __forceinline__ float load(const __nv_bfloat16 *p, int64_t i) { return __bfloat162float(p[i]); }
__device__ __forceinline__ float load(const __half *p, int64_t i) { return __half2float(p[i]); }
__device__ __forceinline__ void store(float *p, int64_t i, float v) { p[i] = v; }
__device__ __forceinline__ void store(__nv_bfloat16 *p, int64_t i, float v) { p[i] = __float2bfloat16_rn(v); }
__device__ __forceinline__ void store(__half *p, int64_t i, float v) { p[i] = __float2half_rn(v); }

template <typename T> __global__ void geluKernel(T *out, const T *x, int64_t n)
{
    for (int64_t k = int64_t(blockIdx.x) * kThreads + threadIdx.x; k < n; k += int64_t(gridDim.x) * kThreads) {
        const float v = load(x, k);
        store(out, k, 0.5f * v * (1.f + tanhf(0.7978845608028654f * (v + 0.044715f * v * v * v))));
    }
}

template <typename T> int launch(T *out, const T *x, int64_t n, cudaStream_t stream)
{
    if (!out || !x || n < 0)
        return int(cudaErrorInvalidValue);
    if (n == 0)
        return 0;
    const int64_t blocks = (n + kThreads - 1) / kThreads;
    geluKernel<<<unsigned(blocks < 65536 ? blocks : 65536), kThreads, 0, stream>>>(out, x, n);
    return int(cudaGetLastError());
}

} // namespace

#define SF_EXPORT(T, NAME)                                                                                      \
    extern "C" int gelu_tanh_##NAME(T *out, const T *x, int64_t n, cudaStream_t stream)                        \
    {                                                                                                           \
        return launch(out, x, n, stream);                                                                       \
    }
SF_EXPORT(__nv_bfloat16, bf16)
SF_EXPORT(__half, fp16)
SF_EXPORT(float, fp32)
