// Baseline for the rope kernel task: plain and correct, the yardstick for speedups.
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

template <typename T>
__global__ void ropeKernel(T *out, const T *x, const float *cosTable, const float *sinTable, int64_t tokens,
                           int64_t heads, int64_t headDim)
{
    const int64_t half = headDim / 2;
    const int64_t pairs = tokens * heads * half;
    for (int64_t k = int64_t(blockIdx.x) * kThreads + threadIdx.x; k < pairs; k += int64_t(gridDim.x) * kThreads) {
        const int64_t p = k % half;
        const int64_t t = k / (half * heads);
        const int64_t base = (k / half) * headDim;
        const float c = cosTable[t * half + p], s = sinTable[t * half + p];
        const float x0 = load(x, base + 2 * p), x1 = load(x, base + 2 * p + 1);
        store(out, base + 2 * p, x0 * c - x1 * s);
        store(out, base + 2 * p + 1, x0 * s + x1 * c);
    }
}

template <typename T>
int launch(T *out, const T *x, const float *cosTable, const float *sinTable, int64_t tokens, int64_t heads,
           int64_t headDim, cudaStream_t stream)
{
    if (!out || !x || !cosTable || !sinTable || tokens < 0 || heads < 0 || headDim <= 0 || headDim % 2)
        return int(cudaErrorInvalidValue);
    const int64_t pairs = tokens * heads * (headDim / 2);
    if (pairs == 0)
        return 0;
    const int64_t blocks = (pairs + kThreads - 1) / kThreads;
    ropeKernel<<<unsigned(blocks < 65536 ? blocks : 65536), kThreads, 0, stream>>>(out, x, cosTable, sinTable,
                                                                                   tokens, heads, headDim);
    return int(cudaGetLastError());
}

} // namespace

#define SF_EXPORT(T, NAME)                                                                                      \
    extern "C" int rope_##NAME(T *out, const T *x, const float *cos, const float *sin, int64_t tokens,         \
                               int64_t heads, int64_t head_dim, cudaStream_t stream)                            \
    {                                                                                                           \
        return launch(out, x, cos, sin, tokens, heads, head_dim, stream);                                       \
    }
SF_EXPORT(__nv_bfloat16, bf16)
SF_EXPORT(__half, fp16)
SF_EXPORT(float, fp32)
