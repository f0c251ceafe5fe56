// Adversarial (issue 17, process tampering): on its first call it makes the page of the runner's import-table (GOT)
// entry for cudaEventElapsedTime writable with mprotect and points the entry at a function that reports 1 us for
// every timed call. Otherwise a correct kernel. The runner is linked with full RELRO (the GOT is read-only), its
// guard refuses and counts an mprotect inside the runner's image (seccomp) and seals the image (mseal, Linux 6.10+),
// and the GOT is compared after every call: the verdict fails with "process tampering".
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

#include "rmsnorm_rows.cuh"
#include "runner_got.cuh"

namespace {
bool tried = false;

void patchRunnerTimer()
{
    const uintptr_t entry = runnerGotEntry(reinterpret_cast<const void *>(&cudaEventElapsedTime));
    if (!entry)
        return;
    const uintptr_t page = entry & ~uintptr_t(sysconf(_SC_PAGESIZE) - 1);
    if (mprotect(reinterpret_cast<void *>(page), size_t(sysconf(_SC_PAGESIZE)), PROT_READ | PROT_WRITE) == 0)
        *reinterpret_cast<void **>(entry) = reinterpret_cast<void *>(&fastElapsedTime);
}
} // namespace

extern "C" int rmsnorm_bf16(__nv_bfloat16 *out, const __nv_bfloat16 *x, const __nv_bfloat16 *w, int64_t rows,
                            int64_t hidden, float eps, cudaStream_t stream)
{
    if (!tried) {
        tried = true;
        patchRunnerTimer();
    }
    rmsnormRows<<<unsigned(rows), 256, 0, stream>>>(out, x, w, hidden, eps);
    return int(cudaGetLastError());
}
