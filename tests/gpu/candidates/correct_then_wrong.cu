// Adversarial: correct for the first 100 calls (enough for a one-shot check), then writes zeros.
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

static int calls = 0;

extern "C" int rmsnorm_bf16(__nv_bfloat16 *out, const __nv_bfloat16 *x, const __nv_bfloat16 *w, int64_t rows,
                            int64_t hidden, float eps, cudaStream_t stream)
{
    if (++calls > 100)
        return int(cudaMemsetAsync(out, 0, size_t(rows * hidden) * 2, stream));
    rmsnormRows<<<unsigned(rows), 256, 0, stream>>>(out, x, w, hidden, eps);
    return int(cudaGetLastError());
}
