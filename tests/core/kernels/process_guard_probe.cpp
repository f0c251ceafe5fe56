// A tiny library that test_process_guard loads after the guard is installed: dlopen maps it, relocates it and
// makes its RELRO read-only (mmap and mprotect outside the guarded image), which must keep working.
extern "C" int processGuardProbe(int x)
{
    return x * 2 + 1;
}
