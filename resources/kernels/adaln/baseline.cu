// Baseline for the adaln kernel task: plain and correct, the yardstick for speedups.
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

template <typename T>
__global__ void adalnKernel(T *out, const T *x, const T *scale, const T *shift, int64_t tokens, int64_t hidden,
                            float eps)
{
    const int64_t row = blockIdx.x;
    const int64_t batch = row / tokens;
    const int64_t base = row * hidden;
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
    for (int64_t i = threadIdx.x; i < hidden; i += kThreads) {
        const int64_t m = batch * hidden + i;
        store(out, base + i, (load(x, base + i) - mean) * inv * (1.f + load(scale, m)) + load(shift, m));
    }
}

template <typename T>
int launch(T *out, const T *x, const T *scale, const T *shift, int64_t batch, int64_t tokens, int64_t hidden,
           float eps, cudaStream_t stream)
{
    if (!out || !x || !scale || !shift || batch < 0 || tokens < 0 || hidden <= 0 || batch * tokens > INT32_MAX)
        return int(cudaErrorInvalidValue);
    if (batch * tokens == 0)
        return 0;
    adalnKernel<<<unsigned(batch * tokens), kThreads, 0, stream>>>(out, x, scale, shift, tokens, hidden, eps);
    return int(cudaGetLastError());
}

} // namespace

#define SF_EXPORT(T, NAME)                                                                                      \
    extern "C" int adaln_##NAME(T *out, const T *x, const T *scale, const T *shift, int64_t batch,             \
                                int64_t tokens, int64_t hidden, float eps, cudaStream_t stream)                 \
    {                                                                                                           \
        return launch(out, x, scale, shift, batch, tokens, hidden, eps, stream);                                \
    }
SF_EXPORT(__nv_bfloat16, bf16)
SF_EXPORT(__half, fp16)
SF_EXPORT(float, fp32)
