#pragma once

#include <QDateTime>
#include <QList>
#include <QString>

class QComboBox;

namespace sf {

/// A run folder as the user picks it: by its name (eval/RunName.h: skill, version, what tells it from the other runs,
/// when it started), never its id, which is in the tooltip.
struct RunListEntry
{
    QString path;
    QString label;
    QDateTime started;
    QString tooltip{}; ///< every fact that names it, its id and its folder
};

/// The runs in @p runsDir (each subfolder with a run.json), newest first, each named among the others.
QList<RunListEntry> listRuns(const QString &runsDir);

/// Describes the run in @p runDir on its own (its folder name when run.json cannot be read).
RunListEntry describeRun(const QString &runDir);

/// The name the run in @p runDir goes by among the other runs of its folder, as listRuns() names it.
QString runNameIn(const QString &runDir);

/// Makes @p combo a choice of runs that never widens its window: about @p characters wide whatever the names,
/// longer names elided in the middle (where runs of one skill differ least), the whole name in the list and in each
/// item's tooltip.
void makeRunCombo(QComboBox *combo, int characters = 28);

/// Adds @p entry to @p combo (label shown, path as the item data, its facts and path as the tooltip); returns its
/// index.
int addRunItem(QComboBox *combo, const RunListEntry &entry);

/// Fills @p combo with @p runs (label shown, path as the item data and tooltip), after @p noneLabel as an item with
/// an empty path when it is not empty, and selects @p select (a path) if listed, else the first item.
void fillRunCombo(QComboBox *combo, const QList<RunListEntry> &runs, const QString &select,
                  const QString &noneLabel = {});

} // namespace sf
