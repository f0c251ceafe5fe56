#pragma once

#include <QDateTime>
#include <QList>
#include <QString>

class QComboBox;

namespace sf {

/// A run folder as the user picks it: by its label (skill, version, when it started), not its id.
struct RunListEntry
{
    QString path;
    QString label;
    QDateTime started;
};

/// The runs in @p runsDir (each subfolder with a run.json), newest first.
QList<RunListEntry> listRuns(const QString &runsDir);

/// Describes the run in @p runDir (its folder name when run.json cannot be read).
RunListEntry describeRun(const QString &runDir);

/// Adds @p entry to @p combo (label shown, path as the item data and tooltip); returns its index.
int addRunItem(QComboBox *combo, const RunListEntry &entry);

/// Fills @p combo with @p runs (label shown, path as the item data and tooltip), after @p noneLabel as an item with
/// an empty path when it is not empty, and selects @p select (a path) if listed, else the first item.
void fillRunCombo(QComboBox *combo, const QList<RunListEntry> &runs, const QString &select,
                  const QString &noneLabel = {});

} // namespace sf
