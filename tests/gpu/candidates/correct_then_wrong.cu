// Adversarial: correct for the first 100 calls (enough for a one-shot check), then writes zeros.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cstdint>

#include "rmsnorm_rows.cuh"

static int calls = 0;

extern "C" int rmsnorm_bf16(__nv_bfloat16 *out, const __nv_bfloat16 *x, const __nv_bfloat16 *w, int64_t rows,
                            int64_t hidden, float eps, cudaStream_t stream)
{
    if (++calls > 100)
        return int(cudaMemsetAsync(out, 0, size_t(rows * hidden) * 2, stream));
    rmsnormRows<<<unsigned(rows), 256, 0, stream>>>(out, x, w, hidden, eps);
    return int(cudaGetLastError());
}
