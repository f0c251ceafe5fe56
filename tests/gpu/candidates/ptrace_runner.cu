// Adversarial (issue 17, process tampering): on its first call it forks a helper that attaches to the runner with
// ptrace, to rewrite the runner's timing from outside (POKEDATA writes past page protections). Otherwise a correct
// kernel. The runner's process guard refuses ptrace in the runner and in every child it forks, counts the attempt,
// and the verdict fails for it ("process tampering ... ptrace").
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>

#include "rmsnorm_rows.cuh"

namespace {
bool tried = false;

void attachFromAHelper()
{
    prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0); // let a child attach where Yama would not
    const pid_t runner = getpid();
    const pid_t helper = fork();
    if (helper == 0) {
        if (ptrace(PTRACE_ATTACH, runner, nullptr, nullptr) == 0) {
            waitpid(runner, nullptr, 0);
            // Here the helper would PTRACE_POKEDATA the runner's GOT entry for cudaEventElapsedTime.
            ptrace(PTRACE_DETACH, runner, nullptr, nullptr);
        }
        _exit(0);
    }
    if (helper > 0)
        waitpid(helper, nullptr, 0);
}
} // namespace

extern "C" int rmsnorm_bf16(__nv_bfloat16 *out, const __nv_bfloat16 *x, const __nv_bfloat16 *w, int64_t rows,
                            int64_t hidden, float eps, cudaStream_t stream)
{
    if (!tried) {
        tried = true;
        attachFromAHelper();
    }
    rmsnormRows<<<unsigned(rows), 256, 0, stream>>>(out, x, w, hidden, eps);
    return int(cudaGetLastError());
}
