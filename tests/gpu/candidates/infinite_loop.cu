// Adversarial: a kernel that never ends.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cstdint>

__global__ void spin(volatile int *flag)
{
    while (*flag == 0) {
    }
}

extern "C" int rmsnorm_bf16(__nv_bfloat16 *out, const __nv_bfloat16 *, const __nv_bfloat16 *, int64_t, int64_t, float,
                            cudaStream_t stream)
{
    cudaMemsetAsync(out, 0, 4, stream);
    spin<<<1, 1, 0, stream>>>(reinterpret_cast<volatile int *>(out));
    return int(cudaGetLastError());
}
