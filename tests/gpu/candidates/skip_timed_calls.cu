// Adversarial (issue 17, batch-and-skip): once timing starts it learns the rotating buffers it is called with;
// a call on the first of them does the work of every one of them, and calls on the others return at once. Each
// timed call then looks 4 times cheaper. The runner fills every timed call's outputs with NaN first and checks a
// private draw of timed calls, so a skipped call is found.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cstdint>

#include "rmsnorm_rows.cuh"

namespace {
constexpr int Slots = 4;
constexpr int CorrectnessCalls = 40; // the stream check, 7 shapes x 5 input sets, the determinism pair
__nv_bfloat16 *slotOut[Slots];
const __nv_bfloat16 *slotX[Slots];
int slotsUsed = 0;
int calls = 0;
} // namespace

extern "C" int rmsnorm_bf16(__nv_bfloat16 *out, const __nv_bfloat16 *x, const __nv_bfloat16 *w, int64_t rows,
                            int64_t hidden, float eps, cudaStream_t stream)
{
    if (++calls > CorrectnessCalls) {
        int slot = -1;
        for (int i = 0; i < slotsUsed; ++i) {
            if (slotOut[i] == out && slotX[i] == x)
                slot = i;
        }
        if (slot < 0 && slotsUsed < Slots) {
            slot = slotsUsed++;
            slotOut[slot] = out;
            slotX[slot] = x;
        }
        if (slot > 0 && slotsUsed == Slots)
            return 0; // done by the batch
        if (slot == 0 && slotsUsed == Slots) {
            for (int i = 0; i < Slots; ++i) // one call does the work of all four
                rmsnormRows<<<unsigned(rows), 256, 0, stream>>>(slotOut[i], slotX[i], w, hidden, eps);
            return int(cudaGetLastError());
        }
    }
    rmsnormRows<<<unsigned(rows), 256, 0, stream>>>(out, x, w, hidden, eps);
    return int(cudaGetLastError());
}
