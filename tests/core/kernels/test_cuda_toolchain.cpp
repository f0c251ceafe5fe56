#include "SkippedChecks.h"
#include "kernels/CudaToolchain.h"

#include <QSignalSpy>
#include <QTest>

using namespace sf;

class TestCudaToolchain : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parseNvccRelease_readsTheReleaseNumber()
    {
        const QString output = QStringLiteral("nvcc: NVIDIA (R) Cuda compiler driver\n"
                                              "Cuda compilation tools, release 13.0, V13.0.48\n");
        QCOMPARE(CudaToolchain::parseNvccRelease(output), QStringLiteral("13.0"));
        QCOMPARE(CudaToolchain::parseNvccRelease(QStringLiteral("garbage")), QString());
    }

    void detect_reportsWhatTheMachineHas()
    {
        CudaToolchain toolchain;
        QSignalSpy detected(&toolchain, &CudaToolchain::detected);
        toolchain.detect();
        QVERIFY(toolchain.isDetecting());
        QTRY_COMPARE_WITH_TIMEOUT(detected.count(), 1, 30000);
        const auto info = detected.first().first().value<CudaToolchainInfo>();
        QCOMPARE(info.canCompile(), !CudaToolchain::findNvcc().isEmpty());
        if (info.canCompile())
            QVERIFY(!info.nvccRelease.isEmpty());
        // Either a GPU answered, or the reason it did not is given.
        QVERIFY(info.canRun() || !info.gpuProblem.isEmpty());
        QVERIFY(!toolchain.isDetecting());
    }
};

SF_TEST_GUILESS_MAIN(TestCudaToolchain)
#include "test_cuda_toolchain.moc"
