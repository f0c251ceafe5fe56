#include "ProcessGuard.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <link.h>
#include <linux/landlock.h>
#include <linux/magic.h>
#include <new>
#include <seccomp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

namespace sf::kernels {

namespace {

#ifdef __NR_mseal
constexpr long MsealSyscall = __NR_mseal;
#else
constexpr long MsealSyscall = 462; // the same number on every architecture (Linux 6.10)
#endif

// ---------------------------------------------------------------- the main program's image
struct Range
{
    uintptr_t start = 0;
    uintptr_t end = 0;
};

struct MainImage
{
    std::vector<Range> readOnly; ///< loadable segments without write permission (code, read-only data), pages
    std::vector<Range> code;     ///< executable segments, exact
    Range relro;                 ///< PT_GNU_RELRO, exact
    Range whole;                 ///< first to last loadable page
    bool bindNow = false;
};

uintptr_t pageDown(uintptr_t a)
{
    return a & ~uintptr_t(sysconf(_SC_PAGESIZE) - 1);
}
uintptr_t pageUp(uintptr_t a)
{
    return pageDown(a + uintptr_t(sysconf(_SC_PAGESIZE)) - 1);
}

int collectMainImage(dl_phdr_info *info, size_t, void *data)
{
    auto *image = static_cast<MainImage *>(data);
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr) &ph = info->dlpi_phdr[i];
        const uintptr_t start = info->dlpi_addr + ph.p_vaddr;
        if (ph.p_type == PT_LOAD) {
            const Range pages{pageDown(start), pageUp(start + ph.p_memsz)};
            image->whole.start = image->whole.start ? std::min(image->whole.start, pages.start) : pages.start;
            image->whole.end = std::max(image->whole.end, pages.end);
            if (!(ph.p_flags & PF_W))
                image->readOnly.push_back(pages);
            if (ph.p_flags & PF_X)
                image->code.push_back({start, start + ph.p_memsz});
        } else if (ph.p_type == PT_GNU_RELRO) {
            image->relro = {start, start + ph.p_memsz};
        } else if (ph.p_type == PT_DYNAMIC) {
            for (const auto *d = reinterpret_cast<const ElfW(Dyn) *>(start); d->d_tag != DT_NULL; ++d) {
                if ((d->d_tag == DT_FLAGS && (d->d_un.d_val & DF_BIND_NOW)) ||
                    (d->d_tag == DT_FLAGS_1 && (d->d_un.d_val & DF_1_NOW)))
                    image->bindNow = true;
            }
        }
    }
    return 1; // the first object is the main program: stop there
}

MainImage mainImage()
{
    MainImage image;
    dl_iterate_phdr(collectMainImage, &image);
    return image;
}

// ---------------------------------------------------------------- refused calls: counted by a SIGSYS handler
constexpr int MaxSyscall = 1024;
/// One counter per system call number, in a shared mapping: a child the candidate forks (to attach to the runner
/// with ptrace, say) inherits the filter and the handler, and its attempts are counted where the runner sees them.
std::atomic<uint32_t> *g_attempts = nullptr;

void onRefusedSyscall(int, siginfo_t *info, void *context)
{
    const int nr = info->si_syscall;
    if (g_attempts)
        g_attempts[(nr >= 0 && nr < MaxSyscall) ? nr : 0].fetch_add(1, std::memory_order_relaxed);
    // The call was not made; what it returns is what the handler leaves in the return register.
    auto *uc = static_cast<ucontext_t *>(context);
#if defined(__x86_64__)
    uc->uc_mcontext.gregs[REG_RAX] = -EPERM;
#elif defined(__aarch64__)
    uc->uc_mcontext.regs[0] = uint64_t(-EPERM);
#else
    (void)uc;
#endif
}

// ---------------------------------------------------------------- the parts
std::string installSeccomp(const MainImage &image)
{
    void *counters = mmap(nullptr, MaxSyscall * sizeof(std::atomic<uint32_t>), PROT_READ | PROT_WRITE,
                          MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (counters == MAP_FAILED)
        return std::string("seccomp: cannot map the attempt counters: ") + std::strerror(errno);
    g_attempts = static_cast<std::atomic<uint32_t> *>(counters);
    for (int i = 0; i < MaxSyscall; ++i)
        new (&g_attempts[i]) std::atomic<uint32_t>(0);
    struct sigaction action
    {
    };
    action.sa_sigaction = onRefusedSyscall;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGSYS, &action, nullptr) != 0)
        return std::string("seccomp: cannot handle SIGSYS: ") + std::strerror(errno);

    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
    if (!filter)
        return "seccomp: seccomp_init failed";
    int rc = seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1); // the CUDA driver's threads too
    // A system call through another ABI (int 0x80, x32) would bypass the numbers below: it ends the process.
    rc = rc ? rc : seccomp_attr_set(filter, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    const auto refuse = [&](int call, std::vector<scmp_arg_cmp> args) {
        if (rc == 0)
            rc = seccomp_rule_add_exact_array(filter, SCMP_ACT_TRAP, call, unsigned(args.size()), args.data());
    };
    // Debugging or reading/writing another process's memory (or this one's, past page protections): never.
    refuse(SCMP_SYS(ptrace), {});
    refuse(SCMP_SYS(process_vm_readv), {});
    refuse(SCMP_SYS(process_vm_writev), {});
    // The counting handler stays: SIGSYS cannot be handled, ignored or defaulted by anyone else.
    refuse(SCMP_SYS(rt_sigaction), {SCMP_A0(SCMP_CMP_EQ, SIGSYS)});
    // The runner's own image (code, GOT, data): no mapping call may start inside it. mseal (where the kernel has it)
    // refuses the rest, such as a range that starts below the image and reaches into it.
    for (const AddressBlock &block : alignedBlocks(image.whole.start, image.whole.end)) {
        const scmp_arg_cmp inImage = SCMP_A0(SCMP_CMP_MASKED_EQ, block.mask, block.base);
        refuse(SCMP_SYS(mprotect), {inImage, SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_WRITE, PROT_WRITE)});
        refuse(SCMP_SYS(pkey_mprotect), {inImage, SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_WRITE, PROT_WRITE)});
        refuse(SCMP_SYS(munmap), {inImage});
        refuse(SCMP_SYS(mremap), {inImage});
        refuse(SCMP_SYS(mremap), {SCMP_A3(SCMP_CMP_MASKED_EQ, MREMAP_FIXED, MREMAP_FIXED),
                                  SCMP_A4(SCMP_CMP_MASKED_EQ, block.mask, block.base)});
        refuse(SCMP_SYS(mmap), {inImage});
    }
    rc = rc ? rc : seccomp_load(filter);
    seccomp_release(filter);
    return rc ? std::string("seccomp: ") + std::strerror(-rc) : std::string();
}

/// Writes to files beneath /proc (/proc/self/mem, /proc/<pid>/mem) are refused; writes anywhere else are allowed, as
/// before: a rule allowing writes beneath each top-level entry of / except procfs.
std::string installLandlock(int *abi)
{
    *abi = int(syscall(__NR_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION));
    if (*abi <= 0) {
        *abi = 0;
        return std::string("landlock: not available (") + std::strerror(errno) + ")";
    }
    landlock_ruleset_attr attr{};
    attr.handled_access_fs = LANDLOCK_ACCESS_FS_WRITE_FILE;
    const int ruleset = int(syscall(__NR_landlock_create_ruleset, &attr, sizeof attr, 0));
    if (ruleset < 0) {
        *abi = 0;
        return std::string("landlock: cannot create a ruleset (") + std::strerror(errno) + ")";
    }
    std::string problem;
    if (DIR *root = opendir("/")) {
        while (const dirent *entry = readdir(root)) {
            if (!std::strcmp(entry->d_name, ".") || !std::strcmp(entry->d_name, ".."))
                continue;
            const int fd = openat(dirfd(root), entry->d_name, O_PATH | O_CLOEXEC);
            if (fd < 0)
                continue;
            struct statfs fs
            {
            };
            if (fstatfs(fd, &fs) == 0 && fs.f_type != PROC_SUPER_MAGIC) {
                landlock_path_beneath_attr beneath{};
                beneath.allowed_access = LANDLOCK_ACCESS_FS_WRITE_FILE;
                beneath.parent_fd = fd;
                if (syscall(__NR_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0) != 0 &&
                    problem.empty())
                    problem = std::string("landlock: a rule for /") + entry->d_name + " failed (" +
                              std::strerror(errno) + ")";
            }
            close(fd);
        }
        closedir(root);
    } else {
        problem = "landlock: cannot list /";
    }
    if (problem.empty() && syscall(__NR_landlock_restrict_self, ruleset, 0) != 0)
        problem = std::string("landlock: cannot restrict the process (") + std::strerror(errno) + ")";
    close(ruleset);
    if (!problem.empty())
        *abi = 0;
    return problem;
}

std::string sealImage(const MainImage &image)
{
    std::vector<Range> ranges = image.readOnly;
    // ld.so made these pages read-only after relocating them (glibc's _dl_protect_relro rounds both ends down).
    const Range relroPages{pageDown(image.relro.start), pageDown(image.relro.end)};
    if (relroPages.end > relroPages.start)
        ranges.push_back(relroPages);
    for (const Range &r : ranges) {
        if (syscall(MsealSyscall, r.start, r.end - r.start, 0) != 0)
            return std::string("mseal: ") + std::strerror(errno) +
                   (errno == ENOSYS ? " (Linux 6.10 or newer has it)" : "");
    }
    return {};
}

void addProblem(std::string *problems, const std::string &problem)
{
    if (!problem.empty())
        *problems += (problems->empty() ? "" : "; ") + problem;
}

std::string jsonEscaped(const std::string &s)
{
    std::string out;
    for (const char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (static_cast<unsigned char>(c) >= 0x20)
            out += c;
    }
    return out;
}

} // namespace

std::string ProcessGuardStatus::json() const
{
    char us[32];
    std::snprintf(us, sizeof us, "%.0f", installMicroseconds);
    return std::string("{\"seccomp\":") + (seccomp ? "true" : "false") +
           ",\"landlock_abi\":" + std::to_string(landlockAbi) + ",\"sealed\":" + (sealed ? "true" : "false") +
           ",\"full_relro\":" + (fullRelro ? "true" : "false") + ",\"install_us\":" + us + ",\"problems\":\"" +
           jsonEscaped(problems) + "\"}";
}

ProcessGuardStatus ProcessGuard::install()
{
    static bool installed = false;
    static ProcessGuardStatus status;
    if (installed)
        return status;
    installed = true;
    const auto t0 = std::chrono::steady_clock::now();
    const MainImage image = mainImage();
    status.fullRelro = image.bindNow && image.relro.end > image.relro.start;
    if (!status.fullRelro)
        addProblem(&status.problems,
                   "the runner was not linked with full RELRO (-z relro -z now): its GOT stays writable");
    // Landlock and seccomp both need no_new_privs (bubblewrap sets it already).
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    addProblem(&status.problems, installLandlock(&status.landlockAbi));
    const std::string seal = sealImage(image);
    status.sealed = seal.empty();
    addProblem(&status.problems, seal);
    // Last: once loaded, the filter refuses rt_sigaction(SIGSYS), which the seccomp part itself needs first.
    const std::string filter = installSeccomp(image);
    status.seccomp = filter.empty();
    addProblem(&status.problems, filter);
    status.installMicroseconds =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    return status;
}

std::string ProcessGuard::attempts()
{
    std::string out;
    for (int nr = 0; g_attempts && nr < MaxSyscall; ++nr) {
        const uint32_t n = g_attempts[nr].load(std::memory_order_relaxed);
        if (n == 0)
            continue;
        char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
        out += (out.empty() ? "" : ", ") + std::string(name ? name : std::to_string(nr).c_str()) + " (" +
               std::to_string(n) + ")";
        std::free(name);
    }
    return out;
}

ImageSnapshot::ImageSnapshot()
{
    const MainImage image = mainImage();
    auto take = [](const Range &r) {
        const auto *start = reinterpret_cast<const unsigned char *>(r.start);
        return Region{start, std::vector<unsigned char>(start, start + (r.end - r.start))};
    };
    if (image.relro.end > image.relro.start)
        m_relro.push_back(take(image.relro));
    for (const Range &r : image.code)
        m_code.push_back(take(r));
}

namespace {
std::string firstChange(const std::vector<unsigned char> &copy, const unsigned char *now, const char *what)
{
    if (std::memcmp(copy.data(), now, copy.size()) == 0)
        return {};
    size_t i = 0;
    while (i < copy.size() && copy[i] == now[i])
        ++i;
    char where[64];
    std::snprintf(where, sizeof where, " at offset %zu of %zu bytes", i, copy.size());
    return what + std::string(where);
}
} // namespace

std::string ImageSnapshot::relocationsChanged() const
{
    for (const Region &r : m_relro) {
        if (std::string why = firstChange(r.copy, r.start, "GOT / RELRO region"); !why.empty())
            return why;
    }
    return {};
}

std::string ImageSnapshot::codeChanged() const
{
    for (const Region &r : m_code) {
        if (std::string why = firstChange(r.copy, r.start, "code"); !why.empty())
            return why;
    }
    return {};
}

std::vector<AddressBlock> alignedBlocks(uint64_t begin, uint64_t end)
{
    std::vector<AddressBlock> blocks;
    while (begin < end) {
        // The largest power of two that begin is aligned to and that still fits before end.
        uint64_t size = begin ? (begin & (~begin + 1)) : (uint64_t(1) << 63);
        while (size > end - begin)
            size >>= 1;
        blocks.push_back({begin, ~(size - 1)});
        begin += size;
    }
    return blocks;
}

} // namespace sf::kernels
