#include "trace/TraceSelection.h"

#include "common/AtomicFile.h"
#include "common/LoadError.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace sf {

using namespace Qt::StringLiterals;

TraceSelection TraceSelection::fromSteps(const Trace &trace, const std::vector<std::pair<int, int>> &steps)
{
    TraceSelection selection;
    selection.tracePath = trace.path;
    selection.format = trace.format;
    for (const auto &[t, s] : steps) {
        if (t < 0 || t >= int(trace.threads.size()) || s < 0 || s >= int(trace.threads[size_t(t)].steps.size()))
            continue;
        const TraceStep &step = trace.threads[size_t(t)].steps[size_t(s)];
        selection.steps.push_back({t, s, trace.threads[size_t(t)].id, step.line, stepKindName(step.kind)});
    }
    return selection;
}

QString TraceSelection::selectionPathFor(const QString &projectRoot, const QString &tracePath)
{
    const QDir traces(QDir(projectRoot).filePath(u"traces"_s));
    const QFileInfo info(tracePath);
    QString name = info.fileName();
    // A trace from outside the project gets a name that cannot collide with one inside it.
    if (info.absoluteDir() != QDir(traces.absolutePath()))
        name +=
            u'-' +
            QString::fromLatin1(
                QCryptographicHash::hash(info.absoluteFilePath().toUtf8(), QCryptographicHash::Sha1).toHex().left(10));
    return traces.filePath(u".selections/"_s + name + u".json"_s);
}

QString TraceSelection::save(const QString &projectRoot) const
{
    QJsonArray list;
    for (const SelectedStep &step : steps)
        list.append(QJsonObject{{u"thread"_s, step.thread},
                                {u"step"_s, step.step},
                                {u"thread_id"_s, step.threadId},
                                {u"line"_s, step.line},
                                {u"kind"_s, step.kind}});
    const QString file = selectionPathFor(projectRoot, tracePath);
    const QDir root(projectRoot);
    const QString relative = QFileInfo(tracePath).absoluteFilePath().startsWith(root.absolutePath() + u'/')
                                 ? root.relativeFilePath(QFileInfo(tracePath).absoluteFilePath())
                                 : QFileInfo(tracePath).absoluteFilePath();
    const QJsonObject json{{u"version"_s, 1}, {u"trace"_s, relative}, {u"format"_s, format}, {u"steps"_s, list}};
    if (!QDir().mkpath(QFileInfo(file).absolutePath()))
        return QStringLiteral("%1: cannot create the folder").arg(QFileInfo(file).absolutePath());
    return writeFileAtomically(file, QJsonDocument(json).toJson(QJsonDocument::Indented));
}

Result<TraceSelection> TraceSelection::load(const QString &selectionFile)
{
    QFile file(selectionFile);
    if (!file.open(QIODevice::ReadOnly))
        return Result<TraceSelection>::failure(QStringLiteral("%1: %2").arg(selectionFile, file.errorString()));
    const QByteArray data = file.readAll();
    QJsonParseError error{};
    const QJsonObject json = QJsonDocument::fromJson(data, &error).object();
    if (error.error != QJsonParseError::NoError) {
        LoadError load{selectionFile, 0, 0, error.errorString()};
        lineAndColumnAt(data, error.offset, &load.line, &load.column);
        return Result<TraceSelection>::failure(load.toString());
    }
    TraceSelection selection;
    selection.tracePath = json.value("trace"_L1).toString();
    selection.format = json.value("format"_L1).toString();
    for (const QJsonValue &value : json.value("steps"_L1).toArray()) {
        const QJsonObject step = value.toObject();
        selection.steps.push_back({step.value("thread"_L1).toInt(), step.value("step"_L1).toInt(),
                                   step.value("thread_id"_L1).toString(), qint64(step.value("line"_L1).toDouble()),
                                   step.value("kind"_L1).toString()});
    }
    return Result<TraceSelection>::success(std::move(selection));
}

} // namespace sf
