#pragma once
// The correct row-per-block bf16 RMSNorm kernel that the adversarial candidates wrap: each candidate is correct
// in its arithmetic and cheats only in how it is called, so what the runner catches is the cheat.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cstdint>

__global__ void rmsnormRows(__nv_bfloat16 *out, const __nv_bfloat16 *x, const __nv_bfloat16 *w, int64_t hidden,
                            float eps)
{
    __shared__ float partial[256];
    const int64_t base = int64_t(blockIdx.x) * hidden;
    float ss = 0.f;
    for (int64_t i = threadIdx.x; i < hidden; i += 256) {
        const float v = __bfloat162float(x[base + i]);
        ss += v * v;
    }
    partial[threadIdx.x] = ss;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    const float inv = rsqrtf(partial[0] / float(hidden) + eps);
    for (int64_t i = threadIdx.x; i < hidden; i += 256)
        out[base + i] = __float2bfloat16(__bfloat162float(x[base + i]) * inv * __bfloat162float(w[i]));
}
