#include "RunStore.h"

#include "EvalLogging.h"
#include "RunRepricing.h"
#include "common/AtomicFile.h"
#include "usage/Pricing.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QHash>
#include <QJsonDocument>
#include <QMutex>
#include <QRandomGenerator>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>
#include <fcntl.h>
#include <unistd.h>

namespace sf {

namespace {
const QString kManifest = QStringLiteral("run.json");
const QString kResults = QStringLiteral("results.jsonl");
} // namespace

QString newRunId()
{
    return QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd'T'HHmmss'Z'")) + u'-' +
           QString::number(QRandomGenerator::global()->bounded(0x1000000), 16).rightJustified(6, u'0');
}

QJsonObject RunManifest::toJson() const
{
    QJsonArray modelList;
    for (const RunModel &m : models)
        modelList.append(QJsonObject{{QStringLiteral("name"), m.name},
                                     {QStringLiteral("provider"), m.provider},
                                     {QStringLiteral("resolved_id"), m.resolvedId}});
    QJsonObject json{{QStringLiteral("format"), QStringLiteral("skillforge-run/1")},
                     {QStringLiteral("run_id"), runId},
                     {QStringLiteral("skill"), QJsonObject{{QStringLiteral("name"), skillName},
                                                           {QStringLiteral("dir"), skillDir},
                                                           {QStringLiteral("content_hash"), skillHash},
                                                           {QStringLiteral("version"), skillVersion}}},
                     {QStringLiteral("suite"),
                      QJsonObject{{QStringLiteral("path"), suitePath}, {QStringLiteral("hash"), suiteHash}}},
                     {QStringLiteral("models"), modelList},
                     {QStringLiteral("parameters"), parameters},
                     {QStringLiteral("planned_items"), plannedItems},
                     {QStringLiteral("app_version"), appVersion},
                     {QStringLiteral("host"), host},
                     {QStringLiteral("started_at"), startedAt},
                     {QStringLiteral("finished_at"), finishedAt},
                     {QStringLiteral("status"), status}};
    if (!executor.isEmpty())
        json.insert(QStringLiteral("executor"), executor);
    if (!harness.isEmpty())
        json.insert(QStringLiteral("harness"), harness);
    return json;
}

RunManifest RunManifest::fromJson(const QJsonObject &o)
{
    RunManifest m;
    m.runId = o.value(QStringLiteral("run_id")).toString();
    const QJsonObject skill = o.value(QStringLiteral("skill")).toObject();
    m.skillName = skill.value(QStringLiteral("name")).toString();
    m.skillDir = skill.value(QStringLiteral("dir")).toString();
    m.skillHash = skill.value(QStringLiteral("content_hash")).toString();
    m.skillVersion = skill.value(QStringLiteral("version")).toString();
    const QJsonObject suite = o.value(QStringLiteral("suite")).toObject();
    m.suitePath = suite.value(QStringLiteral("path")).toString();
    m.suiteHash = suite.value(QStringLiteral("hash")).toString();
    for (const QJsonValue &v : o.value(QStringLiteral("models")).toArray()) {
        const QJsonObject mo = v.toObject();
        m.models.append({mo.value(QStringLiteral("name")).toString(), mo.value(QStringLiteral("provider")).toString(),
                         mo.value(QStringLiteral("resolved_id")).toString()});
    }
    m.parameters = o.value(QStringLiteral("parameters")).toObject();
    m.executor = o.value(QStringLiteral("executor")).toObject();
    m.harness = o.value(QStringLiteral("harness")).toObject();
    m.plannedItems = o.value(QStringLiteral("planned_items")).toInt();
    m.appVersion = o.value(QStringLiteral("app_version")).toString();
    m.host = o.value(QStringLiteral("host")).toString();
    m.startedAt = o.value(QStringLiteral("started_at")).toString();
    m.finishedAt = o.value(QStringLiteral("finished_at")).toString();
    m.status = o.value(QStringLiteral("status")).toString();
    return m;
}

std::variant<RunStore, QString> RunStore::create(const QString &runsDir, RunManifest manifest)
{
    QString dir;
    for (int attempt = 0; attempt < 10; ++attempt) {
        manifest.runId = newRunId();
        dir = QDir(runsDir).filePath(manifest.runId);
        if (!QFileInfo::exists(dir))
            break;
    }
    if (!QDir().mkpath(QDir(dir).filePath(QStringLiteral("transcripts"))))
        return QStringLiteral("%1: cannot create the run folder").arg(dir);
    RunStore store(QDir(dir).absolutePath());
    auto lock = RunLock::acquire(store.m_dir);
    if (const QString *error = std::get_if<QString>(&lock))
        return *error;
    store.m_lock = std::get<std::shared_ptr<RunLock>>(std::move(lock));
    store.m_manifest = std::move(manifest);
    if (const QString error = store.saveManifest(); !error.isEmpty())
        return error;
    return store;
}

std::variant<RunStore, LoadError> RunStore::open(const QString &runDir, Access access)
{
    const QDir dir(runDir);
    QFile manifestFile(dir.filePath(kManifest));
    if (!manifestFile.open(QIODevice::ReadOnly))
        return LoadError{dir.filePath(kManifest), 0, 0,
                         QStringLiteral("not a run folder: %1").arg(manifestFile.errorString())};
    const QByteArray manifestText = manifestFile.readAll();
    QJsonParseError parseError;
    const QJsonDocument manifest = QJsonDocument::fromJson(manifestText, &parseError);
    if (!manifest.isObject()) {
        LoadError error{dir.filePath(kManifest), 0, 0,
                        QStringLiteral("not valid JSON: %1").arg(parseError.errorString())};
        lineAndColumnAt(manifestText, parseError.offset, &error.line, &error.column);
        return error;
    }
    RunStore store(dir.absolutePath());
    store.m_manifest = RunManifest::fromJson(manifest.object());
    if (access == Access::Append) {
        // Before reading: a live writer's half-written last line must not be cut, nor its items run twice.
        auto lock = RunLock::acquire(store.m_dir);
        if (const QString *error = std::get_if<QString>(&lock))
            return LoadError{QString(), 0, 0, *error};
        store.m_lock = std::get<std::shared_ptr<RunLock>>(std::move(lock));
    }

    QFile results(dir.filePath(kResults));
    if (results.open(access == Access::Append ? QIODevice::ReadWrite : QIODevice::ReadOnly)) {
        QByteArray text = results.readAll();
        if (!text.isEmpty() && !text.endsWith('\n')) {
            // Read-only: the line may be one a running evaluation is writing right now; leave it be.
            const qsizetype keep = text.lastIndexOf('\n') + 1;
            text.truncate(keep);
            if (access == Access::Append) {
                qCWarning(lcEval) << "dropping a truncated last line of" << results.fileName();
                results.resize(keep);
            }
        }
        int lineNumber = 0;
        QHash<QString, qsizetype> seen;
        for (const QByteArray &line : text.split('\n')) {
            ++lineNumber;
            if (line.trimmed().isEmpty())
                continue;
            const std::optional<ItemResult> result = ItemResult::fromJson(QJsonDocument::fromJson(line).object());
            if (!result) {
                qCWarning(lcEval).noquote() << QStringLiteral("%1:%2: skipping an unreadable result line")
                                                   .arg(results.fileName())
                                                   .arg(lineNumber);
                continue;
            }
            // A line for an item already recorded replaces it: the newest word on an item wins.
            const QString key = result->key.toString();
            if (seen.contains(key)) {
                store.m_results[seen.value(key)] = *result;
            } else {
                seen.insert(key, store.m_results.size());
                store.m_results.append(*result);
            }
        }
    }
    // A run recorded before each request was priced as it came back is priced now, from what it recorded.
    priceAfterwards(store.m_results, store.m_dir, *Pricing::current());
    return store;
}

bool RunStore::hasResult(const ItemKey &key) const
{
    return std::any_of(m_results.cbegin(), m_results.cend(), [&](const ItemResult &r) { return r.key == key; });
}

QString RunStore::saveManifest() const
{
    return writeFileAtomically(QDir(m_dir).filePath(kManifest),
                               QJsonDocument(m_manifest.toJson()).toJson(QJsonDocument::Indented));
}

namespace {

/// One whole line appended and flushed to the system: a killed process leaves whole lines, at worst a cut last one.
QString appendLine(const QString &runDir, const ItemResult &result)
{
    QFile file(QDir(runDir).filePath(kResults));
    if (!file.open(QIODevice::WriteOnly | QIODevice::Append))
        return QStringLiteral("%1: %2").arg(file.fileName(), file.errorString());
    const QByteArray line = QJsonDocument(result.toJson()).toJson(QJsonDocument::Compact) + '\n';
    if (file.write(line) != line.size() || !file.flush())
        return QStringLiteral("%1: %2").arg(file.fileName(), file.errorString());
    return {};
}

QString transcriptPath(const ItemKey &key)
{
    return QStringLiteral("transcripts/%1.json").arg(key.fileName());
}

/// Written before the item's result line and without an fsync of its own: a crash that cuts it also loses the result
/// line, so a resume runs the item again and rewrites the transcript whole.
QString writeTranscriptFile(const QString &runDir, const ItemKey &key, const QJsonObject &transcript)
{
    QFile file(QDir(runDir).filePath(transcriptPath(key)));
    const QByteArray text = QJsonDocument(transcript).toJson(QJsonDocument::Indented);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(text) != text.size() || !file.flush())
        return QStringLiteral("%1: %2").arg(file.fileName(), file.errorString());
    return {};
}

} // namespace

/// record()'s one thread: items are written in the order they were recorded.
struct RunStore::Writer
{
    Writer() { pool.setMaxThreadCount(1); }
    QThreadPool pool;
    QMutex mutex;
    QString firstError;
};

QString RunStore::append(const ItemResult &result)
{
    waitForWrites(); // after what record() has queued, never before it
    // Reaching the disk itself (against a power cut) is left to a worker thread, since an fsync per item on the UI
    // thread costs milliseconds each.
    if (const QString error = appendLine(m_dir, result); !error.isEmpty())
        return error;
    remember(result);
    syncSoon();
    return {};
}

void RunStore::remember(const ItemResult &result)
{
    // A line for an item already recorded (a retried error) supersedes it, in memory as open() does on reading.
    const auto it =
        std::find_if(m_results.begin(), m_results.end(), [&](const ItemResult &r) { return r.key == result.key; });
    if (it != m_results.end())
        *it = result;
    else
        m_results.append(result);
}

ItemResult RunStore::record(ItemResult result, const QJsonObject &transcript)
{
    result.transcript = transcriptPath(result.key);
    remember(result);
    if (!m_writer)
        m_writer = std::make_shared<Writer>();
    // The task holds what it writes and where, never the store (nor its writer lock).
    (void)QtConcurrent::run(&m_writer->pool,
                            [dir = m_dir, sync = m_syncPending, result, transcript, writer = m_writer]() mutable {
                                QString error = writeTranscriptFile(dir, result.key, transcript);
                                if (!error.isEmpty()) {
                                    qCWarning(lcEval).noquote() << error;
                                    result.transcript.clear(); // the line must not name a file that is not there
                                }
                                if (const QString lineError = appendLine(dir, result); !lineError.isEmpty()) {
                                    qCWarning(lcEval).noquote() << "cannot record a result:" << lineError;
                                    const QMutexLocker locker(&writer->mutex);
                                    if (writer->firstError.isEmpty())
                                        writer->firstError = lineError;
                                    return;
                                }
                                syncResultsSoon(dir, sync);
                            });
    return result;
}

QString RunStore::waitForWrites() const
{
    if (!m_writer)
        return {};
    m_writer->pool.waitForDone();
    const QMutexLocker locker(&m_writer->mutex);
    return m_writer->firstError;
}

void RunStore::releaseWriterLock()
{
    waitForWrites();
    m_lock.reset();
}

void RunStore::syncSoon() const
{
    syncResultsSoon(m_dir, m_syncPending);
}

void RunStore::syncResultsSoon(const QString &runDir, const std::shared_ptr<std::atomic_bool> &syncPending)
{
    // Coalesced: while one sync is waiting to start, later appends ride on it.
    if (syncPending->exchange(true))
        return;
    const QByteArray path = QFile::encodeName(QDir(runDir).filePath(kResults));
    // On a pool of its own: an fdatasync holds its thread for milliseconds, and the global pool (two threads on
    // two cores) is where every item's verifiers run.
    static QThreadPool syncPool;
    static const bool oneThread = (syncPool.setMaxThreadCount(1), true);
    Q_UNUSED(oneThread)
    (void)QtConcurrent::run(&syncPool, [path, pending = syncPending] {
        pending->store(false);
        const int fd = ::open(path.constData(), O_WRONLY | O_CLOEXEC);
        if (fd >= 0) {
            ::fdatasync(fd);
            ::close(fd);
        }
    });
}

QString RunStore::writeTranscript(const ItemKey &key, const QJsonObject &transcript) const
{
    if (const QString error = writeTranscriptFile(m_dir, key, transcript); !error.isEmpty()) {
        qCWarning(lcEval).noquote() << error;
        return {};
    }
    return transcriptPath(key);
}

QString RunStore::freshWorkspace(const ItemKey &key) const
{
    QDir workspace(QDir(m_dir).filePath(QStringLiteral("artifacts/%1/workspace").arg(key.fileName())));
    workspace.removeRecursively();
    QDir().mkpath(workspace.path());
    return workspace.path();
}

} // namespace sf
