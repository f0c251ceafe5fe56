#include "common/RunList.h"

#include "eval/RunName.h"
#include "eval/RunStore.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QSignalBlocker>
#include <algorithm>

namespace sf {

namespace {

struct ReadRun
{
    QString path;
    RunManifest manifest;
    bool read = false;
};

ReadRun readRun(const QString &runDir)
{
    ReadRun run{QDir::cleanPath(QFileInfo(runDir).absoluteFilePath()), {}, false};
    QFile file(run.path + QStringLiteral("/run.json"));
    if (file.open(QIODevice::ReadOnly)) {
        run.manifest = RunManifest::fromJson(QJsonDocument::fromJson(file.readAll()).object());
        run.read = true;
    }
    if (run.manifest.runId.isEmpty())
        run.manifest.runId = QFileInfo(run.path).fileName();
    return run;
}

RunListEntry entryOf(const ReadRun &run, const QString &name)
{
    RunListEntry entry{run.path, name, QDateTime::fromString(run.manifest.startedAt, Qt::ISODate)};
    entry.tooltip =
        (run.read ? runDescription(run.manifest) : run.manifest.runId) + u'\n' + QDir::toNativeSeparators(run.path);
    return entry;
}

} // namespace

RunListEntry describeRun(const QString &runDir)
{
    const ReadRun run = readRun(runDir);
    return entryOf(run, run.read ? runName(run.manifest) : run.manifest.runId);
}

QList<RunListEntry> listRuns(const QString &runsDir)
{
    if (runsDir.isEmpty())
        return {};
    // Run ids start with their timestamp, so reverse name order is newest first; the start time decides the rest.
    QList<ReadRun> read;
    for (const QFileInfo &info :
         QDir(runsDir).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name | QDir::Reversed)) {
        if (QFileInfo::exists(info.filePath() + QStringLiteral("/run.json")))
            read.append(readRun(info.filePath()));
    }
    QList<RunManifest> manifests;
    for (const ReadRun &run : read)
        manifests.append(run.manifest);
    const QStringList names = runNames(manifests);
    QList<RunListEntry> runs;
    for (qsizetype i = 0; i < read.size(); ++i)
        runs.append(entryOf(read[i], names[i]));
    std::stable_sort(runs.begin(), runs.end(),
                     [](const RunListEntry &a, const RunListEntry &b) { return a.started > b.started; });
    return runs;
}

QString runNameIn(const QString &runDir)
{
    const QString path = QDir::cleanPath(QFileInfo(runDir).absoluteFilePath());
    for (const RunListEntry &entry : listRuns(QFileInfo(path).absolutePath())) {
        if (entry.path == path)
            return entry.label;
    }
    return describeRun(path).label;
}

void makeRunCombo(QComboBox *combo, int characters)
{
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(characters);
    // The list shows whole names (it may be wider than the box); the box elides the chosen one.
    combo->view()->setTextElideMode(Qt::ElideMiddle);
}

int addRunItem(QComboBox *combo, const RunListEntry &entry)
{
    combo->addItem(entry.label, entry.path);
    const int index = combo->count() - 1;
    combo->setItemData(index,
                       entry.tooltip.isEmpty() ? QDir::toNativeSeparators(entry.path)
                                               : QStringLiteral("%1\n%2").arg(entry.label, entry.tooltip),
                       Qt::ToolTipRole);
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
