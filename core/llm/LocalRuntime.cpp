#include "LocalRuntime.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

QString env(const char *name)
{
    return qEnvironmentVariable(name).trimmed();
}

// The manifest is compiled in (see core/llm/CMakeLists.txt); read once.
const QJsonObject &manifest()
{
    static const QJsonObject object = [] {
        QFile file(u":/local-model/local-model.json"_s);
        return file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll()).object() : QJsonObject();
    }();
    return object;
}

} // namespace

QString LocalRuntime::cacheDir()
{
    if (const QString dir = env("SKILLFORGE_CACHE_DIR"); !dir.isEmpty()) {
        return dir;
    }
    if (const QString xdg = env("XDG_CACHE_HOME"); !xdg.isEmpty()) {
        return xdg + "/skillforge"_L1;
    }
    return QDir::homePath() + "/.cache/skillforge"_L1;
}

QString LocalRuntime::llamaServerPath()
{
    const QString path = env("SKILLFORGE_LLAMA_SERVER");
    return path.isEmpty() ? cacheDir() + "/bin/llama-server"_L1 : path;
}

QString LocalRuntime::modelPath()
{
    const QString path = env("SKILLFORGE_LOCAL_MODEL");
    return path.isEmpty() ? cacheDir() + "/models/"_L1 + manifest().value("file"_L1).toString() : path;
}

QString LocalRuntime::modelName()
{
    return manifest().value("name"_L1).toString();
}

QString LocalRuntime::qualifiedModelName()
{
    return "local:"_L1 + modelName();
}

QString LocalRuntime::displayName()
{
    return manifest().value("displayName"_L1).toString();
}

int LocalRuntime::trainedContextTokens()
{
    return manifest().value("trainedContextTokens"_L1).toInt(8192);
}

bool LocalRuntime::isInstalled()
{
    return missingReason().isEmpty();
}

QString LocalRuntime::missingReason()
{
    const QFileInfo server(llamaServerPath());
    if (!server.isFile() || !server.isExecutable()) {
        return u"The local model server %1 is not installed"_s.arg(server.filePath());
    }
    const QFileInfo model(modelPath());
    if (!model.isFile()) {
        return u"The local model %1 is not installed"_s.arg(model.filePath());
    }
    return {};
}

} // namespace sf
