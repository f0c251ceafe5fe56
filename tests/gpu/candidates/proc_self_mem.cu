// Adversarial (issue 17, process tampering): on its first call it rewrites the runner's import-table entry for
// cudaEventElapsedTime through /proc/self/mem (which writes past page protections, so full RELRO alone does not stop
// it), to a function that reports 1 us for every timed call; where that open is refused it tries process_vm_writev.
// Otherwise a correct kernel. The runner's guard refuses the open (Landlock) and process_vm_writev (seccomp, counted);
// on a kernel without Landlock the write lands and the runner's GOT check after the call finds it. Either way the
// verdict fails with "process tampering".
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <fcntl.h>
#include <sys/uio.h>
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
    void *replacement = reinterpret_cast<void *>(&fastElapsedTime);
    const int mem = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
    if (mem >= 0) {
        pwrite(mem, &replacement, sizeof replacement, off_t(entry));
        close(mem);
        return;
    }
    iovec local{&replacement, sizeof replacement}, remote{reinterpret_cast<void *>(entry), sizeof replacement};
    process_vm_writev(getpid(), &local, 1, &remote, 1, 0);
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
