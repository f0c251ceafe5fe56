#include "SkippedChecks.h"
#include "kernels/CudaToolchain.h"
#include "kernels/KernelBuilder.h"
#include "kernels/KernelTask.h"
#include "sandbox/Sandbox.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <cstdio>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {
QString read(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}
QString fixture(const QString &name)
{
    return read(QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/kernels/") + name);
}
} // namespace

/// Real nvcc builds of good and broken candidates (sm_90; no GPU needed).
class TestKernelBuilder : public QObject
{
    Q_OBJECT

    QTemporaryDir m_cache;

    KernelBuildRequest request(const QString &source, const QString &name = u"rmsnorm.cu"_s)
    {
        KernelBuildRequest r;
        r.source = source;
        r.displayName = name;
        r.cacheFolder = m_cache.path();
        r.requiredEntryPoints = {u"rmsnorm_bf16"_s};
        return r;
    }

private Q_SLOTS:
    void goodCandidate_buildsWithResourceReportAndIsCachedByContent()
    {
        const QString source = read(u":/kernels/rmsnorm/baseline.cu"_s);
        QVERIFY(!source.isEmpty());
        const KernelBuildResult cold = KernelBuilder::build(request(source));
        QVERIFY2(cold.ok, qPrintable(cold.error + u'\n' + cold.compilerOutput));
        QVERIFY(!cold.fromCache);
        QVERIFY(QFile::exists(cold.libraryPath));
        QCOMPARE(cold.arch, u"sm_90"_s);
        QVERIFY(cold.nvccVersion.contains(u"release"_s));
        QCOMPARE(cold.resources.size(), 3); // one kernel per dtype
        for (const KernelResources &k : cold.resources) {
            QVERIFY(k.registers > 0);
            QVERIFY(k.function.contains(u"rmsnormKernel"_s));
            QCOMPARE(k.sharedBytes, 1024);
        }

        const KernelBuildResult warm = KernelBuilder::build(request(source));
        QVERIFY(warm.ok);
        QVERIFY(warm.fromCache);
        QCOMPARE(warm.libraryPath, cold.libraryPath);
        QCOMPARE(warm.resources.size(), 3);

        // One changed byte is another build.
        const KernelBuildResult changed = KernelBuilder::build(request(source + u"\n// v2\n"_s));
        QVERIFY(changed.ok);
        QVERIFY(!changed.fromCache);
        QVERIFY(changed.cacheKey != cold.cacheKey);
    }

    void brokenCandidate_reportsFileLineAndSourceLine()
    {
        const KernelBuildResult r = KernelBuilder::build(request(fixture(u"broken_syntax.cu"_s)));
        QVERIFY(!r.ok);
        QVERIFY(r.libraryPath.isEmpty());
        QCOMPARE(r.error, u"rmsnorm.cu:9: identifier \"undeclared_factor\" is undefined"_s);
        QCOMPARE(r.diagnostics.first().sourceLine.trimmed(), u"out[i] = x[i] * undeclared_factor;"_s);
        // The failure is cached too: the same source fails the same way without running nvcc again.
        const KernelBuildResult again = KernelBuilder::build(request(fixture(u"broken_syntax.cu"_s)));
        QVERIFY(again.fromCache);
        QCOMPARE(again.error, r.error);
    }

    void candidatesThatCreateStreamsStartThreadsOrLoadLibraries_areRejectedWithTheReason_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("symbol");
        QTest::addColumn<QString>("reason");
        QTest::newRow("side stream") << u"creates_stream.cu"_s << u"cudaStreamCreateWithFlags"_s
                                     << u"creates its own CUDA stream"_s;
        QTest::newRow("thread") << u"starts_thread.cu"_s << u"std::thread::_M_start_thread"_s << u"starts threads"_s;
        QTest::newRow("dlopen") << u"loads_library.cu"_s << u"dlopen"_s << u"loads libraries"_s;
    }

    void candidatesThatCreateStreamsStartThreadsOrLoadLibraries_areRejectedWithTheReason()
    {
        QFETCH(QString, file);
        QFETCH(QString, symbol);
        QFETCH(QString, reason);
        const KernelBuildResult r = KernelBuilder::build(request(fixture(file)));
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(symbol) && r.error.contains(reason), qPrintable(r.error));
    }

    void missingEntryPoint_isNamed()
    {
        const KernelBuildResult r = KernelBuilder::build(request(fixture(u"wrong_name.cu"_s)));
        QVERIFY(!r.ok);
        QCOMPARE(r.missingEntryPoints, QStringList{u"rmsnorm_bf16"_s});
        QVERIFY(r.error.contains(u"does not export rmsnorm_bf16"_s));
    }

    void slowBuild_isStoppedAtTheTimeout()
    {
        KernelBuildRequest r = request(read(u":/kernels/softmax/baseline.cu"_s) + u"\n// timeout\n"_s);
        r.timeoutMs = 200;
        QElapsedTimer clock;
        clock.start();
        const KernelBuildResult result = KernelBuilder::build(r);
        QVERIFY(!result.ok);
        QVERIFY(result.timedOut);
        QVERIFY(result.error.contains(u"did not finish"_s));
        // Nothing half-built is left in the cache.
        QVERIFY(
            !KernelBuilder::build(request(read(u":/kernels/softmax/baseline.cu"_s) + u"\n// timeout\n"_s)).fromCache);
    }

    void cancel_endsTheBuildWithAFailure()
    {
        KernelBuilder builder;
        QSignalSpy finished(&builder, &KernelBuilder::finished);
        builder.start(request(read(u":/kernels/layernorm/baseline.cu"_s) + u"\n// cancel\n"_s));
        QVERIFY(builder.isRunning());
        builder.cancel();
        QCOMPARE(finished.count(), 1);
        const auto result = finished.first().first().value<KernelBuildResult>();
        QVERIFY(!result.ok);
        QVERIFY(result.error.contains(u"cancelled"_s));
        QVERIFY(!builder.isRunning());
    }

    void invalidArch_isRefusedBeforeRunningNvcc()
    {
        KernelBuildRequest r = request(u"x"_s);
        r.arch = u"sm_90; rm -rf /"_s;
        const KernelBuildResult result = KernelBuilder::build(r);
        QVERIFY(!result.ok);
        QVERIFY(result.error.contains(u"not a GPU architecture"_s));
    }

    void candidateIncludingAFileElsewhere_findsNothingToQuote()
    {
        // A model-written candidate that pulls another file into the build, to have its lines quoted back in the
        // compiler's errors: nvcc runs in the sandbox, where only the build's own folder and the system are seen.
        QTemporaryDir elsewhere;
        const QString secret = elsewhere.filePath(u"settings.h"_s);
        QFile file(secret);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("int leaked = SECRET_TOKEN_4242;\n");
        file.close();
        const KernelBuildResult result = KernelBuilder::build(request(u"#include \""_s + secret + u"\"\n"_s));
        QVERIFY(!result.ok);
        QVERIFY2(!result.compilerOutput.contains(u"SECRET_TOKEN_4242"_s), qPrintable(result.compilerOutput));
        QVERIFY2(result.compilerOutput.contains(u"No such file or directory"_s) ||
                     result.compilerOutput.contains(u"cannot open source file"_s),
                 qPrintable(result.compilerOutput));
    }

    void everyBundledBaseline_buildsAndExportsAllDtypes()
    {
        QList<LoadError> errors;
        for (const KernelTask &task : KernelTaskLoader::loadAll({}, &errors)) {
            KernelBuildRequest r = request(read(task.baselineFile), u"baseline.cu"_s);
            r.requiredEntryPoints.clear();
            for (kernels::DType dtype : task.dtypes)
                r.requiredEntryPoints << task.entryPoint(dtype);
            const KernelBuildResult result = KernelBuilder::build(r);
            QVERIFY2(result.ok, qPrintable(task.id + u": "_s + result.error));
            QVERIFY(!result.resources.isEmpty());
        }
    }
};

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (CudaToolchain::findNvcc().isEmpty()) {
        return sf::test::skipAll(QStringLiteral("nvcc not found; kernel builds cannot be tested on this machine"));
    }
    if (QString why; !sandboxAvailable(&why)) {
        return sf::test::skipAll(QStringLiteral("kernel builds run only in the sandbox, and there is none here: ") +
                                 why);
    }
    qRegisterMetaType<KernelBuildResult>();
    TestKernelBuilder test;
    return sf::test::execCountingSkips(&test, argc, argv);
}
#include "test_kernel_builder.moc"
