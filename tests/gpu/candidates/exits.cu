// Adversarial: ends the process from inside the entry point, so no verdict is ever written.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cstdint>

#include <cstdlib>

extern "C" int rmsnorm_bf16(__nv_bfloat16 *, const __nv_bfloat16 *, const __nv_bfloat16 *, int64_t, int64_t, float,
                            cudaStream_t)
{
    std::exit(0);
}
