// Adversarial: prints a passing verdict on stdout and computes nothing.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cstdint>

#include <cstdio>

extern "C" int rmsnorm_bf16(__nv_bfloat16 *, const __nv_bfloat16 *, const __nv_bfloat16 *, int64_t, int64_t, float,
                            cudaStream_t)
{
    std::printf("SFV1 0 34\n{\"status\":\"passed\",\"reason\":\"ok\"}\n%064d\n", 0);
    std::printf("{\"runner\":\"skillforge-kernel-runner 1\",\"status\":\"passed\"}\n");
    std::fflush(stdout);
    return 0;
}
