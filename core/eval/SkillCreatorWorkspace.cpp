#include "SkillCreatorWorkspace.h"

#include "JsonFile_p.h"
#include "StatementPassRate.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>
#include <algorithm>

namespace sf {

namespace {

/// iteration-N as skill-creator names them, and the names users give their own: a suffix ("iteration-5b"), an
/// underscore, "iter-5".
const QRegularExpression &iterationFolder()
{
    static const QRegularExpression pattern(QStringLiteral("^iter(?:ation)?[-_]?(\\d+)(.*)$"),
                                            QRegularExpression::CaseInsensitiveOption);
    return pattern;
}

const QRegularExpression &runFolder()
{
    static const QRegularExpression pattern(QStringLiteral("^run[-_]?(\\d+)$"),
                                            QRegularExpression::CaseInsensitiveOption);
    return pattern;
}

QStringList subfolders(const QDir &dir)
{
    return dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
}

/// Whether a folder holds what skill-creator's runs leave: a grading, a timing, outputs/ or run-N/ folders.
bool holdsRuns(const QDir &dir)
{
    if (dir.exists(QStringLiteral("grading.json")) || dir.exists(QStringLiteral("timing.json")) ||
        dir.exists(QStringLiteral("outputs")))
        return true;
    const QStringList names = subfolders(dir);
    return std::any_of(names.cbegin(), names.cend(), [](const QString &n) { return runFolder().match(n).hasMatch(); });
}

/// The arm a folder is: with_skill or without_skill, as skill-creator names them. The same names with hyphens count
/// only where the folder (or an eval folder in it) holds skill-creator's runs, since upskill's batches have
/// with-skill/ folders of their own.
/// old_skill is neither arm and is left out.
QString armOf(const QDir &dir)
{
    const QString name = dir.dirName();
    if (name == QLatin1String("with_skill"))
        return kWithSkillArm;
    if (name == QLatin1String("without_skill"))
        return kBaselineArm;
    QString normalized = name.toLower();
    normalized.replace(u'-', u'_');
    if (normalized != QLatin1String("with_skill") && normalized != QLatin1String("without_skill"))
        return {};
    const QStringList evals = subfolders(dir); // with-skill/<eval>/, the arm-major layout
    if (!holdsRuns(dir) &&
        std::none_of(evals.cbegin(), evals.cend(), [&](const QString &e) { return holdsRuns(QDir(dir.filePath(e))); }))
        return {};
    return normalized == QLatin1String("with_skill") ? kWithSkillArm : kBaselineArm;
}

/// The case id of an eval folder: eval_metadata.json's eval_name or eval_id (in the first of @p metadataDirs that
/// has one), else the folder name without "eval-".
QString caseIdOf(const QString &folderName, const QList<QDir> &metadataDirs)
{
    QString ignored;
    for (const QDir &dir : metadataDirs) {
        const auto meta = readJsonObject(dir.filePath(QStringLiteral("eval_metadata.json")), &ignored);
        if (!meta)
            continue;
        const QJsonValue name = meta->value(QStringLiteral("eval_name"));
        if (name.isString() && !name.toString().isEmpty())
            return name.toString();
        const QJsonValue id = meta->value(QStringLiteral("eval_id"));
        if (id.isDouble())
            return QString::number(id.toInteger());
        if (id.isString() && !id.toString().isEmpty())
            return id.toString();
    }
    return folderName.startsWith(QLatin1String("eval-")) ? folderName.mid(5) : folderName;
}

/// One arm of one eval, wherever the layout put it.
struct ArmFolder
{
    QString caseId;
    QString arm;
    QString path;
};

/// The arm folders of an iteration, in either layout: eval-major as skill-creator writes it
/// (<eval>/with_skill/), or arm-major as some users lay it out (with_skill/<eval>/). Eval folders may have any name.
QList<ArmFolder> armFoldersOf(const QDir &iteration)
{
    QList<ArmFolder> found;
    for (const QString &name : subfolders(iteration)) {
        const QDir sub(iteration.filePath(name));
        if (const QString arm = armOf(sub); !arm.isEmpty()) {
            for (const QString &eval : subfolders(sub))
                found.append({caseIdOf(eval, {QDir(sub.filePath(eval)), QDir(iteration.filePath(eval))}), arm,
                              sub.filePath(eval)});
            continue;
        }
        for (const QString &armName : subfolders(sub)) {
            const QDir armDir(sub.filePath(armName));
            if (const QString arm = armOf(armDir); !arm.isEmpty())
                found.append({caseIdOf(name, {sub}), arm, armDir.path()});
        }
    }
    return found;
}

/// The iteration folders in @p root, newest first: by number, then by suffix (iteration-5 < iteration-5b <
/// iteration-6), which is how users name a redone iteration; modification times are lost in a copy.
QStringList iterationsOf(const QDir &root)
{
    struct Named
    {
        int number;
        QString suffix;
        QString name;
    };
    QList<Named> named;
    for (const QString &name : subfolders(root)) {
        const QRegularExpressionMatch match = iterationFolder().match(name);
        if (match.hasMatch())
            named.append({match.captured(1).toInt(), match.captured(2), name});
    }
    std::sort(named.begin(), named.end(), [](const Named &a, const Named &b) {
        return a.number != b.number ? a.number > b.number : a.suffix.compare(b.suffix, Qt::CaseInsensitive) > 0;
    });
    QStringList names;
    for (const Named &n : std::as_const(named))
        names.append(n.name);
    return names;
}

/// The iteration folder to read: the newest iteration inside @p dir, else @p dir itself when it holds arm folders;
/// empty when neither.
QString iterationOf(const QString &dir)
{
    const QDir root(dir);
    if (const QStringList iterations = iterationsOf(root); !iterations.isEmpty())
        return root.filePath(iterations.first());
    return armFoldersOf(root).isEmpty() ? QString() : dir;
}

/// The folders in @p dir with the folders in each, for a message that shows a layout not read: "eval-1/ (skill/,
/// no_skill/), eval-2/".
QString describeFolders(const QDir &dir)
{
    QStringList described;
    for (const QString &name : subfolders(dir)) {
        const QStringList inside = subfolders(QDir(dir.filePath(name)));
        described.append(inside.isEmpty() ? name + u'/'
                                          : QStringLiteral("%1/ (%2/)").arg(name, inside.join(QStringLiteral("/, "))));
    }
    return described.isEmpty() ? QStringLiteral("no folders") : described.join(QStringLiteral(", "));
}

/// The pass rate @p benchmark reports per arm (run_summary.<configuration>.pass_rate.mean as skill-creator's
/// aggregate_benchmark.py writes it, or configurations[{name, pass_rate{mean}}] as agents often write it), keyed by
/// Skillforge's arm ids; empty when it reports none.
QJsonObject benchmarkPassRates(const QJsonObject &benchmark)
{
    QJsonObject rates;
    const auto take = [&](const QString &configuration, const QJsonValue &passRate) {
        const QString arm = configuration == QLatin1String("with_skill")      ? kWithSkillArm
                            : configuration == QLatin1String("without_skill") ? kBaselineArm
                                                                              : QString();
        const QJsonValue mean = passRate.isObject() ? passRate.toObject().value(QStringLiteral("mean")) : passRate;
        if (!arm.isEmpty() && mean.isDouble())
            rates.insert(arm, mean.toDouble());
    };
    const QJsonObject summary = benchmark.value(QStringLiteral("run_summary")).toObject();
    for (auto it = summary.begin(); it != summary.end(); ++it)
        take(it.key(), it.value().toObject().value(QStringLiteral("pass_rate")));
    for (const QJsonValue &value : benchmark.value(QStringLiteral("configurations")).toArray()) {
        const QJsonObject configuration = value.toObject();
        take(configuration.value(QStringLiteral("name")).toString(), configuration.value(QStringLiteral("pass_rate")));
    }
    return rates;
}

/// One run of one arm: grading.json (both dialects) and timing.json, next to each other or one level up.
std::optional<ItemResult> runItem(const QDir &run, ItemKey key, QString *error)
{
    // Graders write grading.json in the run folder or, as some do, beside outputs/ one level down.
    QString gradingPath = run.filePath(QStringLiteral("grading.json"));
    if (!QFileInfo::exists(gradingPath) && QFileInfo::exists(run.filePath(QStringLiteral("outputs/grading.json"))))
        gradingPath = run.filePath(QStringLiteral("outputs/grading.json"));
    if (!QFileInfo::exists(gradingPath)) {
        *error = QStringLiteral("%1: no grading.json (looked in it and in outputs/): this run was not graded; "
                                "skill-creator's grader writes one per run")
                     .arg(run.path());
        return std::nullopt;
    }
    const std::optional<QJsonObject> grading = readJsonObject(gradingPath, error);
    if (!grading)
        return std::nullopt;
    ItemResult r;
    r.key = std::move(key);
    r.provider = kSkillCreatorProvider;
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
    if (!iterationOf(dir).isEmpty())
        return true;
    // A layout not read, but skill-creator's by its files: importing it says what is missing, rather than taking
    // it for another tool's folder.
    const QDir root(dir);
    if (root.exists(QStringLiteral("benchmark.json")) || root.exists(QStringLiteral("history.json")))
        return true;
    const QStringList names = subfolders(root);
    return std::any_of(names.cbegin(), names.cend(), [&](const QString &name) {
        return QFileInfo::exists(root.filePath(name + QStringLiteral("/eval_metadata.json")));
    });
}

std::variant<RunStore, QString> importSkillCreatorWorkspace(const QString &dir, const QString &runsDir)
{
    const QString iteration = iterationOf(dir);
    if (iteration.isEmpty())
        return QStringLiteral("%1: not a skill-creator workspace (no iteration-N/ folder, and no folder holding "
                              "with_skill/ or without_skill/, as <eval>/with_skill/ or with_skill/<eval>/; found: %2)")
            .arg(dir, describeFolders(QDir(dir)));
    const QList<ArmFolder> arms = armFoldersOf(QDir(iteration));
    if (arms.isEmpty()) {
        const QStringList older = iterationsOf(QDir(dir)).mid(1);
        return QStringLiteral("%1: no eval folder holding with_skill/ or without_skill/ (as <eval>/with_skill/ or "
                              "with_skill/<eval>/; found: %2)%3")
            .arg(iteration, describeFolders(QDir(iteration)),
                 older.isEmpty() ? QString()
                                 : QStringLiteral("; to read the iteration before it, pass %1")
                                       .arg(QDir(dir).filePath(older.first())));
    }
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
            // Kept so the statement pass rate computed from the gradings can be held against skill-creator's own.
            if (const QJsonObject rates = benchmarkPassRates(*benchmark); !rates.isEmpty())
                manifest.parameters.insert(kSkillCreatorBenchmarkKey,
                                           QJsonObject{{QStringLiteral("file"), QDir::cleanPath(candidate)},
                                                       {QStringLiteral("pass_rate"), rates}});
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
    for (const ArmFolder &folder : arms) {
        const QDir armDir(folder.path);
        QList<QPair<int, QString>> runs;
        for (const QString &name : subfolders(armDir)) {
            if (const QRegularExpressionMatch match = runFolder().match(name); match.hasMatch())
                runs.append({match.captured(1).toInt(), name});
        }
        std::sort(runs.begin(), runs.end());
        if (runs.isEmpty())
            runs = {{1, QString()}}; // the flat layout: the arm folder is the one run
        int repeat = 0;
        for (const auto &[number, run] : std::as_const(runs)) {
            std::optional<ItemResult> r = runItem(QDir(run.isEmpty() ? armDir.path() : armDir.filePath(run)),
                                                  {model, folder.arm, folder.caseId, ++repeat}, &error);
            if (!r)
                return error;
            items.append(*r);
        }
    }
    if (items.isEmpty())
        return QStringLiteral("%1: no graded run (grading.json) in any eval folder").arg(iteration);
    manifest.plannedItems = int(items.size());
    manifest.parameters.insert(QStringLiteral("imported_from"), QFileInfo(iteration).absoluteFilePath());
    manifest.parameters.insert(QStringLiteral("format"), QStringLiteral("skill-creator"));
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
