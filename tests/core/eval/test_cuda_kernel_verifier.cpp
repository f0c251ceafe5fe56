// The cuda_kernel verifier through core/kernels: the student's kernel from its workspace or from the
// fenced cuda block of its answer, built with nvcc; without a GPU it is "not available", never a pass.
#include "SkippedChecks.h"
#include "eval/CudaKernelVerifier.h"
#include "kernels/CudaToolchain.h"

#include <QCoreApplication>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <cstdio>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

QString bundledBaseline()
{
    QFile file(u":/kernels/rmsnorm/baseline.cu"_s);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

VerifierSpec rmsnormSpec()
{
    VerifierSpec spec;
    spec.type = u"cuda_kernel"_s;
    spec.task = u"rmsnorm"_s;
    spec.dtype = u"bf16"_s;
    spec.path = u"kernel.cu"_s;
    return spec;
}

} // namespace

class TestCudaKernelVerifier final : public QObject
{
    Q_OBJECT

private:
    CudaKernelVerifier m_verifier;
    QTemporaryDir m_workspace;

    VerifyContext context(const QString &answer)
    {
        VerifyContext c;
        c.answer = answer;
        c.workspace = m_workspace.path();
        c.runCommand = refusingCommandRunner(u"not needed"_s);
        c.kernels = &m_verifier;
        return c;
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { QFile::remove(m_workspace.filePath(u"kernel.cu"_s)); }

    void noKernelAnywhere_fails()
    {
        const VerifierOutcome outcome = runVerifier(rmsnormSpec(), context(u"I could not write it."_s));
        QVERIFY(!outcome.passed);
        QVERIFY(outcome.available);
        QVERIFY(outcome.evidence.contains(u"no kernel"_s));
    }

    void fencedBlockInTheAnswer_isBuiltAndJudgedHonestly()
    {
        const QString baseline = bundledBaseline();
        QVERIFY(!baseline.isEmpty());
        const VerifierOutcome outcome =
            runVerifier(rmsnormSpec(), context(u"Here it is:\n```cuda\n"_s + baseline + u"\n```\nDone."_s));
        QVERIFY(QFile::exists(m_workspace.filePath(u"kernel.cu"_s))); // taken from the answer into the workspace
        if (!outcome.available) {
            // No GPU here: built, not run — and then never a pass.
            QVERIFY(!outcome.passed);
            QVERIFY2(outcome.evidence.contains(u"not run"_s) || outcome.evidence.contains(u"not built"_s),
                     qPrintable(outcome.evidence));
        } else {
            QVERIFY2(outcome.passed, qPrintable(outcome.evidence)); // the bundled baseline is correct
        }
    }

    void kernelThatDoesNotCompile_failsWithTheCompilerError()
    {
        QFile file(m_workspace.filePath(u"kernel.cu"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("extern \"C\" int rmsnorm_bf16( { this is not CUDA }\n");
        file.close();
        const VerifierOutcome outcome = runVerifier(rmsnormSpec(), context(QString()));
        QVERIFY(!outcome.passed);
        QVERIFY(outcome.available);
        QVERIFY2(outcome.evidence.contains(u"kernel.cu:1"_s), qPrintable(outcome.evidence));
    }
};

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (CudaToolchain::findNvcc().isEmpty()) {
        return sf::test::skipAll(QStringLiteral("nvcc is not installed, so no kernel can be built"));
    }
    TestCudaKernelVerifier test;
    return sf::test::execCountingSkips(&test, argc, argv);
}
#include "test_cuda_kernel_verifier.moc"
