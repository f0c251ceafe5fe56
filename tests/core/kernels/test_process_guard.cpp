// The kernel runner's process guard (core/kernels/harness/ProcessGuard.h), installed for real: each case forks a
// child, installs the guard there (it is irreversible) and reports back through its exit status and stderr.
// The refusals (ptrace, process_vm_*, /proc/self/mem writes, patching the GOT) and the things that must keep
// working after it (threads, malloc from many threads, dlopen, writes to files and pipes) are both checked.
#include "SkippedChecks.h"
#include "harness/ProcessGuard.h"

#include <QTest>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <string>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace sf::kernels;

namespace {

constexpr int LandlockMissing = 77;

/// Runs @p body in a forked child; its return value is the child's exit status (0: every check held).
template <class Body> int inChild(Body body)
{
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid == 0)
        _exit(body());
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

#define CHILD_CHECK(condition)                                                                                         \
    do {                                                                                                               \
        if (!(condition)) {                                                                                            \
            std::fprintf(stderr, "child check failed at line %d: %s (errno %d %s)\n", __LINE__, #condition, errno,     \
                         std::strerror(errno));                                                                        \
            return __LINE__ % 64 + 1;                                                                                  \
        }                                                                                                              \
    } while (0)

struct Relro
{
    uintptr_t start = 0, end = 0; ///< exact
    uintptr_t imageStart = 0;     ///< the first loadable page of the main program
};

int findRelro(dl_phdr_info *info, size_t, void *data)
{
    auto *r = static_cast<Relro *>(data);
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr) &ph = info->dlpi_phdr[i];
        if (ph.p_type == PT_GNU_RELRO)
            *r = {info->dlpi_addr + ph.p_vaddr, info->dlpi_addr + ph.p_vaddr + ph.p_memsz, r->imageStart};
        if (ph.p_type == PT_LOAD && (!r->imageStart || info->dlpi_addr + ph.p_vaddr < r->imageStart))
            r->imageStart = (info->dlpi_addr + ph.p_vaddr) & ~uintptr_t(4095);
    }
    return 1;
}

Relro mainRelro()
{
    Relro r;
    dl_iterate_phdr(findRelro, &r);
    return r;
}

uintptr_t page()
{
    return uintptr_t(sysconf(_SC_PAGESIZE));
}

/// The first page that lies wholly inside the RELRO region (the GOT lives there).
uintptr_t relroPage(const Relro &r)
{
    return (r.end - 1) & ~(page() - 1);
}

} // namespace

class TestProcessGuard final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void alignedBlocks_coverTheRangeExactly()
    {
        for (const auto &[begin, end] :
             std::vector<std::pair<uint64_t, uint64_t>>{{0x555555554000ull, 0x5555555a1000ull},
                                                        {0x1000, 0x2000},
                                                        {0, 0x3000},
                                                        {0x7000, 0x7000},
                                                        {0x3000, 0x10000}}) {
            const std::vector<AddressBlock> blocks = alignedBlocks(begin, end);
            QVERIFY(blocks.size() <= 2 * 64);
            const auto covered = [&](uint64_t a) {
                int hits = 0;
                for (const AddressBlock &b : blocks)
                    hits += (a & b.mask) == b.base;
                return hits;
            };
            for (uint64_t a = begin > 0x3000 ? begin - 0x3000 : 0; a < end + 0x3000; a += 0x800)
                QCOMPARE(covered(a), (a >= begin && a < end) ? 1 : 0); // inside once, outside never
            if (end > begin)
                QCOMPARE(covered(end - 1), 1);
        }
    }

    void guard_refusesPtraceAndProcessVm_andCountsTheAttempts()
    {
        const int rc = inChild([] {
            const ProcessGuardStatus status = ProcessGuard::install();
            std::fprintf(stderr, "process guard: %s\n", status.json().c_str());
            CHILD_CHECK(status.seccomp);
            CHILD_CHECK(ProcessGuard::attempts().empty());
            errno = 0;
            CHILD_CHECK(ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) == -1 && errno == EPERM);
            char buffer[16] = "secret", target[16] = {};
            iovec local{target, sizeof target}, remote{buffer, sizeof buffer};
            CHILD_CHECK(process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == -1 && errno == EPERM);
            CHILD_CHECK(process_vm_writev(getpid(), &remote, 1, &local, 1, 0) == -1 && errno == EPERM);
            CHILD_CHECK(std::strcmp(target, "") == 0);
            // The handler that counts the attempts cannot be replaced.
            CHILD_CHECK(signal(SIGSYS, SIG_IGN) == SIG_ERR);
            const std::string attempts = ProcessGuard::attempts();
            std::fprintf(stderr, "attempts: %s\n", attempts.c_str());
            CHILD_CHECK(attempts.find("ptrace (1)") != std::string::npos);
            CHILD_CHECK(attempts.find("process_vm_readv (1)") != std::string::npos);
            CHILD_CHECK(attempts.find("process_vm_writev (1)") != std::string::npos);
            CHILD_CHECK(attempts.find("rt_sigaction (1)") != std::string::npos);
            // A forked helper that tries to attach to this process inherits the filter, and its attempt is counted
            // here.
            const pid_t parent = getpid();
            const pid_t pid = fork();
            if (pid == 0)
                _exit(ptrace(PTRACE_ATTACH, parent, nullptr, nullptr) == -1 && errno == EPERM ? 0 : 1);
            int status2 = 0;
            waitpid(pid, &status2, 0);
            CHILD_CHECK(WIFEXITED(status2) && WEXITSTATUS(status2) == 0);
            CHILD_CHECK(ProcessGuard::attempts().find("ptrace (2)") != std::string::npos);
            return 0;
        });
        QCOMPARE(rc, 0);
    }

    void guard_refusesWritingProcSelfMem_whereTheKernelHasLandlock()
    {
        const int rc = inChild([] {
            const int before = open("/proc/self/mem", O_RDWR | O_CLOEXEC); // allowed before the guard
            CHILD_CHECK(before >= 0);
            close(before);
            const ProcessGuardStatus status = ProcessGuard::install();
            if (status.landlockAbi == 0) {
                std::fprintf(stderr, "%s\n", status.problems.c_str());
                return LandlockMissing;
            }
            errno = 0;
            CHILD_CHECK(open("/proc/self/mem", O_RDWR | O_CLOEXEC) == -1 && errno == EACCES);
            CHILD_CHECK(open("/proc/self/mem", O_WRONLY | O_CLOEXEC) == -1 && errno == EACCES);
            const std::string byPid = "/proc/" + std::to_string(getpid()) + "/mem";
            CHILD_CHECK(open(byPid.c_str(), O_RDWR | O_CLOEXEC) == -1 && errno == EACCES);
            CHILD_CHECK(open("/proc/thread-self/mem", O_RDWR | O_CLOEXEC) == -1 && errno == EACCES);
            // Reading /proc stays possible (the CUDA driver reads /proc/self/maps and friends).
            const int maps = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
            CHILD_CHECK(maps >= 0);
            close(maps);
            return 0;
        });
        if (rc == LandlockMissing)
            QSKIP("this kernel has no Landlock: /proc/self/mem writes are not refused here (the verdict says so)");
        QCOMPARE(rc, 0);
    }

    void guard_refusesMakingTheGotWritable_andTheGotIsReadOnly()
    {
        const int rc = inChild([] {
            const Relro relro = mainRelro();
            CHILD_CHECK(relro.end > relro.start);
            const ImageSnapshot snapshot;
            const ProcessGuardStatus status = ProcessGuard::install();
            std::fprintf(stderr, "process guard: %s\n", status.json().c_str());
            CHILD_CHECK(status.fullRelro); // this test is linked with -z relro -z now, as the runner
            CHILD_CHECK(status.seccomp);
            auto *got = reinterpret_cast<void *>(relroPage(relro));
            CHILD_CHECK(mprotect(got, page(), PROT_READ | PROT_WRITE) == -1 && errno == EPERM);
            CHILD_CHECK(ProcessGuard::attempts().find("mprotect (1)") != std::string::npos);
            CHILD_CHECK(munmap(got, page()) == -1);
            CHILD_CHECK(mmap(got, page(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
                        MAP_FAILED);
            CHILD_CHECK(ProcessGuard::attempts().find("munmap (1)") != std::string::npos);
            CHILD_CHECK(ProcessGuard::attempts().find("mmap (1)") != std::string::npos);
            if (status.sealed) {
                // A range that starts below the image, outside the filter's view, reaching into it: mseal refuses.
                void *below = reinterpret_cast<void *>(relro.imageStart - page());
                if (mmap(below, page(), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) == below) {
                    CHILD_CHECK(mprotect(below, 2 * page(), PROT_READ | PROT_WRITE | PROT_EXEC) == -1 &&
                                errno == EPERM);
                    CHILD_CHECK(munmap(below, 2 * page()) == -1 && errno == EPERM);
                    std::fprintf(stderr, "mseal refused a range from below the image into it\n");
                }
            }
            // A plain store into the GOT faults: it is read-only.
            const pid_t pid = fork();
            if (pid == 0) {
                signal(SIGSEGV, SIG_DFL); // QtTest's crash handler would print a stack trace for the expected fault
                *static_cast<volatile char *>(got) = 0;
                _exit(0);
            }
            int status2 = 0;
            waitpid(pid, &status2, 0);
            CHILD_CHECK(WIFSIGNALED(status2) && WTERMSIG(status2) == SIGSEGV);
            CHILD_CHECK(snapshot.relocationsChanged().empty());
            CHILD_CHECK(snapshot.codeChanged().empty());
            return 0;
        });
        QCOMPARE(rc, 0);
    }

    void imageSnapshot_findsAGotEntryChanged_whereNoGuardStoppedIt()
    {
        const int rc = inChild([] {
            const Relro relro = mainRelro();
            const ImageSnapshot snapshot;
            CHILD_CHECK(snapshot.relocationsChanged().empty());
            CHILD_CHECK(mprotect(reinterpret_cast<void *>(relroPage(relro)), page(), PROT_READ | PROT_WRITE) ==
                        0);                                           // no guard here
            reinterpret_cast<unsigned char *>(relro.end)[-8] ^= 0x5a; // the region's last entry
            const std::string change = snapshot.relocationsChanged();
            std::fprintf(stderr, "found: %s\n", change.c_str());
            CHILD_CHECK(change.find("GOT") != std::string::npos);
            return 0;
        });
        QCOMPARE(rc, 0);
    }

    void guard_keepsThreadsMallocDlopenAndWritesWorking()
    {
        const int rc = inChild([] {
            const ProcessGuardStatus status = ProcessGuard::install();
            std::fprintf(stderr, "process guard installed in %.0f us: %s\n", status.installMicroseconds,
                         status.json().c_str());
            CHILD_CHECK(status.seccomp);
            // Threads (glibc maps each stack and mprotects its guard page) allocating from their own arenas, small
            // and large (mmap'd) blocks.
            std::vector<std::thread> threads;
            std::vector<int> ok(8, 0);
            for (int t = 0; t < 8; ++t) {
                threads.emplace_back([&ok, t] {
                    std::vector<void *> blocks;
                    for (int i = 0; i < 2000; ++i) {
                        blocks.push_back(std::malloc(size_t(16 + (i * 7919) % (i % 50 == 0 ? 4 << 20 : 4096))));
                        if (blocks.size() > 64) {
                            std::free(blocks.front());
                            blocks.erase(blocks.begin());
                        }
                    }
                    for (void *b : blocks)
                        std::free(b);
                    ok[size_t(t)] = 1;
                });
            }
            for (std::thread &t : threads)
                t.join();
            for (int v : ok)
                CHILD_CHECK(v == 1);
            pthread_attr_t attr;
            pthread_attr_init(&attr);
            pthread_attr_setstacksize(&attr, 1 << 20);
            pthread_t raw;
            CHILD_CHECK(pthread_create(
                            &raw, &attr, [](void *) -> void * { return std::malloc(100); }, nullptr) == 0);
            void *result = nullptr;
            pthread_join(raw, &result);
            CHILD_CHECK(result != nullptr);
            std::free(result);
            // dlopen: the loader maps, relocates and protects a new library.
            void *probe = dlopen(SKILLFORGE_PROCESS_GUARD_PROBE, RTLD_NOW | RTLD_LOCAL);
            CHILD_CHECK(probe != nullptr);
            auto *fn = reinterpret_cast<int (*)(int)>(dlsym(probe, "processGuardProbe"));
            CHILD_CHECK(fn && fn(20) == 41);
            // Writing: a pipe, a new file, stderr.
            int fds[2];
            CHILD_CHECK(pipe(fds) == 0);
            CHILD_CHECK(write(fds[1], "verdict", 7) == 7);
            char back[8] = {};
            CHILD_CHECK(read(fds[0], back, 7) == 7 && std::strcmp(back, "verdict") == 0);
            char path[] = "/tmp/sf-process-guard-XXXXXX";
            const int file = mkstemp(path);
            CHILD_CHECK(file >= 0 && write(file, "ok", 2) == 2);
            close(file);
            unlink(path);
            CHILD_CHECK(ProcessGuard::attempts().empty());
            return 0;
        });
        QCOMPARE(rc, 0);
    }
};

SF_TEST_GUILESS_MAIN(TestProcessGuard)
#include "test_process_guard.moc"
