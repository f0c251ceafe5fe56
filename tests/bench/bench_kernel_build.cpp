// Cold and cached nvcc build time per candidate (every bundled baseline, plus the sample skill's
// reference kernel). Prints a table; run by hand: build/<preset>/tests/bench/bench_kernel_build [--arch sm_90]
#include "kernels/CudaToolchain.h"
#include "kernels/KernelBuilder.h"
#include "kernels/KernelTask.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <cstdio>

using namespace sf;

namespace {
QString read(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const qsizetype archAt = args.indexOf(QStringLiteral("--arch"));
    const QString arch = archAt > 0 && archAt + 1 < args.size() ? args[archAt + 1] : QStringLiteral("sm_90");
    const QString nvcc = CudaToolchain::findNvcc();
    if (nvcc.isEmpty()) {
        std::fprintf(stderr, "nvcc not found\n");
        return 77;
    }
    QTemporaryDir cache;
    QList<QPair<QString, QString>> candidates;
    QList<LoadError> errors;
    for (const KernelTask &task : KernelTaskLoader::loadAll({}, &errors))
        candidates.append({QStringLiteral("baseline %1").arg(task.id), read(task.baselineFile)});
    const QString reference = read(QStringLiteral(SKILLFORGE_SOURCE_DIR)
                                   + QStringLiteral("/resources/sample-project/skills/diffusers-cuda-rmsnorm/references/rmsnorm-reference.md"));
    static const QRegularExpression cuda(QStringLiteral("```cuda\\n(.*?)```"), QRegularExpression::DotMatchesEverythingOption);
    candidates.append({QStringLiteral("skill reference rmsnorm"), cuda.match(reference).captured(1)});

    std::printf("%s for %s, fresh cache %s\n", qPrintable(nvcc), qPrintable(arch), qPrintable(cache.path()));
    std::printf("%-28s %10s %10s %8s %6s\n", "candidate", "cold ms", "cached ms", "kernels", "ok");
    double coldTotal = 0, warmTotal = 0;
    for (const auto &[name, source] : candidates) {
        KernelBuildRequest request;
        request.source = source;
        request.arch = arch;
        request.cacheFolder = cache.path();
        request.nvccPath = nvcc;
        QElapsedTimer clock;
        clock.start();
        const KernelBuildResult cold = KernelBuilder::build(request);
        const double coldMs = double(clock.nsecsElapsed()) / 1e6;
        clock.restart();
        const KernelBuildResult warm = KernelBuilder::build(request);
        const double warmMs = double(clock.nsecsElapsed()) / 1e6;
        coldTotal += coldMs;
        warmTotal += warmMs;
        std::printf("%-28s %10.0f %10.1f %8lld %6s\n", qPrintable(name), coldMs, warmMs,
                    static_cast<long long>(cold.resources.size()), cold.ok && warm.fromCache ? "yes" : "NO");
    }
    std::printf("%-28s %10.0f %10.1f\n", "total", coldTotal, warmTotal);
    return 0;
}
