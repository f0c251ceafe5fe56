#pragma once
// The kernel runner's guard against candidate code that tampers with the runner's own process: debugging it
// (ptrace), writing its memory through the kernel (process_vm_writev, /proc/self/mem) or making its code and
// import table (GOT) writable to patch the timing. Installed after CUDA is initialised and before any candidate
// library is loaded; beside, not instead of, the bubblewrap sandbox. Plain C++17, Linux; links libseccomp.
// What each part refuses, and what stays possible, is in docs/kernel-runner.md.

#include <cstdint>
#include <string>
#include <vector>

namespace sf::kernels {

/// Which parts of the guard are in force, and why a part is not.
struct ProcessGuardStatus
{
    bool seccomp = false;   ///< the system-call filter is loaded, on every thread (required by the runner)
    int landlockAbi = 0;    ///< the Landlock ABI refusing writes beneath /proc (0: the kernel has none)
    bool sealed = false;    ///< the runner's code and relocated data are sealed (mseal, Linux 6.10+)
    bool fullRelro = false; ///< the runner was linked with full RELRO: its GOT is read-only once loaded
    std::string problems;   ///< why a part is missing ("; " between parts)
    double installMicroseconds = 0;
    /// {"seccomp":true,"landlock_abi":7,"sealed":true,"full_relro":true,"install_us":..,"problems":".."}
    std::string json() const;
};

/// Installs the guard in the calling process. Irreversible, once per process (a second call reports the first).
class ProcessGuard
{
public:
    static ProcessGuardStatus install();
    /// The refused system calls tried since install, as "ptrace (2), mprotect (1)"; "" when none. The filter turns
    /// each into EPERM and a count here, so a candidate's attempt fails and is also known.
    static std::string attempts();
};

/// A copy of the main program's relocated read-only data (its GOT) and its code, taken before candidate code is
/// loaded, to compare after each candidate call: a change that got past the guard still fails the verdict.
class ImageSnapshot
{
public:
    ImageSnapshot();
    /// What changed in the RELRO region (the GOT and friends), "" when nothing. A few KiB: cheap per call.
    std::string relocationsChanged() const;
    /// What changed in the executable segments, "" when nothing.
    std::string codeChanged() const;

private:
    struct Region
    {
        const unsigned char *start = nullptr;
        std::vector<unsigned char> copy;
    };
    std::vector<Region> m_relro, m_code;
};

/// Addresses a with (a & mask) == base: one aligned power-of-two block.
struct AddressBlock
{
    uint64_t base = 0;
    uint64_t mask = 0;
};
/// The fewest aligned power-of-two blocks that cover [begin, end) exactly (seccomp compares an argument once per
/// rule, by masked equality; a range becomes one rule per block).
std::vector<AddressBlock> alignedBlocks(uint64_t begin, uint64_t end);

} // namespace sf::kernels
