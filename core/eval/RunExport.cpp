#include "RunExport.h"

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
#include <cmath>

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
        int casesPassed = 0, assertionsPassed = 0, assertionsTotal = 0, turns = 0, toolCalls = 0, toolErrors = 0,
            executeCalls = 0;
        qint64 input = 0, output = 0, span = 0, llm = 0;
        QJsonObject toolMap;
        QStringList errors;
        for (const ItemResult &r : run.items) {
            casesPassed += r.passed ? 1 : 0;
            for (const VerifierOutcome &v : r.verifiers) {
                ++assertionsTotal;
                assertionsPassed += v.passed ? 1 : 0;
            }
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
        const bool passed = 2 * casesPassed > int(run.items.size());
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
            {QStringLiteral("assertions_passed"), assertionsPassed},
            {QStringLiteral("assertions_total"), assertionsTotal},
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
                           QString::number(assertionsPassed),
                           QString::number(assertionsTotal),
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
    QStringList evals;
    QHash<QString, QList<double>> passRates, seconds, tokens;
    int maxRepeat = 0;
    for (const ItemResult &r : store.results()) {
        if (r.key.model != model)
            continue;
        maxRepeat = std::max(maxRepeat, r.key.repeat);
        if (!evals.contains(r.key.caseId))
            evals.append(r.key.caseId);
        const QString configuration =
            r.key.arm == kWithSkillArm ? QStringLiteral("with_skill") : QStringLiteral("without_skill");
        int passed = 0;
        QJsonArray expectations;
        for (const VerifierOutcome &v : r.verifiers) {
            passed += v.passed ? 1 : 0;
            expectations.append(QJsonObject{{QStringLiteral("text"), v.name.isEmpty() ? v.type : v.name},
                                            {QStringLiteral("passed"), v.passed},
                                            {QStringLiteral("evidence"), v.evidence}});
        }
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
            {QStringLiteral("eval_id"), r.key.caseId},
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
                                                 {QStringLiteral("executor_model"), model},
                                                 {QStringLiteral("timestamp"), m.startedAt},
                                                 {QStringLiteral("evals_run"), QJsonArray::fromStringList(evals)},
                                                 {QStringLiteral("runs_per_configuration"), maxRepeat}}},
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

std::variant<RunStore, QString> importUpskillBatch(const QString &batchDir, const QString &runsDir)
{
    static const QRegularExpression runFolder(QStringLiteral("^run_(\\d+)$"));
    QList<QPair<int, QString>> folders;
    for (const QString &name : QDir(batchDir).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QRegularExpressionMatch match = runFolder.match(name);
        if (match.hasMatch() && QFileInfo::exists(QDir(batchDir).filePath(name + QStringLiteral("/run_result.json"))))
            folders.append({match.captured(1).toInt(), name});
    }
    if (folders.isEmpty())
        return QStringLiteral("%1: no run_N/run_result.json folders (not an upskill batch)").arg(batchDir);
    std::sort(folders.begin(), folders.end());

    RunManifest manifest;
    manifest.status = QStringLiteral("finished");
    manifest.parameters = {{QStringLiteral("imported_from"), QFileInfo(batchDir).absoluteFilePath()},
                           {QStringLiteral("format"), QStringLiteral("upskill")}};
    QList<ItemResult> results;
    QHash<QString, int> repeats;
    for (const auto &[number, name] : folders) {
        const QString path = QDir(batchDir).filePath(name + QStringLiteral("/run_result.json"));
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return QStringLiteral("%1: %2").arg(path, file.errorString());
        QJsonParseError parseError;
        const QJsonObject o = QJsonDocument::fromJson(file.readAll(), &parseError).object();
        if (parseError.error != QJsonParseError::NoError)
            return QStringLiteral("%1: not valid JSON: %2").arg(path, parseError.errorString());
        const QJsonObject metadata = o.value(QStringLiteral("metadata")).toObject();
        const QJsonObject stats = o.value(QStringLiteral("stats")).toObject();
        ItemResult r;
        r.key.model = metadata.value(QStringLiteral("model")).toString();
        r.key.arm =
            o.value(QStringLiteral("run_type")).toString() == QLatin1String("baseline") ? kBaselineArm : kWithSkillArm;
        r.key.caseId = QStringLiteral("suite");
        if (r.key.model.isEmpty())
            return QStringLiteral("%1: metadata.model is missing").arg(path);
        r.key.repeat = ++repeats[r.key.model + u'|' + r.key.arm];
        r.passed = o.value(QStringLiteral("passed")).toBool();
        VerifierOutcome assertions;
        assertions.type = QStringLiteral("upskill");
        assertions.name = QStringLiteral("assertions");
        assertions.passed = r.passed;
        assertions.evidence = QStringLiteral("%1/%2 assertions passed (upskill run %3)")
                                  .arg(o.value(QStringLiteral("assertions_passed")).toInt())
                                  .arg(o.value(QStringLiteral("assertions_total")).toInt())
                                  .arg(number);
        r.verifiers.append(assertions);
        r.usage.uncachedInput = stats.value(QStringLiteral("input_tokens")).toInteger();
        r.usage.output = stats.value(QStringLiteral("output_tokens")).toInteger();
        r.latencyMs = stats.value(QStringLiteral("conversation_span_ms")).toInteger();
        r.llmMs = stats.value(QStringLiteral("llm_time_ms")).toInteger();
        r.turns = stats.value(QStringLiteral("turns")).toInt();
        r.toolCalls = stats.value(QStringLiteral("tool_calls")).toInt();
        r.toolErrors = stats.value(QStringLiteral("tool_errors")).toInt();
        r.error = o.value(QStringLiteral("error_message")).toString();
        r.stopReason = r.error.isEmpty() ? StopReason::Answered : StopReason::Error;
        r.startedAt = metadata.value(QStringLiteral("timestamp")).toString();
        if (manifest.skillName.isEmpty())
            manifest.skillName =
                o.value(QStringLiteral("skill_name")).toString(metadata.value(QStringLiteral("task")).toString());
        if (std::none_of(manifest.models.cbegin(), manifest.models.cend(),
                         [&](const RunModel &m) { return m.name == r.key.model; }))
            manifest.models.append({r.key.model, QString(), QString()});
        if (manifest.startedAt.isEmpty() || (!r.startedAt.isEmpty() && r.startedAt < manifest.startedAt))
            manifest.startedAt = r.startedAt;
        results.append(r);
    }
    auto created = RunStore::create(runsDir, manifest);
    if (const QString *error = std::get_if<QString>(&created))
        return *error;
    RunStore store = std::move(std::get<RunStore>(created));
    for (const ItemResult &r : results) {
        if (const QString error = store.append(r); !error.isEmpty())
            return error;
    }
    return store;
}

} // namespace sf
