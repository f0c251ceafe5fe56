#include "eval/RunAnalysis.h"
#include "eval/SkillCreatorWorkspace.h"

#include <QDir>
#include <QFileInfo>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

void writeJson(const QString &path, const QJsonObject &object)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    file.write(QJsonDocument(object).toJson());
}

QJsonObject statement(const QString &text, bool passed)
{
    return {{u"text"_s, text}, {u"passed"_s, passed}, {u"evidence"_s, passed ? u"found it"_s : u"not there"_s}};
}

} // namespace

/// skill-creator's workspace as its skill and its graders write it (reference/traces.md): iteration-N/eval-<id>/
/// with_skill|without_skill/, with or without run-N/, grading.json in both dialects, timing.json, benchmark.json.
class TestSkillCreatorWorkspace final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void workspace_newestIteration_evalsAsCases_runsAsRepeats_bothGradingDialects()
    {
        QTemporaryDir dir;
        const QString workspace = dir.filePath(u"csv-tools-workspace"_s);
        // An older iteration that must not be read.
        writeJson(workspace + u"/iteration-1/eval-0-sum/with_skill/grading.json"_s,
                  {{u"expectations"_s, QJsonArray{statement(u"old"_s, false)}}});
        const QString it = workspace + u"/iteration-2"_s;
        writeJson(it + u"/benchmark.json"_s,
                  {{u"metadata"_s, QJsonObject{{u"skill_name"_s, u"csv-tools"_s},
                                               {u"executor_model"_s, u"claude-sonnet-4-5"_s},
                                               {u"timestamp"_s, u"2026-11-30T10:00:00Z"_s}}}});
        // eval 0: with_skill has run-1 and run-2 (skill-creator's own dialect), without_skill is flat.
        writeJson(it + u"/eval-0-sum/eval_metadata.json"_s, {{u"eval_id"_s, 0}, {u"eval_name"_s, u"sum-column"_s}});
        writeJson(it + u"/eval-0-sum/with_skill/run-1/grading.json"_s,
                  {{u"expectations"_s, QJsonArray{statement(u"The answer is 2"_s, true), statement(u"Names b"_s, true)}},
                   {u"summary"_s, QJsonObject{{u"pass_rate"_s, 1.0}}}});
        writeJson(it + u"/eval-0-sum/with_skill/run-1/timing.json"_s,
                  {{u"total_tokens"_s, 4200}, {u"duration_ms"_s, 9100}});
        writeJson(it + u"/eval-0-sum/with_skill/run-2/grading.json"_s,
                  {{u"expectations"_s, QJsonArray{statement(u"The answer is 2"_s, true), statement(u"Names b"_s, false)}}});
        writeJson(it + u"/eval-0-sum/without_skill/grading.json"_s,
                  {{u"assertion_results"_s, QJsonArray{statement(u"The answer is 2"_s, false)}}});
        // eval 1: no metadata; another grader wrote assertion_results, under outputs/.
        writeJson(it + u"/eval-1/with_skill/outputs/grading.json"_s,
                  {{u"assertion_results"_s, QJsonArray{statement(u"Writes a CSV"_s, true)}}});
        writeJson(it + u"/eval-1/without_skill/grading.json"_s,
                  {{u"assertion_results"_s, QJsonArray{statement(u"Writes a CSV"_s, true)}}});

        QVERIFY(isSkillCreatorWorkspace(workspace));
        QVERIFY(isSkillCreatorWorkspace(it));
        QVERIFY(!isSkillCreatorWorkspace(dir.path()));
        auto imported = importSkillCreatorWorkspace(workspace, dir.filePath(u"runs"_s));
        QVERIFY2(std::holds_alternative<RunStore>(imported),
                 qPrintable(std::get_if<QString>(&imported) ? *std::get_if<QString>(&imported) : QString()));
        const RunStore &store = std::get<RunStore>(imported);
        QCOMPARE(store.manifest().skillName, u"csv-tools"_s);
        QCOMPARE(store.manifest().models.value(0).name, u"skill-creator:claude-sonnet-4-5"_s);
        const QList<ItemResult> &results = store.results();
        QCOMPARE(results.size(), 5); // 2 + 1 for sum-column, 1 + 1 for eval 1; iteration-1 left alone
        const auto find = [&](const QString &caseId, const QString &arm, int repeat) -> const ItemResult * {
            for (const ItemResult &r : results)
                if (r.key.caseId == caseId && r.key.arm == arm && r.key.repeat == repeat)
                    return &r;
            return nullptr;
        };
        const ItemResult *first = find(u"sum-column"_s, kWithSkillArm, 1);
        QVERIFY(first && first->passed);
        QCOMPARE(first->verifiers.size(), 2);
        QCOMPARE(first->usage.uncachedInput, 4200);
        QCOMPARE(first->latencyMs, 9100);
        const ItemResult *second = find(u"sum-column"_s, kWithSkillArm, 2);
        QVERIFY(second && !second->passed); // one statement failed
        QCOMPARE(second->verifiers.at(1).evidence, u"not there"_s);
        QVERIFY(!find(u"sum-column"_s, kBaselineArm, 1)->passed);
        QVERIFY(find(u"1"_s, kWithSkillArm, 1)->passed);
        QVERIFY(find(u"1"_s, kBaselineArm, 1)->passed);

        // The run reads back like any other, and its statistics pair the arms case by case.
        const auto analysis = analyzeRun(store.dir());
        QVERIFY(std::holds_alternative<RunAnalysis>(analysis));
        const ArmComparison *comparison =
            std::get<RunAnalysis>(analysis).summary.comparison(u"skill-creator:claude-sonnet-4-5"_s);
        QVERIFY(comparison);
        QCOMPARE(comparison->table.pairs(), 2); // repeat 1 of each case has both arms
        QCOMPARE(comparison->table.onlySecond, 1); // sum-column: failed without the skill, passed with it
    }

    void notAWorkspace_isNamed()
    {
        QTemporaryDir dir;
        auto imported = importSkillCreatorWorkspace(dir.path(), dir.filePath(u"runs"_s));
        QVERIFY(std::holds_alternative<QString>(imported));
        QVERIFY(std::get<QString>(imported).contains(u"not a skill-creator workspace"_s));
    }
};

QTEST_GUILESS_MAIN(TestSkillCreatorWorkspace)
#include "test_skill_creator_workspace.moc"
