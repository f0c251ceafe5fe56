// Adversarial: correct, but also writes 64 elements past the end of the output.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cstdint>

#include "rmsnorm_rows.cuh"

__global__ void scribble(__nv_bfloat16 *end)
{
    end[threadIdx.x] = __float2bfloat16(1.f);
}

extern "C" int rmsnorm_bf16(__nv_bfloat16 *out, const __nv_bfloat16 *x, const __nv_bfloat16 *w, int64_t rows,
                            int64_t hidden, float eps, cudaStream_t stream)
{
    rmsnormRows<<<unsigned(rows), 256, 0, stream>>>(out, x, w, hidden, eps);
    scribble<<<1, 64, 0, stream>>>(out + rows * hidden);
    return int(cudaGetLastError());
}
