#include "SkillOverview.h"

#include "RunAnalysis.h"
#include "RunStore.h"
#include "TestSuite.h"
#include "skill/SkillDocument.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLocale>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

/// The newest run (by its start time) of this skill: one whose manifest names its folder, or its name (a project
/// moved or copied keeps its runs, whose manifests name the folder where they ran).
std::optional<SkillEvaluation> lastEvaluationOf(const QString &skillDir, const QString &name, const QString &runsDir,
                                                const VerdictThresholds &thresholds)
{
    if (runsDir.isEmpty())
        return std::nullopt;
    const QString cleanSkill = QDir::cleanPath(QFileInfo(skillDir).absoluteFilePath());
    QString newestDir;
    RunManifest newest;
    const QDir runs(runsDir);
    for (const QString &entry : runs.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile file(runs.filePath(entry + u"/run.json"_s));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const RunManifest manifest = RunManifest::fromJson(QJsonDocument::fromJson(file.readAll()).object());
        const bool ofThisSkill = manifest.skillName == name ||
                                 (!manifest.skillDir.isEmpty() &&
                                  QDir::cleanPath(QFileInfo(manifest.skillDir).absoluteFilePath()) == cleanSkill);
        if (ofThisSkill && (newestDir.isEmpty() || manifest.startedAt > newest.startedAt)) {
            newestDir = runs.filePath(entry);
            newest = manifest;
        }
    }
    if (newestDir.isEmpty())
        return std::nullopt;
    SkillEvaluation evaluation{newestDir, newest.startedAt, newest.skillVersion, newest.status, {}, {}};
    auto analysis = analyzeRun(newestDir);
    if (const LoadError *error = std::get_if<LoadError>(&analysis))
        evaluation.problem = error->toString();
    else
        evaluation.verdicts = decideVerdicts(std::get<RunAnalysis>(analysis).summary, thresholds);
    return evaluation;
}

QString tokens(int count)
{
    return u"~"_s + QLocale::c().toString(count);
}

} // namespace

SkillOverview overviewOfSkill(const QString &skillDir, const QString &runsDir, const VerdictThresholds &thresholds)
{
    SkillOverview overview;
    overview.path = QDir::cleanPath(QFileInfo(skillDir).absoluteFilePath());
    overview.name = QFileInfo(overview.path).fileName();
    auto folder = SkillFolder::open(overview.path);
    if (const LoadError *error = std::get_if<LoadError>(&folder)) {
        overview.problem = error->toString();
        return overview;
    }
    const SkillFolder &skill = std::get<SkillFolder>(folder);
    overview.files = skill.files();
    overview.totalTokens = skill.totalTokens();
    QFile skillMd(skill.skillMdPath());
    if (skillMd.open(QIODevice::ReadOnly)) {
        const SkillDocument doc = SkillDocument::parse(QString::fromUtf8(skillMd.readAll()));
        if (!doc.name().isEmpty())
            overview.name = doc.name();
        overview.description = doc.description().simplified();
    }
    if (hasSkillTestSuite(overview.path)) {
        auto suite = readSkillTestSuite(overview.path);
        if (const TestSuite *read = std::get_if<TestSuite>(&suite))
            overview.testCases = int(read->cases.size());
    }
    overview.lastEvaluation = lastEvaluationOf(overview.path, overview.name, runsDir, thresholds);
    return overview;
}

QList<SkillOverview> overviewOfSkills(const QString &folder, const QString &runsDir,
                                      const VerdictThresholds &thresholds)
{
    const QDir dir(folder);
    if (QFileInfo::exists(dir.filePath(u"SKILL.md"_s)))
        return {overviewOfSkill(folder, runsDir, thresholds)};
    QList<SkillOverview> skills;
    for (const QString &entry : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        if (QFileInfo::exists(dir.filePath(entry + u"/SKILL.md"_s)) ||
            QFileInfo::exists(dir.filePath(entry + u"/skill.md"_s)))
            skills.append(overviewOfSkill(dir.filePath(entry), runsDir, thresholds));
    }
    return skills;
}

QString SkillOverview::summaryText() const
{
    if (!problem.isEmpty())
        return problem;
    QStringList lines;
    lines << (description.isEmpty() ? u"(no description)"_s : description);
    QStringList perFile;
    for (const SkillFile &file : files)
        if (file.isText)
            perFile << u"%1 %2"_s.arg(file.relativePath, tokens(file.tokens));
    lines << u"%1 tokens in all: %2"_s.arg(tokens(totalTokens), perFile.join(u", "_s));
    lines << (testCases < 0 ? u"tests: none carried (evals/evals.json)"_s : u"tests: %1 cases"_s.arg(testCases));
    if (!lastEvaluation) {
        lines << u"last evaluation: none"_s;
        return lines.join(u'\n');
    }
    const SkillEvaluation &last = *lastEvaluation;
    QString evaluated = u"last evaluation: %1 (%2%3)"_s.arg(
        last.startedAt.left(16).replace(u'T', u' '), QFileInfo(last.runDir).fileName(),
        last.skillVersion.isEmpty() ? QString() : u", version "_s + last.skillVersion);
    if (last.status != "finished"_L1 && !last.status.isEmpty())
        evaluated += u", "_s + last.status;
    lines << evaluated;
    if (!last.problem.isEmpty())
        lines << u"  not readable: "_s + last.problem;
    for (const Verdict &verdict : last.verdicts)
        lines << u"  %1: %2"_s.arg(verdict.model, verdict.reason());
    return lines.join(u'\n');
}

} // namespace sf
