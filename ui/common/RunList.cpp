#include "common/RunList.h"

#include "eval/RunAnalysis.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QSignalBlocker>
#include <algorithm>

namespace sf {

RunListEntry describeRun(const QString &runDir)
{
    const QString path = QDir::cleanPath(QFileInfo(runDir).absoluteFilePath());
    RunListEntry entry{path, QFileInfo(path).fileName(), {}};
    QFile file(path + QStringLiteral("/run.json"));
    if (file.open(QIODevice::ReadOnly)) {
        RunAnalysis header;
        header.manifest = RunManifest::fromJson(QJsonDocument::fromJson(file.readAll()).object());
        entry.label = header.label();
        entry.started = QDateTime::fromString(header.manifest.startedAt, Qt::ISODate);
    }
    return entry;
}

QList<RunListEntry> listRuns(const QString &runsDir)
{
    QList<RunListEntry> runs;
    if (runsDir.isEmpty())
        return runs;
    // Run ids start with their timestamp, so reverse name order is newest first; the start time decides the rest.
    for (const QFileInfo &info :
         QDir(runsDir).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name | QDir::Reversed)) {
        if (QFileInfo::exists(info.filePath() + QStringLiteral("/run.json")))
            runs.append(describeRun(info.filePath()));
    }
    std::stable_sort(runs.begin(), runs.end(),
                     [](const RunListEntry &a, const RunListEntry &b) { return a.started > b.started; });
    return runs;
}

int addRunItem(QComboBox *combo, const RunListEntry &entry)
{
    combo->addItem(entry.label, entry.path);
    const int index = combo->count() - 1;
    combo->setItemData(index, QDir::toNativeSeparators(entry.path), Qt::ToolTipRole);
    return index;
}

void fillRunCombo(QComboBox *combo, const QList<RunListEntry> &runs, const QString &select, const QString &noneLabel)
{
    const QSignalBlocker blocker(combo);
    combo->clear();
    if (!noneLabel.isEmpty())
        combo->addItem(noneLabel, QString());
    for (const RunListEntry &entry : runs)
        addRunItem(combo, entry);
    combo->setCurrentIndex(std::max(0, combo->findData(select)));
}

} // namespace sf
