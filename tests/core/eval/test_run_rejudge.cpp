#include "ChatReplies.h"
#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"
#include "eval/RunRejudge.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/ProviderRegistry.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;
using namespace sf::test;
using namespace Qt::StringLiterals;

namespace {

// One case, four verifiers: a pattern that ran, a command that found no sandbox, a judge that had no model, and a
// kernel that had no GPU: what a run made on a laptop without a GPU or a judge holds.
const QByteArray kSuite = R"({"cases": [{"id": "c1", "input": "Write the kernel and a note.",
  "verifiers": [{"type": "contains", "name": "says fp32", "values": ["fp32"]},
                {"type": "command", "name": "note exists", "cmd": "test -f note.txt"},
                {"type": "llm_judge", "name": "explains", "rubric": "Explains the accumulation."},
                {"type": "cuda_kernel", "task": "rmsnorm", "dtype": "bf16", "path": "rmsnorm.cu"}]}]})";

VerifierOutcome outcome(const QString &type, const QString &name, bool passed, bool available)
{
    VerifierOutcome o;
    o.type = type;
    o.name = name;
    o.passed = passed;
    o.available = available;
    o.evidence = available ? u"ran"_s : u"not available: where the run was made"_s;
    return o;
}

/// A machine without a GPU, as CudaKernelVerifier reports it there.
class NoGpuKernels final : public KernelChecker
{
public:
    int checks = 0;
    VerifierOutcome check(const VerifierSpec &spec, const QString &, const QString &sourcePath) override
    {
        ++checks;
        VerifierOutcome o;
        o.type = spec.type;
        o.name = spec.name;
        o.available = false;
        o.evidence = u"not available: compiled, not run: no CUDA device (%1)"_s.arg(QFileInfo(sourcePath).fileName());
        return o;
    }
};

} // namespace

/// `skillforge runs rejudge` (issue 16's laptop-to-GPU-workstation flow): only the verifiers that could not run are
/// run again, the others keep their outcomes, and the new verdict supersedes the old line.
class TestRunRejudge final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_suitePath;

    RunStore makeRun(const QString &suiteHash, const QString &suitePath = {})
    {
        RunManifest manifest;
        manifest.skillName = u"rmsnorm"_s;
        manifest.suitePath = suitePath.isEmpty() ? m_suitePath : suitePath;
        manifest.suiteHash = suiteHash;
        manifest.models = {{u"generic:student"_s, u"generic"_s, {}}};
        RunStore store = std::get<RunStore>(RunStore::create(m_dir.filePath(u"runs"_s), manifest));
        for (const QString &arm : {kBaselineArm, kWithSkillArm}) {
            ItemResult r;
            r.key = {u"generic:student"_s, arm, u"c1"_s, 1};
            r.answer = u"Accumulate in fp32."_s;
            r.stopReason = StopReason::Answered;
            r.verifiers = {outcome(u"contains"_s, u"says fp32"_s, true, true),
                           outcome(u"command"_s, u"note exists"_s, false, false),
                           outcome(u"cuda_kernel"_s, QString(), false, false),
                           outcome(u"llm_judge"_s, u"explains"_s, false, false)}; // judges are recorded last
            const QString workspace = store.freshWorkspace(r.key);
            if (arm == kWithSkillArm) {
                QFile note(workspace + u"/note.txt"_s);
                if (!note.open(QIODevice::WriteOnly))
                    qFatal("cannot write the workspace");
            }
            QFile(workspace + u"/rmsnorm.cu"_s).open(QIODevice::WriteOnly);
            store.append(r);
        }
        ItemResult failed;
        failed.key = {u"generic:student"_s, kWithSkillArm, u"c1"_s, 2};
        failed.error = u"HTTP 503"_s;
        failed.verifiers = {outcome(u"command"_s, u"note exists"_s, false, false)};
        store.append(failed);
        return store;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_suitePath = m_dir.filePath(u"suite.json"_s);
        QFile suite(m_suitePath);
        QVERIFY(suite.open(QIODevice::WriteOnly));
        suite.write(kSuite);
    }

    void rejudge_runsOnlyWhatCouldNotRun_andTheNewVerdictSupersedes()
    {
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        qputenv("GENERIC_BASE_URL", server.baseUrl().toEncoded() + "/v1");
        server.route("POST", "/v1/chat/completions", scriptedReply(u"It accumulates in fp32.\nSCORE: 5"_s));
        HttpEngine engine;
        ProviderRegistry providers;
        ChatClient chat(engine, providers, nullptr);

        RunStore store = makeRun(
            u"sha256:"_s + QString::fromLatin1(QCryptographicHash::hash(kSuite, QCryptographicHash::Sha256).toHex()));
        // A command runner standing in for the sandbox: it looks for the file the command names.
        QStringList commandsRun;
        RejudgeOptions options;
        options.judgeModel = u"generic:judge"_s;
        NoGpuKernels kernels;
        options.kernels = &kernels;
        options.runCommand = [&](const QString &command, const QString &workspace, int) {
            commandsRun << command;
            CommandOutcome o;
            o.ran = true;
            o.exitCode = QFile::exists(workspace + u"/note.txt"_s) ? 0 : 1;
            return o;
        };
        auto done = rejudgeRun(store, options, &chat);
        QVERIFY2(std::holds_alternative<RejudgeReport>(done),
                 qPrintable(std::get_if<QString>(&done) ? *std::get_if<QString>(&done) : QString()));
        const RejudgeReport &report = std::get<RejudgeReport>(done);
        QCOMPARE(report.items, 2);                       // the error item has no answer to judge
        QCOMPARE(report.verifiersRun, 6);                // command, judge and kernel of each; "says fp32" kept
        QCOMPARE(commandsRun, (QStringList{u"test -f note.txt"_s, u"test -f note.txt"_s}));
        QCOMPARE(server.requestCount("/v1/chat/completions"), 2); // one judge call per item
        // No GPU here: the kernels still cannot run, and say so; a machine with one judges them (tests/gpu).
        QCOMPARE(kernels.checks, 2);
        QCOMPARE(report.stillUnavailable, 2);
        QCOMPARE(report.stillUnavailableWhy, QStringList{u"not available: compiled, not run: no CUDA device (rmsnorm.cu)"_s});
        QCOMPARE(report.newlyPassed, 0); // a kernel not run is never a pass

        const auto find = [&](const RunStore &s, const QString &arm) {
            for (const ItemResult &r : s.results())
                if (r.key.arm == arm && r.key.repeat == 1)
                    return r;
            return ItemResult();
        };
        const ItemResult with = find(store, kWithSkillArm);
        QCOMPARE(with.verifiers.size(), 4);
        QVERIFY(with.verifiers[0].passed && with.verifiers[0].evidence == u"ran"_s); // kept as it was
        QVERIFY(with.verifiers[1].available && with.verifiers[1].passed);          // the note is there
        QVERIFY(!with.verifiers[2].available);                                     // cuda_kernel: no GPU
        QVERIFY(with.verifiers[3].available && with.verifiers[3].passed);          // the judge gave 5
        QVERIFY(!find(store, kBaselineArm).verifiers[1].passed);                   // no note without the skill

        // Appended, not rewritten: the file keeps the old lines; a reader sees the new ones.
        QFile results(store.dir() + u"/results.jsonl"_s);
        QVERIFY(results.open(QIODevice::ReadOnly));
        QCOMPARE(results.readAll().count('\n'), 5);
        store.releaseWriterLock();
        auto reopened = RunStore::open(store.dir(), RunStore::Access::ReadOnly);
        QVERIFY(std::holds_alternative<RunStore>(reopened));
        QVERIFY(find(std::get<RunStore>(reopened), kWithSkillArm).verifiers[3].passed);
    }

    // The project folder carried to another machine: run.json's absolute path is gone, the suite sits in the
    // project's tests/ beside runs/.
    void rejudge_findsTheSuiteInTheCarriedProject()
    {
        QVERIFY(QDir().mkpath(m_dir.filePath(u"tests"_s)));
        QVERIFY(QFile::copy(m_suitePath, m_dir.filePath(u"tests/kernels.json"_s)));
        RunStore store = makeRun(
            u"sha256:"_s + QString::fromLatin1(QCryptographicHash::hash(kSuite, QCryptographicHash::Sha256).toHex()),
            u"/home/someone/laptop-project/tests/kernels.json"_s);
        RejudgeOptions options;
        NoGpuKernels kernels;
        options.kernels = &kernels;
        auto done = rejudgeRun(store, options, nullptr);
        QVERIFY2(std::holds_alternative<RejudgeReport>(done),
                 qPrintable(std::get_if<QString>(&done) ? *std::get_if<QString>(&done) : QString()));
        QCOMPARE(std::get<RejudgeReport>(done).items, 2);
        // No judge and no sandbox given: those stay "not available" too, saying why.
        QCOMPARE(std::get<RejudgeReport>(done).stillUnavailable, 6);
        store.releaseWriterLock();
    }

    void rejudge_refusesASuiteThatChangedSinceTheRun()
    {
        RunStore store = makeRun(u"sha256:0000"_s);
        RejudgeOptions options;
        auto done = rejudgeRun(store, options, nullptr);
        QVERIFY(std::holds_alternative<QString>(done));
        QVERIFY2(std::get<QString>(done).contains(u"is not the suite the run was made with"_s),
                 qPrintable(std::get<QString>(done)));
        store.releaseWriterLock();
    }
};

SF_TEST_GUILESS_MAIN(TestRunRejudge)
#include "test_run_rejudge.moc"
