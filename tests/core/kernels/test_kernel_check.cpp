#include "SkippedChecks.h"
#include "kernels/KernelCheck.h"
#include "sandbox/Sandbox.h"

#include <QFile>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {
QJsonObject fixture(const QString &name)
{
    QFile file(QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/kernels/") + name);
    file.open(QIODevice::ReadOnly);
    return QJsonDocument::fromJson(file.readAll()).object();
}
} // namespace

/// The kernel check API the cuda_kernel verifier uses: source extraction, verdicts, and the no-GPU path.
class TestKernelCheck : public QObject
{
    Q_OBJECT

    QTemporaryDir m_cache;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qRegisterMetaType<KernelVerdict>();
    }

    void extractCudaSource_takesTheCudaFenceFirst()
    {
        const QString answer = u"Here is a helper:\n```python\nprint(1)\n```\nand the kernel:\n```cuda\n__global__ void k() {}\n```\n"_s;
        QCOMPARE(KernelCheck::extractCudaSource(answer), u"__global__ void k() {}\n"_s);
        QCOMPARE(KernelCheck::extractCudaSource(u"```cpp\n__global__ void g() {}\n```"_s), u"__global__ void g() {}\n"_s);
        QCOMPARE(KernelCheck::extractCudaSource(u"```cpp\nint main() {}\n```"_s), QString());
        QCOMPARE(KernelCheck::extractCudaSource(u"no code at all"_s), QString());
    }

    void verdict_roundTripsThroughJsonAndExplainsItself()
    {
        const KernelVerdict v = KernelVerdict::fromJson(fixture(u"verdict_passed.json"_s));
        QVERIFY(v.passed());
        QCOMPARE(v.correctness.size(), 35);
        QCOMPARE(v.timing.size(), 7);
        QCOMPARE(v.device.value(u"name").toString(), u"NVIDIA H200"_s);
        const KernelVerdict back = KernelVerdict::fromJson(v.toJson());
        QCOMPARE(back.toJson(), v.toJson());
        const QString evidence = v.evidence();
        QVERIFY(evidence.startsWith(u"kernel rmsnorm (bf16): passed: "_s));
        QVERIFY(evidence.contains(u"correctness: 35 of 35 shape/seed cases passed"_s));
        QVERIFY(evidence.contains(u"flux-hidden [4608x3072]: 42.10 us"_s));
        // Beside speedup, the share of the device's peak it reached, and how many timed calls were checked (issue 17).
        QVERIFY2(evidence.contains(u"28% of peak bandwidth"_s), qPrintable(evidence));
        QVERIFY(evidence.contains(u"9 timed calls checked"_s));
        QVERIFY(std::abs(v.timing.first().fractionOfPeakBandwidth - 0.28) < 0.001);

        const KernelVerdict failed = KernelVerdict::fromJson(fixture(u"verdict_build_error.json"_s));
        QVERIFY(!failed.passed());
        QVERIFY(!failed.notRun());
        QVERIFY(failed.evidence().contains(u"out[i] = x[i] * undeclared_factor;"_s));
    }

    void badRequests_failWithTheReasonWithoutBuilding_data()
    {
        QTest::addColumn<QString>("task");
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("reason");
        QTest::newRow("unknown task") << u"fft"_s << u"bf16"_s << u"x"_s << u"no kernel task \"fft\""_s;
        QTest::newRow("unknown dtype") << u"rmsnorm"_s << u"fp8"_s << u"x"_s << u"has no dtype \"fp8\""_s;
        QTest::newRow("empty source") << u"rmsnorm"_s << u"bf16"_s << u"  \n"_s << u"candidate is empty"_s;
    }

    void badRequests_failWithTheReasonWithoutBuilding()
    {
        QFETCH(QString, task);
        QFETCH(QString, dtype);
        QFETCH(QString, source);
        QFETCH(QString, reason);
        KernelCheckRequest request;
        request.taskId = task;
        request.dtype = dtype;
        request.source = source;
        request.cacheFolder = m_cache.path();
        const KernelVerdict v = KernelCheck::run(request);
        QCOMPARE(v.status, KernelVerdict::Status::Failed);
        QVERIFY2(v.reason.contains(reason), qPrintable(v.reason));
        QVERIFY(v.build.nvccVersion.isEmpty());
    }

    void withoutGpu_aGoodKernelIsCompiledNotRunWithBuildFacts()
    {
        const CudaToolchainInfo info = CudaToolchain::detectNow();
        if (info.canRun())
            QSKIP("a GPU is present: the not-run path does not apply");
        if (QString why; info.canCompile() && !sandboxAvailable(&why))
            SF_SKIP_BECAUSE(u"kernels are built only in the sandbox, and there is none here: "_s + why);
        QFile baseline(u":/kernels/gelu_tanh/baseline.cu"_s);
        QVERIFY(baseline.open(QIODevice::ReadOnly));
        KernelCheckRequest request;
        request.taskId = u"gelu_tanh"_s;
        request.dtype = u"fp16"_s;
        request.source = QString::fromUtf8(baseline.readAll());
        request.candidateName = u"gelu.cu"_s;
        request.cacheFolder = m_cache.path();
        KernelCheck check;
        QSignalSpy stages(&check, &KernelCheck::stageChanged);
        QSignalSpy finished(&check, &KernelCheck::finished);
        check.start(request);
        QVERIFY(check.isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 300000);
        const auto v = finished.first().first().value<KernelVerdict>();
        QVERIFY(!v.passed());
        QVERIFY(v.notRun());
        QCOMPARE(v.statusText(), u"compiled, not run"_s);
        if (info.canCompile()) {
            QVERIFY(v.reason.startsWith(u"no CUDA device"_s));
            QVERIFY(v.build.ok);
            QCOMPARE(v.build.arch, u"sm_90"_s);
            QVERIFY(!v.build.resources.isEmpty());
            QVERIFY(stages.count() >= 2);
        } else {
            QVERIFY(v.reason.contains(u"nvcc was not found"_s));
        }
        QVERIFY(v.correctness.isEmpty());
    }
};

SF_TEST_GUILESS_MAIN(TestKernelCheck)
#include "test_kernel_check.moc"
