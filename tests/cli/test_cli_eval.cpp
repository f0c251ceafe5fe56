#include "ChatReplies.h"
#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <memory>

using namespace sf::test;

namespace {

struct Result
{
    int exitCode = -1;
    QString out;
    QString err;
};

ScriptedResponse reply(const QString &text, int delayMs = 0)
{
    return scriptedReply(text, {40, 8, QStringLiteral("student-2026-01"), delayMs});
}

// Follows the skill only when its text is in the request (the with_skill arm's system prompt).
ScriptedResponse skillFollower(const RecordedRequest &request, int delayMs = 0)
{
    return reply(request.body.contains("USE-RMSNORM-EPS") ? QStringLiteral("USE-RMSNORM-EPS") : QStringLiteral("ok"),
                 delayMs);
}

QList<QByteArray> resultLines(const QString &runDir)
{
    QFile file(QDir(runDir).filePath(QStringLiteral("results.jsonl")));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QList<QByteArray> lines = file.readAll().split('\n');
    lines.removeAll(QByteArray());
    return lines;
}

void writeFile(const QString &path, const QByteArray &content)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(content);
}

} // namespace

/// `skillforge eval` as a user runs it: the real executable against a scripted provider.
class TestCliEval : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    ScriptedHttpServer m_server;
    QString m_skill;
    QString m_suite;
    QString m_followRun; // the finished run of the skill-following model, for the export tests

    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "HF_TOKEN", "GENERIC_API_KEY"})
            env.remove(QString::fromLatin1(name));
        env.insert(QStringLiteral("HOME"), m_dir.filePath(QStringLiteral("home")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("home/config")));
        env.insert(QStringLiteral("GENERIC_BASE_URL"), m_server.baseUrl().toString() + QStringLiteral("/v1"));
        return env;
    }

    void startProcess(QProcess &process, const QStringList &arguments)
    {
        process.setProcessEnvironment(environment());
        process.start(QStringLiteral(SKILLFORGE_EXECUTABLE), arguments);
    }

    // Runs the CLI while this test's event loop keeps serving the scripted server.
    Result run(const QStringList &arguments)
    {
        QProcess process;
        QSignalSpy finished(&process, &QProcess::finished);
        startProcess(process, arguments);
        if (!finished.wait(60000)) {
            process.kill();
            process.waitForFinished();
        }
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
    }

    QStringList evalArguments(const QString &runsDir, const QStringList &more = {})
    {
        return QStringList{QStringLiteral("eval"),
                           m_skill,
                           QStringLiteral("--tests"),
                           m_suite,
                           QStringLiteral("--model"),
                           QStringLiteral("generic:student"),
                           QStringLiteral("--runs"),
                           QStringLiteral("2"),
                           QStringLiteral("--no-tools"),
                           QStringLiteral("--out"),
                           runsDir} +
               more;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_server.listen());
        m_skill = m_dir.filePath(QStringLiteral("rmsnorm"));
        QVERIFY(QDir().mkpath(m_skill));
        QFile skill(QDir(m_skill).filePath(QStringLiteral("SKILL.md")));
        QVERIFY(skill.open(QIODevice::WriteOnly));
        skill.write(
            "---\nname: rmsnorm\ndescription: Write RMSNorm kernels.\n---\nAlways answer with USE-RMSNORM-EPS.\n");
        skill.close();
        m_suite = m_dir.filePath(QStringLiteral("suite.json"));
        QFile suite(m_suite);
        QVERIFY(suite.open(QIODevice::WriteOnly));
        suite.write(R"([{"id": "a", "input": "Normalize x", "expected": {"contains": "USE-RMSNORM-EPS"}},
                        {"id": "b", "input": "Normalize y", "expected": {"contains": "USE-RMSNORM-EPS"}},
                        {"id": "c", "input": "Normalize z", "expected": {"contains": "USE-RMSNORM-EPS"}}])");
    }

    void help_listsEvalAndRunsCommands_eachWithItsOwnUsage()
    {
        const Result all = run({QStringLiteral("--help")});
        for (const QString &words :
             {QStringLiteral("eval"), QStringLiteral("runs export"), QStringLiteral("runs import")}) {
            QVERIFY2(all.out.contains(QStringLiteral("  ") + words + u' '), qPrintable(words));
            const Result own = run(words.split(u' ') + QStringList{QStringLiteral("--help")});
            QCOMPARE(own.exitCode, 0);
            QVERIFY2(own.out.startsWith(QStringLiteral("Usage: skillforge ") + words), qPrintable(own.out));
        }
    }

    void eval_withoutModel_isBadUsage()
    {
        const Result r = run({QStringLiteral("eval"), m_skill, QStringLiteral("--tests"), m_suite});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("--model")));
    }

    // A model that cannot be called is refused before the run, naming what to set, rather than every item of it
    // ending in the same error; the judge is checked too.
    void eval_modelWithoutItsKey_isRefusedBeforeTheRun_namingTheVariable()
    {
        const int before = m_server.requestCount("/v1/chat/completions");
        const QString runs = m_dir.filePath(QStringLiteral("runs-no-key"));
        const Result noKey =
            run({QStringLiteral("eval"), m_skill, QStringLiteral("--tests"), m_suite, QStringLiteral("--model"),
                 QStringLiteral("anthropic:claude-haiku-4-5"), QStringLiteral("--out"), runs});
        QCOMPARE(noKey.exitCode, 2);
        QVERIFY2(noKey.err.contains(QStringLiteral("anthropic:claude-haiku-4-5: ")) &&
                     noKey.err.contains(QStringLiteral("ANTHROPIC_API_KEY")),
                 qPrintable(noKey.err));
        const Result noJudgeKey =
            run(evalArguments(runs, {QStringLiteral("--judge"), QStringLiteral("openai:gpt-4.1-mini")}));
        QCOMPARE(noJudgeKey.exitCode, 2);
        QVERIFY2(noJudgeKey.err.contains(QStringLiteral("OPENAI_API_KEY")), qPrintable(noJudgeKey.err));
        QCOMPARE(m_server.requestCount("/v1/chat/completions"), before);
        QVERIFY(!QFileInfo::exists(runs)); // nothing written for a run that did not start
    }

    // Issue 33: a skill without tests is evaluated on tests the teacher the user names writes first, kept in the
    // skill's evals/ for the next run; without a teacher, the message says how to give one.
    void skillWithoutTests_teacherWritesThemIntoEvalsFirst()
    {
        const QString skill = m_dir.filePath(QStringLiteral("untested"));
        QVERIFY(QDir().mkpath(skill));
        QFile file(QDir(skill).filePath(QStringLiteral("SKILL.md")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("---\nname: untested\ndescription: Answers with USE-RMSNORM-EPS. Use for norms.\n---\n"
                   "Always answer with USE-RMSNORM-EPS.\n");
        file.close();
        const QStringList base{QStringLiteral("eval"),
                               skill,
                               QStringLiteral("--model"),
                               QStringLiteral("generic:student"),
                               QStringLiteral("--no-tools"),
                               QStringLiteral("--out"),
                               m_dir.filePath(QStringLiteral("runs-untested"))};
        Result r = run(base);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("carries no tests")) &&
                     r.err.contains(QStringLiteral("--teacher MODEL")),
                 qPrintable(r.err));

        const QString cases = QStringLiteral(R"({"cases": [
            {"input": "Normalize x", "expected": {"contains": ["USE-RMSNORM-EPS"]}},
            {"input": "Normalize y", "expected": {"contains": ["USE-RMSNORM-EPS"]}},
            {"input": "Normalize z", "expected": {"contains": ["USE-RMSNORM-EPS"]}, "split": "heldout"}]})");
        m_server.routeHandler("POST", "/v1/chat/completions", [cases](const RecordedRequest &request) {
            return request.body.contains("\"model\":\"teacher\"") ? reply(cases) : skillFollower(request);
        });
        r = run(base + QStringList{QStringLiteral("--teacher"), QStringLiteral("generic:teacher"),
                                   QStringLiteral("--test-count"), QStringLiteral("3")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString written = QDir(skill).filePath(QStringLiteral("evals/evals.json"));
        QVERIFY2(r.err.contains(QStringLiteral("asking generic:teacher to write 3 test cases")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("Wrote %1: 3 cases").arg(written)), qPrintable(r.err));
        QVERIFY(QFileInfo::exists(written));
        QVERIFY2(r.err.contains(QStringLiteral("6 items")), qPrintable(r.err)); // 3 cases, two arms, one repeat
        // The next run finds them: no teacher needed.
        r = run(base);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }

    void skillFollowingModel_liftOne_gatePasses_jsonHasEveryField()
    {
        m_server.routeHandler("POST", "/v1/chat/completions",
                              [](const RecordedRequest &r) { return skillFollower(r); });
        const QString runs = m_dir.filePath(QStringLiteral("runs-follow"));
        const Result r =
            run(evalArguments(runs, {QStringLiteral("--json"), QStringLiteral("--min-lift"), QStringLiteral("0.9")}));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("[12/12]")), qPrintable(r.err));
        // The concurrency each provider gets, and why, before the items run.
        QVERIFY2(r.err.contains(QStringLiteral("concurrency 4: generic 4 (the run's concurrency)")), qPrintable(r.err));
        const QJsonObject json = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const QJsonObject comparison = json.value(QStringLiteral("summary"))
                                           .toObject()
                                           .value(QStringLiteral("comparisons"))
                                           .toArray()
                                           .first()
                                           .toObject();
        QCOMPARE(comparison.value(QStringLiteral("lift")).toDouble(), 1.0);
        QCOMPARE(comparison.value(QStringLiteral("only_with_skill")).toInt(), 6);
        // The lift's 95% interval (Newcombe's paired score interval) bounds it: with six pairs all flipped one way
        // its low end is above zero but, six pairs being few, well below the lift of 1 at its high end.
        const QJsonObject liftCi = comparison.value(QStringLiteral("lift_ci95")).toObject();
        QVERIFY2(liftCi.value(QStringLiteral("low")).isDouble() && liftCi.value(QStringLiteral("high")).isDouble(),
                 QJsonDocument(comparison).toJson().constData());
        const double low = liftCi.value(QStringLiteral("low")).toDouble();
        const double high = liftCi.value(QStringLiteral("high")).toDouble();
        QVERIFY2(0 < low && low < 1.0 && high == 1.0, QJsonDocument(liftCi).toJson().constData());
        // Six pairs, all flipped to pass: a clear direction, but under the default minimum of ten pairs.
        const QJsonObject verdicts = json.value(QStringLiteral("verdicts")).toObject();
        QCOMPARE(verdicts.value(QStringLiteral("thresholds")).toObject().value(QStringLiteral("min_pairs")).toInt(),
                 10);
        const QJsonObject verdict = verdicts.value(QStringLiteral("models")).toArray().first().toObject();
        QCOMPARE(verdict.value(QStringLiteral("verdict")).toString(), QStringLiteral("cant_tell"));
        QCOMPARE(verdict.value(QStringLiteral("lift_ci95")).toObject(), liftCi); // the interval the verdict weighed
        // The arms' prompts differ only by the skill, and the skill's text reached no baseline item.
        const QJsonObject contamination = json.value(QStringLiteral("contamination")).toObject();
        QVERIFY(contamination.value(QStringLiteral("prompts_identical_but_for_the_skill")).toBool());
        QCOMPARE(contamination.value(QStringLiteral("transcripts_read")).toInt(), 12);
        QVERIFY(contamination.value(QStringLiteral("skill_lines_checked")).toInt() > 0);
        QVERIFY(contamination.value(QStringLiteral("skill_text_in_baseline")).toArray().isEmpty());
        QVERIFY(verdict.value(QStringLiteral("more_pairs_needed")).toInt() >= 4);
        const QJsonObject run = json.value(QStringLiteral("run")).toObject();
        QVERIFY(run.value(QStringLiteral("skill"))
                    .toObject()
                    .value(QStringLiteral("content_hash"))
                    .toString()
                    .startsWith(QStringLiteral("sha256:")));
        QVERIFY(run.value(QStringLiteral("suite"))
                    .toObject()
                    .value(QStringLiteral("hash"))
                    .toString()
                    .startsWith(QStringLiteral("sha256:")));
        QCOMPARE(run.value(QStringLiteral("models"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("resolved_id"))
                     .toString(),
                 QStringLiteral("student-2026-01"));
        QCOMPARE(run.value(QStringLiteral("status")).toString(), QStringLiteral("finished"));
        QVERIFY(!run.value(QStringLiteral("finished_at")).toString().isEmpty());
        m_followRun = json.value(QStringLiteral("run_dir")).toString();
        QCOMPARE(resultLines(m_followRun).size(), 12);
    }

    void runsExportAndImport_upskillLayoutAndBenchmark()
    {
        QVERIFY(!m_followRun.isEmpty());
        const QString batch = m_dir.filePath(QStringLiteral("upskill-batch"));
        Result r = run({QStringLiteral("runs"), QStringLiteral("export"), m_followRun, QStringLiteral("--to"),
                        QStringLiteral("upskill"), QStringLiteral("-o"), batch});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(QFile::exists(batch + QStringLiteral("/run_4/run_result.json"))); // 2 arms x 2 repeats
        QVERIFY(QFile::exists(batch + QStringLiteral("/batch_summary.json")));
        r = run({QStringLiteral("runs"), QStringLiteral("import"), batch, QStringLiteral("--out"),
                 m_dir.filePath(QStringLiteral("imported"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(resultLines(r.out.trimmed()).size(), 12); // each upskill run's 3 counted cases

        // upskill 0.2.1's runs/ folder: a run per batch, the interrupted one too.
        r = run({QStringLiteral("runs"), QStringLiteral("import"),
                 QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/runs/upskill-0.2.1-runs"),
                 QStringLiteral("--out"), m_dir.filePath(QStringLiteral("imported-upskill-runs"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QStringList imported = r.out.trimmed().split(u'\n');
        QCOMPARE(imported.size(), 2);
        QCOMPARE(resultLines(imported.first()).size(), 14);
        QCOMPARE(resultLines(imported.last()).size(), 7);

        // skill-creator: by default a workspace in the run folder, named after the skill as skill-creator names it.
        r = run({QStringLiteral("runs"), QStringLiteral("export"), m_followRun, QStringLiteral("--to"),
                 QStringLiteral("skill-creator")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QStringList workspaces = QDir(m_followRun).entryList({QStringLiteral("*-workspace")}, QDir::Dirs);
        QCOMPARE(workspaces.size(), 1);
        const QString iteration = m_followRun + u'/' + workspaces.first() + QStringLiteral("/iteration-1");
        QVERIFY2(r.err.contains(iteration), qPrintable(r.err));
        QVERIFY(QFile::exists(iteration + QStringLiteral("/benchmark.json")));
        r = run({QStringLiteral("runs"), QStringLiteral("import"), m_followRun + u'/' + workspaces.first(),
                 QStringLiteral("--out"), m_dir.filePath(QStringLiteral("imported-skill-creator"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(resultLines(r.out.trimmed()).size(), resultLines(m_followRun).size());
        // -o FILE.json: benchmark.json alone, as before workspaces were written.
        const QString benchmark = m_dir.filePath(QStringLiteral("benchmark-only.json"));
        r = run({QStringLiteral("runs"), QStringLiteral("export"), m_followRun, QStringLiteral("--to"),
                 QStringLiteral("skill-creator"), QStringLiteral("-o"), benchmark});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(QFile::exists(benchmark));
    }

    void runsImport_upskillV2Batch_oneItemPerTestAndArm()
    {
        const Result r = run({QStringLiteral("runs"), QStringLiteral("import"),
                              QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/runs/upskill-v2-batch"),
                              QStringLiteral("--out"), m_dir.filePath(QStringLiteral("imported-v2"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QList<QByteArray> lines = resultLines(r.out.trimmed());
        QCOMPARE(lines.size(), 8);
        QSet<QString> cases;
        for (const QByteArray &line : lines)
            cases.insert(QJsonDocument::fromJson(line).object().value(QStringLiteral("case")).toString());
        QCOMPARE(cases, (QSet<QString>{QStringLiteral("test_1"), QStringLiteral("test_2")}));
    }

    void indifferentModel_failsTheLiftGate_withExitOne()
    {
        m_server.routeHandler("POST", "/v1/chat/completions",
                              [](const RecordedRequest &) { return reply(QStringLiteral("USE-RMSNORM-EPS")); });
        const Result r = run(
            evalArguments(m_dir.filePath(QStringLiteral("runs-same")),
                          {QStringLiteral("--min-lift"), QStringLiteral("0.1"), QStringLiteral("--verdict-min-pairs"),
                           QStringLiteral("5"), QStringLiteral("--max-cost-per-pass"), QStringLiteral("1")}));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("gate not met")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("above --max-cost-per-pass 1")), qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("lift generic:student [all]: +0.00")), qPrintable(r.out));
        // A cost gate on a model without a price is not met: an unknown cost is not a cheap one.
        QVERIFY2(r.out.contains(QStringLiteral("cost generic:student with_skill: price unknown")), qPrintable(r.out));
        // The verdict and the thresholds that decided it, printed beside the statistics.
        QVERIFY2(r.out.contains(QStringLiteral("verdict generic:student [all]: cut: no lift (lift 0.0 pp")),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("can't tell yet under 5 paired cases")), qPrintable(r.out));
    }

    void overrideCaseRepeats_makesRunsApplyToEveryCase_elseTheCasesOwnRepeatsWin()
    {
        m_server.routeHandler("POST", "/v1/chat/completions",
                              [](const RecordedRequest &r) { return skillFollower(r); });
        const QString suite = m_dir.filePath(QStringLiteral("own-repeats.json"));
        writeFile(suite, R"([
            {"id": "a", "input": "Normalize x", "expected": {"contains": "USE-RMSNORM-EPS"}, "repeats": 3},
            {"id": "b", "input": "Normalize y", "expected": {"contains": "USE-RMSNORM-EPS"}}])");
        // The repeats each case ran, per arm: {case: {arm: repeats}}.
        auto repeatsRun = [](const QString &runDir) {
            QMap<QString, QMap<QString, int>> repeats;
            for (const QByteArray &line : resultLines(runDir)) {
                const QJsonObject o = QJsonDocument::fromJson(line).object();
                ++repeats[o.value(QStringLiteral("case")).toString()][o.value(QStringLiteral("arm")).toString()];
            }
            return repeats;
        };
        const QStringList base{QStringLiteral("eval"),       m_skill,
                               QStringLiteral("--tests"),    suite,
                               QStringLiteral("--model"),    QStringLiteral("generic:student"),
                               QStringLiteral("--runs"),     QStringLiteral("1"),
                               QStringLiteral("--no-tools"), QStringLiteral("--json"),
                               QStringLiteral("--out")};

        // Without the flag the case's own "repeats": 3 wins over --runs 1: 2 arms x (3 + 1) items.
        Result r = run(base + QStringList{m_dir.filePath(QStringLiteral("runs-own-repeats"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral(": 8 items (0 already done)")), qPrintable(r.err));
        QJsonObject json = QJsonDocument::fromJson(r.out.toUtf8()).object();
        auto parameters = [&json] {
            return json.value(QStringLiteral("run")).toObject().value(QStringLiteral("parameters")).toObject();
        };
        QCOMPARE(parameters().value(QStringLiteral("runs_for_every_case")).toBool(true), false);
        QMap<QString, QMap<QString, int>> repeats = repeatsRun(json.value(QStringLiteral("run_dir")).toString());
        for (const QString &arm : {QStringLiteral("baseline"), QStringLiteral("with_skill")}) {
            QCOMPARE(repeats.value(QStringLiteral("a")).value(arm), 3);
            QCOMPARE(repeats.value(QStringLiteral("b")).value(arm), 1);
        }

        // With it, --runs 1 holds for every case: one repeat per case and arm; run.json keeps the choice for --resume.
        r = run(base + QStringList{m_dir.filePath(QStringLiteral("runs-override-repeats")),
                                   QStringLiteral("--override-case-repeats")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral(": 4 items (0 already done)")), qPrintable(r.err));
        json = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(parameters().value(QStringLiteral("runs_for_every_case")).toBool(false), true);
        const QString runDir = json.value(QStringLiteral("run_dir")).toString();
        QCOMPARE(resultLines(runDir).size(), 4);
        repeats = repeatsRun(runDir);
        for (const QString &caseId : {QStringLiteral("a"), QStringLiteral("b")})
            for (const QString &arm : {QStringLiteral("baseline"), QStringLiteral("with_skill")})
                QCOMPARE(repeats.value(caseId).value(arm), 1);
    }

    void judgeGradedSuiteWithoutJudge_saysSoBeforeTheFirstItem()
    {
        m_server.routeHandler("POST", "/v1/chat/completions",
                              [](const RecordedRequest &r) { return skillFollower(r); });
        // skill-creator's evals with expected_output alone: only a judge model can grade them.
        const QString suite = m_dir.filePath(QStringLiteral("expected-output.json"));
        writeFile(suite, R"({"skill_name": "rmsnorm", "evals": [
            {"id": 1, "prompt": "Normalize x", "expected_output": "An answer that reads USE-RMSNORM-EPS"},
            {"id": 2, "prompt": "Normalize y", "expected_output": "An answer that reads USE-RMSNORM-EPS"}]})");
        const qsizetype requestsBefore = m_server.requests().size();
        const Result r = run({QStringLiteral("eval"), m_skill, QStringLiteral("--tests"), suite,
                              QStringLiteral("--model"), QStringLiteral("generic:student"), QStringLiteral("--runs"),
                              QStringLiteral("1"), QStringLiteral("--no-tools"), QStringLiteral("--out"),
                              m_dir.filePath(QStringLiteral("runs-no-judge"))});
        QVERIFY2(r.exitCode != 2, qPrintable(r.err));             // the run went ahead
        QCOMPARE(m_server.requests().size() - requestsBefore, 4); // the students' items; no judge was asked
        const QString note = QStringLiteral("note: 2 of the suite's 2 cases are graded by a judge model (skill-creator "
                                            "expectations or expected_output, llm_judge checks) and none was given: "
                                            "those checks will be \"not available\". Choose one with --judge MODEL.\n");
        const qsizetype noteAt = r.err.indexOf(note);
        QVERIFY2(noteAt >= 0, qPrintable(r.err));
        // Once, before the run: the first item's progress line comes after it.
        QCOMPARE(r.err.count(QStringLiteral("graded by a judge model")), 1);
        const qsizetype firstItemAt = r.err.indexOf(QRegularExpression(
            QStringLiteral("^generic:student (baseline|with_skill) "), QRegularExpression::MultilineOption));
        QVERIFY2(firstItemAt >= 0, qPrintable(r.err));
        QVERIFY2(noteAt < firstItemAt, qPrintable(r.err));
    }

    void badSuite_isBadUsage_namingFileAndLine()
    {
        const QString broken = m_dir.filePath(QStringLiteral("broken.json"));
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("[\n {\"input\": \"x\",\n  \"verifiers\": [{\"type\": \"nope\"}]}\n]");
        file.close();
        const Result r = run({QStringLiteral("eval"), m_skill, QStringLiteral("--tests"), broken,
                              QStringLiteral("--model"), QStringLiteral("generic:student")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(broken + QStringLiteral(":3")), qPrintable(r.err));
    }

    void resume_retriesItemsThatEndedInAnError_newLineSupersedesIt()
    {
        m_server.routeHandler("POST", "/v1/chat/completions", [](const RecordedRequest &r) {
            if (r.body.contains("Normalize z"))
                return ScriptedResponse::json(400, R"({"error":{"message":"context length exceeded"}})");
            return skillFollower(r);
        });
        const QString runs = m_dir.filePath(QStringLiteral("runs-errors"));
        Result r = run(evalArguments(runs, {QStringLiteral("--json")}));
        // Not finished: exit 3, and the last line says how many items erred and how to finish the run.
        QVERIFY2(r.exitCode == 3, qPrintable(r.err));
        const QString runDir =
            QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("run_dir")).toString();
        QCOMPARE(resultLines(runDir).size(), 12);
        const QString lastLine = r.err.trimmed().split(u'\n').last();
        QVERIFY2(lastLine.startsWith(QStringLiteral("run not finished: of 12 items, 4 ended in errors (the first: ")),
                 qPrintable(lastLine));
        QVERIFY2(lastLine.endsWith(QStringLiteral("finish it with: skillforge eval --resume ") + runDir),
                 qPrintable(lastLine));

        m_server.routeHandler("POST", "/v1/chat/completions",
                              [](const RecordedRequest &request) { return skillFollower(request); });
        const qsizetype requestsBefore = m_server.requests().size();
        r = run({QStringLiteral("eval"), QStringLiteral("--resume"), runDir, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(m_server.requests().size() - requestsBefore, 4); // case c: 2 arms x 2 repeats
        QCOMPARE(resultLines(runDir).size(), 16);                 // appended, never rewritten
        const QJsonObject comparison = QJsonDocument::fromJson(r.out.toUtf8())
                                           .object()
                                           .value(QStringLiteral("summary"))
                                           .toObject()
                                           .value(QStringLiteral("comparisons"))
                                           .toArray()
                                           .first()
                                           .toObject();
        QCOMPARE(comparison.value(QStringLiteral("lift")).toDouble(), 1.0);
        QCOMPARE(comparison.value(QStringLiteral("only_with_skill")).toInt(), 6);
    }

    void resume_usesTheExecutorRunJsonRecords_theCommandLineOverridesIt()
    {
        m_server.routeHandler("POST", "/v1/chat/completions",
                              [](const RecordedRequest &request) { return skillFollower(request); });
        const QString runs = m_dir.filePath(QStringLiteral("runs-executor"));
        Result r = run(evalArguments(runs, {QStringLiteral("--json")}));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString runDir =
            QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("run_dir")).toString();
        const QString manifestPath = QDir(runDir).filePath(QStringLiteral("run.json"));
        auto manifest = [&] {
            QFile file(manifestPath);
            return file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll()).object() : QJsonObject();
        };
        auto writeManifest = [&](const QJsonObject &json) {
            QFile file(manifestPath);
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write(QJsonDocument(json).toJson());
        };
        QCOMPARE(manifest().value(QStringLiteral("executor")).toObject(),
                 (QJsonObject{{QStringLiteral("name"), QStringLiteral("local")}}));

        // As if the run had gone to a cluster whose configuration is not here: the resume tries that cluster again.
        QJsonObject json = manifest();
        json.insert(QStringLiteral("executor"),
                    QJsonObject{{QStringLiteral("name"), QStringLiteral("slurm")},
                                {QStringLiteral("partition"), QStringLiteral("recorded-partition")},
                                {QStringLiteral("slurm_conf"), QStringLiteral("/no/such/cluster/slurm.conf")}});
        writeManifest(json);
        const qsizetype requests = m_server.requests().size();
        r = run({QStringLiteral("eval"), QStringLiteral("--resume"), runDir});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("/no/such/cluster/slurm.conf")), qPrintable(r.err));
        QCOMPARE(m_server.requests().size(), requests);

        r = run({QStringLiteral("eval"), QStringLiteral("--resume"), runDir, QStringLiteral("--executor"),
                 QStringLiteral("local")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("heavy work on: this machine, from the command line (run.json recorded "
                                               "Slurm (partition recorded-partition))")),
                 qPrintable(r.err));
        QCOMPARE(manifest().value(QStringLiteral("executor")).toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("local")); // the latest session's

        // A run.json from before the executor was recorded ran here, and resumes here.
        json = manifest();
        json.remove(QStringLiteral("executor"));
        writeManifest(json);
        r = run({QStringLiteral("eval"), QStringLiteral("--resume"), runDir});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("heavy work on: this machine, as run.json records")), qPrintable(r.err));
    }

    void runsExport_ofARunAnotherProcessIsWriting_isNotRefusedByTheWriterLock()
    {
        // The first item answers at once; the next ones take long, so the eval holds the run's writer lock while
        // `runs export` reads it.
        auto answered = std::make_shared<int>(0);
        m_server.routeHandler("POST", "/v1/chat/completions", [answered](const RecordedRequest &r) {
            return skillFollower(r, (*answered)++ ? 60000 : 0);
        });
        const QString runs = m_dir.filePath(QStringLiteral("runs-export-while-written"));
        QProcess process;
        startProcess(process, evalArguments(runs, {QStringLiteral("--concurrency"), QStringLiteral("1")}));
        QTRY_VERIFY_WITH_TIMEOUT(!QDir(runs).entryList(QDir::Dirs | QDir::NoDotAndDotDot).isEmpty(), 20000);
        const QString runDir = QDir(runs).filePath(QDir(runs).entryList(QDir::Dirs | QDir::NoDotAndDotDot).first());
        QTRY_COMPARE_WITH_TIMEOUT(resultLines(runDir).size(), 1, 20000);

        const QString batch = m_dir.filePath(QStringLiteral("upskill-while-written"));
        const Result r = run({QStringLiteral("runs"), QStringLiteral("export"), runDir, QStringLiteral("--to"),
                              QStringLiteral("upskill"), QStringLiteral("-o"), batch});
        const bool writerStillRunning = process.state() == QProcess::Running;
        process.kill();
        QVERIFY(process.waitForFinished(10000));
        QVERIFY2(writerStillRunning, "the eval finished before the export could overlap it");
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(!r.err.contains(QStringLiteral("is being written")), qPrintable(r.err));
        // What the run holds so far: its one finished item, as one upskill run.
        QVERIFY(QFile::exists(batch + QStringLiteral("/batch_summary.json")));
        QVERIFY(QFile::exists(batch + QStringLiteral("/run_1/run_result.json")));
        QVERIFY(!QFile::exists(batch + QStringLiteral("/run_2")));
    }

    void killedMidRun_thenResume_yieldsTheFullMatrixExactlyOnce()
    {
        m_server.routeHandler("POST", "/v1/chat/completions",
                              [](const RecordedRequest &r) { return skillFollower(r, 150); });
        const QString runs = m_dir.filePath(QStringLiteral("runs-kill"));
        QProcess process;
        startProcess(process, evalArguments(runs, {QStringLiteral("--concurrency"), QStringLiteral("2")}));
        QString runDir;
        QTRY_VERIFY_WITH_TIMEOUT(!QDir(runs).entryList(QDir::Dirs | QDir::NoDotAndDotDot).isEmpty(), 20000);
        runDir = QDir(runs).filePath(QDir(runs).entryList(QDir::Dirs | QDir::NoDotAndDotDot).first());
        QTRY_VERIFY_WITH_TIMEOUT(resultLines(runDir).size() >= 4, 20000);
        // A second writer while the first is at work is refused, naming it, and runs nothing.
        const Result second = run({QStringLiteral("eval"), QStringLiteral("--resume"), runDir});
        QCOMPARE(second.exitCode, 2);
        QVERIFY2(second.err.contains(QStringLiteral("is being written by skillforge eval (pid %1 on ")
                                         .arg(process.processId())),
                 qPrintable(second.err));
        QVERIFY(process.state() == QProcess::Running);
        process.kill(); // SIGKILL: no chance to tidy up; the kernel releases its lock
        QVERIFY(process.waitForFinished(10000));
        const qsizetype before = resultLines(runDir).size();
        QVERIFY2(before < 12, "the run finished before it could be killed");

        const Result r = run({QStringLiteral("eval"), QStringLiteral("--resume"), runDir, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QList<QByteArray> lines = resultLines(runDir);
        QCOMPARE(lines.size(), 12);
        QSet<QString> keys;
        for (const QByteArray &line : lines) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            keys.insert(QStringLiteral("%1|%2|%3")
                            .arg(o.value(QStringLiteral("arm")).toString(), o.value(QStringLiteral("case")).toString())
                            .arg(o.value(QStringLiteral("repeat")).toInt()));
        }
        QCOMPARE(keys.size(), 12);
        const QJsonObject json = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(json.value(QStringLiteral("summary"))
                     .toObject()
                     .value(QStringLiteral("comparisons"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("lift"))
                     .toDouble(),
                 1.0);
    }

    // Ctrl-C or SIGTERM stops a local run in order: exit 3, what finished kept, the last line the resume command.
    void signalMidRun_stopsInOrder_exitThree_lastLineSaysHowToResume_data()
    {
        QTest::addColumn<int>("signal");
        QTest::addColumn<QString>("named");
        QTest::newRow("SIGTERM") << int(SIGTERM) << QStringLiteral("SIGTERM");
        QTest::newRow("SIGINT") << int(SIGINT) << QStringLiteral("SIGINT (Ctrl-C)");
    }

    void signalMidRun_stopsInOrder_exitThree_lastLineSaysHowToResume()
    {
        QFETCH(int, signal);
        QFETCH(QString, named);
        m_server.routeHandler("POST", "/v1/chat/completions",
                              [](const RecordedRequest &r) { return skillFollower(r, 300); });
        const QString runs = m_dir.filePath(QStringLiteral("runs-signal-") + QString::number(signal));
        QProcess process;
        QSignalSpy finished(&process, &QProcess::finished);
        startProcess(process, evalArguments(runs, {QStringLiteral("--concurrency"), QStringLiteral("1")}));
        QTRY_VERIFY_WITH_TIMEOUT(!QDir(runs).entryList(QDir::Dirs | QDir::NoDotAndDotDot).isEmpty(), 20000);
        const QString runDir = QDir(runs).filePath(QDir(runs).entryList(QDir::Dirs | QDir::NoDotAndDotDot).first());
        QTRY_VERIFY_WITH_TIMEOUT(resultLines(runDir).size() >= 2, 20000);
        QCOMPARE(::kill(pid_t(process.processId()), signal), 0);
        QVERIFY(finished.wait(20000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit); // stopped in order, not killed by the signal
        QCOMPARE(process.exitCode(), 3);
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("stopped: interrupted by ") + named), qPrintable(err));
        const QString lastLine = err.trimmed().section(u'\n', -1);
        QVERIFY2(lastLine.startsWith(QStringLiteral("run not finished: of 12 items, ")) &&
                     lastLine.endsWith(QStringLiteral("finish it with: skillforge eval --resume ") + runDir),
                 qPrintable(lastLine));
        const qsizetype kept = resultLines(runDir).size();
        QVERIFY(kept >= 2 && kept < 12);
        const QJsonObject manifest = QJsonDocument::fromJson([&] {
                                         QFile file(QDir(runDir).filePath(QStringLiteral("run.json")));
                                         return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
                                     }())
                                         .object();
        QCOMPARE(manifest.value(QStringLiteral("status")).toString(), QStringLiteral("cancelled"));

        const Result resumed = run({QStringLiteral("eval"), QStringLiteral("--resume"), runDir});
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
        QCOMPARE(resultLines(runDir).size(), 12);
    }
};

SF_TEST_GUILESS_MAIN(TestCliEval)
#include "test_cli_eval.moc"
