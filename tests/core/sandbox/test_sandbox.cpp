// The sandbox that runs model-written code and test commands: it must contain what it runs.
#include "SkippedChecks.h"
#include "sandbox/BubblewrapArguments.h"
#include "sandbox/FolderUsage.h"
#include "sandbox/Sandbox.h"
#include "sandbox/SandboxProcess.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <cstdio>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

SandboxSpec shell(const QString &script, const QString &workspace = {})
{
    SandboxSpec spec;
    spec.program = QStringLiteral("/bin/sh");
    spec.arguments = {QStringLiteral("-c"), script};
    spec.workspace = workspace;
    spec.limits.timeoutMs = 20'000;
    return spec;
}

// Processes anywhere on the machine whose command line mentions `sleep SECONDS` — the sleep itself
// or a bwrap that was to run it: a marker only this test's sandboxed programs use.
int processesSleeping(const QString &seconds)
{
    const QByteArray wanted = "sleep " + seconds.toLatin1();
    int count = 0;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(entry));
        if (cmdline.open(QIODevice::ReadOnly) && cmdline.readAll().replace('\0', ' ').contains(wanted)) {
            ++count;
        }
    }
    return count;
}

bool writeFile(const QString &path, int bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(QByteArray(bytes, 'x')) == bytes;
}

} // namespace

class TestSandbox final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runsProgram_returnsExitCodeAndBothStreams()
    {
        const SandboxResult result = runSandboxed(shell(QStringLiteral("echo out; echo err >&2; exit 3")));
        QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
        QCOMPARE(result.exitCode, 3);
        QCOMPARE(result.stdOut, QByteArray("out\n"));
        QCOMPARE(result.stdErr, QByteArray("err\n"));
        QVERIFY(!result.crashed);
        QVERIFY(!result.succeeded());
        QVERIFY(result.summary().startsWith(u"exit 3"));
    }

    void stdinData_reachesTheProgram()
    {
        SandboxSpec spec = shell(QStringLiteral("tr a-z A-Z"));
        spec.stdinData = "hello";
        const SandboxResult result = runSandboxed(spec);
        QVERIFY(result.succeeded());
        QCOMPARE(result.stdOut, QByteArray("HELLO"));
    }

    void workspace_isTheOnlyWritablePlaceOnTheHost()
    {
        QTemporaryDir workspace;
        QTemporaryDir elsewhere;
        QVERIFY(workspace.isValid() && elsewhere.isValid());
        const QString script = QStringLiteral("echo kept > result.txt; echo lost > /tmp/scratch.txt; "
                                              "echo no > %1/escape.txt; echo no > /usr/escape.txt; pwd")
                                   .arg(elsewhere.path());
        const SandboxResult result = runSandboxed(shell(script, workspace.path()));
        QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
        QCOMPARE(result.stdOut.trimmed(), workspace.path().toUtf8());
        QFile kept(workspace.filePath(QStringLiteral("result.txt")));
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QCOMPARE(kept.readAll(), QByteArray("kept\n"));
        QVERIFY(!QFile::exists(elsewhere.filePath(QStringLiteral("escape.txt"))));
        QVERIFY(!QFile::exists(QStringLiteral("/usr/escape.txt")));
        QVERIFY(!QFile::exists(QStringLiteral("/tmp/scratch.txt")) || !result.stdErr.isEmpty());
    }

    void hostFilesOutsideTheSystemFolders_areNotVisible()
    {
        QTemporaryDir secretDir;
        QFile secret(secretDir.filePath(QStringLiteral("key.txt")));
        QVERIFY(secret.open(QIODevice::WriteOnly));
        secret.write("sk-secret");
        secret.close();
        const SandboxResult result = runSandboxed(
            shell(QStringLiteral("cat %1 2>/dev/null; ls /home /root 2>/dev/null; id -u").arg(secret.fileName())));
        QVERIFY(!result.stdOut.contains("sk-secret"));
        QCOMPARE(result.stdOut.trimmed(), QByteArray("65534"));
    }

    void readOnlyPaths_areVisibleButNotWritable()
    {
        QTemporaryDir shared;
        QFile input(shared.filePath(QStringLiteral("input.txt")));
        QVERIFY(input.open(QIODevice::WriteOnly));
        input.write("data");
        input.close();
        SandboxSpec spec = shell(QStringLiteral("cat %1; echo x >> %1 || echo refused").arg(input.fileName()));
        spec.readOnlyPaths = {shared.path()};
        const SandboxResult result = runSandboxed(spec);
        QCOMPARE(result.stdOut, QByteArray("datarefused\n"));
        QVERIFY(input.open(QIODevice::ReadOnly));
        QCOMPARE(input.readAll(), QByteArray("data"));
    }

    void writableMounts_areWritableBesideTheWorkspace_whereTheyAreMounted()
    {
        QTemporaryDir home;
        QTemporaryDir workspace;
        QTemporaryDir elsewhere;
        SandboxSpec spec = shell(QStringLiteral("pwd; echo kept > /home/student/note.txt && echo made > here.txt && "
                                                "echo x > %1/note.txt || echo refused")
                                     .arg(elsewhere.path()));
        spec.workspace = workspace.path();
        spec.workspaceMountPoint = QStringLiteral("/work/item");
        spec.writableMounts = {{home.path(), QStringLiteral("/home/student")}};
        const SandboxResult result = runSandboxed(spec);
        QCOMPARE(result.stdOut, QByteArray("/work/item\nrefused\n"));
        QFile note(home.filePath(QStringLiteral("note.txt")));
        QVERIFY(note.open(QIODevice::ReadOnly));
        QCOMPARE(note.readAll(), QByteArray("kept\n"));
        QVERIFY(QFile::exists(workspace.filePath(QStringLiteral("here.txt"))));
        QVERIFY(!QFile::exists(elsewhere.filePath(QStringLiteral("note.txt"))));
    }

    void network_isUnreachable()
    {
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost));
        const QString script =
            QStringLiteral("python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", %1), 2); "
                           "print(\"connected\")' 2>&1 || echo unreachable")
                .arg(server.serverPort());
        const SandboxResult result = runSandboxed(shell(script));
        QVERIFY2(result.stdOut.contains("unreachable"), result.stdOut.constData());
        QVERIFY(!result.stdOut.contains("connected\n"));
        QVERIFY(!server.hasPendingConnections());
    }

    void programRunningForever_isKilledAtTheTimeout()
    {
        SandboxSpec spec = shell(QStringLiteral("sleep 4242"));
        spec.limits.timeoutMs = 300;
        const SandboxResult result = runSandboxed(spec);
        QVERIFY(result.timedOut);
        QVERIFY(!result.succeeded());
        QVERIFY(!result.crashed);
        QTRY_COMPARE_WITH_TIMEOUT(processesSleeping(QStringLiteral("4242")), 0, 5000);
    }

    void programForkingWithoutEnd_isKilledWithAllItsChildren()
    {
        SandboxSpec spec = shell(QStringLiteral("while :; do sleep 4343 & done"));
        spec.limits.maxProcesses = 20;
        const SandboxResult result = runSandboxed(spec);
        QVERIFY(result.tooManyProcesses);
        QVERIFY(!result.timedOut);
        QVERIFY(result.summary().contains(u"too many processes"));
        QTRY_COMPARE_WITH_TIMEOUT(processesSleeping(QStringLiteral("4343")), 0, 5000);
    }

    void backgroundChildren_dieWithTheProgram()
    {
        const SandboxResult result = runSandboxed(shell(QStringLiteral("sleep 4545 & exit 0")));
        QVERIFY(result.succeeded());
        QTRY_COMPARE_WITH_TIMEOUT(processesSleeping(QStringLiteral("4545")), 0, 5000);
    }

    void memoryHog_isStoppedByTheMemoryLimit()
    {
        SandboxSpec spec = shell(QStringLiteral("python3 -c 'x = bytearray(1 << 31)'"));
        spec.limits.memoryBytes = 256LL << 20;
        const SandboxResult result = runSandboxed(spec);
        QVERIFY(result.outOfMemory);
        QVERIFY(!result.succeeded());
        QVERIFY(result.summary().startsWith(u"out of memory"));
    }

    void workspaceGrowingPastTheLimit_isStoppedAndKeepsWhatItWrote()
    {
        QTemporaryDir workspace;
        // Every file under the per-file limit, their sum not.
        SandboxSpec spec = shell(QStringLiteral("i=0; while :; do head -c 1048576 /dev/zero > f$i; i=$((i+1)); "
                                                "sleep 0.02; done"),
                                 workspace.path());
        spec.limits.maxWorkspaceGrowthBytes = 8LL << 20;
        const SandboxResult result = runSandboxed(spec);
        QVERIFY2(result.workspaceFull, qPrintable(result.summary()));
        QVERIFY(!result.timedOut);
        QVERIFY(!result.succeeded());
        QVERIFY(result.summary().contains(u"more to its workspace than the limit allows"));
        QVERIFY(QFile::exists(workspace.filePath(u"f8"_s)));
        QVERIFY(folderDiskBytes(workspace.path()) > 8LL << 20);
    }

    void workspaceGrowth_countsFromTheSizeGiven()
    {
        QTemporaryDir workspace;
        QVERIFY(writeFile(workspace.filePath(u"data.bin"_s), 6 << 20));
        SandboxSpec spec = shell(QStringLiteral("sleep 2"), workspace.path());
        spec.limits.maxWorkspaceGrowthBytes = 4LL << 20;
        // Counted from its size at the start, the 6 MiB already there are no growth.
        QVERIFY2(runSandboxed(spec).succeeded(), "a workspace's own files count as growth");
        // Counted from an empty workspace (an earlier command wrote them), they are past the limit.
        spec.workspaceBytesBefore = 0;
        const SandboxResult result = runSandboxed(spec);
        QVERIFY2(result.workspaceFull, qPrintable(result.summary()));
    }

    void folderDiskBytes_countsBlocksNotLinksOrHoles()
    {
        QTemporaryDir folder;
        QVERIFY(writeFile(folder.filePath(u"written"_s), 1 << 20));
        QFile sparse(folder.filePath(u"sparse"_s));
        QVERIFY(sparse.open(QIODevice::WriteOnly));
        QVERIFY(sparse.resize(1LL << 30)); // a 1 GiB hole takes no disk
        sparse.close();
        QVERIFY(QFile::link(u"/usr"_s, folder.filePath(u"link"_s)));
        const qint64 bytes = folderDiskBytes(folder.path());
        QVERIFY2(bytes >= 1 << 20 && bytes < 2 << 20, qPrintable(QString::number(bytes)));
        QCOMPARE(folderDiskBytes(folder.filePath(u"missing"_s)), 0);
    }

    void crash_isReportedWithItsSignal()
    {
        const SandboxResult result = runSandboxed(shell(QStringLiteral("kill -SEGV $$")));
        QVERIFY(result.crashed);
        QCOMPARE(result.exitCode, 128 + 11);
        QVERIFY(result.summary().startsWith(u"killed by signal 11"));
    }

    void output_isCappedAtTheLimit()
    {
        SandboxSpec spec = shell(QStringLiteral("head -c 3000000 /dev/zero"));
        spec.limits.maxOutputBytes = 1000;
        const SandboxResult result = runSandboxed(spec);
        QVERIFY(result.succeeded());
        QCOMPARE(result.stdOut.size(), 1000);
        QVERIFY(result.outputTruncated);
    }

    void inheritedDescriptors_doNotReachTheProgram()
    {
        QFile held(QStringLiteral("/dev/null"));
        QVERIFY(held.open(QIODevice::ReadOnly));
        SandboxSpec spec = shell(QStringLiteral("ls /proc/self/fd"));
        spec.passPipeFd = true;
        const SandboxResult result = runSandboxed(spec);
        QVERIFY(result.succeeded());
        // stdin, stdout, stderr, the pipe at 3, and the descriptor ls itself opens to read the folder.
        int highest = -1;
        for (const QByteArray &line : result.stdOut.split('\n')) {
            if (!line.isEmpty()) {
                highest = qMax(highest, line.toInt());
            }
        }
        QCOMPARE(highest, 4);
    }

    void pipeFd_carriesDataApartFromStdout()
    {
        SandboxSpec spec = shell(QStringLiteral("echo verdict >&3; echo noise"));
        spec.passPipeFd = true;
        const SandboxResult result = runSandboxed(spec);
        QVERIFY(result.succeeded());
        QCOMPARE(result.pipeData, QByteArray("verdict\n"));
        QCOMPARE(result.stdOut, QByteArray("noise\n"));
    }

    void withoutPipeFd_fd3IsClosed()
    {
        // Even when this process holds a descriptor 3 of its own (ctest may hand one down).
        QFile held(QStringLiteral("/dev/null"));
        QVERIFY(held.open(QIODevice::ReadOnly));
        const SandboxResult result = runSandboxed(shell(QStringLiteral("echo x >&3 || echo closed")));
        QVERIFY(result.stdOut.contains("closed"));
    }

    void missingProgram_isAnErrorNotAnExitCode()
    {
        SandboxSpec spec;
        spec.program = QStringLiteral("/no/such/program");
        const SandboxResult result = runSandboxed(spec);
        QVERIFY(!result.error.isEmpty());
        QVERIFY(result.error.contains(u"/no/such/program"));
        QVERIFY(result.summary().startsWith(u"did not run"));
    }

    void missingWorkspace_isAnError()
    {
        const SandboxResult result = runSandboxed(shell(QStringLiteral("true"), QStringLiteral("/no/such/dir")));
        QVERIFY(result.error.contains(u"/no/such/dir"));
    }

    void cancel_killsTheProgramAndReportsCancelled()
    {
        SandboxProcess process;
        QSignalSpy finished(&process, &SandboxProcess::finished);
        process.start(shell(QStringLiteral("sleep 4444")));
        QVERIFY(process.isRunning());
        QVERIFY(finished.isEmpty()); // never before start() returns
        process.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
        const auto result = finished.first().first().value<SandboxResult>();
        QVERIFY(result.cancelled);
        QVERIFY(!result.succeeded());
        QTRY_COMPARE_WITH_TIMEOUT(processesSleeping(QStringLiteral("4444")), 0, 5000);
    }

    void environment_isOnlyWhatTheSpecGives()
    {
        qputenv("SKILLFORGE_TEST_SECRET", "sk-do-not-leak");
        const SandboxResult result = runSandboxed(shell(QStringLiteral("env")));
        QVERIFY(!result.stdOut.contains("sk-do-not-leak"));
        QVERIFY(result.stdOut.contains("PATH="));
    }

    void arguments_askForNoNetworkNoCapabilitiesAndAnUnprivilegedUser()
    {
        SandboxSpec spec = shell(QStringLiteral("true"), QStringLiteral("/tmp/ws"));
        const QStringList args = bubblewrapArguments(spec);
        QVERIFY(args.contains(u"--unshare-all"_s));
        QVERIFY(args.contains(u"--die-with-parent"_s));
        QCOMPARE(args.at(args.indexOf(u"--cap-drop"_s) + 1), u"ALL"_s);
        QCOMPARE(args.at(args.indexOf(u"--uid"_s) + 1), u"65534"_s);
        const qsizetype bind = args.indexOf(u"--bind"_s);
        QCOMPARE(args.mid(bind, 3), QStringList({u"--bind"_s, u"/tmp/ws"_s, u"/tmp/ws"_s}));
        QVERIFY(!args.contains(u"/home"_s));
        QVERIFY(!args.contains(u"--share-net"_s));
        QVERIFY(!args.contains(u"/dev/nvidia0"_s)); // GPU only when asked for
    }
};

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QString why;
    if (!sandboxAvailable(&why)) {
        return sf::test::skipAll(why);
    }
    TestSandbox test;
    return sf::test::execCountingSkips(&test, argc, argv);
}

#include "test_sandbox.moc"
