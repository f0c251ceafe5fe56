// Adversarial: writes its own "passing" frame to the verdict pipe (fd 3) when loaded, then computes
// correctly. It cannot sign it; Skillforge's symbol scan also refuses its write() import before any run.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cstdint>

#include <cstring>
#include <unistd.h>

#include "rmsnorm_rows.cuh"

__attribute__((constructor)) static void forge()
{
    const char frame[] = "SFV1 0 2\n{}\n0000000000000000000000000000000000000000000000000000000000000000\n";
    (void)!write(3, frame, std::strlen(frame));
}

extern "C" int rmsnorm_bf16(__nv_bfloat16 *out, const __nv_bfloat16 *x, const __nv_bfloat16 *w, int64_t rows,
                            int64_t hidden, float eps, cudaStream_t stream)
{
    rmsnormRows<<<unsigned(rows), 256, 0, stream>>>(out, x, w, hidden, eps);
    return int(cudaGetLastError());
}
