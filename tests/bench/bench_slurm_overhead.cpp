// Overhead per item of running the heavy work through Slurm (submission, polling, collection) against running it
// here, for a run of N items (issue 18). Each item is one sandboxed `command` job, as a command verifier is.
//
//   bash tests/cluster/slurm-local.sh start /tmp/sf-bench-slurm      (SLURM_LOCAL_CPUS=64 for many at once)
//   SLURM_CONF=/tmp/sf-bench-slurm/etc/slurm.conf build/ci/tests/bench/bench_slurm_overhead [N] [CONCURRENCY] [CMD]
//   bash tests/cluster/slurm-local.sh clean /tmp/sf-bench-slurm
#include "cluster/JobRunner.h"
#include "cluster/SlurmJobRunner.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QtConcurrent>
#include <cstdio>

using namespace sf;

namespace {

double runAll(JobRunner &runner, int items, int concurrency, const QString &command, const QString &workspace,
              int *failures)
{
    QThreadPool pool;
    pool.setMaxThreadCount(concurrency);
    QElapsedTimer clock;
    clock.start();
    QList<QFuture<ClusterJobResult>> futures;
    for (int i = 0; i < items; ++i)
        futures << QtConcurrent::run(&pool, [&runner, &command, &workspace] {
            ClusterJob job;
            job.kind = QLatin1String(ClusterJob::kCommand);
            job.inputs = {{QStringLiteral("command"), command},
                          {QStringLiteral("workspace"), workspace},
                          {QStringLiteral("timeout_ms"), 60000}};
            return runner.run(job);
        });
    *failures = 0;
    for (auto &f : futures) {
        const ClusterJobResult r = f.result();
        *failures += (!r.ok() || r.output.value(QStringLiteral("exit_code")).toInt() != 0) ? 1 : 0;
    }
    return double(clock.elapsed()) / 1000.0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int items = args.value(1, QStringLiteral("200")).toInt();
    const int concurrency = args.value(2, QStringLiteral("200")).toInt();
    const QString command = args.value(3, QStringLiteral("true"));
    const QString conf = QProcessEnvironment::systemEnvironment().value(QStringLiteral("SLURM_CONF"));
    if (conf.isEmpty() || !QFileInfo::exists(conf)) {
        std::fprintf(stderr, "needs a cluster: SLURM_CONF (start one with tests/cluster/slurm-local.sh)\n");
        return 2;
    }
    QTemporaryDir dir;
    SlurmOptions options;
    options.slurmConf = conf;
    options.sharedDir = dir.filePath(QStringLiteral("shared"));
    options.program = QCoreApplication::applicationDirPath() + QStringLiteral("/../../bin/skillforge");
    options.pollMs = 1000;

    LocalJobRunner local;
    int localFailures = 0;
    // Local work runs at most as many at once as this machine has cores would allow a verifier pool to.
    const int localThreads = std::min(concurrency, QThread::idealThreadCount());
    const double localS = runAll(local, items, localThreads, command, dir.path(), &localFailures);
    SlurmJobRunner slurm(options);
    if (const QString why = slurm.check(false); !why.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(why));
        return 2;
    }
    int slurmFailures = 0;
    const double slurmS = runAll(slurm, items, concurrency, command, dir.path(), &slurmFailures);
    std::printf("items %d, concurrency %d, command '%s'\n", items, concurrency, qPrintable(command));
    std::printf("local: %.2f s (%.1f ms/item, %d threads, %d failed)\n", localS, 1000 * localS / items, localThreads,
                localFailures);
    std::printf("slurm: %.2f s (%.1f ms/item, %d sbatch calls, %d squeue polls, %d failed)\n", slurmS,
                1000 * slurmS / items, slurm.submissions(), slurm.polls(), slurmFailures);
    std::printf("slurm/local: %.2fx; overhead per item %.1f ms\n", slurmS / localS, 1000 * (slurmS - localS) / items);
    return localFailures + slurmFailures == 0 ? 0 : 1;
}
