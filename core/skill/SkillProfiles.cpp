#include "skill/SkillProfiles_p.h"

#include <QRegularExpression>
#include <QSet>

namespace sf::detail {

namespace {

using Severity = SkillProblem::Severity;
using Kind = FrontMatterEntry::Kind;

// The open specification's keys (agentskills.io; skills-ref and quick_validate allow exactly these).
const QSet<QString> &specKeys()
{
    static const QSet<QString> keys{QStringLiteral("name"),     QStringLiteral("description"),
                                    QStringLiteral("license"),  QStringLiteral("allowed-tools"),
                                    QStringLiteral("metadata"), QStringLiteral("compatibility")};
    return keys;
}

// Claude Code reads these too; both strict validators reject them (reference/traces.md 1.3).
const QSet<QString> &claudeCodeKeys()
{
    static const QSet<QString> keys{QStringLiteral("when_to_use"),    QStringLiteral("argument-hint"),
                                    QStringLiteral("arguments"),      QStringLiteral("disable-model-invocation"),
                                    QStringLiteral("user-invocable"), QStringLiteral("model"),
                                    QStringLiteral("effort"),         QStringLiteral("context"),
                                    QStringLiteral("agent"),          QStringLiteral("hooks"),
                                    QStringLiteral("paths"),          QStringLiteral("shell")};
    return keys;
}

// What upskill's models.py renders and loads (reference/upskill.md section 2).
const QSet<QString> &upskillKeys()
{
    static const QSet<QString> keys{QStringLiteral("name"),           QStringLiteral("description"),
                                    QStringLiteral("allowed-tools"),  QStringLiteral("argument-hint"),
                                    QStringLiteral("user-invocable"), QStringLiteral("disable-model-invocation")};
    return keys;
}

class Checker
{
public:
    Checker(const SkillDocument &doc, const QString &file, QList<SkillProblem> *problems)
        : m_doc(doc)
        , m_file(file)
        , m_problems(problems)
    {
    }

    void add(Severity severity, const FrontMatterEntry *at, const QString &code, const QString &message)
    {
        // Problems about a missing key point at the front matter's first line.
        const int line = at ? at->line : std::max(1, m_doc.frontMatterFirstLine() - 1);
        m_problems->append({severity, m_file, line, at ? at->column : 1, code, message});
    }
    void addAtLine(Severity severity, int line, const QString &code, const QString &message)
    {
        m_problems->append({severity, m_file, line, 1, code, message});
    }

    // A required or optional string field: present, a string, not empty, not longer than maxLength.
    const FrontMatterEntry *text(const QString &key, bool required, Severity missingSeverity, int maxLength)
    {
        const FrontMatterEntry *entry = m_doc.entry(key);
        if (!entry) {
            if (required)
                add(missingSeverity, nullptr, key + QStringLiteral("-missing"),
                    QStringLiteral("the front matter has no '%1'").arg(key));
            return nullptr;
        }
        if (entry->kind == Kind::Sequence || entry->kind == Kind::Map) {
            add(Severity::Error, entry, key + QStringLiteral("-not-string"),
                QStringLiteral("'%1' must be a string, not a %2")
                    .arg(key, entry->kind == Kind::Map ? u"map" : u"list"));
            return nullptr;
        }
        if (entry->kind == Kind::Null || entry->scalar.trimmed().isEmpty()) {
            add(Severity::Error, entry, key + QStringLiteral("-empty"), QStringLiteral("'%1' is empty").arg(key));
            return nullptr;
        }
        if (entry->scalar.size() > maxLength)
            add(Severity::Error, entry, key + QStringLiteral("-too-long"),
                QStringLiteral("'%1' has %2 characters; the limit is %3")
                    .arg(key)
                    .arg(entry->scalar.size())
                    .arg(maxLength));
        return entry;
    }

    void boolean(const QString &key)
    {
        const FrontMatterEntry *entry = m_doc.entry(key);
        static const QRegularExpression yamlBool(QStringLiteral("^(true|false|True|False|TRUE|FALSE)$"));
        if (entry && !(entry->kind == Kind::Scalar && yamlBool.match(entry->scalar).hasMatch()))
            add(Severity::Error, entry, QStringLiteral("not-boolean"),
                QStringLiteral("'%1' must be true or false").arg(key));
    }

private:
    const SkillDocument &m_doc;
    QString m_file;
    QList<SkillProblem> *m_problems;
};

void checkName(Checker &check, const QString &folderName, ValidationProfile profile)
{
    const bool upskill = profile == ValidationProfile::Upskill;
    // upskill falls back to the folder name when 'name' is missing.
    const FrontMatterEntry *entry =
        check.text(QStringLiteral("name"), true, upskill ? Severity::Warning : Severity::Error, 64);
    if (!entry)
        return;
    const QString &name = entry->scalar;
    static const QRegularExpression allowed(QStringLiteral("^[a-z0-9-]+$"));
    // Together these are upskill's ^[a-z0-9]+(-[a-z0-9]+)*$ as well as the specification's rules.
    if (!allowed.match(name).hasMatch()) {
        check.add(Severity::Error, entry, QStringLiteral("name-invalid-characters"),
                  QStringLiteral("'name' may only hold lowercase letters a-z, digits and '-': \"%1\"").arg(name));
    } else if (name.startsWith(u'-') || name.endsWith(u'-')) {
        check.add(Severity::Error, entry, QStringLiteral("name-hyphen-edge"),
                  QStringLiteral("'name' may not start or end with '-'"));
    } else if (name.contains(QStringLiteral("--"))) {
        check.add(Severity::Error, entry, QStringLiteral("name-double-hyphen"),
                  QStringLiteral("'name' may not contain '--'"));
    }
    if (name != folderName)
        check.add(
            upskill ? Severity::Warning : Severity::Error, entry, QStringLiteral("name-mismatch"),
            QStringLiteral("'name' is \"%1\" but the folder is \"%2\"; they must be equal").arg(name, folderName));
    if (profile == ValidationProfile::ClaudeAi) {
        static const QRegularExpression reserved(QStringLiteral("anthropic|claude"),
                                                 QRegularExpression::CaseInsensitiveOption);
        const QRegularExpressionMatch match = reserved.match(name);
        if (match.hasMatch())
            check.add(Severity::Error, entry, QStringLiteral("name-reserved-word"),
                      QStringLiteral("'name' may not contain the reserved word \"%1\"").arg(match.captured()));
    }
}

void checkDescription(Checker &check, const SkillDocument &doc, ValidationProfile profile)
{
    const FrontMatterEntry *entry = check.text(QStringLiteral("description"), true, Severity::Error, 1024);
    if (!entry)
        return;
    const QString &description = entry->scalar;
    static const QRegularExpression xmlTag(QStringLiteral("<\\s*/?\\s*[A-Za-z][^<>]*>"));
    if (profile == ValidationProfile::ClaudeAi) {
        if (xmlTag.match(description).hasMatch())
            check.add(Severity::Error, entry, QStringLiteral("description-xml-tag"),
                      QStringLiteral("'description' may not contain XML tags"));
        // Descriptions go into the system prompt: first or second person reads as the model talking.
        static const QRegularExpression firstPerson(QStringLiteral("\\b(I|I'm|I'll|I've|me|my|we|we're|our)\\b"));
        static const QRegularExpression secondPersonStart(QStringLiteral("^\\s*(You|Your)\\b"));
        if (firstPerson.match(description).hasMatch() || secondPersonStart.match(description).hasMatch())
            check.add(
                Severity::Warning, entry, QStringLiteral("description-not-third-person"),
                QStringLiteral("write 'description' in the third person (\"Processes ...\"), not \"I\" or \"You\""));
    } else if (description.contains(u'<') || description.contains(u'>')) {
        check.add(Severity::Warning, entry, QStringLiteral("description-angle-brackets"),
                  QStringLiteral("skill-creator's quick_validate rejects '<' and '>' in 'description'"));
    }
    if (profile == ValidationProfile::ClaudeCode) {
        const qsizetype listed =
            description.size() + doc.scalar(QStringLiteral("when_to_use")).value_or(QString()).size();
        if (listed > 1536)
            check.add(Severity::Warning, entry, QStringLiteral("description-listing-truncated"),
                      QStringLiteral("Claude Code's skill listing cuts 'description' plus 'when_to_use' at 1536 "
                                     "characters; these have %1")
                          .arg(listed));
    }
}

void checkKeys(Checker &check, const SkillDocument &doc, ValidationProfile profile)
{
    QSet<QString> seen;
    for (const FrontMatterEntry &entry : doc.entries()) {
        if (seen.contains(entry.key))
            check.add(Severity::Error, &entry, QStringLiteral("duplicate-key"),
                      QStringLiteral("'%1' appears more than once").arg(entry.key));
        seen.insert(entry.key);
        const bool spec = specKeys().contains(entry.key);
        const bool claudeCode = claudeCodeKeys().contains(entry.key);
        switch (profile) {
        case ValidationProfile::AgentSkills:
        case ValidationProfile::ClaudeAi:
            if (claudeCode)
                check.add(Severity::Error, &entry, QStringLiteral("unexpected-key"),
                          QStringLiteral("'%1' is a Claude Code extension that the specification does not allow "
                                         "(use the claude-code profile if the skill is only for Claude Code)")
                              .arg(entry.key));
            else if (!spec)
                check.add(Severity::Error, &entry, QStringLiteral("unexpected-key"),
                          QStringLiteral("unexpected key '%1'; allowed: name, description, license, allowed-tools, "
                                         "metadata, compatibility")
                              .arg(entry.key));
            break;
        case ValidationProfile::ClaudeCode:
            if (!spec && !claudeCode) // Claude Code ignores keys it does not know
                check.add(Severity::Warning, &entry, QStringLiteral("unknown-key"),
                          QStringLiteral("Claude Code ignores the unknown key '%1'").arg(entry.key));
            break;
        case ValidationProfile::Upskill:
            if (upskillKeys().contains(entry.key))
                break;
            if (spec)
                check.add(
                    Severity::Warning, &entry, QStringLiteral("upskill-key-in-meta"),
                    QStringLiteral("upskill keeps '%1' in skill_meta.json and drops it from SKILL.md").arg(entry.key));
            else
                check.add(Severity::Error, &entry, QStringLiteral("unexpected-key"),
                          QStringLiteral("upskill does not read the key '%1'").arg(entry.key));
            break;
        }
    }
}

void checkOptionalFields(Checker &check, const SkillDocument &doc, ValidationProfile profile)
{
    if (profile != ValidationProfile::Upskill) {
        check.text(QStringLiteral("compatibility"), false, Severity::Error, 500);
        if (const FrontMatterEntry *license = doc.entry(QStringLiteral("license"));
            license && license->kind != Kind::Scalar)
            check.add(Severity::Error, license, QStringLiteral("license-not-string"),
                      QStringLiteral("'license' must be a string"));
    }
    if (const FrontMatterEntry *metadata = doc.entry(QStringLiteral("metadata"))) {
        if (metadata->kind != Kind::Map) {
            check.add(Severity::Error, metadata, QStringLiteral("metadata-not-map"),
                      QStringLiteral("'metadata' must be a map of strings to strings"));
        } else {
            for (qsizetype i = 0; i < metadata->mapEntries.size(); ++i) {
                // A nested list or map has no string form; scalars (numbers too) are read as strings.
                if (!metadata->mapValueIsScalar[i])
                    check.addAtLine(Severity::Error, metadata->mapEntryLines[i], QStringLiteral("metadata-not-string"),
                                    QStringLiteral("'metadata' values must be strings, not empty, lists or maps"));
            }
        }
    }
    if (const FrontMatterEntry *tools = doc.entry(QStringLiteral("allowed-tools"))) {
        if (tools->kind == Kind::Map || (tools->kind == Kind::Sequence && !tools->allItemsScalar))
            check.add(Severity::Error, tools, QStringLiteral("allowed-tools-invalid"),
                      QStringLiteral("'allowed-tools' must be a string of tool names"));
        else if (tools->kind == Kind::Sequence && profile != ValidationProfile::ClaudeCode)
            check.add(Severity::Warning, tools, QStringLiteral("allowed-tools-list"),
                      profile == ValidationProfile::Upskill
                          ? QStringLiteral("upskill reads 'allowed-tools' as a comma-separated string, not a list")
                          : QStringLiteral("the specification writes 'allowed-tools' as a space-separated string"));
    }
    if (profile == ValidationProfile::ClaudeCode || profile == ValidationProfile::Upskill) {
        check.boolean(QStringLiteral("user-invocable"));
        check.boolean(QStringLiteral("disable-model-invocation"));
    }
    if (profile == ValidationProfile::Upskill) {
        // upskill 0.2.1 (models.py, Skill.load) splits the file on "---" and reads "key: value" line by line, keeping
        // the value's text as it is: block and folded values arrive as "|" or ">", quoted ones with their quotes (a
        // quoted name then fails its name check and `upskill eval` stops).
        const QStringList lines = doc.text().split(u'\n');
        for (const QString &key : {QStringLiteral("name"), QStringLiteral("description")}) {
            const FrontMatterEntry *entry = doc.entry(key);
            if (!entry)
                continue;
            if (entry->lastLine > entry->line) {
                check.add(
                    Severity::Error, entry, QStringLiteral("upskill-multiline"),
                    QStringLiteral("upskill's line-based parser reads only the first line of '%1'; keep it on one line")
                        .arg(key));
                continue;
            }
            const QString line = lines.value(entry->line - 1);
            const QString raw = line.mid(line.indexOf(u':') + 1).trimmed();
            // A quoted name breaks upskill; a quoted description is only shown with its quotes.
            if (raw.size() >= 2 && (raw.front() == u'"' || raw.front() == u'\'') && raw.back() == raw.front())
                check.add(
                    key == u"name" ? Severity::Error : Severity::Warning, entry, QStringLiteral("upskill-quoted"),
                    QStringLiteral("upskill reads '%1' with its quotes (%2); write it without them").arg(key, raw));
            if (raw.contains(QStringLiteral("---")))
                check.add(
                    Severity::Error, entry, QStringLiteral("upskill-fence-in-value"),
                    QStringLiteral("upskill splits SKILL.md at every \"---\": '%1' must not contain one").arg(key));
        }
    }
}

} // namespace

void checkFrontMatter(const SkillDocument &doc, const QString &folderName, const QString &file,
                      ValidationProfile profile, QList<SkillProblem> *problems)
{
    Checker check(doc, file, problems);
    checkKeys(check, doc, profile);
    checkName(check, folderName, profile);
    checkDescription(check, doc, profile);
    checkOptionalFields(check, doc, profile);
}

} // namespace sf::detail
