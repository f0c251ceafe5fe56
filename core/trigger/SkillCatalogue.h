#pragma once

#include "llm/ChatTypes.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <variant>

namespace sf {

/// One skill as an agent lists it: name and description (the only text that decides whether it is loaded).
struct CatalogueEntry
{
    QString name;
    QString description;
    /// The skill's folder, installed as it is when trials run in a real agent CLI; "" for a bundled decoy, which is
    /// written there from its name and description alone.
    QString dir{};
};

/**
 * The skills a trigger trial shows the student: the candidate among others, listed the way harnesses list them
 * (agentskills.io's `<available_skills>` with name, description and location), with an `activate_skill` tool
 * whose `name` argument is an enum of exactly the listed names. The listing is sorted by name and built once,
 * so every trial of a run sees the same catalogue and the candidate's description is the only thing that varies
 * between runs of the optimizer. A decoy that has the candidate's name is left out (it would shadow the
 * candidate) and reported in warnings().
 */
class SkillCatalogue final
{
public:
    SkillCatalogue() = default;
    SkillCatalogue(CatalogueEntry candidate, const QList<CatalogueEntry> &others);

    /// The skills of a folder: each subfolder with a SKILL.md (or skill.md) whose front matter has a name (else the
    /// folder name), a description and its folder; folders without a description are skipped with a warning. The
    /// candidate's own folder (@p excludeDir) is left out.
    static std::variant<QList<CatalogueEntry>, QString> readFolder(const QString &dir, const QString &excludeDir = {},
                                                                   QStringList *warnings = nullptr);
    /// The bundled decoys: common agent skills (documents, front end, git, data...) from resources/trigger/.
    static QList<CatalogueEntry> bundledDecoys();
    /// The default company of a candidate: the skills beside it (a project's skills/) and then the bundled decoys, so
    /// it competes with both. *besideCount says how many came from beside it.
    static QList<CatalogueEntry> besideAndBundled(const QString &skillDir, QStringList *warnings = nullptr,
                                                  qsizetype *besideCount = nullptr);

    const CatalogueEntry &candidate() const { return m_candidate; }
    QList<CatalogueEntry> entries() const { return m_entries; } ///< sorted by name, candidate included
    QStringList names() const;
    QStringList warnings() const { return m_warnings; }
    /// The same catalogue with the candidate's description replaced (the optimizer's proposals).
    SkillCatalogue withCandidateDescription(const QString &description) const;

    /// The system prompt of a trial: what skills are and how to activate one, then the listing.
    QString systemPrompt() const;
    /// `activate_skill`, its `name` an enum of names().
    ToolDefinition activationTool() const;

    static QString activationToolName() { return QStringLiteral("activate_skill"); }

private:
    CatalogueEntry m_candidate;
    QList<CatalogueEntry> m_entries;
    QStringList m_warnings;
};

} // namespace sf
