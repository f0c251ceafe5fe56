// Adversarial (issue 17, replay across phases): correct until the timing starts, then it keeps what it computed
// for each output buffer while warming up and, from then on, copies that back instead of computing. Where warm-up
// and timed calls share inputs the copies are right; the runner gives each phase inputs of its own and checks
// timed calls, so a timed check must find the replayed outputs wrong.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cstdint>

__global__ void rmsnormRows(__nv_bfloat16 *out, const __nv_bfloat16 *x, const __nv_bfloat16 *w, int64_t hidden,
                            float eps)
{
    __shared__ float partial[256];
    const int64_t base = int64_t(blockIdx.x) * hidden;
    float ss = 0.f;
    for (int64_t i = threadIdx.x; i < hidden; i += 256) {
        const float v = __bfloat162float(x[base + i]);
        ss += v * v;
    }
    partial[threadIdx.x] = ss;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    const float inv = rsqrtf(partial[0] / float(hidden) + eps);
    for (int64_t i = threadIdx.x; i < hidden; i += 256)
        out[base + i] = __float2bfloat16(__bfloat162float(x[base + i]) * inv * __bfloat162float(w[i]));
}

namespace {
constexpr int Slots = 8;
constexpr int CorrectnessCalls = 40; // the stream check, 7 shapes x 5 input sets, the determinism pair
void *slotOut[Slots];
void *slotCopy[Slots];
int slotsUsed = 0;
int calls = 0;
} // namespace

extern "C" int rmsnorm_bf16(__nv_bfloat16 *out, const __nv_bfloat16 *x, const __nv_bfloat16 *w, int64_t rows,
                            int64_t hidden, float eps, cudaStream_t stream)
{
    const size_t bytes = size_t(rows * hidden) * 2;
    if (++calls > CorrectnessCalls) {
        for (int i = 0; i < slotsUsed; ++i) {
            if (slotOut[i] == out) // seen while warming up: replay
                return int(cudaMemcpyAsync(out, slotCopy[i], bytes, cudaMemcpyDeviceToDevice, stream));
        }
    }
    rmsnormRows<<<unsigned(rows), 256, 0, stream>>>(out, x, w, hidden, eps);
    if (calls > CorrectnessCalls && slotsUsed < Slots && cudaMalloc(&slotCopy[slotsUsed], bytes) == cudaSuccess) {
        slotOut[slotsUsed] = out;
        cudaMemcpyAsync(slotCopy[slotsUsed], out, bytes, cudaMemcpyDeviceToDevice, stream);
        ++slotsUsed;
    }
    return int(cudaGetLastError());
}
