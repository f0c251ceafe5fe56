// Adversarial: does nothing and reports success.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cstdint>

extern "C" int rmsnorm_bf16(__nv_bfloat16 *, const __nv_bfloat16 *, const __nv_bfloat16 *, int64_t, int64_t, float,
                            cudaStream_t)
{
    return 0;
}
