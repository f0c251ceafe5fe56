#include "RunExport.h"

#include "JsonFile_p.h"
#include "SkillCreatorWorkspace.h"
#include "Statistics.h"
#include "common/AtomicFile.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>
#include <optional>

namespace sf {

namespace {

QByteArray pretty(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Indented);
}

QString csvField(const QString &value)
{
    if (!value.contains(u',') && !value.contains(u'"') && !value.contains(u'\n'))
        return value;
    return u'"' + QString(value).replace(QStringLiteral("\""), QStringLiteral("\"\"")) + u'"';
}

// One upskill "run": a model's arm over the whole suite for one repeat.
struct UpskillRun
{
    QString model;
    QString arm;
    int repeat = 1;
    QList<ItemResult> items;
};

QList<UpskillRun> groupRuns(const RunStore &store)
{
    QList<UpskillRun> runs;
    int maxRepeat = 0;
    for (const ItemResult &r : store.results())
        maxRepeat = std::max(maxRepeat, r.key.repeat);
    for (const RunModel &model : store.manifest().models) {
        for (int repeat = 1; repeat <= maxRepeat; ++repeat) {
            // Baseline first: upskill's `runs` pairs each with-skill run with the latest baseline numbered before it.
            for (const QString &arm : {kBaselineArm, kWithSkillArm}) {
                UpskillRun run{model.name, arm, repeat, {}};
                for (const ItemResult &r : store.results()) {
                    if (r.key.model == model.name && r.key.arm == arm && r.key.repeat == repeat)
                        run.items.append(r);
                }
                if (!run.items.isEmpty())
                    runs.append(run);
            }
        }
    }
    return runs;
}

/// What upskill 0.2.1's `eval` writes for a run (cli.py, evaluate.py, models.EvalResults): a case passes or not
/// (an error fails it); "assertions" count the suite's cases, int(rate x cases) passed; a baseline run passed when
/// more than half its cases did; a with-skill run passed when the skill is "beneficial" against the baseline of the
/// same model and repeat: lift above 5 points, or no loss with over 20% fewer tokens; a with-skill run without a
/// baseline (upskill's benchmark) passed when every case did. So `upskill runs` says what `upskill eval` would have.
struct UpskillVerdict
{
    bool passed = false;
    int assertionsPassed = 0;
    int assertionsTotal = 0;
};

double upskillRate(const UpskillRun &run)
{
    const auto passed = std::count_if(run.items.cbegin(), run.items.cend(),
                                      [](const ItemResult &r) { return r.passed && !r.isError(); });
    return run.items.isEmpty() ? 0.0 : double(passed) / double(run.items.size());
}

qint64 upskillTokens(const UpskillRun &run)
{
    qint64 tokens = 0;
    for (const ItemResult &r : run.items)
        tokens += r.usage.totalInput() + r.usage.output;
    return tokens;
}

UpskillVerdict upskillVerdict(const QList<UpskillRun> &runs, qsizetype index)
{
    const UpskillRun &run = runs[index];
    const double rate = upskillRate(run);
    const int cases = int(run.items.size());
    // int(rate * cases) as Python computes it: the same double arithmetic, truncated.
    UpskillVerdict verdict{false, int(rate * double(cases)), cases};
    if (run.arm == kBaselineArm) {
        verdict.passed = rate > 0.5;
        return verdict;
    }
    const auto baseline = std::find_if(runs.cbegin(), runs.cend(), [&](const UpskillRun &other) {
        return other.arm == kBaselineArm && other.model == run.model && other.repeat == run.repeat;
    });
    if (baseline == runs.cend()) {
        verdict.passed = std::all_of(run.items.cbegin(), run.items.cend(),
                                     [](const ItemResult &r) { return r.passed && !r.isError(); });
        return verdict;
    }
    const double lift = rate - upskillRate(*baseline);
    const qint64 baselineTokens = upskillTokens(*baseline);
    const double savings = baselineTokens == 0 ? 0.0 : 1.0 - double(upskillTokens(run)) / double(baselineTokens);
    verdict.passed = lift > 0.05 || (lift >= 0 && savings > 0.2);
    return verdict;
}

QJsonObject spread(const QList<double> &values)
{
    if (values.isEmpty())
        return {{QStringLiteral("mean"), 0},
                {QStringLiteral("stddev"), 0},
                {QStringLiteral("min"), 0},
                {QStringLiteral("max"), 0}};
    double sum = 0;
    for (double v : values)
        sum += v;
    const double mean = sum / double(values.size());
    double squares = 0;
    for (double v : values)
        squares += (v - mean) * (v - mean);
    // skill-creator's aggregate_benchmark.py uses the sample standard deviation (n - 1).
    const double stddev = values.size() > 1 ? std::sqrt(squares / double(values.size() - 1)) : 0.0;
    return {{QStringLiteral("mean"), mean},
            {QStringLiteral("stddev"), stddev},
            {QStringLiteral("min"), *std::min_element(values.cbegin(), values.cend())},
            {QStringLiteral("max"), *std::max_element(values.cbegin(), values.cend())}};
}

QString signedText(double value, int decimals)
{
    return (value >= 0 ? QStringLiteral("+") : QString()) + QString::number(value, 'f', decimals);
}

} // namespace

QString exportUpskillBatch(const RunStore &store, const QString &outDir)
{
    const RunManifest &m = store.manifest();
    const QList<UpskillRun> runs = groupRuns(store);
    QJsonArray summaries;
    int passedRuns = 0;
    QString csv =
        QStringLiteral("batch_id,run_number,model,task,timestamp,passed,assertions_passed,assertions_total,"
                       "input_tokens,output_tokens,total_tokens,conversation_span_ms,llm_time_ms,tool_time_ms,"
                       "turns,tool_calls,tool_errors,mcp_calls,execute_calls,error_message,session_id,"
                       "session_history_file\n");
    for (qsizetype i = 0; i < runs.size(); ++i) {
        const UpskillRun &run = runs[i];
        const int number = int(i) + 1;
        int turns = 0, toolCalls = 0, toolErrors = 0, executeCalls = 0;
        qint64 input = 0, output = 0, span = 0, llm = 0;
        QJsonObject toolMap;
        QStringList errors;
        for (const ItemResult &r : run.items) {
            input += r.usage.totalInput();
            output += r.usage.output;
            span += r.latencyMs;
            llm += r.llmMs;
            turns += r.turns;
            toolCalls += r.toolCalls;
            toolErrors += r.toolErrors;
            executeCalls += r.toolCallCounts.value(QStringLiteral("run_command"));
            for (auto it = r.toolCallCounts.begin(); it != r.toolCallCounts.end(); ++it)
                toolMap.insert(it.key(), toolMap.value(it.key()).toInt() + it.value());
            if (r.isError())
                errors.append(QStringLiteral("%1: %2").arg(r.key.caseId, r.error));
        }
        const UpskillVerdict verdict = upskillVerdict(runs, i);
        const bool passed = verdict.passed;
        passedRuns += passed ? 1 : 0;
        const QString timestamp = run.items.first().startedAt;
        const QJsonObject metadata{{QStringLiteral("model"), run.model},
                                   {QStringLiteral("task"), m.skillName},
                                   {QStringLiteral("batch_id"), m.runId},
                                   {QStringLiteral("run_number"), number},
                                   {QStringLiteral("timestamp"), timestamp}};
        const QJsonObject stats{{QStringLiteral("conversation_span_ms"), span},
                                {QStringLiteral("llm_time_ms"), llm},
                                {QStringLiteral("tool_time_ms"), std::max<qint64>(0, span - llm)},
                                {QStringLiteral("turns"), turns},
                                {QStringLiteral("tool_calls"), toolCalls},
                                {QStringLiteral("tool_errors"), toolErrors},
                                {QStringLiteral("mcp_calls"), 0},
                                {QStringLiteral("execute_calls"), executeCalls},
                                {QStringLiteral("tool_call_map"), toolMap},
                                {QStringLiteral("tool_error_map"), QJsonObject()},
                                {QStringLiteral("input_tokens"), input},
                                {QStringLiteral("output_tokens"), output},
                                {QStringLiteral("total_tokens"), input + output}};
        const QString errorMessage = errors.join(QStringLiteral("; "));
        const QJsonObject result{
            {QStringLiteral("metadata"), metadata},
            {QStringLiteral("stats"), stats},
            {QStringLiteral("passed"), passed},
            {QStringLiteral("assertions_passed"), verdict.assertionsPassed},
            {QStringLiteral("assertions_total"), verdict.assertionsTotal},
            {QStringLiteral("error_message"), errorMessage.isEmpty() ? QJsonValue() : QJsonValue(errorMessage)},
            {QStringLiteral("session_id"), QStringLiteral("%1-%2").arg(m.runId).arg(number)},
            {QStringLiteral("session_history_file"), QJsonValue()},
            {QStringLiteral("run_type"), run.arm},
            {QStringLiteral("skill_name"), m.skillName}};
        const QString dir = QDir(outDir).filePath(QStringLiteral("run_%1").arg(number));
        for (const auto &[name, object] : {std::pair{QStringLiteral("run_metadata.json"), metadata},
                                           std::pair{QStringLiteral("run_result.json"), result}}) {
            if (const QString error = writeFileAtomically(QDir(dir).filePath(name), pretty(object)); !error.isEmpty())
                return error;
        }
        summaries.append(result);
        csv += QStringList{m.runId,
                           QString::number(number),
                           csvField(run.model),
                           csvField(m.skillName),
                           timestamp,
                           passed ? QStringLiteral("True") : QStringLiteral("False"),
                           QString::number(verdict.assertionsPassed),
                           QString::number(verdict.assertionsTotal),
                           QString::number(input),
                           QString::number(output),
                           QString::number(input + output),
                           QString::number(span),
                           QString::number(llm),
                           QString::number(std::max<qint64>(0, span - llm)),
                           QString::number(turns),
                           QString::number(toolCalls),
                           QString::number(toolErrors),
                           QStringLiteral("0"),
                           QString::number(executeCalls),
                           csvField(errorMessage),
                           QStringLiteral("%1-%2").arg(m.runId).arg(number),
                           QString()}
                   .join(u',') +
               u'\n';
    }
    QStringList models;
    for (const RunModel &model : m.models)
        models.append(model.name);
    const QJsonObject batch{
        {QStringLiteral("batch_id"), m.runId},       {QStringLiteral("model"), models.join(u',')},
        {QStringLiteral("task"), m.skillName},       {QStringLiteral("total_runs"), int(runs.size())},
        {QStringLiteral("passed_runs"), passedRuns}, {QStringLiteral("results"), summaries}};
    if (const QString error =
            writeFileAtomically(QDir(outDir).filePath(QStringLiteral("batch_summary.json")), pretty(batch));
        !error.isEmpty())
        return error;
    return writeFileAtomically(QDir(outDir).filePath(QStringLiteral("results.csv")), csv.toUtf8());
}

QString exportSkillCreatorBenchmark(const RunStore &store, const QString &model, const QString &path)
{
    const RunManifest &m = store.manifest();
    QJsonArray runs;
    QJsonArray evalsRun;
    QHash<QString, int> evalIds;
    for (const SkillCreatorEval &e : skillCreatorEvals(store.results(), model)) {
        evalIds.insert(e.caseId, e.evalId);
        evalsRun.append(e.evalId);
    }
    QHash<QString, QList<double>> passRates, seconds, tokens;
    int maxRepeat = 0;
    for (const ItemResult &r : store.results()) {
        if (r.key.model != model)
            continue;
        maxRepeat = std::max(maxRepeat, r.key.repeat);
        const QString configuration =
            r.key.arm == kWithSkillArm ? QStringLiteral("with_skill") : QStringLiteral("without_skill");
        int passed = 0;
        const QJsonArray expectations = skillCreatorExpectations(r, &passed);
        const int total = int(r.verifiers.size());
        const double rate = r.isError() || total == 0 ? 0.0 : double(passed) / total;
        const double time = double(r.latencyMs) / 1000.0;
        passRates[configuration].append(rate);
        seconds[configuration].append(time);
        tokens[configuration].append(double(r.totalTokens()));
        QJsonArray notes;
        if (r.isError())
            notes.append(QString(QStringLiteral("error: ") + r.error));
        if (r.stopReason != StopReason::Answered)
            notes.append(QString(QStringLiteral("stopped: ") + r.stopReason));
        runs.append(QJsonObject{
            {QStringLiteral("eval_id"), evalIds.value(r.key.caseId)},
            {QStringLiteral("eval_name"), r.key.caseId},
            {QStringLiteral("configuration"), configuration},
            {QStringLiteral("run_number"), r.key.repeat},
            {QStringLiteral("result"), QJsonObject{{QStringLiteral("pass_rate"), rate},
                                                   {QStringLiteral("passed"), passed},
                                                   {QStringLiteral("failed"), total - passed},
                                                   {QStringLiteral("total"), total},
                                                   {QStringLiteral("time_seconds"), time},
                                                   {QStringLiteral("tokens"), r.totalTokens()},
                                                   {QStringLiteral("tool_calls"), r.toolCalls},
                                                   {QStringLiteral("errors"), r.toolErrors + (r.isError() ? 1 : 0)}}},
            {QStringLiteral("expectations"), expectations},
            {QStringLiteral("notes"), notes}});
    }
    if (runs.isEmpty())
        return QStringLiteral("the run has no results for %1").arg(model);
    auto summaryOf = [&](const QString &configuration) {
        return QJsonObject{{QStringLiteral("pass_rate"), spread(passRates.value(configuration))},
                           {QStringLiteral("time_seconds"), spread(seconds.value(configuration))},
                           {QStringLiteral("tokens"), spread(tokens.value(configuration))}};
    };
    const QJsonObject with = summaryOf(QStringLiteral("with_skill"));
    const QJsonObject without = summaryOf(QStringLiteral("without_skill"));
    auto delta = [&](const QString &key, int decimals) {
        return signedText(with.value(key).toObject().value(QStringLiteral("mean")).toDouble() -
                              without.value(key).toObject().value(QStringLiteral("mean")).toDouble(),
                          decimals);
    };
    const QJsonObject benchmark{
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("skill_name"), m.skillName},
                                                 {QStringLiteral("skill_path"), m.skillDir},
                                                 {QStringLiteral("executor_model"), model},
                                                 {QStringLiteral("timestamp"), m.startedAt},
                                                 {QStringLiteral("evals_run"), evalsRun},
                                                 {QStringLiteral("runs_per_configuration"), maxRepeat},
                                                 {QStringLiteral("skillforge_run_id"), m.runId}}},
        {QStringLiteral("runs"), runs},
        {QStringLiteral("run_summary"),
         QJsonObject{{QStringLiteral("with_skill"), with},
                     {QStringLiteral("without_skill"), without},
                     {QStringLiteral("delta"),
                      QJsonObject{{QStringLiteral("pass_rate"), delta(QStringLiteral("pass_rate"), 2)},
                                  {QStringLiteral("time_seconds"), delta(QStringLiteral("time_seconds"), 1)},
                                  {QStringLiteral("tokens"), delta(QStringLiteral("tokens"), 0)}}}}},
        {QStringLiteral("notes"), QJsonArray{QStringLiteral("Exported by Skillforge from run %1").arg(m.runId)}}};
    return writeFileAtomically(path, pretty(benchmark));
}

namespace {

// upskill's ConversationStats, the same in run_result.json (summed over the run) and test_result.json (one test).
void readUpskillStats(const QJsonObject &stats, ItemResult *r)
{
    r->usage.uncachedInput = stats.value(QStringLiteral("input_tokens")).toInteger();
    r->usage.output = stats.value(QStringLiteral("output_tokens")).toInteger();
    r->latencyMs = qint64(stats.value(QStringLiteral("conversation_span_ms")).toDouble());
    r->llmMs = qint64(stats.value(QStringLiteral("llm_time_ms")).toDouble());
    r->turns = stats.value(QStringLiteral("turns")).toInt();
    r->toolCalls = stats.value(QStringLiteral("tool_calls")).toInt();
    r->toolErrors = stats.value(QStringLiteral("tool_errors")).toInt();
    const QJsonObject toolMap = stats.value(QStringLiteral("tool_call_map")).toObject();
    for (auto it = toolMap.begin(); it != toolMap.end(); ++it)
        r->toolCallCounts.insert(it.key(), it.value().toInt());
}

// A model name as upskill puts it in a folder name: eval_<model> with anything but [A-Za-z0-9._-] replaced.
QString folderSafe(const QString &model)
{
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9._-]"));
    return QString(model).replace(unsafe, QStringLiteral("_"));
}

// upskill writes Python's datetime.now().isoformat(): the machine's local time with no zone, in microseconds. Kept the
// way Skillforge writes every time (UTC, milliseconds, Z), so it sorts and shows beside runs made here.
QString upskillTimeAsUtc(const QString &text)
{
    static const QRegularExpression micros(QStringLiteral("(\\.\\d{3})\\d+"));
    const QDateTime time =
        QDateTime::fromString(QString(text).replace(micros, QStringLiteral("\\1")), Qt::ISODateWithMs);
    return time.isValid() ? time.toUTC().toString(Qt::ISODateWithMs) : QString();
}

// upskill names a batch folder by the local minute it began (runs/2026_12_06_07_27); its runs' timestamps are when
// each finished, so the folder is the batch's start where it reads as one.
QString upskillBatchStart(const QString &batchDir)
{
    const QDateTime minute =
        QDateTime::fromString(QFileInfo(batchDir).fileName().left(16), QStringLiteral("yyyy_MM_dd_HH_mm"));
    return minute.isValid() ? minute.toUTC().toString(Qt::ISODateWithMs) : QString();
}

// One run_N/run_result.json: a model's arm over the whole suite.
std::optional<ItemResult> upskillRunItem(const QString &path, int number, QString *skillName, QString *error)
{
    const std::optional<QJsonObject> o = readJsonObject(path, error);
    if (!o)
        return std::nullopt;
    const QJsonObject metadata = o->value(QStringLiteral("metadata")).toObject();
    ItemResult r;
    r.key.model = metadata.value(QStringLiteral("model")).toString();
    if (r.key.model.isEmpty()) {
        *error = QStringLiteral("%1: metadata.model is missing").arg(path);
        return std::nullopt;
    }
    r.key.arm =
        o->value(QStringLiteral("run_type")).toString() == QLatin1String("baseline") ? kBaselineArm : kWithSkillArm;
    r.key.caseId = QStringLiteral("suite");
    r.passed = o->value(QStringLiteral("passed")).toBool();
    VerifierOutcome assertions;
    assertions.type = QStringLiteral("upskill");
    assertions.name = QStringLiteral("assertions");
    assertions.passed = r.passed;
    assertions.evidence = QStringLiteral("%1/%2 assertions passed (upskill run %3)")
                              .arg(o->value(QStringLiteral("assertions_passed")).toInt())
                              .arg(o->value(QStringLiteral("assertions_total")).toInt())
                              .arg(number);
    r.verifiers.append(assertions);
    readUpskillStats(o->value(QStringLiteral("stats")).toObject(), &r);
    r.error = o->value(QStringLiteral("error_message")).toString();
    r.stopReason = r.error.isEmpty() ? StopReason::Answered : StopReason::Error;
    r.startedAt = upskillTimeAsUtc(metadata.value(QStringLiteral("timestamp")).toString());
    *skillName = o->value(QStringLiteral("skill_name")).toString(metadata.value(QStringLiteral("task")).toString());
    return r;
}

// One <group>/<arm>/test_K/test_result.json (upskill's TestResult): one test case of one arm.
std::optional<ItemResult> upskillTestItem(const QString &path, const QString &model, const QString &arm, int test,
                                          QString *error)
{
    const std::optional<QJsonObject> o = readJsonObject(path, error);
    if (!o)
        return std::nullopt;
    ItemResult r;
    r.key = {model, arm, QStringLiteral("test_%1").arg(test), 1};
    r.passed = o->value(QStringLiteral("success")).toBool();
    r.answer = o->value(QStringLiteral("output")).toString();
    r.error = o->value(QStringLiteral("error")).toString();
    r.stopReason = r.error.isEmpty() ? StopReason::Answered : StopReason::Error;
    readUpskillStats(o->value(QStringLiteral("stats")).toObject(), &r);
    if (r.turns == 0)
        r.turns = o->value(QStringLiteral("turns")).toInt();
    VerifierOutcome outcome;
    outcome.type = QStringLiteral("upskill");
    const QJsonObject validation = o->value(QStringLiteral("validation_result")).toObject();
    if (!validation.isEmpty()) {
        outcome.name = QStringLiteral("assertions");
        outcome.passed = validation.value(QStringLiteral("passed")).toBool();
        outcome.evidence = QStringLiteral("%1/%2 assertions passed")
                               .arg(validation.value(QStringLiteral("assertions_passed")).toInt())
                               .arg(validation.value(QStringLiteral("assertions_total")).toInt());
        const QString message = validation.value(QStringLiteral("error_message")).toString();
        if (!message.isEmpty())
            outcome.evidence += QStringLiteral(": ") + message;
    } else {
        const QJsonValue contains = o->value(QStringLiteral("test_case"))
                                        .toObject()
                                        .value(QStringLiteral("expected"))
                                        .toObject()
                                        .value(QStringLiteral("contains"));
        QStringList expected;
        for (const QJsonValue &v : contains.isArray() ? contains.toArray() : QJsonArray{contains}) {
            if (v.isString())
                expected.append(v.toString());
        }
        outcome.name = QStringLiteral("expected.contains");
        outcome.passed = r.passed;
        outcome.evidence =
            QStringLiteral("%1 by upskill%2")
                .arg(r.passed ? QStringLiteral("passed") : QStringLiteral("failed"),
                     expected.isEmpty()
                         ? QString()
                         : QStringLiteral(" (expected: \"%1\")").arg(expected.join(QStringLiteral("\", \""))));
    }
    r.verifiers.append(outcome);
    return r;
}

// upskill 0.2.1 keeps no result per test, only a run's count (assertions_passed of assertions_total): the run becomes
// that many items, so its pass rate is the one upskill printed. Which test each was, the files do not say: every
// item gets a case of its own ("run3-1"), no item pairs with the other arm's, and no paired statistic is claimed.
// The run's tokens and times are shared out evenly, their sums kept.
QList<ItemResult> itemsOfCounts(const ItemResult &run, int number, int passed, int total)
{
    const auto share = [total](qint64 sum, int index) { return sum / total + (index < sum % total ? 1 : 0); };
    QList<ItemResult> items;
    for (int i = 0; i < total; ++i) {
        ItemResult item = run;
        item.key.caseId = QStringLiteral("run%1-%2").arg(number).arg(i + 1);
        item.passed = i < passed;
        item.usage = TokenUsage();
        item.usage.uncachedInput = share(run.usage.uncachedInput, i);
        item.usage.output = share(run.usage.output, i);
        item.latencyMs = share(run.latencyMs, i);
        item.llmMs = share(run.llmMs, i);
        item.turns = int(share(run.turns, i));
        item.toolCalls = int(share(run.toolCalls, i));
        item.toolErrors = int(share(run.toolErrors, i));
        item.toolCallCounts.clear();
        item.verifiers.first().passed = item.passed;
        item.verifiers.first().evidence =
            QStringLiteral("one of upskill run %1's %2 of %3 (which test it was, upskill's files do not say)")
                .arg(number)
                .arg(passed)
                .arg(total);
        // An error message belongs to the run; it fails no particular test.
        item.error.clear();
        item.stopReason = StopReason::Answered;
        items.append(item);
    }
    return items;
}

} // namespace

QStringList upskillBatchesIn(const QString &folder)
{
    static const QRegularExpression runFolder(QStringLiteral("^run_\\d+$"));
    const auto isBatch = [](const QDir &dir) {
        if (QFileInfo::exists(dir.filePath(QStringLiteral("batch_summary.json"))))
            return true;
        const QStringList entries = dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        return std::any_of(entries.cbegin(), entries.cend(), [&](const QString &name) {
            return runFolder.match(name).hasMatch() &&
                   QFileInfo::exists(dir.filePath(name + QStringLiteral("/run_metadata.json")));
        });
    };
    const QDir parent(folder);
    if (isBatch(parent))
        return {};
    QStringList batches;
    for (const QString &name : parent.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        if (isBatch(QDir(parent.filePath(name))))
            batches.append(parent.filePath(name));
    }
    return batches;
}

std::variant<RunStore, QString> importUpskillBatch(const QString &batchDir, const QString &runsDir)
{
    static const QRegularExpression runFolder(QStringLiteral("^run_(\\d+)$"));
    static const QRegularExpression testFolder(QStringLiteral("^test_(\\d+)$"));
    const QDir batch(batchDir);
    QList<QPair<int, QString>> runFolders;
    int unfinishedRuns = 0; // run_N with its metadata but no result: the batch was interrupted there
    QStringList groups;     // eval, eval_<model>, attempt_N: upskill v2's per-test artifacts
    for (const QString &name : batch.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        const QRegularExpressionMatch match = runFolder.match(name);
        if (match.hasMatch()) {
            if (QFileInfo::exists(batch.filePath(name + QStringLiteral("/run_result.json"))))
                runFolders.append({match.captured(1).toInt(), name});
            else if (QFileInfo::exists(batch.filePath(name + QStringLiteral("/run_metadata.json"))))
                ++unfinishedRuns;
        } else {
            groups.append(name);
        }
    }
    std::sort(runFolders.begin(), runFolders.end());

    RunManifest manifest;
    manifest.status = QStringLiteral("finished");
    manifest.startedAt = upskillBatchStart(batchDir);
    QString error;
    QList<ItemResult> runItems;   // one per run_N: what the run's flag says
    QList<ItemResult> countItems; // one per counted test of each run_N: what upskill printed
    bool everyRunCounted = true;
    QHash<QString, int> repeats;
    for (const auto &[number, name] : runFolders) {
        QString skillName;
        const QString path = batch.filePath(name + QStringLiteral("/run_result.json"));
        std::optional<ItemResult> r = upskillRunItem(path, number, &skillName, &error);
        if (!r)
            return error;
        r->key.repeat = ++repeats[r->key.model + u'|' + r->key.arm];
        if (manifest.skillName.isEmpty())
            manifest.skillName = skillName;
        if (manifest.startedAt.isEmpty() || (!r->startedAt.isEmpty() && r->startedAt < manifest.startedAt))
            manifest.startedAt = r->startedAt;
        runItems.append(*r);
        const std::optional<QJsonObject> o = readJsonObject(path, &error);
        const int total = o ? o->value(QStringLiteral("assertions_total")).toInt() : 0;
        const int passed = o ? o->value(QStringLiteral("assertions_passed")).toInt() : 0;
        if (total > 0 && passed >= 0 && passed <= total)
            countItems.append(itemsOfCounts(*r, number, passed, total));
        else
            everyRunCounted = false;
    }
    QStringList runModels;
    for (const ItemResult &r : runItems) {
        if (!runModels.contains(r.key.model))
            runModels.append(r.key.model);
    }

    // Where upskill kept each test's result, each becomes an item of its own (case test_K, as upskill numbers
    // them, so the arms pair up case by case); the coarse run_N items are then only a summary of those.
    QList<ItemResult> testItems;
    repeats.clear();
    for (const QString &group : groups) {
        QString model;
        if (group.startsWith(QLatin1String("eval_"))) {
            const QString safe = group.mid(5);
            model = safe;
            for (const QString &m : runModels) {
                if (folderSafe(m) == safe)
                    model = m;
            }
        } else if (runModels.size() == 1) {
            model = runModels.first();
        }
        for (const auto &[armFolder, arm] : {std::pair{QStringLiteral("with-skill"), kWithSkillArm},
                                             std::pair{QStringLiteral("baseline"), kBaselineArm}}) {
            const QDir armDir(batch.filePath(group + u'/' + armFolder));
            QList<QPair<int, QString>> tests;
            for (const QString &name : armDir.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
                const QRegularExpressionMatch match = testFolder.match(name);
                if (match.hasMatch() && QFileInfo::exists(armDir.filePath(name + QStringLiteral("/test_result.json"))))
                    tests.append({match.captured(1).toInt(), name});
            }
            std::sort(tests.begin(), tests.end());
            for (const auto &[number, name] : tests) {
                const QString path = armDir.filePath(name + QStringLiteral("/test_result.json"));
                if (model.isEmpty())
                    return QStringLiteral("%1: cannot tell which model ran it (the batch names %2 models in its runs "
                                          "and the folder \"%3\" names none)")
                        .arg(path)
                        .arg(runModels.size())
                        .arg(group);
                std::optional<ItemResult> r = upskillTestItem(path, model, arm, number, &error);
                if (!r)
                    return error;
                // The same test of the same model and arm again (another attempt or eval folder): a repeat.
                r->key.repeat = ++repeats[r->key.toString()];
                r->startedAt = manifest.startedAt;
                testItems.append(*r);
            }
        }
    }
    if (runItems.isEmpty() && testItems.isEmpty()) {
        if (unfinishedRuns > 0)
            return QStringLiteral("%1: an upskill batch interrupted before any run finished (%2 run folders with "
                                  "run_metadata.json, none with run_result.json): nothing to import")
                .arg(batchDir)
                .arg(unfinishedRuns);
        return QStringLiteral("%1: no run_N/run_result.json or <eval>/<arm>/test_K/test_result.json (not an upskill "
                              "batch)")
            .arg(batchDir);
    }

    // Per test where upskill kept them; else the counts it printed, unpaired; else (no counts) the runs' own flags.
    const bool byCounts = testItems.isEmpty() && everyRunCounted && !countItems.isEmpty();
    const QList<ItemResult> &results = !testItems.isEmpty() ? testItems : byCounts ? countItems : runItems;
    if (unfinishedRuns > 0)
        manifest.status = QStringLiteral("interrupted");
    manifest.finishedAt = QFileInfo(batch.filePath(QStringLiteral("batch_summary.json"))).exists()
                              ? QFileInfo(batch.filePath(QStringLiteral("batch_summary.json")))
                                    .lastModified()
                                    .toUTC()
                                    .toString(Qt::ISODate)
                              : QString();
    manifest.parameters = {{QStringLiteral("imported_from"), QFileInfo(batchDir).absoluteFilePath()},
                           {QStringLiteral("format"), QStringLiteral("upskill")},
                           {QStringLiteral("granularity"), !testItems.isEmpty() ? QStringLiteral("test")
                                                           : byCounts           ? QStringLiteral("counts")
                                                                                : QStringLiteral("run")},
                           {QStringLiteral("paired"), !testItems.isEmpty()},
                           {QStringLiteral("runs_without_result"), unfinishedRuns}};
    for (const ItemResult &r : results) {
        if (std::none_of(manifest.models.cbegin(), manifest.models.cend(),
                         [&](const RunModel &m) { return m.name == r.key.model; }))
            manifest.models.append({r.key.model, QString(), QString()});
    }
    manifest.plannedItems = int(results.size());
    auto created = RunStore::create(runsDir, manifest);
    if (const QString *e = std::get_if<QString>(&created))
        return *e;
    RunStore store = std::move(std::get<RunStore>(created));
    for (const ItemResult &r : results) {
        if (const QString e = store.append(r); !e.isEmpty())
            return e;
    }
    return store;
}

} // namespace sf
