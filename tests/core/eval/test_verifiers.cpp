#include "SkippedChecks.h"
#include "eval/SandboxCommand.h"
#include "eval/Verifiers.h"
#include "sandbox/Sandbox.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

VerifierSpec spec(const QString &type)
{
    VerifierSpec s;
    s.type = type;
    return s;
}

void writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(content);
}

} // namespace

class TestVerifiers final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_workspace;

    VerifyContext context(const QString &answer)
    {
        VerifyContext c;
        c.answer = answer;
        c.workspace = m_workspace.path();
        return c;
    }

private Q_SLOTS:
    void contains_isCaseInsensitive_andNamesWhatIsMissing()
    {
        VerifierSpec s = spec(QStringLiteral("contains"));
        s.values = {QStringLiteral("__GLOBAL__"), QStringLiteral("blockDim")};
        QVERIFY(runVerifier(s, context(QStringLiteral("__global__ void k() { blockdim; }"))).passed);
        const VerifierOutcome o = runVerifier(s, context(QStringLiteral("__global__ void k()")));
        QVERIFY(!o.passed);
        QVERIFY(o.evidence.contains(QStringLiteral("blockDim")));
    }

    void notContains_failsNamingWhatWasFound()
    {
        VerifierSpec s = spec(QStringLiteral("not_contains"));
        s.values = {QStringLiteral("TODO")};
        QVERIFY(runVerifier(s, context(QStringLiteral("done"))).passed);
        const VerifierOutcome o = runVerifier(s, context(QStringLiteral("todo: later")));
        QVERIFY(!o.passed);
        QVERIFY(o.evidence.contains(QStringLiteral("TODO")));
    }

    void regex_reportsTheMatch_onTheAnswerOrAFile()
    {
        VerifierSpec s = spec(QStringLiteral("regex"));
        s.pattern = QStringLiteral("capabilities\\s*=\\s*\\[\"(\\d\\.\\d)\"\\]");
        const VerifierOutcome o = runVerifier(s, context(QStringLiteral("capabilities = [\"9.0\"]")));
        QVERIFY(o.passed);
        QVERIFY(o.evidence.contains(QStringLiteral("9.0")));
        s.path = QStringLiteral("build.toml");
        QVERIFY(!runVerifier(s, context(QStringLiteral("capabilities = [\"9.0\"]"))).passed); // no such file yet
        writeFile(m_workspace.filePath(QStringLiteral("build.toml")), "capabilities = [\"9.0\"]\n");
        QVERIFY(runVerifier(s, context(QString())).passed);
    }

    void fileChecks_stayInsideTheWorkspace()
    {
        writeFile(m_workspace.filePath(QStringLiteral("out/result.txt")), "speedup 1.9x");
        VerifierSpec exists = spec(QStringLiteral("file_exists"));
        exists.path = QStringLiteral("out/result.txt");
        QVERIFY(runVerifier(exists, context(QString())).passed);
        exists.path = QStringLiteral("../outside.txt");
        QVERIFY(!runVerifier(exists, context(QString())).passed);
        VerifierSpec contains = spec(QStringLiteral("file_contains"));
        contains.path = QStringLiteral("out/result.txt");
        contains.text = QStringLiteral("1.9x");
        QVERIFY(runVerifier(contains, context(QString())).passed);
        contains.text = QStringLiteral("2.0x");
        QVERIFY(!runVerifier(contains, context(QString())).passed);
    }

    void pathInWorkspace_refusesSymlinksThatLeave()
    {
        QTemporaryDir outside;
        writeFile(outside.filePath(QStringLiteral("secret")), "s");
        QVERIFY(QFile::link(outside.path(), m_workspace.filePath(QStringLiteral("link"))));
        QCOMPARE(pathInWorkspace(m_workspace.path(), QStringLiteral("link/secret")), QString());
        QCOMPARE(pathInWorkspace(m_workspace.path(), QStringLiteral("/etc/passwd")), QString());
        QVERIFY(!pathInWorkspace(m_workspace.path(), QStringLiteral("new/file.txt")).isEmpty());
    }

    void jsonValid_acceptsAFencedAnswer_andExplainsAFailure()
    {
        const VerifierSpec s = spec(QStringLiteral("json_valid"));
        QVERIFY(runVerifier(s, context(QStringLiteral("Here:\n```json\n{\"a\": 1}\n```\n"))).passed);
        const VerifierOutcome o = runVerifier(s, context(QStringLiteral("{\"a\": }")));
        QVERIFY(!o.passed);
        QVERIFY(o.evidence.contains(QStringLiteral("not valid JSON")));
    }

    void command_withoutSandbox_isNotAvailable_neverAPass()
    {
        VerifierSpec s = spec(QStringLiteral("command"));
        s.command = QStringLiteral("true");
        VerifyContext c = context(QString());
        c.runCommand = refusingCommandRunner(QStringLiteral("no bubblewrap"));
        const VerifierOutcome o = runVerifier(s, c);
        QVERIFY(!o.passed);
        QVERIFY(!o.available);
        QVERIFY(o.evidence.contains(QStringLiteral("no bubblewrap")));
    }

    void command_passesOnExitZero_withOutputAsEvidence()
    {
        VerifierSpec s = spec(QStringLiteral("command"));
        s.command = QStringLiteral("make test");
        s.timeoutSeconds = 7;
        VerifyContext c = context(QString());
        int timeoutSeen = 0;
        c.runCommand = [&](const QString &command, const QString &workspace, int timeoutMs) {
            timeoutSeen = timeoutMs;
            CommandOutcome r;
            r.ran = workspace == m_workspace.path();
            r.exitCode = command == QLatin1String("make test") ? 0 : 1;
            r.output = QStringLiteral("3 tests passed");
            return r;
        };
        const VerifierOutcome o = runVerifier(s, c);
        QVERIFY(o.passed);
        QCOMPARE(timeoutSeen, 7000);
        QVERIFY(o.evidence.contains(QStringLiteral("3 tests passed")));
        c.runCommand = [](const QString &, const QString &, int) {
            CommandOutcome r;
            r.ran = true;
            r.timedOut = true;
            return r;
        };
        const VerifierOutcome late = runVerifier(s, c);
        QVERIFY(!late.passed);
        QVERIFY(late.evidence.contains(QStringLiteral("timed out")));
    }

    void command_inTheRealSandbox_writesOnlyTheWorkspace_andIsTimed()
    {
        QString why;
        if (!sandboxAvailable(&why))
            SF_SKIP_BECAUSE(QStringLiteral("no sandbox here: ") + why);
        VerifyContext c = context(QString());
        c.runCommand = sandboxCommandRunner();
        VerifierSpec s = spec(QStringLiteral("command"));
        s.command = QStringLiteral("echo built > made.txt && cat made.txt");
        VerifierOutcome o = runVerifier(s, c);
        QVERIFY2(o.passed, qPrintable(o.evidence));
        QVERIFY(o.evidence.contains(QStringLiteral("built")));
        QVERIFY(QFile::exists(m_workspace.filePath(QStringLiteral("made.txt"))));
        s.command = QStringLiteral("exit 3");
        o = runVerifier(s, c);
        QVERIFY(!o.passed);
        QVERIFY(o.evidence.contains(QStringLiteral("exit code 3")));
        s.command = QStringLiteral("sleep 30");
        s.timeoutSeconds = 1;
        o = runVerifier(s, c);
        QVERIFY(!o.passed);
        QVERIFY2(o.evidence.contains(QStringLiteral("timed out")), qPrintable(o.evidence));
    }

    void commandsInOneWorkspace_shareOneGrowthLimit()
    {
        QString why;
        if (!sandboxAvailable(&why))
            SF_SKIP_BECAUSE(QStringLiteral("no sandbox here: ") + why);
        // A student's commands in one item: each alone stays under the limit, together they pass it.
        const CommandRunner run = sandboxCommandRunner(8LL << 20);
        const QString writeFive = QStringLiteral("head -c 5242880 /dev/zero > part$N && sleep 2 && echo done");
        CommandOutcome first = run(QString(writeFive).replace(u"$N"_s, u"1"_s), m_workspace.path(), 20'000);
        QVERIFY2(first.exitCode == 0 && first.output.contains(u"done"_s), qPrintable(first.output));
        CommandOutcome second = run(QString(writeFive).replace(u"$N"_s, u"2"_s), m_workspace.path(), 20'000);
        QVERIFY2(second.output.contains(u"[stopped: the workspace grew by more than 8 MiB since the first command]"_s),
                 qPrintable(second.output));
        QVERIFY(!second.output.contains(u"done"_s));
        QVERIFY(QFile::exists(m_workspace.filePath(QStringLiteral("part2")))); // stopped, nothing deleted
        // Another workspace starts from its own size.
        QTemporaryDir other;
        CommandOutcome elsewhere = run(QString(writeFive).replace(u"$N"_s, u"3"_s), other.path(), 20'000);
        QVERIFY2(elsewhere.exitCode == 0, qPrintable(elsewhere.output));
        QFile::remove(m_workspace.filePath(QStringLiteral("part1")));
        QFile::remove(m_workspace.filePath(QStringLiteral("part2")));
    }

    void cudaKernel_withoutChecker_isNotAvailable()
    {
        VerifierSpec s = spec(QStringLiteral("cuda_kernel"));
        s.task = QStringLiteral("rmsnorm");
        const VerifierOutcome o = runVerifier(s, context(QString()));
        QVERIFY(!o.passed);
        QVERIFY(!o.available);
    }

    void judge_readsTheLastScoreLine_andKeepsTheReasoning()
    {
        VerifierSpec s = spec(QStringLiteral("llm_judge"));
        s.rubric = QStringLiteral("Mentions warp shuffles");
        s.threshold = 4;
        TestCase c;
        c.input = QStringLiteral("Explain reductions");
        const ChatRequest request = judgeRequest(s, c, QStringLiteral("use __shfl_down_sync"));
        QVERIFY(request.messages.first().content.contains(QStringLiteral("Mentions warp shuffles")));
        QVERIFY(request.messages.first().content.contains(QStringLiteral("__shfl_down_sync")));
        VerifierOutcome o = judgeOutcome(s, QStringLiteral("j"), QStringLiteral("It uses shuffles well.\nSCORE: 5"));
        QVERIFY(o.passed);
        QCOMPARE(*o.score, 5);
        QVERIFY(o.reasoning.contains(QStringLiteral("shuffles well")));
        o = judgeOutcome(s, QStringLiteral("j"), QStringLiteral("Score: 5 would need more. **SCORE: 3**"));
        QVERIFY(!o.passed);
        QCOMPARE(*o.score, 3);
        o = judgeOutcome(s, QStringLiteral("j"), QStringLiteral("I cannot grade this."));
        QVERIFY(!o.passed);
        QVERIFY(!o.score);
    }
};

SF_TEST_GUILESS_MAIN(TestVerifiers)
#include "test_verifiers.moc"
