#include "project/AppSettings.h"

#include <QDir>
#include <QFileInfo>

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
} // namespace

AppSettings::AppSettings() = default;

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
    m_settings.setValue(RecentProjectsKey, list);
}

void AppSettings::clearRecentProjects()
{
    m_settings.remove(RecentProjectsKey);
}

QByteArray AppSettings::windowGeometry() const { return m_settings.value(GeometryKey).toByteArray(); }
void AppSettings::setWindowGeometry(const QByteArray &geometry) { m_settings.setValue(GeometryKey, geometry); }
QByteArray AppSettings::windowState() const { return m_settings.value(StateKey).toByteArray(); }
void AppSettings::setWindowState(const QByteArray &state) { m_settings.setValue(StateKey, state); }
QString AppSettings::lastView() const { return m_settings.value(LastViewKey).toString(); }
void AppSettings::setLastView(const QString &view) { m_settings.setValue(LastViewKey, view); }

QString AppSettings::theme() const { return m_settings.value(ThemeKey, QStringLiteral("system")).toString(); }
void AppSettings::setTheme(const QString &theme) { m_settings.setValue(ThemeKey, theme); }

int AppSettings::localModelContextSize() const
{
    return std::max(512, m_settings.value(LocalContextKey, 16384).toInt());
}

void AppSettings::setLocalModelContextSize(int tokens) { m_settings.setValue(LocalContextKey, tokens); }

bool AppSettings::localModelInstallOffered() const { return m_settings.value(LocalInstallOfferedKey, false).toBool(); }
void AppSettings::setLocalModelInstallOffered(bool offered) { m_settings.setValue(LocalInstallOfferedKey, offered); }

int AppSettings::localModelThreads() const
{
    return std::max(0, m_settings.value(LocalThreadsKey, 0).toInt());
}

void AppSettings::setLocalModelThreads(int threads) { m_settings.setValue(LocalThreadsKey, threads); }

} // namespace sf
