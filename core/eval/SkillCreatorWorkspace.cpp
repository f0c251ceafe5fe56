#include "SkillCreatorWorkspace.h"

#include "JsonFile_p.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>
#include <algorithm>

namespace sf {

namespace {

const QRegularExpression &iterationFolder()
{
    static const QRegularExpression pattern(QStringLiteral("^iteration-(\\d+)$"));
    return pattern;
}

bool hasArmFolders(const QDir &eval)
{
    return eval.exists(QStringLiteral("with_skill")) || eval.exists(QStringLiteral("without_skill"));
}

/// The iteration folder to read: @p dir itself, or the highest iteration-N inside it; empty when neither.
QString iterationOf(const QString &dir)
{
    const QDir root(dir);
    int best = -1;
    QString chosen;
    for (const QString &name : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QRegularExpressionMatch match = iterationFolder().match(name);
        if (match.hasMatch() && match.captured(1).toInt() > best) {
            best = match.captured(1).toInt();
            chosen = root.filePath(name);
        }
    }
    if (!chosen.isEmpty())
        return chosen;
    for (const QString &name : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        if (name.startsWith(QLatin1String("eval")) && hasArmFolders(QDir(root.filePath(name))))
            return dir;
    }
    return {};
}

/// The case id of an eval folder: eval_metadata.json's eval_name or eval_id, else the folder name without "eval-".
QString caseIdOf(const QDir &eval)
{
    QString ignored;
    if (const auto meta = readJsonObject(eval.filePath(QStringLiteral("eval_metadata.json")), &ignored)) {
        const QJsonValue name = meta->value(QStringLiteral("eval_name"));
        if (name.isString() && !name.toString().isEmpty())
            return name.toString();
        const QJsonValue id = meta->value(QStringLiteral("eval_id"));
        if (id.isDouble())
            return QString::number(id.toInteger());
        if (id.isString() && !id.toString().isEmpty())
            return id.toString();
    }
    QString name = eval.dirName();
    return name.startsWith(QLatin1String("eval-")) ? name.mid(5) : name;
}

/// One run of one arm: grading.json (both dialects) and timing.json, next to each other or one level up.
std::optional<ItemResult> runItem(const QDir &run, ItemKey key, QString *error)
{
    // Graders write grading.json in the run folder or, as some do, beside outputs/ one level down.
    QString gradingPath = run.filePath(QStringLiteral("grading.json"));
    if (!QFileInfo::exists(gradingPath) && QFileInfo::exists(run.filePath(QStringLiteral("outputs/grading.json"))))
        gradingPath = run.filePath(QStringLiteral("outputs/grading.json"));
    const std::optional<QJsonObject> grading = readJsonObject(gradingPath, error);
    if (!grading)
        return std::nullopt;
    ItemResult r;
    r.key = std::move(key);
    r.provider = QStringLiteral("skill-creator");
    r.stopReason = StopReason::Answered;
    const QString listKey = grading->contains(QStringLiteral("expectations")) ? QStringLiteral("expectations")
                                                                             : QStringLiteral("assertion_results");
    const QJsonArray statements = grading->value(listKey).toArray();
    bool allPassed = !statements.isEmpty();
    for (const QJsonValue &value : statements) {
        const QJsonObject s = value.toObject();
        VerifierOutcome outcome;
        outcome.type = QStringLiteral("llm_judge");
        outcome.name = s.value(QStringLiteral("text")).toString();
        outcome.passed = s.value(QStringLiteral("passed")).toBool();
        outcome.evidence = s.value(QStringLiteral("evidence")).toString();
        allPassed = allPassed && outcome.passed;
        r.verifiers.append(outcome);
    }
    if (statements.isEmpty()) {
        // A grading without statements: its summary's pass rate is all there is.
        allPassed = grading->value(QStringLiteral("summary")).toObject().value(QStringLiteral("pass_rate")).toDouble() >=
                    1.0;
    }
    r.passed = allPassed;
    // Skillforge's own exports keep an item that could not be judged as such, and the student's final answer.
    if (const QString itemError = grading->value(QStringLiteral("error")).toString(); !itemError.isEmpty()) {
        r.error = itemError;
        r.stopReason = StopReason::Error;
        r.passed = false;
    }
    if (QFile answer(run.filePath(QStringLiteral("outputs/final-answer.md"))); answer.open(QIODevice::ReadOnly))
        r.answer = QString::fromUtf8(answer.readAll());
    QString ignored;
    if (const auto timing = readJsonObject(run.filePath(QStringLiteral("timing.json")), &ignored)) {
        // skill-creator records one token total, not the buckets: it is counted as input.
        r.usage.uncachedInput = timing->value(QStringLiteral("total_tokens")).toInteger();
        r.latencyMs = timing->value(QStringLiteral("duration_ms")).toInteger();
        if (r.latencyMs == 0)
            r.latencyMs = qRound64(timing->value(QStringLiteral("total_duration_seconds")).toDouble() * 1000);
    }
    return r;
}

} // namespace

bool isSkillCreatorWorkspace(const QString &dir)
{
    return !iterationOf(dir).isEmpty();
}

std::variant<RunStore, QString> importSkillCreatorWorkspace(const QString &dir, const QString &runsDir)
{
    const QString iteration = iterationOf(dir);
    if (iteration.isEmpty())
        return QStringLiteral("%1: not a skill-creator workspace (no iteration-N/ folder, and no eval-*/ folder with "
                              "with_skill/ or without_skill/)")
            .arg(dir);
    QString model = QStringLiteral("skill-creator:executor");
    RunManifest manifest;
    manifest.status = QStringLiteral("finished");
    QString ignored;
    for (const QString &candidate : {QDir(iteration).filePath(QStringLiteral("benchmark.json")),
                                     QDir(dir).filePath(QStringLiteral("benchmark.json"))}) {
        if (const auto benchmark = readJsonObject(candidate, &ignored)) {
            const QJsonObject meta = benchmark->value(QStringLiteral("metadata")).toObject();
            if (const QString m = meta.value(QStringLiteral("executor_model")).toString(); !m.isEmpty())
                model = m.contains(u':') ? m : QStringLiteral("skill-creator:") + m;
            manifest.skillName = meta.value(QStringLiteral("skill_name")).toString();
            manifest.startedAt = meta.value(QStringLiteral("timestamp")).toString();
            break;
        }
    }
    if (manifest.skillName.isEmpty()) {
        const QString folder = QFileInfo(QDir::cleanPath(dir)).fileName();
        manifest.skillName = folder.endsWith(QLatin1String("-workspace")) ? folder.chopped(10) : folder;
    }
    manifest.models = {{model, model.section(u':', 0, 0), {}}};

    QList<ItemResult> items;
    QString error;
    const QDir iter(iteration);
    QStringList evals = iter.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    for (const QString &name : std::as_const(evals)) {
        const QDir eval(iter.filePath(name));
        if (!hasArmFolders(eval))
            continue;
        const QString caseId = caseIdOf(eval);
        for (const auto &[folder, arm] : {std::pair{QStringLiteral("with_skill"), kWithSkillArm},
                                          std::pair{QStringLiteral("without_skill"), kBaselineArm}}) {
            const QDir armDir(eval.filePath(folder));
            if (!armDir.exists())
                continue;
            QStringList runs = armDir.entryList({QStringLiteral("run-*")}, QDir::Dirs | QDir::NoDotAndDotDot);
            std::sort(runs.begin(), runs.end(), [](const QString &a, const QString &b) {
                return a.mid(4).toInt() < b.mid(4).toInt();
            });
            if (runs.isEmpty())
                runs = {QString()}; // the flat layout: the arm folder is the one run
            int repeat = 0;
            for (const QString &run : std::as_const(runs)) {
                std::optional<ItemResult> r =
                    runItem(QDir(run.isEmpty() ? armDir.path() : armDir.filePath(run)), {model, arm, caseId, ++repeat},
                            &error);
                if (!r)
                    return error;
                items.append(*r);
            }
        }
    }
    if (items.isEmpty())
        return QStringLiteral("%1: no graded run (grading.json) in any eval folder").arg(iteration);
    manifest.plannedItems = int(items.size());
    manifest.parameters = {{QStringLiteral("imported_from"), QFileInfo(iteration).absoluteFilePath()},
                           {QStringLiteral("format"), QStringLiteral("skill-creator")}};
    auto created = RunStore::create(runsDir, manifest);
    if (const QString *e = std::get_if<QString>(&created))
        return *e;
    RunStore store = std::get<RunStore>(std::move(created));
    for (const ItemResult &r : std::as_const(items)) {
        if (const QString e = store.append(r); !e.isEmpty())
            return e;
    }
    store.releaseWriterLock();
    return store;
}

} // namespace sf
