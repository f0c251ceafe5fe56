#include "project/AppSettings.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <algorithm>

namespace sf {

namespace {
const QString RecentProjectsKey = QStringLiteral("projects/recent");
const QString GeometryKey = QStringLiteral("window/geometry");
const QString StateKey = QStringLiteral("window/state");
const QString LastViewKey = QStringLiteral("window/lastView");
const QString ThemeKey = QStringLiteral("appearance/theme");
// Tokens per request. (The older "localModel/contextSize" was llama-server's -c, which its slots share;
// it is not carried over, as its 4,096 tokens did not hold the sample skill.)
const QString LocalContextKey = QStringLiteral("localModel/contextPerRequest");
const QString LocalThreadsKey = QStringLiteral("localModel/threads");
const QString LocalInstallOfferedKey = QStringLiteral("localModel/installOffered");
const QString ChartFolderKey = QStringLiteral("charts/saveFolder");
const QString LastStudentsKey = QStringLiteral("models/lastStudents");
const QString LastTeacherKey = QStringLiteral("models/lastTeacher");
const QString RecentModelsKey = QStringLiteral("models/recent");
const QString LastEvalSuiteKey = QStringLiteral("eval/lastSuite");
const QString LastEvalRepeatsKey = QStringLiteral("eval/lastRepeats");
const QString LastEvalConcurrencyKey = QStringLiteral("eval/lastConcurrency");
const QString VerdictMinLiftKey = QStringLiteral("verdicts/minLift");
const QString VerdictMinPairsKey = QStringLiteral("verdicts/minPairs");
const QString SlurmConfKey = QStringLiteral("slurm/conf");
const QString SlurmPartitionKey = QStringLiteral("slurm/partition");
const QString SlurmGresKey = QStringLiteral("slurm/gres");
const QString SlurmAccountKey = QStringLiteral("slurm/account");
const QString SlurmTimeKey = QStringLiteral("slurm/time");
const QString SlurmSbatchArgsKey = QStringLiteral("slurm/sbatchOptions");
const QString SlurmSharedDirKey = QStringLiteral("slurm/sharedDir");
const QString LastExecutorKey = QStringLiteral("slurm/lastExecutor");
const QString LastHarnessKey = QStringLiteral("eval/lastHarness");
const QString LastHarnessCliKey = QStringLiteral("eval/lastHarnessCli");

bool unchangedInThisProcess = false;
} // namespace

AppSettings::AppSettings()
    : m_settings(filePath(), QSettings::IniFormat)
{
}

QString AppSettings::filePath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation))
        .filePath(QCoreApplication::applicationName() + QStringLiteral(".conf"));
}

QString AppSettings::moveFromOldPlace()
{
    const QString newPath = filePath();
    const QString oldPath = QDir(QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation))
                                .filePath(QStringLiteral("Unknown Organization/") + QFileInfo(newPath).fileName());
    if (QFileInfo::exists(newPath) || !QFileInfo::exists(oldPath))
        return {};
    if (!QDir().mkpath(QFileInfo(newPath).absolutePath()))
        return QStringLiteral("cannot create %1 to move the settings %2 there")
            .arg(QFileInfo(newPath).absolutePath(), oldPath);
    // A copy first, so that a failure halfway leaves the old file whole; it is removed once the new one is complete.
    if (!QFile::copy(oldPath, newPath))
        return QStringLiteral("cannot move the settings %1 to %2").arg(oldPath, newPath);
    QFile::remove(oldPath);
    QDir().rmdir(QFileInfo(oldPath).absolutePath()); // only when nothing else lives there
    return {};
}

void AppSettings::keepUnchangedInThisProcess()
{
    unchangedInThisProcess = true;
}

void AppSettings::write(const QString &key, const QVariant &value)
{
    if (!unchangedInThisProcess)
        m_settings.setValue(key, value);
}

QStringList AppSettings::recentProjects() const
{
    QStringList existing;
    for (const QString &folder : m_settings.value(RecentProjectsKey).toStringList()) {
        if (QFileInfo(folder).isDir())
            existing.append(folder);
    }
    return existing;
}

void AppSettings::addRecentProject(const QString &folder)
{
    const QString clean = QDir::cleanPath(QFileInfo(folder).absoluteFilePath());
    QStringList list = recentProjects();
    list.removeAll(clean);
    list.prepend(clean);
    while (list.size() > MaxRecentProjects)
        list.removeLast();
    write(RecentProjectsKey, list);
}

void AppSettings::clearRecentProjects()
{
    if (!unchangedInThisProcess)
        m_settings.remove(RecentProjectsKey);
}

QByteArray AppSettings::windowGeometry() const
{
    return m_settings.value(GeometryKey).toByteArray();
}
void AppSettings::setWindowGeometry(const QByteArray &geometry)
{
    write(GeometryKey, geometry);
}
QByteArray AppSettings::windowState() const
{
    return m_settings.value(StateKey).toByteArray();
}
void AppSettings::setWindowState(const QByteArray &state)
{
    write(StateKey, state);
}
QString AppSettings::lastView() const
{
    return m_settings.value(LastViewKey).toString();
}
void AppSettings::setLastView(const QString &view)
{
    write(LastViewKey, view);
}

QString AppSettings::theme() const
{
    return m_settings.value(ThemeKey, QStringLiteral("system")).toString();
}
void AppSettings::setTheme(const QString &theme)
{
    write(ThemeKey, theme);
}

int AppSettings::localModelContextSize() const
{
    return std::max(512, m_settings.value(LocalContextKey, 16384).toInt());
}

void AppSettings::setLocalModelContextSize(int tokens)
{
    write(LocalContextKey, tokens);
}

bool AppSettings::localModelInstallOffered() const
{
    return m_settings.value(LocalInstallOfferedKey, false).toBool();
}
void AppSettings::setLocalModelInstallOffered(bool offered)
{
    write(LocalInstallOfferedKey, offered);
}

int AppSettings::localModelThreads() const
{
    return std::max(0, m_settings.value(LocalThreadsKey, 0).toInt());
}

void AppSettings::setLocalModelThreads(int threads)
{
    write(LocalThreadsKey, threads);
}

VerdictThresholds AppSettings::verdictThresholds() const
{
    VerdictThresholds thresholds;
    thresholds.minLift = std::clamp(m_settings.value(VerdictMinLiftKey, thresholds.minLift).toDouble(), 0.0, 1.0);
    thresholds.minPairs = std::max(1, m_settings.value(VerdictMinPairsKey, thresholds.minPairs).toInt());
    return thresholds;
}

void AppSettings::setVerdictThresholds(const VerdictThresholds &thresholds)
{
    write(VerdictMinLiftKey, thresholds.minLift);
    write(VerdictMinPairsKey, thresholds.minPairs);
}

SlurmProfile AppSettings::slurmProfile() const
{
    SlurmProfile profile;
    profile.slurmConf = m_settings.value(SlurmConfKey).toString();
    profile.partition = m_settings.value(SlurmPartitionKey).toString();
    profile.gres = m_settings.value(SlurmGresKey).toString();
    profile.account = m_settings.value(SlurmAccountKey).toString();
    profile.time = m_settings.value(SlurmTimeKey).toString();
    profile.sbatchArgs = m_settings.value(SlurmSbatchArgsKey).toStringList();
    profile.sharedDir = m_settings.value(SlurmSharedDirKey).toString();
    return profile;
}

void AppSettings::setSlurmProfile(const SlurmProfile &profile)
{
    write(SlurmConfKey, profile.slurmConf);
    write(SlurmPartitionKey, profile.partition);
    write(SlurmGresKey, profile.gres);
    write(SlurmAccountKey, profile.account);
    write(SlurmTimeKey, profile.time);
    write(SlurmSbatchArgsKey, profile.sbatchArgs);
    write(SlurmSharedDirKey, profile.sharedDir);
}

QString AppSettings::chartFolder() const
{
    return m_settings.value(ChartFolderKey).toString();
}
void AppSettings::setChartFolder(const QString &folder)
{
    write(ChartFolderKey, folder);
}

QStringList AppSettings::lastStudentModels() const
{
    return m_settings.value(LastStudentsKey).toStringList();
}
void AppSettings::setLastStudentModels(const QStringList &models)
{
    write(LastStudentsKey, models);
}

QString AppSettings::lastTeacherModel() const
{
    return m_settings.value(LastTeacherKey).toString();
}
void AppSettings::setLastTeacherModel(const QString &model)
{
    write(LastTeacherKey, model);
}

QStringList AppSettings::recentModels() const
{
    return m_settings.value(RecentModelsKey).toStringList();
}
void AppSettings::addRecentModels(const QStringList &models)
{
    QStringList recent = recentModels();
    for (auto model = models.crbegin(); model != models.crend(); ++model) {
        if (model->trimmed().isEmpty())
            continue;
        recent.removeAll(model->trimmed());
        recent.prepend(model->trimmed());
    }
    write(RecentModelsKey, recent.mid(0, MaxRecentModels));
}

QString AppSettings::lastEvalSuite() const
{
    return m_settings.value(LastEvalSuiteKey).toString();
}
void AppSettings::setLastEvalSuite(const QString &path)
{
    write(LastEvalSuiteKey, path);
}

int AppSettings::lastEvalRepeats() const
{
    return m_settings.value(LastEvalRepeatsKey, 0).toInt();
}
void AppSettings::setLastEvalRepeats(int repeats)
{
    write(LastEvalRepeatsKey, repeats);
}

int AppSettings::lastEvalConcurrency() const
{
    return m_settings.value(LastEvalConcurrencyKey, 0).toInt();
}
void AppSettings::setLastEvalConcurrency(int concurrency)
{
    write(LastEvalConcurrencyKey, concurrency);
}

QString AppSettings::lastExecutor() const
{
    return m_settings.value(LastExecutorKey, QStringLiteral("local")).toString();
}

void AppSettings::setLastExecutor(const QString &name)
{
    write(LastExecutorKey, name);
}

QString AppSettings::lastHarness() const
{
    return m_settings.value(LastHarnessKey, QStringLiteral("builtin")).toString();
}

void AppSettings::setLastHarness(const QString &harness)
{
    write(LastHarnessKey, harness);
}

QString AppSettings::lastHarnessCli() const
{
    return m_settings.value(LastHarnessCliKey).toString();
}

void AppSettings::setLastHarnessCli(const QString &choice)
{
    write(LastHarnessCliKey, choice);
}

} // namespace sf
