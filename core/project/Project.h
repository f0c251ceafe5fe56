#pragma once

#include "common/LoadError.h"
#include "common/Result.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <variant>

namespace sf {

/// The defaults a project file (skillforge.json) sets for its generations and evaluations.
struct ProjectDefaults
{
    QString teacher;
    QStringList students;
    QString validationProfile = QStringLiteral("agentskills");
    QString skillDelivery = QStringLiteral("inline");
    int repeats = 3;
};

/// One thing the project folder holds, as the sidebar lists it.
struct ProjectItem
{
    enum class Kind { Trace, Skill, TestSuite, Run, KernelTask };
    Kind kind = Kind::Trace;
    QString name; ///< the file or folder name
    QString path; ///< absolute path of the file or folder
    QString title{}; ///< what the user reads, where the name is an id: a run's name (eval/RunName.h); else empty
    QString description{}; ///< for a tooltip, where the title hides facts: a run's id, skill, models, suite; else empty
};

/**
 * A Skillforge project: a folder with skillforge.json and the conventional subfolders
 * (traces/, skills/, tests/, runs/, kernels/). A folder without skillforge.json opens too, with
 * defaults, so that a plain folder of skills can be browsed.
 */
class Project final
{
public:
    static constexpr int FormatVersion = 1;
    static inline const QString FileName = QStringLiteral("skillforge.json");

    /// Reads the project at @p folder. Bad JSON or wrong types give a LoadError naming file and line.
    static std::variant<Project, LoadError> open(const QString &folder);

    /// Creates the folder layout and a skillforge.json in @p folder (which must be empty or missing).
    static std::variant<Project, LoadError> create(const QString &folder, const QString &name);

    QString rootPath() const { return m_rootPath; }
    QString name() const { return m_name; }
    QString description() const { return m_description; }
    const ProjectDefaults &defaults() const { return m_defaults; }
    bool hasProjectFile() const { return m_hasProjectFile; }

    QString tracesPath() const;
    QString skillsPath() const;
    QString testsPath() const;
    QString runsPath() const;
    QString kernelsPath() const;
    QString pathFor(ProjectItem::Kind kind) const;

    /// Scans the folder for items of @p kind, sorted by name (runs: newest first).
    QList<ProjectItem> items(ProjectItem::Kind kind) const;

    /// Copies the trace file @p file into traces/ (the original is never modified) and returns the copy's path: under
    /// its own name, or "name-2.jsonl" when another file has it; a file already there with the same content is
    /// reused. A file inside traces/ already is returned as it is. *@p copied: whether a new file was made.
    Result<QString> addTrace(const QString &file, bool *copied = nullptr) const;

private:
    Project() = default;

    QString m_rootPath;
    QString m_name;
    QString m_description;
    ProjectDefaults m_defaults;
    bool m_hasProjectFile = false;
};

} // namespace sf
