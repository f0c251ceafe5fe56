#pragma once
// For the process-tampering candidates: where the runner (the main program) keeps its import-table (GOT) entry for a
// function, found by looking through the runner's RELRO region for the function's address. The runner resolves its
// imports at load (full RELRO), so the entry holds the same address this library sees for the function.
#include <cuda_runtime.h>
#include <link.h>

#include <cstdint>

struct RunnerRelro
{
    uintptr_t start = 0;
    uintptr_t end = 0;
};

inline int runnerRelroOf(dl_phdr_info *info, size_t, void *data)
{
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        if (info->dlpi_phdr[i].p_type == PT_GNU_RELRO) {
            auto *r = static_cast<RunnerRelro *>(data);
            r->start = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
            r->end = r->start + info->dlpi_phdr[i].p_memsz;
        }
    }
    return 1; // the first object is the main program
}

/// The address of the runner's GOT entry holding @p function, or 0.
inline uintptr_t runnerGotEntry(const void *function)
{
    RunnerRelro r;
    dl_iterate_phdr(runnerRelroOf, &r);
    for (uintptr_t a = (r.start + 7) & ~uintptr_t(7); a + 8 <= r.end; a += 8) {
        if (*reinterpret_cast<const void *const *>(a) == function)
            return a;
    }
    return 0;
}

/// What the tampering candidates put in place of cudaEventElapsedTime: every timed call took 1 us.
inline cudaError_t fastElapsedTime(float *ms, cudaEvent_t, cudaEvent_t)
{
    *ms = 0.001f;
    return cudaSuccess;
}
