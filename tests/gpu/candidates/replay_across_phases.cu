// Adversarial (issue 17, replay across phases): correct until the timing starts, then it keeps what it computed
// for each output buffer while warming up and, from then on, copies that back instead of computing. Where warm-up
// and timed calls share inputs the copies are right; the runner gives each phase inputs of its own and checks
// timed calls, so a timed check must find the replayed outputs wrong.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cstdint>

#include "rmsnorm_rows.cuh"

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
