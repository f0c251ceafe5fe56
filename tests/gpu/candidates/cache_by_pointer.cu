// Adversarial: computes once per (out, x) address pair and skips the work when it sees them again.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cstdint>

#include "rmsnorm_rows.cuh"

static const void *seenOut[64];
static const void *seenX[64];
static int seen = 0;

extern "C" int rmsnorm_bf16(__nv_bfloat16 *out, const __nv_bfloat16 *x, const __nv_bfloat16 *w, int64_t rows,
                            int64_t hidden, float eps, cudaStream_t stream)
{
    for (int i = 0; i < seen; ++i) {
        if (seenOut[i] == out && seenX[i] == x)
            return 0;
    }
    if (seen < 64) {
        seenOut[seen] = out;
        seenX[seen] = x;
        ++seen;
    }
    rmsnormRows<<<unsigned(rows), 256, 0, stream>>>(out, x, w, hidden, eps);
    return int(cudaGetLastError());
}
