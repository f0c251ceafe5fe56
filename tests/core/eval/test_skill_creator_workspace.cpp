#include "SkippedChecks.h"
#include "TestFiles.h"
#include "eval/RunAnalysis.h"
#include "eval/RunStore.h"
#include "eval/SkillCreatorWorkspace.h"
#include "eval/StatementPassRate.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
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

QJsonObject readJson(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

/// pdf-forms-workspace: 3 evals, 2 runs per arm, gradings and benchmark.json as skill-creator writes them
/// (make_workspace.py there; benchmark.json from skill-creator's own aggregate_benchmark.py).
const QString kPdfForms = QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/skill-creator/pdf-forms-workspace");

RunAnalysis importAndAnalyze(const QString &workspace, const QString &runsDir)
{
    auto imported = importSkillCreatorWorkspace(workspace, runsDir);
    if (const QString *error = std::get_if<QString>(&imported))
        qFatal("%s", qPrintable(*error));
    auto analysis = analyzeRun(std::get<RunStore>(imported).dir());
    if (const LoadError *error = std::get_if<LoadError>(&analysis))
        qFatal("%s", qPrintable(error->toString()));
    return std::get<RunAnalysis>(std::move(analysis));
}

const StatementPassRate *rateOf(const QList<StatementPassRate> &rates, const QString &arm)
{
    for (const StatementPassRate &r : rates) {
        if (r.arm == arm && r.split == u"all")
            return &r;
    }
    return nullptr;
}

/// Replaces the without_skill pass rate mean of the benchmark.json at @p path by @p mean.
void setBaselineBenchmarkRate(const QString &path, double mean)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    QJsonObject benchmark = QJsonDocument::fromJson(file.readAll()).object();
    file.close();
    QJsonObject summary = benchmark.value(u"run_summary"_s).toObject();
    QJsonObject without = summary.value(u"without_skill"_s).toObject();
    QJsonObject passRate = without.value(u"pass_rate"_s).toObject();
    passRate.insert(u"mean"_s, mean);
    without.insert(u"pass_rate"_s, passRate);
    summary.insert(u"without_skill"_s, without);
    benchmark.insert(u"run_summary"_s, summary);
    QFile::remove(path);
    if (!file.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    file.write(QJsonDocument(benchmark).toJson());
}

QString readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

/// One item of a Skillforge run, with the transcript and the workspace the runner leaves beside it.
ItemResult recordItem(RunStore &store, const QString &arm, const QString &caseId, int repeat, bool passed)
{
    ItemResult r;
    r.key = {u"local:qwen"_s, arm, caseId, repeat};
    r.passed = passed;
    r.answer = u"The answer for %1, %2"_s.arg(caseId, arm);
    r.usage.uncachedInput = 300;
    r.usage.output = 40 + repeat;
    r.latencyMs = 1500 * repeat;
    r.llmMs = 1000;
    r.turns = 2;
    r.toolCalls = 1;
    r.toolCallCounts.insert(u"write_file"_s, 1);
    r.stopReason = StopReason::Answered;
    r.startedAt = u"2026-12-01T10:00:00.000Z"_s;
    VerifierOutcome v;
    v.type = u"regex"_s;
    v.name = u"mentions fp32"_s;
    v.passed = passed;
    v.evidence = passed ? u"matched fp32"_s : u"no match for /fp32/"_s;
    r.verifiers.append(v);
    const QJsonArray messages{
        QJsonObject{{u"role"_s, u"system"_s}, {u"content"_s, u"You are a capable assistant."_s}},
        QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"Explain %1."_s.arg(caseId)}},
        QJsonObject{{u"role"_s, u"assistant"_s},
                    {u"content"_s, u""_s},
                    {u"tool_calls"_s, QJsonArray{QJsonObject{{u"id"_s, u"c1"_s},
                                                             {u"name"_s, u"write_file"_s},
                                                             {u"arguments"_s, uR"({"path": "notes.md"})"_s}}}}},
        QJsonObject{{u"role"_s, u"tool"_s}, {u"name"_s, u"write_file"_s}, {u"content"_s, u"```wrote```"_s}},
        QJsonObject{{u"role"_s, u"assistant"_s}, {u"content"_s, r.answer}}};
    r.transcript = store.writeTranscript(r.key, {{u"messages"_s, messages}});
    const QString workspace = store.freshWorkspace(r.key);
    QFile notes(workspace + u"/notes.md"_s);
    if (!notes.open(QIODevice::WriteOnly))
        qFatal("cannot write the workspace");
    notes.write("fp32 accumulation\n");
    notes.close();
    // A file named like one of the run's own records must not overwrite it.
    QFile clash(workspace + u"/transcript.md"_s);
    if (!clash.open(QIODevice::WriteOnly))
        qFatal("cannot write the workspace");
    clash.write("the student's own transcript.md\n");
    return r;
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

    // Issue 19: a run made here opens in skill-creator's viewer and aggregator (the paths they read, documented in
    // reference/traces.md and skill-creator's SKILL.md), and reads back here as the same run.
    void exportWorkspace_writesTheLayoutSkillCreatorReads_andImportsBackAsTheSameRun()
    {
        QTemporaryDir dir;
        RunManifest manifest;
        manifest.skillName = u"rmsnorm"_s;
        manifest.models = {{u"local:qwen"_s, u"local"_s, {}}};
        manifest.startedAt = u"2026-12-01T10:00:00Z"_s;
        RunStore store = std::get<RunStore>(RunStore::create(dir.filePath(u"runs"_s), manifest));
        // Two cases with string ids, two repeats; without the skill "warp-sum" fails, and one item is an error.
        QList<ItemResult> items;
        for (int repeat : {1, 2}) {
            items.append(recordItem(store, kBaselineArm, u"accumulation"_s, repeat, true));
            items.append(recordItem(store, kWithSkillArm, u"accumulation"_s, repeat, true));
            items.append(recordItem(store, kBaselineArm, u"Warp Sum"_s, repeat, false));
            items.append(recordItem(store, kWithSkillArm, u"Warp Sum"_s, repeat, repeat == 1));
        }
        items[7].error = u"HTTP 503 from the provider"_s;
        items[7].stopReason = StopReason::Error;
        items[7].verifiers.clear();
        for (const ItemResult &r : std::as_const(items))
            QCOMPARE(store.append(r), QString());

        const QString workspace = dir.filePath(u"rmsnorm-workspace"_s);
        QString iteration;
        QCOMPARE(exportSkillCreatorWorkspace(store, u"local:qwen"_s, workspace, &iteration), QString());
        QCOMPARE(iteration, workspace + u"/iteration-1"_s);

        // eval folders: numbered in the run's order, the id as a descriptive name; eval_metadata.json where the
        // aggregator reads it.
        const QJsonObject meta = readJson(iteration + u"/eval-2-warp-sum/eval_metadata.json"_s);
        QCOMPARE(meta.value(u"eval_id"_s).toInt(), 2);
        QCOMPARE(meta.value(u"eval_name"_s).toString(), u"Warp Sum"_s);
        QCOMPARE(meta.value(u"prompt"_s).toString(), u"Explain Warp Sum."_s);
        QCOMPARE(meta.value(u"assertions"_s).toArray(), QJsonArray{u"mentions fp32"_s});
        QVERIFY(QFileInfo::exists(iteration + u"/eval-1-accumulation/eval_metadata.json"_s));

        // grading.json in skill-creator's dialect, with the summary and timing the aggregator reads.
        const QString failedRun = iteration + u"/eval-2-warp-sum/without_skill/run-2"_s;
        const QJsonObject grading = readJson(failedRun + u"/grading.json"_s);
        const QJsonObject expectation = grading.value(u"expectations"_s).toArray().first().toObject();
        QCOMPARE(expectation.value(u"text"_s).toString(), u"mentions fp32"_s);
        QCOMPARE(expectation.value(u"passed"_s).toBool(), false);
        QCOMPARE(expectation.value(u"evidence"_s).toString(), u"no match for /fp32/"_s);
        const QJsonObject summary = grading.value(u"summary"_s).toObject();
        QCOMPARE(summary.value(u"passed"_s).toInt(), 0);
        QCOMPARE(summary.value(u"total"_s).toInt(), 1);
        QCOMPARE(summary.value(u"pass_rate"_s).toDouble(), 0.0);
        QCOMPARE(grading.value(u"timing"_s).toObject().value(u"total_duration_seconds"_s).toDouble(), 3.0);
        QCOMPARE(grading.value(u"execution_metrics"_s).toObject().value(u"total_tool_calls"_s).toInt(), 1);
        const QJsonObject timing = readJson(failedRun + u"/timing.json"_s);
        QCOMPARE(timing.value(u"total_tokens"_s).toInteger(), 342);
        QCOMPARE(timing.value(u"duration_ms"_s).toInteger(), 3000);

        // outputs/: what the viewer shows (the answer, the student's files) and the records it reads aside.
        const QString outputs = failedRun + u"/outputs"_s;
        QCOMPARE(readText(outputs + u"/final-answer.md"_s), u"The answer for Warp Sum, baseline"_s);
        QCOMPARE(readText(outputs + u"/notes.md"_s), u"fp32 accumulation\n"_s);
        QCOMPARE(readText(outputs + u"/workspace-transcript.md"_s), u"the student's own transcript.md\n"_s);
        const QString transcript = readText(outputs + u"/transcript.md"_s);
        // The viewer takes the prompt from this section when eval_metadata.json is beyond its reach (run-N/).
        QVERIFY2(transcript.contains(u"## Eval Prompt\n\nExplain Warp Sum.\n\n##"_s), qPrintable(transcript));
        QVERIFY(transcript.contains(u"Tool: `write_file`"_s));
        QVERIFY2(transcript.contains(u"````\n```wrote```\n````"_s), qPrintable(transcript)); // a longer fence
        QCOMPARE(readJson(outputs + u"/metrics.json"_s).value(u"files_created"_s).toArray(), QJsonArray{u"notes.md"_s});

        // The item that could not be judged says so to the aggregator's notes and keeps its error.
        const QJsonObject errorGrading = readJson(iteration + u"/eval-2-warp-sum/with_skill/run-2/grading.json"_s);
        QCOMPARE(errorGrading.value(u"error"_s).toString(), u"HTTP 503 from the provider"_s);
        QVERIFY(errorGrading.value(u"user_notes_summary"_s)
                    .toObject()
                    .value(u"uncertainties"_s)
                    .toArray()
                    .first()
                    .toString()
                    .contains(u"HTTP 503"_s));

        // benchmark.json beside the evals, numbered the same way and naming the run it came from.
        const QJsonObject benchmark = readJson(iteration + u"/benchmark.json"_s);
        const QJsonObject bmeta = benchmark.value(u"metadata"_s).toObject();
        QCOMPARE(bmeta.value(u"executor_model"_s).toString(), u"local:qwen"_s);
        QCOMPARE(bmeta.value(u"evals_run"_s).toArray(), (QJsonArray{1, 2}));
        QCOMPARE(bmeta.value(u"runs_per_configuration"_s).toInt(), 2);
        QCOMPARE(benchmark.value(u"runs"_s).toArray().size(), 8);

        // Exporting the same run again replaces its iteration; another run becomes the next one.
        QCOMPARE(exportSkillCreatorWorkspace(store, u"local:qwen"_s, workspace, &iteration), QString());
        QCOMPARE(iteration, workspace + u"/iteration-1"_s);
        QCOMPARE(QDir(workspace).entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden),
                 QStringList{u"iteration-1"_s}); // no temporary or replaced folder left behind
        RunStore second = std::get<RunStore>(RunStore::create(dir.filePath(u"runs"_s), manifest));
        QCOMPARE(second.append(items.first()), QString());
        QCOMPARE(exportSkillCreatorWorkspace(second, u"local:qwen"_s, workspace, &iteration), QString());
        QCOMPARE(iteration, workspace + u"/iteration-2"_s);
        QCOMPARE(exportSkillCreatorWorkspace(second, u"other:model"_s, workspace, &iteration),
                 u"the run has no results for other:model"_s);

        // The first iteration reads back as the same run: cases, arms, repeats, verdicts, errors, tokens, time.
        auto imported = importSkillCreatorWorkspace(workspace + u"/iteration-1"_s, dir.filePath(u"imported"_s));
        QVERIFY2(std::holds_alternative<RunStore>(imported),
                 qPrintable(std::get_if<QString>(&imported) ? *std::get_if<QString>(&imported) : QString()));
        const RunStore &back = std::get<RunStore>(imported);
        QCOMPARE(back.manifest().models.value(0).name, u"local:qwen"_s);
        QCOMPARE(back.manifest().skillName, u"rmsnorm"_s);
        QCOMPARE(back.results().size(), items.size());
        for (const ItemResult &original : std::as_const(items)) {
            const auto match = std::find_if(back.results().cbegin(), back.results().cend(),
                                            [&](const ItemResult &r) { return r.key == original.key; });
            QVERIFY2(match != back.results().cend(), qPrintable(original.key.toString()));
            QCOMPARE(match->passed, original.passed);
            QCOMPARE(match->isError(), original.isError());
            QCOMPARE(match->verifiers.size(), original.verifiers.size());
            QCOMPARE(match->totalTokens(), original.totalTokens());
            QCOMPARE(match->latencyMs, original.latencyMs);
            QCOMPARE(match->answer, original.answer);
        }
    }

    // Issue 34: workspaces as users lay them out.
    void newestIteration_isByNumberThenSuffix()
    {
        QTemporaryDir dir;
        const QString workspace = dir.filePath(u"csv-tools-workspace"_s);
        for (const QString &iteration : {u"iteration-4"_s, u"iteration-5"_s, u"iteration-5b"_s})
            writeJson(workspace + u'/' + iteration + u"/eval-1/with_skill/grading.json"_s,
                      {{u"expectations"_s, QJsonArray{statement(iteration, true)}}});
        auto imported = importSkillCreatorWorkspace(workspace, dir.filePath(u"runs"_s));
        QVERIFY(std::holds_alternative<RunStore>(imported));
        QCOMPARE(std::get<RunStore>(imported).results().value(0).verifiers.value(0).name, u"iteration-5b"_s);

        // Numbers compare as numbers: iteration-10 is newer than iteration-9.
        writeJson(workspace + u"/iteration-9/eval-1/with_skill/grading.json"_s,
                  {{u"expectations"_s, QJsonArray{statement(u"nine"_s, true)}}});
        writeJson(workspace + u"/iteration-10/eval-1/with_skill/grading.json"_s,
                  {{u"expectations"_s, QJsonArray{statement(u"ten"_s, true)}}});
        imported = importSkillCreatorWorkspace(workspace, dir.filePath(u"runs"_s));
        QVERIFY(std::holds_alternative<RunStore>(imported));
        QCOMPARE(std::get<RunStore>(imported).results().value(0).verifiers.value(0).name, u"ten"_s);
    }

    void customLayouts_evalFoldersOfAnyName_armMajor_runUnderscore_areRead()
    {
        QTemporaryDir dir;
        // An iteration folder given directly, its eval folders named for what they test.
        const QString named = dir.filePath(u"round-two"_s);
        writeJson(named + u"/sum-column/with_skill/grading.json"_s,
                  {{u"expectations"_s, QJsonArray{statement(u"Sums b"_s, true)}}});
        writeJson(named + u"/sum-column/without_skill/grading.json"_s,
                  {{u"expectations"_s, QJsonArray{statement(u"Sums b"_s, false)}}});
        QVERIFY(isSkillCreatorWorkspace(named));
        auto imported = importSkillCreatorWorkspace(named, dir.filePath(u"runs"_s));
        QVERIFY2(std::holds_alternative<RunStore>(imported),
                 qPrintable(std::get_if<QString>(&imported) ? *std::get_if<QString>(&imported) : QString()));
        QCOMPARE(std::get<RunStore>(imported).results().size(), 2);
        QCOMPARE(std::get<RunStore>(imported).results().value(0).key.caseId, u"sum-column"_s);

        // Arm-major: with_skill/<eval>/, run_N/ repeats, metadata beside the arms; hyphenated arm names.
        const QString workspace = dir.filePath(u"arm-major-workspace"_s);
        const QString it = workspace + u"/iteration-1"_s;
        writeJson(it + u"/eval-1/eval_metadata.json"_s, {{u"eval_id"_s, 1}, {u"eval_name"_s, u"sum"_s}});
        writeJson(it + u"/with_skill/eval-1/run_1/grading.json"_s,
                  {{u"expectations"_s, QJsonArray{statement(u"Sums b"_s, true)}}});
        writeJson(it + u"/with_skill/eval-1/run_2/grading.json"_s,
                  {{u"expectations"_s, QJsonArray{statement(u"Sums b"_s, false)}}});
        writeJson(it + u"/without-skill/eval-1/grading.json"_s,
                  {{u"expectations"_s, QJsonArray{statement(u"Sums b"_s, false)}}});
        QVERIFY(isSkillCreatorWorkspace(workspace));
        imported = importSkillCreatorWorkspace(workspace, dir.filePath(u"runs"_s));
        QVERIFY2(std::holds_alternative<RunStore>(imported),
                 qPrintable(std::get_if<QString>(&imported) ? *std::get_if<QString>(&imported) : QString()));
        QStringList keys;
        for (const ItemResult &r : std::get<RunStore>(imported).results())
            keys.append(r.key.toString() + (r.passed ? u" pass"_s : u" fail"_s));
        keys.sort();
        QCOMPARE(keys, (QStringList{u"skill-creator:executor|baseline|sum|1 fail"_s,
                                    u"skill-creator:executor|with_skill|sum|1 pass"_s,
                                    u"skill-creator:executor|with_skill|sum|2 fail"_s}));
    }

    void layoutsNotRead_sayWhatIsMissing()
    {
        QTemporaryDir dir;
        const QString workspace = dir.filePath(u"odd-workspace"_s);
        writeJson(workspace + u"/iteration-1/eval-1/with_skill/grading.json"_s,
                  {{u"expectations"_s, QJsonArray{statement(u"old"_s, true)}}});
        // The newest iteration names its arms in a way no tool does.
        QVERIFY(QDir().mkpath(workspace + u"/iteration-2/eval-1/skill"_s));
        QVERIFY(QDir().mkpath(workspace + u"/iteration-2/eval-1/no_skill"_s));
        auto imported = importSkillCreatorWorkspace(workspace, dir.filePath(u"runs"_s));
        QVERIFY(std::holds_alternative<QString>(imported));
        QCOMPARE(std::get<QString>(imported),
                 u"%1/iteration-2: no eval folder holding with_skill/ or without_skill/ (as <eval>/with_skill/ or "
                 "with_skill/<eval>/; found: eval-1/ (no_skill/, skill/)); to read the iteration before it, pass "
                 "%1/iteration-1"_s.arg(workspace));

        // An arm whose run was never graded.
        const QString ungraded = dir.filePath(u"ungraded"_s);
        writeJson(ungraded + u"/iteration-1/eval-1/with_skill/timing.json"_s, {{u"total_tokens"_s, 10}});
        imported = importSkillCreatorWorkspace(ungraded, dir.filePath(u"runs"_s));
        QVERIFY(std::holds_alternative<QString>(imported));
        QVERIFY2(std::get<QString>(imported).contains(u"eval-1/with_skill: no grading.json"_s),
                 qPrintable(std::get<QString>(imported)));

        // skill-creator's by its eval_metadata.json, so the import (not another tool's) says what it lacks.
        const QString metadataOnly = dir.filePath(u"metadata-only"_s);
        writeJson(metadataOnly + u"/eval-1/eval_metadata.json"_s, {{u"eval_id"_s, 1}});
        QVERIFY(QDir().mkpath(metadataOnly + u"/eval-1/baseline"_s));
        QVERIFY(isSkillCreatorWorkspace(metadataOnly));
        imported = importSkillCreatorWorkspace(metadataOnly, dir.filePath(u"runs"_s));
        QVERIFY2(std::get<QString>(imported).endsWith(u"found: eval-1/ (baseline/))"_s),
                 qPrintable(std::get<QString>(imported)));
    }

    void upskillBatch_withItsHyphenatedArms_isNotTakenForOne()
    {
        QTemporaryDir dir;
        writeJson(dir.filePath(u"eval/with-skill/test_1/test_result.json"_s), {{u"success"_s, true}});
        writeJson(dir.filePath(u"eval/baseline/test_1/test_result.json"_s), {{u"success"_s, false}});
        QVERIFY(!isSkillCreatorWorkspace(dir.path()));
    }

    void notAWorkspace_isNamed()
    {
        QTemporaryDir dir;
        auto imported = importSkillCreatorWorkspace(dir.path(), dir.filePath(u"runs"_s));
        QVERIFY(std::holds_alternative<QString>(imported));
        QVERIFY(std::get<QString>(imported).contains(u"not a skill-creator workspace"_s));
    }

    void importedWorkspace_statementPassRate_isBenchmarkJsonsFigure_whileNoBaselineCasePasses()
    {
        QTemporaryDir dir;
        const RunAnalysis run = importAndAnalyze(kPdfForms, dir.path());
        const QString model = u"skill-creator:claude-sonnet-4-5"_s;
        // Skillforge's case pass rate: no baseline item met every statement, 4 of 6 with the skill did.
        QCOMPARE(run.summary.arm(model, kBaselineArm)->passRate.successes, 0);
        QCOMPARE(run.summary.arm(model, kBaselineArm)->passRate.trials, 6);
        QCOMPARE(run.summary.arm(model, kWithSkillArm)->passRate.successes, 4);

        const QList<StatementPassRate> rates = statementPassRates(run);
        QCOMPARE(rates.size(), 2); // one model, two arms, no held-out cases
        const StatementPassRate *baseline = rateOf(rates, kBaselineArm);
        QVERIFY(baseline);
        QCOMPARE(baseline->model, model);
        QCOMPARE(baseline->items, 6);
        QCOMPARE(baseline->itemsPassed, 0);
        QCOMPARE(baseline->caseRate(), 0.0);
        QCOMPARE(baseline->statements, 4 + 4 + 5 + 5 + 10 + 10);
        QCOMPARE(baseline->statementsPassed, 3 + 3 + 4 + 3 + 8 + 7);
        // The mean of each run's rate (3/4, 3/4, 4/5, 3/5, 8/10, 7/10), not 28 of 38 pooled (0.737).
        QCOMPARE(baseline->statementRate, (0.75 + 0.75 + 0.8 + 0.6 + 0.8 + 0.7) / 6);
        const StatementPassRate *withSkill = rateOf(rates, kWithSkillArm);
        QVERIFY(withSkill);
        QCOMPARE(withSkill->itemsPassed, 4);
        QCOMPARE(withSkill->statementsPassed, 36);
        QCOMPARE(withSkill->statementRate, (1.0 + 1.0 + 1.0 + 0.8 + 1.0 + 0.9) / 6);

        // skill-creator's own figures, as its aggregator wrote them to benchmark.json, and kept by the import.
        const QJsonObject summary =
            readJson(kPdfForms + u"/iteration-1/benchmark.json"_s).value(u"run_summary"_s).toObject();
        const auto reported = [&](const QString &configuration) {
            return summary.value(configuration).toObject().value(u"pass_rate"_s).toObject().value(u"mean"_s).toDouble();
        };
        QCOMPARE(reported(u"without_skill"_s), 0.7333);
        QCOMPARE(reported(u"with_skill"_s), 0.95);
        QCOMPARE(baseline->benchmarkRate, std::optional<double>(0.7333));
        QCOMPARE(withSkill->benchmarkRate, std::optional<double>(0.95));
        QCOMPARE(qRound(baseline->statementRate * 10000) / 10000.0, reported(u"without_skill"_s));
        QVERIFY(baseline->agreesWithBenchmark());
        QVERIFY(withSkill->agreesWithBenchmark());
        QVERIFY(benchmarkMismatch(*baseline).isEmpty());
        QVERIFY(baseline->benchmarkFile.endsWith(u"pdf-forms-workspace/iteration-1/benchmark.json"_s));
    }

    void benchmarkJson_disagreeingWithTheGradings_isSaid()
    {
        QTemporaryDir dir;
        const QString workspace = dir.filePath(u"pdf-forms-workspace"_s);
        QVERIFY(test::copyTree(kPdfForms, workspace));
        setBaselineBenchmarkRate(workspace + u"/iteration-1/benchmark.json"_s, 0.7);
        const RunAnalysis run = importAndAnalyze(workspace, dir.filePath(u"runs"_s));
        const QList<StatementPassRate> rates = statementPassRates(run);
        const StatementPassRate *baseline = rateOf(rates, kBaselineArm);
        QVERIFY(baseline);
        QCOMPARE(baseline->benchmarkRate, std::optional<double>(0.7));
        QVERIFY(!baseline->agreesWithBenchmark());
        const QString mismatch = benchmarkMismatch(*baseline);
        QVERIFY2(mismatch.contains(u"reports 70.0% for skill-creator:claude-sonnet-4-5 · without skill"_s),
                 qPrintable(mismatch));
        QVERIFY2(mismatch.contains(u"its statements give 73.3% here"_s), qPrintable(mismatch));
        QVERIFY(rateOf(rates, kWithSkillArm)->agreesWithBenchmark());
    }

    void benchmarkJson_inTheConfigurationsDialect_isRead()
    {
        // What agents often write by hand (claude-plugins-official #605): configurations[{name, pass_rate{mean}}].
        QTemporaryDir dir;
        const QString workspace = dir.filePath(u"pdf-forms-workspace"_s);
        QVERIFY(test::copyTree(kPdfForms, workspace));
        const QString path = workspace + u"/iteration-1/benchmark.json"_s;
        QFile::remove(path);
        writeJson(path, {{u"metadata"_s, QJsonObject{{u"executor_model"_s, u"claude-sonnet-4-5"_s}}},
                         {u"configurations"_s,
                          QJsonArray{QJsonObject{{u"name"_s, u"with_skill"_s},
                                                 {u"pass_rate"_s, QJsonObject{{u"mean"_s, 0.95}, {u"stddev"_s, 0.08}}}},
                                     QJsonObject{{u"name"_s, u"without_skill"_s},
                                                 {u"pass_rate"_s, QJsonObject{{u"mean"_s, 0.73}}}}}}});
        const RunAnalysis run = importAndAnalyze(workspace, dir.filePath(u"runs"_s));
        const QList<StatementPassRate> rates = statementPassRates(run);
        QCOMPARE(rateOf(rates, kBaselineArm)->benchmarkRate, std::optional<double>(0.73));
        QVERIFY(rateOf(rates, kBaselineArm)->agreesWithBenchmark()); // 0.7333 rounded by hand
        QCOMPARE(rateOf(rates, kWithSkillArm)->benchmarkRate, std::optional<double>(0.95));
    }

    void runWithoutStatements_hasNoStatementPassRates()
    {
        // Skillforge's own run: regex and judge verifiers, no skill-creator statements.
        auto analysis = analyzeRun(QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/runs/skill-v1"));
        QVERIFY(std::holds_alternative<RunAnalysis>(analysis));
        QVERIFY(statementPassRates(std::get<RunAnalysis>(analysis)).isEmpty());
    }
};

SF_TEST_GUILESS_MAIN(TestSkillCreatorWorkspace)
#include "test_skill_creator_workspace.moc"
