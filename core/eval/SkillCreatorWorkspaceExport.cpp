// Writing a run as an iteration of a skill-creator workspace (reading one is SkillCreatorWorkspace.cpp).
#include "JsonFile_p.h"
#include "RunExport.h"
#include "SkillCreatorWorkspace.h"
#include "common/AtomicFile.h"
#include "common/MarkdownFence.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <algorithm>

namespace sf {

namespace {

// A student's workspace file larger than this stays out of outputs/: the viewer embeds every output in one page.
constexpr qint64 kMaxOutputFileBytes = 1024 * 1024;

// The names skill-creator's viewer reads as the run's own records rather than as outputs.
const QStringList &recordNames()
{
    static const QStringList names{QStringLiteral("transcript.md"), QStringLiteral("metrics.json"),
                                   QStringLiteral("user_notes.md"), QStringLiteral("final-answer.md")};
    return names;
}

QByteArray pretty(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Indented);
}

QString slug(const QString &id)
{
    static const QRegularExpression unsafe(QStringLiteral("[^a-z0-9]+"));
    QString s = id.toLower().replace(unsafe, QStringLiteral("-"));
    while (s.startsWith(u'-'))
        s.remove(0, 1);
    while (s.endsWith(u'-'))
        s.chop(1);
    return s.left(60);
}

QJsonArray transcriptMessages(const RunStore &store, const ItemResult &r)
{
    if (r.transcript.isEmpty())
        return {};
    QString ignored;
    const auto transcript = readJsonObject(QDir(store.dir()).filePath(r.transcript), &ignored);
    return transcript ? transcript->value(QStringLiteral("messages")).toArray() : QJsonArray{};
}

QString promptOf(const QJsonArray &messages)
{
    for (const QJsonValue &value : messages) {
        const QJsonObject m = value.toObject();
        if (m.value(QStringLiteral("role")).toString() == QLatin1String("user"))
            return m.value(QStringLiteral("content")).toString();
    }
    return {};
}

/// transcript.md as skill-creator's executor writes it: the prompt under "## Eval Prompt" (where the viewer looks for
/// it when eval_metadata.json is out of its reach), then each step with its tool, input and result.
QString transcriptMarkdown(const ItemResult &r, const QString &prompt, const QJsonArray &messages)
{
    QString md = QStringLiteral("# %1, %2, run %3\n\n## Eval Prompt\n\n%4\n\n## Steps\n\n")
                     .arg(r.key.caseId, armLabel(r.key.arm))
                     .arg(r.key.repeat)
                     .arg(prompt.trimmed().isEmpty() ? QStringLiteral("(not recorded)") : prompt.trimmed());
    int step = 0;
    for (const QJsonValue &value : messages) {
        const QJsonObject m = value.toObject();
        const QString role = m.value(QStringLiteral("role")).toString();
        if (role == QLatin1String("assistant")) {
            md += QStringLiteral("### Step %1: the model\n\n").arg(++step);
            if (const QString text = m.value(QStringLiteral("content")).toString(); !text.trimmed().isEmpty())
                md += text.trimmed() + QStringLiteral("\n\n");
            for (const QJsonValue &call : m.value(QStringLiteral("tool_calls")).toArray()) {
                const QJsonObject c = call.toObject();
                md += QStringLiteral("Tool: `%1`\n\n").arg(c.value(QStringLiteral("name")).toString()) +
                      fencedMarkdown(c.value(QStringLiteral("arguments")).toString(), QStringLiteral("json")) + u'\n';
            }
        } else if (role == QLatin1String("tool")) {
            md += QStringLiteral("Result of `%1`%2:\n\n")
                      .arg(m.value(QStringLiteral("name")).toString(),
                           m.value(QStringLiteral("is_error")).toBool() ? QStringLiteral(" (error)") : QString()) +
                  fencedMarkdown(m.value(QStringLiteral("content")).toString()) + u'\n';
        }
    }
    md += QStringLiteral("## Final Answer\n\n");
    md += r.answer.trimmed().isEmpty() ? QStringLiteral("(none)\n") : r.answer.trimmed() + u'\n';
    if (r.isError())
        md += QStringLiteral("\n## Error\n\nThe item could not be judged: %1\n").arg(r.error);
    return md;
}

/// The workspace files the student wrote (write_file calls), as skill-creator's metrics.json lists files_created.
QJsonArray filesCreated(const QJsonArray &messages)
{
    QStringList files;
    for (const QJsonValue &value : messages) {
        for (const QJsonValue &call : value.toObject().value(QStringLiteral("tool_calls")).toArray()) {
            const QJsonObject c = call.toObject();
            if (c.value(QStringLiteral("name")).toString() != QLatin1String("write_file"))
                continue;
            const QJsonObject arguments =
                QJsonDocument::fromJson(c.value(QStringLiteral("arguments")).toString().toUtf8()).object();
            const QString path = arguments.value(QStringLiteral("path")).toString();
            if (!path.isEmpty() && !files.contains(path))
                files.append(path);
        }
    }
    return QJsonArray::fromStringList(files);
}

/// Copies the regular files of the item's workspace into @p outputs, keeping their folders. Symbolic links and files
/// over kMaxOutputFileBytes stay out; a file named like one of the run's own records is kept as "workspace-<name>".
QString copyWorkspace(const RunStore &store, const ItemKey &key, const QString &outputs)
{
    const QString workspace =
        QDir(store.dir()).filePath(QStringLiteral("artifacts/%1/workspace").arg(key.fileName()));
    if (!QFileInfo(workspace).isDir())
        return {};
    QDirIterator it(workspace, QDir::Files | QDir::Hidden | QDir::NoSymLinks, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QFileInfo file(it.next());
        if (file.size() > kMaxOutputFileBytes)
            continue;
        QString relative = QDir(workspace).relativeFilePath(file.filePath());
        if (recordNames().contains(relative))
            relative.prepend(QStringLiteral("workspace-"));
        const QString target = QDir(outputs).filePath(relative);
        QDir().mkpath(QFileInfo(target).absolutePath());
        if (!QFile::copy(file.filePath(), target))
            return QStringLiteral("%1: could not be copied to %2").arg(file.filePath(), target);
    }
    return {};
}

QJsonObject executionMetrics(const ItemResult &r, const QJsonArray &messages, qsizetype transcriptChars)
{
    QJsonObject toolCalls;
    for (auto it = r.toolCallCounts.cbegin(); it != r.toolCallCounts.cend(); ++it)
        toolCalls.insert(it.key(), it.value());
    return {{QStringLiteral("tool_calls"), toolCalls},
            {QStringLiteral("total_tool_calls"), r.toolCalls},
            {QStringLiteral("total_steps"), r.turns},
            {QStringLiteral("files_created"), filesCreated(messages)},
            {QStringLiteral("errors_encountered"), r.toolErrors + (r.isError() ? 1 : 0)},
            {QStringLiteral("output_chars"), r.answer.size()},
            {QStringLiteral("transcript_chars"), transcriptChars}};
}

/// grading.json in skill-creator's dialect: each verifier an expectation with its evidence. An item that could not
/// be judged keeps its error (Skillforge's key, read back on import) and says so in the notes the aggregator reads.
QJsonObject grading(const ItemResult &r, const QJsonObject &metrics)
{
    int passed = 0;
    const QJsonArray expectations = skillCreatorExpectations(r, &passed);
    const int total = int(r.verifiers.size());
    const double rate = r.isError() ? 0.0 : total == 0 ? (r.passed ? 1.0 : 0.0) : double(passed) / total;
    QJsonObject g{{QStringLiteral("expectations"), expectations},
                  {QStringLiteral("summary"), QJsonObject{{QStringLiteral("passed"), passed},
                                                          {QStringLiteral("failed"), total - passed},
                                                          {QStringLiteral("total"), total},
                                                          {QStringLiteral("pass_rate"), rate}}},
                  {QStringLiteral("execution_metrics"), metrics},
                  {QStringLiteral("timing"),
                   QJsonObject{{QStringLiteral("executor_duration_seconds"), double(r.llmMs) / 1000.0},
                               {QStringLiteral("total_duration_seconds"), double(r.latencyMs) / 1000.0}}}};
    if (r.isError()) {
        g.insert(QStringLiteral("error"), r.error);
        g.insert(QStringLiteral("user_notes_summary"),
                 QJsonObject{{QStringLiteral("uncertainties"),
                              QJsonArray{QStringLiteral("The item could not be judged: %1").arg(r.error)}}});
    }
    return g;
}

QJsonObject timing(const ItemResult &r)
{
    QJsonObject t{{QStringLiteral("total_tokens"), r.totalTokens()},
                  {QStringLiteral("duration_ms"), r.latencyMs},
                  {QStringLiteral("total_duration_seconds"), double(r.latencyMs) / 1000.0}};
    const QDateTime start = QDateTime::fromString(r.startedAt, Qt::ISODateWithMs);
    if (start.isValid()) {
        t.insert(QStringLiteral("executor_start"), r.startedAt);
        t.insert(QStringLiteral("executor_end"), start.addMSecs(r.latencyMs).toUTC().toString(Qt::ISODateWithMs));
    }
    return t;
}

QString writeRun(const RunStore &store, const ItemResult &r, const QString &runDir, const QString &prompt,
                 const QJsonArray &messages)
{
    const QString outputs = QDir(runDir).filePath(QStringLiteral("outputs"));
    if (!QDir().mkpath(outputs))
        return QStringLiteral("%1: could not be created").arg(outputs);
    if (QString e = copyWorkspace(store, r.key, outputs); !e.isEmpty())
        return e;
    const QString transcript = transcriptMarkdown(r, prompt, messages);
    const QJsonObject metrics = executionMetrics(r, messages, transcript.size());
    const QList<std::pair<QString, QByteArray>> files{
        {QStringLiteral("outputs/transcript.md"), transcript.toUtf8()},
        {QStringLiteral("outputs/metrics.json"), pretty(metrics)},
        {QStringLiteral("grading.json"), pretty(grading(r, metrics))},
        {QStringLiteral("timing.json"), pretty(timing(r))}};
    for (const auto &[name, data] : files) {
        if (QString e = writeFileAtomically(QDir(runDir).filePath(name), data); !e.isEmpty())
            return e;
    }
    if (!r.answer.trimmed().isEmpty())
        return writeFileAtomically(QDir(outputs).filePath(QStringLiteral("final-answer.md")), r.answer.toUtf8());
    return {};
}

/// The iteration number to write: an iteration that holds this run and model's export, else one past the highest.
int iterationFor(const QDir &workspace, const QString &runId, const QString &model, bool *replacing)
{
    static const QRegularExpression pattern(QStringLiteral("^iteration-(\\d+)$"));
    int highest = 0;
    *replacing = false;
    for (const QString &name : workspace.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QRegularExpressionMatch match = pattern.match(name);
        if (!match.hasMatch())
            continue;
        const int n = match.captured(1).toInt();
        highest = std::max(highest, n);
        QString ignored;
        const auto benchmark = readJsonObject(workspace.filePath(name + QStringLiteral("/benchmark.json")), &ignored);
        const QJsonObject meta = benchmark ? benchmark->value(QStringLiteral("metadata")).toObject() : QJsonObject{};
        if (meta.value(QStringLiteral("skillforge_run_id")).toString() == runId &&
            meta.value(QStringLiteral("executor_model")).toString() == model) {
            *replacing = true;
            return n;
        }
    }
    return highest + 1;
}

/// Puts the finished @p built folder at @p target, replacing what is there only once the new one is complete.
QString moveIntoPlace(QTemporaryDir &built, const QString &target)
{
    QString old;
    if (QFileInfo::exists(target)) {
        old = target + QStringLiteral(".replaced-") + QString::number(QDateTime::currentMSecsSinceEpoch());
        if (!QDir().rename(target, old))
            return QStringLiteral("%1: could not be moved aside to be replaced").arg(target);
    }
    if (!QDir().rename(built.path(), target)) {
        if (!old.isEmpty())
            QDir().rename(old, target);
        return QStringLiteral("%1: could not be moved into place").arg(target);
    }
    built.setAutoRemove(false);
    if (!old.isEmpty())
        QDir(old).removeRecursively();
    return {};
}

} // namespace

QJsonArray skillCreatorExpectations(const ItemResult &result, int *passed)
{
    QJsonArray expectations;
    *passed = 0;
    for (const VerifierOutcome &v : result.verifiers) {
        *passed += v.passed ? 1 : 0;
        expectations.append(QJsonObject{{QStringLiteral("text"), v.name.isEmpty() ? v.type : v.name},
                                        {QStringLiteral("passed"), v.passed},
                                        {QStringLiteral("evidence"), v.evidence}});
    }
    return expectations;
}

QList<SkillCreatorEval> skillCreatorEvals(const QList<ItemResult> &results, const QString &model)
{
    QStringList cases;
    for (const ItemResult &r : results) {
        if (r.key.model == model && !cases.contains(r.key.caseId))
            cases.append(r.key.caseId);
    }
    static const QRegularExpression wholeNumber(QStringLiteral("^\\d{1,9}$"));
    const bool numbered = std::all_of(cases.cbegin(), cases.cend(),
                                      [](const QString &id) { return wholeNumber.match(id).hasMatch(); });
    QList<SkillCreatorEval> evals;
    for (qsizetype i = 0; i < cases.size(); ++i) {
        SkillCreatorEval e;
        e.caseId = cases[i];
        e.evalId = numbered ? cases[i].toInt() : int(i + 1);
        const QString name = slug(cases[i]);
        e.folder = numbered || name.isEmpty() ? QStringLiteral("eval-%1").arg(e.evalId)
                                              : QStringLiteral("eval-%1-%2").arg(e.evalId).arg(name);
        evals.append(e);
    }
    return evals;
}

QString exportSkillCreatorWorkspace(const RunStore &store, const QString &model, const QString &workspaceDir,
                                    QString *iterationDir)
{
    const QList<SkillCreatorEval> evals = skillCreatorEvals(store.results(), model);
    if (evals.isEmpty())
        return QStringLiteral("the run has no results for %1").arg(model);
    if (!QDir().mkpath(workspaceDir))
        return QStringLiteral("%1: could not be created").arg(workspaceDir);
    const QDir workspace(workspaceDir);
    bool replacing = false;
    const int n = iterationFor(workspace, store.manifest().runId, model, &replacing);
    QTemporaryDir built(workspace.filePath(QStringLiteral(".iteration-%1-XXXXXX").arg(n)));
    if (!built.isValid())
        return QStringLiteral("%1: %2").arg(workspaceDir, built.errorString());

    QHash<QString, SkillCreatorEval> byCase;
    for (const SkillCreatorEval &e : evals)
        byCase.insert(e.caseId, e);
    QHash<QString, QString> prompts;
    QHash<QString, QStringList> assertions;
    for (const ItemResult &r : store.results()) {
        if (r.key.model != model)
            continue;
        const SkillCreatorEval &e = byCase[r.key.caseId];
        const QJsonArray messages = transcriptMessages(store, r);
        QString &prompt = prompts[r.key.caseId];
        if (prompt.isEmpty())
            prompt = promptOf(messages);
        QStringList &statements = assertions[r.key.caseId];
        for (const VerifierOutcome &v : r.verifiers) {
            const QString text = v.name.isEmpty() ? v.type : v.name;
            if (!statements.contains(text))
                statements.append(text);
        }
        const QString configuration =
            r.key.arm == kWithSkillArm ? QStringLiteral("with_skill") : QStringLiteral("without_skill");
        const QString runDir =
            QDir(built.path()).filePath(QStringLiteral("%1/%2/run-%3").arg(e.folder, configuration).arg(r.key.repeat));
        if (QString error = writeRun(store, r, runDir, prompt, messages); !error.isEmpty())
            return error;
    }
    for (const SkillCreatorEval &e : evals) {
        const QJsonObject metadata{{QStringLiteral("eval_id"), e.evalId},
                                   {QStringLiteral("eval_name"), e.caseId},
                                   {QStringLiteral("prompt"), prompts.value(e.caseId)},
                                   {QStringLiteral("assertions"), QJsonArray::fromStringList(assertions.value(e.caseId))}};
        if (QString error =
                writeFileAtomically(QDir(built.path()).filePath(e.folder + QStringLiteral("/eval_metadata.json")),
                                    pretty(metadata));
            !error.isEmpty())
            return error;
    }
    if (QString error =
            exportSkillCreatorBenchmark(store, model, QDir(built.path()).filePath(QStringLiteral("benchmark.json")));
        !error.isEmpty())
        return error;
    const QString target = workspace.filePath(QStringLiteral("iteration-%1").arg(n));
    if (QString error = moveIntoPlace(built, target); !error.isEmpty())
        return error;
    if (iterationDir)
        *iterationDir = target;
    return {};
}

} // namespace sf
