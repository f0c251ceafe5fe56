// Adversarial (issue 17, allocator reuse): after the correctness calls it keeps a copy of each answer keyed by the
// (out, x) addresses it was given and, when the same addresses come back, copies that answer back instead of
// computing. Where a buffer keeps its inputs between calls (or a freed pointer comes back with the same data) the
// copy is right; the runner copies fresh inputs into a slot neither of the two calls before used, with an input set
// that slot did not hold last, so a checked timed call must find the replayed answer wrong.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cstdint>

#include "rmsnorm_rows.cuh"

namespace {
constexpr int Slots = 32;
constexpr int CorrectnessCalls = 40; // the stream check, 7 shapes x 5 input sets, the determinism pair
const void *slotOut[Slots];
const void *slotX[Slots];
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
            if (slotOut[i] == out && slotX[i] == x) // these addresses were seen: replay their answer
                return int(cudaMemcpyAsync(out, slotCopy[i], bytes, cudaMemcpyDeviceToDevice, stream));
        }
    }
    rmsnormRows<<<unsigned(rows), 256, 0, stream>>>(out, x, w, hidden, eps);
    if (calls > CorrectnessCalls && slotsUsed < Slots && cudaMalloc(&slotCopy[slotsUsed], bytes) == cudaSuccess) {
        slotOut[slotsUsed] = out;
        slotX[slotsUsed] = x;
        cudaMemcpyAsync(slotCopy[slotsUsed], out, bytes, cudaMemcpyDeviceToDevice, stream);
        ++slotsUsed;
    }
    return int(cudaGetLastError());
}
