#include "SkillCatalogue.h"

#include "skill/SkillDocument.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

QString xmlEscaped(QString text)
{
    return text.replace(u'&', "&amp;"_L1).replace(u'<', "&lt;"_L1).replace(u'>', "&gt;"_L1);
}

} // namespace

SkillCatalogue::SkillCatalogue(CatalogueEntry candidate, const QList<CatalogueEntry> &others)
    : m_candidate(std::move(candidate))
{
    m_entries.append(m_candidate);
    for (const CatalogueEntry &other : others) {
        if (other.name == m_candidate.name) {
            m_warnings.append(u"a decoy named \"%1\" is left out: it would shadow the candidate"_s.arg(other.name));
            continue;
        }
        if (std::any_of(m_entries.cbegin(), m_entries.cend(),
                        [&](const CatalogueEntry &e) { return e.name == other.name; })) {
            m_warnings.append(u"a second skill named \"%1\" is left out"_s.arg(other.name));
            continue;
        }
        m_entries.append(other);
    }
    std::sort(m_entries.begin(), m_entries.end(),
              [](const CatalogueEntry &a, const CatalogueEntry &b) { return a.name < b.name; });
}

std::variant<QList<CatalogueEntry>, QString> SkillCatalogue::readFolder(const QString &dir, const QString &excludeDir,
                                                                        QStringList *warnings)
{
    const QDir root(dir);
    if (!root.exists())
        return u"%1 is not a folder"_s.arg(QDir::toNativeSeparators(dir));
    const QString excluded = excludeDir.isEmpty() ? QString() : QDir(excludeDir).canonicalPath();
    QList<CatalogueEntry> entries;
    const auto folders = root.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    for (const QFileInfo &folder : folders) {
        if (!excluded.isEmpty() && folder.canonicalFilePath() == excluded)
            continue;
        QFile file(QDir(folder.filePath()).filePath(u"SKILL.md"_s));
        if (!file.exists())
            file.setFileName(QDir(folder.filePath()).filePath(u"skill.md"_s));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const SkillDocument doc = SkillDocument::parse(QString::fromUtf8(file.readAll()));
        const QString name = doc.name().isEmpty() ? folder.fileName() : doc.name();
        if (doc.description().trimmed().isEmpty()) {
            if (warnings)
                warnings->append(
                    u"%1 has no description and is not listed"_s.arg(QDir::toNativeSeparators(file.fileName())));
            continue;
        }
        entries.append({name, doc.description().trimmed(), folder.absoluteFilePath()});
    }
    return entries;
}

QList<CatalogueEntry> SkillCatalogue::bundledDecoys()
{
    QFile file(u":/trigger/decoys.json"_s);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QList<CatalogueEntry> entries;
    const QJsonArray list = QJsonDocument::fromJson(file.readAll()).array();
    for (const QJsonValue &value : list) {
        const QJsonObject o = value.toObject();
        entries.append({o.value("name"_L1).toString(), o.value("description"_L1).toString()});
    }
    return entries;
}

QList<CatalogueEntry> SkillCatalogue::besideAndBundled(const QString &skillDir, QStringList *warnings,
                                                       qsizetype *besideCount)
{
    QList<CatalogueEntry> others;
    const auto siblings = readFolder(QFileInfo(skillDir).absolutePath(), skillDir, warnings);
    if (const auto *list = std::get_if<QList<CatalogueEntry>>(&siblings))
        others = *list;
    if (besideCount)
        *besideCount = others.size();
    return others + bundledDecoys();
}

QStringList SkillCatalogue::names() const
{
    QStringList names;
    for (const CatalogueEntry &e : m_entries)
        names.append(e.name);
    return names;
}

SkillCatalogue SkillCatalogue::withCandidateDescription(const QString &description) const
{
    SkillCatalogue copy = *this;
    copy.m_candidate.description = description;
    for (CatalogueEntry &e : copy.m_entries) {
        if (e.name == m_candidate.name)
            e.description = description;
    }
    return copy;
}

QString SkillCatalogue::systemPrompt() const
{
    QString prompt =
        u"You are a capable coding assistant. Skills hold instructions for particular kinds of tasks. Before you "
        u"answer "
        "a request, decide whether one of the skills below applies to it. If one does, call the %1 tool with its name "
        "first. If none applies, answer the request directly without calling the tool.\n\n<available_skills>\n"_s.arg(
            activationToolName());
    for (const CatalogueEntry &e : m_entries) {
        prompt += u"<skill>\n<name>%1</name>\n<description>%2</description>\n<location>skills/%1/SKILL.md</location>\n"
                  "</skill>\n"_s.arg(xmlEscaped(e.name), xmlEscaped(e.description));
    }
    prompt += "</available_skills>"_L1;
    return prompt;
}

ToolDefinition SkillCatalogue::activationTool() const
{
    const QJsonObject schema{
        {u"type"_s, u"object"_s},
        {u"properties"_s,
         QJsonObject{{u"name"_s, QJsonObject{{u"type"_s, u"string"_s},
                                             {u"enum"_s, QJsonArray::fromStringList(names())},
                                             {u"description"_s, u"the name of the skill to load"_s}}}}},
        {u"required"_s, QJsonArray{u"name"_s}}};
    return {activationToolName(), u"Load a skill's full instructions (its SKILL.md) by name."_s,
            QJsonDocument(schema).toJson(QJsonDocument::Compact)};
}

} // namespace sf
