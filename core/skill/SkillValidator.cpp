#include "skill/SkillValidator.h"

#include "common/TokenEstimate.h"
#include "skill/SkillDocument.h"
#include "skill/SkillLinks_p.h"
#include "skill/SkillProfiles_p.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <algorithm>

namespace sf {

namespace {

using Severity = SkillProblem::Severity;

// Progressive disclosure (reference/traces.md 1.4): the body loads whole when the skill triggers.
constexpr int kMaxBodyLines = 500;
constexpr int kMaxBodyTokens = 5000;

// A description should tell the model when to reach for the skill. The cue is deliberately simple:
// "when"/"whenever", "use it/this for/to/if", "if the user", or "for ... task(s)" within one sentence.
bool saysWhenToUse(const QString &description)
{
    static const QRegularExpression cue(
        QStringLiteral("\\b(?:when|whenever|use (?:it |this (?:skill )?)?(?:for|to|if|on)|if the "
                       "user|for\\b[^.]{0,80}\\btasks?)\\b"),
        QRegularExpression::CaseInsensitiveOption);
    return cue.match(description).hasMatch();
}

QString readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

bool isMarkdown(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == u"md" || suffix == u"markdown" || suffix == u"txt";
}

// The skill-relative form of @p target as seen from the file @p fromFile, or "" when it leaves the folder.
QString resolveInSkill(const QString &fromFile, const QString &target)
{
    const QString folder = QFileInfo(fromFile).path();
    const QString joined = QDir::cleanPath(folder == u"." ? target : folder + u'/' + target);
    return joined == u".." || joined.startsWith(QStringLiteral("../")) ? QString() : joined;
}

class SharedChecks
{
public:
    SharedChecks(const QString &dir, QList<SkillProblem> *problems)
        : m_dir(dir)
        , m_problems(problems)
    {
    }

    void body(const SkillDocument &doc, const QString &file)
    {
        const QString body = doc.body();
        const int totalLines = int(doc.text().count(u'\n')) + (doc.text().endsWith(u'\n') ? 0 : 1);
        if (body.trimmed().isEmpty()) {
            m_problems->append(
                {Severity::Error, file, std::clamp(doc.bodyFirstLine(), 1, std::max(1, totalLines)), 1,
                 QStringLiteral("empty-body"),
                 QStringLiteral(
                     "the body is empty: say what the model should do when the skill loads (Skillforge is "
                     "stricter than the specification here: a skill without instructions teaches nothing)")});
            return;
        }
        const int bodyLines = int(body.count(u'\n')) + (body.endsWith(u'\n') ? 0 : 1);
        if (bodyLines > kMaxBodyLines)
            m_problems->append({Severity::Warning, file, doc.bodyFirstLine() + kMaxBodyLines, 1,
                                QStringLiteral("body-too-long"),
                                QStringLiteral("the body has %1 lines; keep it under %2 and move detail into "
                                               "references/")
                                    .arg(bodyLines)
                                    .arg(kMaxBodyLines)});
        const int tokens = estimateTokens(body);
        if (tokens > kMaxBodyTokens)
            m_problems->append({Severity::Warning, file, doc.bodyFirstLine(), 1, QStringLiteral("body-too-many-tokens"),
                                QStringLiteral("the body is about %1 tokens; keep it under %2 and move detail into "
                                               "references/")
                                    .arg(tokens)
                                    .arg(kMaxBodyTokens)});
    }

    void description(const SkillDocument &doc, const QString &file)
    {
        const QString description = doc.description();
        if (description.trimmed().isEmpty() || doc.entry(QStringLiteral("when_to_use")))
            return;
        if (!saysWhenToUse(description)) {
            const FrontMatterEntry *entry = doc.entry(QStringLiteral("description"));
            m_problems->append(
                {Severity::Warning, file, entry->line, entry->column, QStringLiteral("description-no-trigger"),
                 QStringLiteral("'description' does not say when to use the skill (e.g. \"Use when ...\")")});
        }
    }

    // Links from SKILL.md must resolve; files it links to may link on, but only back up or to files
    // SKILL.md links itself: deeper chains are read partially (progressive disclosure, one level).
    void links(const SkillDocument &doc, const QString &file)
    {
        const QList<detail::FileReference> direct = detail::fileReferences(doc.body(), doc.bodyFirstLine());
        QSet<QString> directTargets;
        QStringList linkedDocuments;
        for (const detail::FileReference &ref : direct) {
            const QString target = check(file, ref);
            if (target.isEmpty())
                continue;
            directTargets.insert(target);
            if (isMarkdown(target) && QFileInfo(QDir(m_dir).filePath(target)).isFile() &&
                !linkedDocuments.contains(target))
                linkedDocuments.append(target);
        }
        for (const QString &linked : std::as_const(linkedDocuments)) {
            if (linked == file)
                continue;
            for (const detail::FileReference &ref : detail::fileReferences(readText(QDir(m_dir).filePath(linked)))) {
                const QString target = check(linked, ref);
                if (target.isEmpty() || target == file || target == linked || directTargets.contains(target) ||
                    !QFileInfo::exists(QDir(m_dir).filePath(target)))
                    continue;
                m_problems->append(
                    {Severity::Warning, linked, ref.line, ref.column, QStringLiteral("nested-reference"),
                     QStringLiteral("%1 is two levels below %2; link it from %2 directly").arg(target, file)});
            }
        }
    }

private:
    // Reports a broken or escaping reference; returns the skill-relative target, "" when it leaves the folder.
    QString check(const QString &fromFile, const detail::FileReference &ref)
    {
        // Bare mentions ("scripts/run.py") name a place from the skill's root, as agents read them; Markdown
        // links and HTML images are relative to the file that holds them.
        const QString target = resolveInSkill(ref.bareMention ? QStringLiteral("SKILL.md") : fromFile, ref.target);
        if (target.isEmpty()) {
            m_problems->append({Severity::Warning, fromFile, ref.line, ref.column, QStringLiteral("link-outside-skill"),
                                QStringLiteral("'%1' is outside the skill folder; it will not travel with the skill")
                                    .arg(ref.target)});
            return {};
        }
        // A missing file breaks no agent's loading of the skill and the specification does not forbid it: a link
        // or a mention in prose warns. A mention in backticks is most often an example of a file the reader might
        // create, and is not reported.
        if (!QFileInfo::exists(QDir(m_dir).filePath(target)) && !ref.inCodeSpan)
            m_problems->append({Severity::Warning, fromFile, ref.line, ref.column, QStringLiteral("broken-link"),
                                QStringLiteral("'%1' does not exist in the skill folder").arg(ref.target)});
        return target;
    }

    QString m_dir;
    QList<SkillProblem> *m_problems;
};

} // namespace

QString profileName(ValidationProfile profile)
{
    switch (profile) {
    case ValidationProfile::AgentSkills:
        return QStringLiteral("agentskills");
    case ValidationProfile::ClaudeCode:
        return QStringLiteral("claude-code");
    case ValidationProfile::ClaudeAi:
        return QStringLiteral("claude-ai");
    case ValidationProfile::Upskill:
        return QStringLiteral("upskill");
    }
    return {};
}

std::optional<ValidationProfile> profileFromName(const QString &name)
{
    for (ValidationProfile profile : allProfiles()) {
        if (profileName(profile) == name)
            return profile;
    }
    return std::nullopt;
}

QList<ValidationProfile> allProfiles()
{
    return {ValidationProfile::AgentSkills, ValidationProfile::ClaudeCode, ValidationProfile::ClaudeAi,
            ValidationProfile::Upskill};
}

QString SkillProblem::toString() const
{
    return toString(QString());
}

QString SkillProblem::toString(const QString &skillDir) const
{
    QString where = skillDir.isEmpty() ? file
                    : file.isEmpty()   ? QDir::cleanPath(skillDir)
                                       : QDir::cleanPath(skillDir + u'/' + file);
    if (line > 0) {
        where += u':' + QString::number(line);
        if (column > 0)
            where += u':' + QString::number(column);
    }
    return where + (severity == Severity::Error ? QStringLiteral(": error: ") : QStringLiteral(": warning: ")) +
           message;
}

bool hasErrors(const QList<SkillProblem> &problems)
{
    return std::any_of(problems.begin(), problems.end(), [](const SkillProblem &p) { return p.isError(); });
}

QList<SkillProblem> validateSkill(const QString &skillDir, ValidationProfile profile,
                                  const std::optional<QString> &skillMdText)
{
    QList<SkillProblem> problems;
    const QDir dir(skillDir);
    if (!QFileInfo(skillDir).isDir()) {
        problems.append({Severity::Error, QString(), 0, 0, QStringLiteral("not-a-folder"),
                         QStringLiteral("%1 is not a folder").arg(skillDir)});
        return problems;
    }
    const QStringList names = dir.entryList(QDir::Files);
    QString file = QStringLiteral("SKILL.md");
    if (!names.contains(file) && names.contains(QStringLiteral("skill.md"))) {
        file = QStringLiteral("skill.md");
        problems.append({Severity::Warning, file, 0, 0, QStringLiteral("skill-md-lowercase"),
                         QStringLiteral("the file is named skill.md; most agents look for SKILL.md")});
    }
    if (!names.contains(file) && !skillMdText) {
        problems.append({Severity::Error, QStringLiteral("SKILL.md"), 0, 0, QStringLiteral("skill-md-missing"),
                         QStringLiteral("the folder has no SKILL.md")});
        return problems;
    }

    const SkillDocument doc = SkillDocument::parse(skillMdText ? *skillMdText : readText(dir.filePath(file)));
    if (const auto yamlError = doc.yamlError()) {
        problems.append({Severity::Error, file, yamlError->line, yamlError->column, QStringLiteral("yaml-syntax"),
                         yamlError->message});
    } else if (!doc.hasFrontMatter()) {
        problems.append({Severity::Error, file, 1, 1, QStringLiteral("frontmatter-missing"),
                         QStringLiteral("SKILL.md must start with YAML front matter between '---' lines, with name and "
                                        "description")});
    } else {
        detail::checkFrontMatter(doc, QFileInfo(QDir::cleanPath(dir.absolutePath())).fileName(), file, profile,
                                 &problems);
    }

    SharedChecks shared(skillDir, &problems);
    shared.description(doc, file);
    shared.body(doc, file);
    shared.links(doc, file);

    // SKILL.md first, then other files; by place within a file; stable so that equal places keep rule order.
    std::stable_sort(problems.begin(), problems.end(), [&](const SkillProblem &a, const SkillProblem &b) {
        const bool aMain = a.file == file, bMain = b.file == file;
        if (aMain != bMain)
            return aMain;
        if (a.file != b.file)
            return a.file < b.file;
        return a.line != b.line ? a.line < b.line : a.column < b.column;
    });
    return problems;
}

} // namespace sf
