// Adversarial: writes far outside any allocation (an illegal address that poisons the CUDA context).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cstdint>

__global__ void wild(__nv_bfloat16 *out)
{
    out[int64_t(1) << 40] = __float2bfloat16(1.f);
}

extern "C" int rmsnorm_bf16(__nv_bfloat16 *out, const __nv_bfloat16 *, const __nv_bfloat16 *, int64_t, int64_t, float,
                            cudaStream_t stream)
{
    wild<<<1, 1, 0, stream>>>(out);
    return int(cudaGetLastError());
}
