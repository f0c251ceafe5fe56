// What the kernel runner's process guard costs (harness/ProcessGuard.h): installing it once per run, and the checks
// the runner makes after every call (refused-call counters, its GOT) and after every shape (its code). The guard is
// irreversible, so each round forks a child that installs it and reports its times. Run by hand:
//   build/<preset>/tests/bench/bench_process_guard [rounds]
#include "harness/ProcessGuard.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace sf::kernels;

namespace {

struct Round
{
    double installUs = 0;
    double perCallUs = 0;  ///< attempts() + relocationsChanged()
    double perShapeUs = 0; ///< codeChanged()
    int ok = 0;
};

template <class F> double microsecondsPer(int repeats, F f)
{
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < repeats; ++i)
        f();
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / repeats;
}

Round measureInChild()
{
    int fds[2];
    if (pipe(fds) != 0)
        return {};
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        const ImageSnapshot snapshot;
        Round r;
        const ProcessGuardStatus status = ProcessGuard::install();
        r.installUs = status.installMicroseconds;
        bool clean = true;
        r.perCallUs = microsecondsPer(
            10000, [&] { clean = clean && ProcessGuard::attempts().empty() && snapshot.relocationsChanged().empty(); });
        r.perShapeUs = microsecondsPer(100, [&] { clean = clean && snapshot.codeChanged().empty(); });
        r.ok = status.seccomp && clean;
        (void)!write(fds[1], &r, sizeof r);
        _exit(0);
    }
    close(fds[1]);
    Round r;
    if (read(fds[0], &r, sizeof r) != ssize_t(sizeof r))
        r = {};
    close(fds[0]);
    waitpid(pid, nullptr, 0);
    return r;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 50;
    std::vector<double> install, perCall, perShape;
    for (int i = 0; i < rounds; ++i) {
        const Round r = measureInChild();
        if (!r.ok) {
            std::fprintf(stderr, "round %d: the guard did not install or a check was not clean\n", i);
            return 1;
        }
        install.push_back(r.installUs);
        perCall.push_back(r.perCallUs);
        perShape.push_back(r.perShapeUs);
    }
    std::printf("process guard, %d rounds (medians)\n", rounds);
    std::printf("  install (Landlock, mseal, seccomp filter):  %8.1f us once per run (max %.1f)\n", median(install),
                *std::max_element(install.begin(), install.end()));
    std::printf("  after every call (counters, GOT compare):    %8.3f us\n", median(perCall));
    std::printf("  after every shape (code compare):            %8.1f us\n", median(perShape));
    return 0;
}
