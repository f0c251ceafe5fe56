// Adversarial (issue 17, NaN as a wildcard): writes a quiet NaN into every output element and computes nothing.
// A comparison written as "not (|out - ref| > tolerance)", or one that lets NaN equal NaN, passes it, since every
// test against NaN is false. The runner's comparison lets NaN and infinity match nothing, so it is rejected with
// "got nan" at the first element.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cstdint>

namespace {

__global__ void fillNaN(__nv_bfloat16 *out, int64_t n)
{
    const __nv_bfloat16 nan = __ushort_as_bfloat16(0x7FC0);
    for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
        out[i] = nan;
}

} // namespace

extern "C" int rmsnorm_bf16(__nv_bfloat16 *out, const __nv_bfloat16 *, const __nv_bfloat16 *, int64_t rows,
                            int64_t hidden, float, cudaStream_t stream)
{
    fillNaN<<<1024, 256, 0, stream>>>(out, rows * hidden);
    return int(cudaGetLastError());
}
