#include "RunRejudge.h"

#include "CudaKernelVerifier.h"
#include "EvalConfig.h"
#include "llm/ChatCall.h"
#include "llm/ChatClient.h"

#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <algorithm>
#include <memory>

namespace sf {

namespace {

/// @p recorded where it exists, else the file of that name where a project copied elsewhere keeps it: a run lives
/// in <project>/runs/<id>/, its suites in <project>/tests/ and its skills in <project>/skills/.
QString inProject(const QString &recorded, const QString &runDir, const QString &projectFolder)
{
    if (recorded.isEmpty() || QFileInfo::exists(recorded))
        return recorded;
    const QString moved = QDir(runDir).absoluteFilePath(QStringLiteral("../../%1/%2").arg(
        projectFolder, QFileInfo(QDir::cleanPath(recorded)).fileName()));
    return QFileInfo::exists(moved) ? QDir::cleanPath(moved) : recorded;
}

std::variant<TestSuite, QString> suiteOf(const RunStore &store, const RejudgeOptions &options, const QString &skillDir)
{
    const RunManifest &m = store.manifest();
    const QString path = options.suitePath.isEmpty() ? inProject(m.suitePath, store.dir(), QStringLiteral("tests"))
                                                     : options.suitePath;
    auto suite = path.isEmpty() ? readSkillTestSuite(skillDir) : readTestSuite(path);
    if (const LoadError *e = std::get_if<LoadError>(&suite))
        return QStringLiteral("%1 (give the suite the run was made with: --tests FILE)").arg(e->toString());
    const TestSuite &s = std::get<TestSuite>(suite);
    if (!m.suiteHash.isEmpty() && s.hash != m.suiteHash)
        return QStringLiteral("%1 is not the suite the run was made with (run.json records %2, the file is %3)")
            .arg(s.path, m.suiteHash, s.hash);
    return s;
}

/// The judge's verdict on one llm_judge verifier, waiting for the model; "not available" when it fails.
VerifierOutcome judgeNow(ChatClient *chat, const QString &judge, const VerifierSpec &spec, const TestCase &testCase,
                         const QString &answer)
{
    VerifierOutcome o;
    o.type = spec.type;
    o.name = spec.name;
    o.available = false;
    if (judge.isEmpty() || !chat) {
        o.evidence = QStringLiteral("not available: no judge model was chosen (--judge MODEL)");
        return o;
    }
    ChatCall *call = chat->chat(judge, judgeRequest(spec, testCase, answer));
    QEventLoop loop;
    QObject::connect(call, &ChatCall::finished, &loop, [&](const ChatResponse &response) {
        o = judgeOutcome(spec, judge, response.text);
        loop.quit();
    });
    QObject::connect(call, &ChatCall::failed, &loop, [&](const QString &message) {
        o.evidence = QStringLiteral("not available: the judge %1 failed: %2").arg(judge, message);
        loop.quit();
    });
    loop.exec();
    call->deleteLater();
    return o;
}

/// Which recorded outcome belongs to which verifier of the case: the same type and name, in order (the runner
/// records the judges after the other verifiers, so positions alone would not do).
QList<int> outcomeIndexes(const QList<VerifierSpec> &specs, const QList<VerifierOutcome> &outcomes)
{
    QList<int> indexes;
    QList<bool> taken(outcomes.size(), false);
    for (const VerifierSpec &spec : specs) {
        int found = -1;
        for (qsizetype i = 0; i < outcomes.size() && found < 0; ++i) {
            if (!taken[i] && outcomes[i].type == spec.type && outcomes[i].name == spec.name)
                found = int(i);
        }
        if (found >= 0)
            taken[found] = true;
        indexes.append(found);
    }
    return indexes;
}

} // namespace

std::variant<RejudgeReport, QString> rejudgeRun(RunStore &store, const RejudgeOptions &options, ChatClient *chat)
{
    const RunManifest &m = store.manifest();
    RejudgeReport report;
    const QList<ItemResult> results = store.results();
    const auto needsRejudge = [](const ItemResult &r) {
        return !r.isError() && std::any_of(r.verifiers.cbegin(), r.verifiers.cend(),
                                           [](const VerifierOutcome &v) { return !v.available; });
    };
    if (std::none_of(results.cbegin(), results.cend(), needsRejudge))
        return report;
    const QString skillDir =
        options.skillDir.isEmpty() ? inProject(m.skillDir, store.dir(), QStringLiteral("skills")) : options.skillDir;
    auto suite = suiteOf(store, options, skillDir);
    if (const QString *e = std::get_if<QString>(&suite))
        return *e;
    const TestSuite &tests = std::get<TestSuite>(suite);
    const QString judge =
        options.judgeModel.isEmpty() ? EvalConfig::fromJson(m.parameters).judgeModel : options.judgeModel;
    std::unique_ptr<KernelChecker> ownKernels;
    KernelChecker *kernels = options.kernels;
    if (!kernels) {
        // The project's own kernel tasks join the bundled ones, as for the run itself.
        ownKernels = std::make_unique<CudaKernelVerifier>(projectKernelsFolderOf(skillDir));
        kernels = ownKernels.get();
    }

    for (const ItemResult &old : results) {
        if (!needsRejudge(old))
            continue;
        const auto testCase = std::find_if(tests.cases.cbegin(), tests.cases.cend(),
                                           [&](const TestCase &c) { return c.id == old.key.caseId; });
        if (testCase == tests.cases.cend())
            return QStringLiteral("%1 has no case \"%2\", which the run holds").arg(tests.path, old.key.caseId);
        ++report.items;
        ItemResult r = old;
        VerifyContext context;
        context.answer = r.answer;
        context.workspace = QDir(store.dir()).filePath(QStringLiteral("artifacts/%1/workspace").arg(r.key.fileName()));
        context.runCommand = options.runCommand ? options.runCommand
                                                : refusingCommandRunner(QStringLiteral("no sandbox was given"));
        context.kernels = kernels;
        const QList<VerifierSpec> specs = testCase->allVerifiers();
        const QList<int> indexes = outcomeIndexes(specs, r.verifiers);
        for (qsizetype i = 0; i < specs.size(); ++i) {
            if (indexes[i] < 0 || r.verifiers[indexes[i]].available)
                continue;
            const VerifierSpec &spec = specs[i];
            const QString verifierJudge = spec.judgeModel.isEmpty() ? judge : spec.judgeModel;
            VerifierOutcome fresh = spec.type == QLatin1String("llm_judge")
                                        ? judgeNow(chat, verifierJudge, spec, *testCase, r.answer)
                                        : runVerifier(spec, context);
            ++report.verifiersRun;
            if (!fresh.available) {
                ++report.stillUnavailable;
                if (!report.stillUnavailableWhy.contains(fresh.evidence))
                    report.stillUnavailableWhy.append(fresh.evidence);
            }
            r.verifiers[indexes[i]] = fresh;
        }
        r.passed = !r.verifiers.isEmpty() && std::all_of(r.verifiers.cbegin(), r.verifiers.cend(),
                                                         [](const VerifierOutcome &v) { return v.passed; });
        if (r.passed != old.passed) {
            (r.passed ? report.newlyPassed : report.newlyFailed) += 1;
            report.changes.append(QStringLiteral("%1: %2").arg(r.key.toString(), r.passed ? QStringLiteral("passed")
                                                                                             : QStringLiteral("failed")));
        }
        if (const QString e = store.append(r); !e.isEmpty())
            return e;
    }
    if (const QString e = store.waitForWrites(); !e.isEmpty())
        return e;
    return report;
}

} // namespace sf
