// A real fork bomb in the sandbox. Run only where the kernel caps the sandbox's processes (a pids
// cgroup, or RLIMIT_NPROC when not root): without that cap the bomb could fill the machine's
// process table before the sandbox's process watch stops it, so the test reports itself skipped.
#include "SkippedChecks.h"
#include "sandbox/Sandbox.h"

#include <QCoreApplication>
#include <QTest>
#include <cstdio>

using namespace sf;

class TestSandboxForkBomb final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void forkBomb_isStoppedAndReportedAsTooManyProcesses()
    {
        SandboxSpec spec;
        spec.program = QStringLiteral("/bin/sh");
        spec.arguments = {QStringLiteral("-c"), QStringLiteral("b() { b | b & }; b; sleep 30")};
        spec.limits.maxProcesses = 40;
        spec.limits.timeoutMs = 15'000;
        const SandboxResult result = runSandboxed(spec);
        QVERIFY2(result.tooManyProcesses, qPrintable(result.summary()));
        QVERIFY(!result.succeeded());
        QVERIFY(result.wallMs < 15'000);
    }
};

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QString why;
    if (!sandboxAvailable(&why)) {
        return sf::test::skipAll(why);
    }
    if (!sandboxProcessCapIsEnforced()) {
        return sf::test::skipAll(QStringLiteral("running as root with no writable pids cgroup: the kernel cannot cap "
                                                "the sandbox's processes here, so a fork bomb is not let loose"));
    }
    TestSandboxForkBomb test;
    return sf::test::execCountingSkips(&test, argc, argv);
}

#include "test_sandbox_fork_bomb.moc"
