// Baseline for the layernorm kernel task: plain and correct, the yardstick for speedups.
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

// Sum over a block of kThreads threads; every thread gets the total. Safe to call repeatedly.
__device__ float blockSum(float v)
{
    __shared__ float partial[kThreads];
    __syncthreads();
    partial[threadIdx.x] = v;
    __syncthreads();
    for (int stride = kThreads / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride)
            partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    return partial[0];
}

// Two passes (mean, then centred variance): rows carry a large offset, so E[x^2] - E[x]^2 would cancel.
template <typename T>
__global__ void layernormKernel(T *out, const T *x, const T *weight, const T *bias, int64_t hidden, float eps)
{
    const int64_t base = int64_t(blockIdx.x) * hidden;
    float sum = 0.f;
    for (int64_t i = threadIdx.x; i < hidden; i += kThreads)
        sum += load(x, base + i);
    const float mean = blockSum(sum) / float(hidden);
    float var = 0.f;
    for (int64_t i = threadIdx.x; i < hidden; i += kThreads) {
        const float d = load(x, base + i) - mean;
        var += d * d;
    }
    const float inv = rsqrtf(blockSum(var) / float(hidden) + eps);
    for (int64_t i = threadIdx.x; i < hidden; i += kThreads)
        store(out, base + i, (load(x, base + i) - mean) * inv * load(weight, i) + load(bias, i));
}

template <typename T>
int launch(T *out, const T *x, const T *weight, const T *bias, int64_t rows, int64_t hidden, float eps,
           cudaStream_t stream)
{
    if (!out || !x || !weight || !bias || rows < 0 || hidden <= 0 || rows > INT32_MAX)
        return int(cudaErrorInvalidValue);
    if (rows == 0)
        return 0;
    layernormKernel<<<unsigned(rows), kThreads, 0, stream>>>(out, x, weight, bias, hidden, eps);
    return int(cudaGetLastError());
}

} // namespace

#define SF_EXPORT(T, NAME)                                                                                      \
    extern "C" int layernorm_##NAME(T *out, const T *x, const T *weight, const T *bias, int64_t rows,          \
                                    int64_t hidden, float eps, cudaStream_t stream)                             \
    {                                                                                                           \
        return launch(out, x, weight, bias, rows, hidden, eps, stream);                                         \
    }
SF_EXPORT(__nv_bfloat16, bf16)
SF_EXPORT(__half, fp16)
SF_EXPORT(float, fp32)
