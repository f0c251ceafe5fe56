#include "RunAnalysis.h"

#include "RunName.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonDocument>

namespace sf {

QString RunAnalysis::label() const
{
    return runName(manifest);
}

QJsonObject RunAnalysis::transcript(const ItemResult &result) const
{
    if (result.transcript.isEmpty())
        return {};
    // The path comes from the run's own results.jsonl; one that climbs out of the run folder is not followed.
    const QString path = QDir::cleanPath(QDir(dir).filePath(result.transcript));
    if (!path.startsWith(QDir::cleanPath(dir) + u'/'))
        return {};
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

RunAnalysis analyzeResults(QString dir, RunManifest manifest, QList<ItemResult> results)
{
    RunAnalysis analysis;
    analysis.dir = std::move(dir);
    analysis.manifest = std::move(manifest);
    analysis.results = std::move(results);
    analysis.summary = summarizeRun(analysis.results);
    analysis.matrix = buildCaseMatrix(analysis.results, analysis.summary);
    return analysis;
}

std::variant<RunAnalysis, LoadError> analyzeRun(const QString &runDir)
{
    auto opened = RunStore::open(runDir, RunStore::Access::ReadOnly);
    if (auto *error = std::get_if<LoadError>(&opened))
        return *error;
    const RunStore &store = std::get<RunStore>(opened);
    return analyzeResults(store.dir(), store.manifest(), store.results());
}

} // namespace sf
