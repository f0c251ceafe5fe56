// Baseline for the geglu kernel task: plain and correct, the yardstick for speedups.
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

__device__ __forceinline__ float activation(float g) { return 0.5f * g * (1.f + erff(g * 0.70710678118654752f)); }

template <typename T>
__global__ void gatedKernel(T *out, const T *x, int64_t rows, int64_t hidden)
{
    const int64_t n = rows * hidden;
    for (int64_t k = int64_t(blockIdx.x) * kThreads + threadIdx.x; k < n; k += int64_t(gridDim.x) * kThreads) {
        const int64_t r = k / hidden, i = k % hidden;
        store(out, k, load(x, r * 2 * hidden + i) * activation(load(x, r * 2 * hidden + hidden + i)));
    }
}

template <typename T> int launch(T *out, const T *x, int64_t rows, int64_t hidden, cudaStream_t stream)
{
    if (!out || !x || rows < 0 || hidden <= 0)
        return int(cudaErrorInvalidValue);
    const int64_t n = rows * hidden;
    if (n == 0)
        return 0;
    const int64_t blocks = (n + kThreads - 1) / kThreads;
    gatedKernel<<<unsigned(blocks < 65536 ? blocks : 65536), kThreads, 0, stream>>>(out, x, rows, hidden);
    return int(cudaGetLastError());
}

} // namespace

#define SF_EXPORT(T, NAME)                                                                                      \
    extern "C" int geglu_##NAME(T *out, const T *x, int64_t rows, int64_t hidden, cudaStream_t stream)            \
    {                                                                                                           \
        return launch(out, x, rows, hidden, stream);                                                            \
    }
SF_EXPORT(__nv_bfloat16, bf16)
SF_EXPORT(__half, fp16)
SF_EXPORT(float, fp32)
