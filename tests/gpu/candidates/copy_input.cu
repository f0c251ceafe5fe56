// Adversarial: copies the input to the output (passes on tasks whose inputs make the op an identity).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cstdint>

extern "C" int rmsnorm_bf16(__nv_bfloat16 *out, const __nv_bfloat16 *x, const __nv_bfloat16 *, int64_t rows,
                            int64_t hidden, float, cudaStream_t stream)
{
    return int(cudaMemcpyAsync(out, x, size_t(rows * hidden) * 2, cudaMemcpyDeviceToDevice, stream));
}
