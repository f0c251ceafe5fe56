#include "project/Project.h"

#include "common/AtomicFile.h"
#include "eval/RunName.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <nlohmann/json.hpp>

namespace sf {

namespace {

using Json = nlohmann::json;

QString fromUtf8(const std::string &s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// Reads an optional member of the expected JSON type; a wrong type is reported, not guessed around.
template<typename T>
std::optional<QString> readMember(const Json &object, const char *key, Json::value_t type, T *out)
{
    const auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return std::nullopt;
    const bool numberWanted = type == Json::value_t::number_integer;
    if (numberWanted ? !it->is_number_integer() : it->type() != type)
        return QStringLiteral("\"%1\" has the wrong type (expected %2)")
            .arg(QString::fromLatin1(key), QString::fromLatin1(Json(type).type_name()));
    if constexpr (std::is_same_v<T, QString>)
        *out = fromUtf8(it->template get<std::string>());
    else if constexpr (std::is_same_v<T, int>)
        *out = it->template get<int>();
    return std::nullopt;
}

} // namespace

std::variant<Project, LoadError> Project::open(const QString &folder)
{
    const QFileInfo folderInfo(folder);
    if (!folderInfo.isDir())
        return LoadError{folder, 0, 0, QStringLiteral("not a folder")};

    Project project;
    project.m_rootPath = folderInfo.absoluteFilePath();
    project.m_name = folderInfo.fileName();

    const QString filePath = QDir(project.m_rootPath).filePath(FileName);
    QFile file(filePath);
    if (!file.exists())
        return project;
    if (!file.open(QIODevice::ReadOnly))
        return LoadError{filePath, 0, 0, file.errorString()};
    const QByteArray text = file.readAll();

    Json root;
    try {
        root = Json::parse(text.constData(), text.constData() + text.size());
    } catch (const Json::parse_error &error) {
        LoadError result{filePath, 0, 0, QStringLiteral("invalid JSON")};
        lineAndColumnAt(text, qsizetype(error.byte) - 1, &result.line, &result.column);
        return result;
    }
    if (!root.is_object())
        return LoadError{filePath, 1, 1, QStringLiteral("the project file must hold a JSON object")};

    auto fail = [&](const QString &message) { return LoadError{filePath, 0, 0, message}; };
    int formatVersion = FormatVersion;
    if (auto e = readMember(root, "formatVersion", Json::value_t::number_integer, &formatVersion))
        return fail(*e);
    if (formatVersion > FormatVersion)
        return fail(QStringLiteral("format version %1 is newer than this Skillforge understands (%2)")
                        .arg(formatVersion)
                        .arg(FormatVersion));
    if (auto e = readMember(root, "name", Json::value_t::string, &project.m_name))
        return fail(*e);
    if (auto e = readMember(root, "description", Json::value_t::string, &project.m_description))
        return fail(*e);

    if (const auto defaults = root.find("defaults"); defaults != root.end()) {
        if (!defaults->is_object())
            return fail(QStringLiteral("\"defaults\" must be an object"));
        ProjectDefaults &d = project.m_defaults;
        for (const auto &[key, target] : {std::pair{"teacher", &d.teacher},
                                          std::pair{"validationProfile", &d.validationProfile},
                                          std::pair{"skillDelivery", &d.skillDelivery}}) {
            if (auto e = readMember(*defaults, key, Json::value_t::string, target))
                return fail(QStringLiteral("defaults: ") + *e);
        }
        if (auto e = readMember(*defaults, "repeats", Json::value_t::number_integer, &d.repeats))
            return fail(QStringLiteral("defaults: ") + *e);
        if (const auto students = defaults->find("students"); students != defaults->end()) {
            if (!students->is_array())
                return fail(QStringLiteral("defaults: \"students\" must be a list of model names"));
            for (const Json &student : *students) {
                if (!student.is_string())
                    return fail(QStringLiteral("defaults: every student must be a model name string"));
                d.students.append(fromUtf8(student.get<std::string>()));
            }
        }
    }
    project.m_hasProjectFile = true;
    return project;
}

std::variant<Project, LoadError> Project::create(const QString &folder, const QString &name)
{
    QDir dir(folder);
    if (dir.exists() && !dir.isEmpty())
        return LoadError{folder, 0, 0, QStringLiteral("the folder is not empty; choose an empty or new folder")};
    for (const char *sub : {"traces", "skills", "tests", "runs", "kernels"}) {
        if (!dir.mkpath(QString::fromLatin1(sub)))
            return LoadError{folder, 0, 0, QStringLiteral("cannot create the folder %1").arg(QString::fromLatin1(sub))};
    }
    const Json root = {{"formatVersion", FormatVersion},
                       {"name", name.toStdString()},
                       {"description", ""},
                       {"defaults", {{"students", Json::array()}, {"validationProfile", "agentskills"},
                                     {"skillDelivery", "inline"}, {"repeats", 3}}}};
    const std::string text = root.dump(2) + '\n';
    const QString error = writeFileAtomically(dir.filePath(FileName), QByteArray::fromStdString(text));
    if (!error.isEmpty())
        return LoadError{dir.filePath(FileName), 0, 0, error};
    return open(folder);
}

QString Project::tracesPath() const { return pathFor(ProjectItem::Kind::Trace); }
QString Project::skillsPath() const { return pathFor(ProjectItem::Kind::Skill); }
QString Project::testsPath() const { return pathFor(ProjectItem::Kind::TestSuite); }
QString Project::runsPath() const { return pathFor(ProjectItem::Kind::Run); }
QString Project::kernelsPath() const { return pathFor(ProjectItem::Kind::KernelTask); }

namespace {

bool sameContent(const QString &a, const QString &b)
{
    QFile first(a), second(b);
    if (first.size() != second.size() || !first.open(QIODevice::ReadOnly) || !second.open(QIODevice::ReadOnly))
        return false;
    while (!first.atEnd()) {
        if (first.read(1 << 20) != second.read(1 << 20))
            return false;
    }
    return true;
}

} // namespace

Result<QString> Project::addTrace(const QString &file, bool *copied) const
{
    if (copied)
        *copied = false;
    const QFileInfo source(file);
    if (!source.isFile())
        return Result<QString>::failure(QStringLiteral("%1: no such file").arg(file));
    const QDir traces(tracesPath());
    if (source.absoluteDir() == QDir(traces.absolutePath()))
        return Result<QString>::success(source.absoluteFilePath());
    if (!QDir().mkpath(traces.absolutePath()))
        return Result<QString>::failure(QStringLiteral("%1: cannot create the folder").arg(traces.absolutePath()));
    QString name = source.fileName();
    for (int n = 2; traces.exists(name); ++n) {
        if (sameContent(source.absoluteFilePath(), traces.filePath(name)))
            return Result<QString>::success(traces.filePath(name));
        name = source.suffix().isEmpty()
                   ? QStringLiteral("%1-%2").arg(source.completeBaseName()).arg(n)
                   : QStringLiteral("%1-%2.%3").arg(source.completeBaseName()).arg(n).arg(source.suffix());
    }
    // Copied under a hidden name and renamed into place, so the sidebar never lists half a trace.
    const QString target = traces.filePath(name);
    const QString partial = traces.filePath(QStringLiteral(".%1.part").arg(name));
    QFile::remove(partial);
    QFile copy(source.absoluteFilePath());
    if (!copy.copy(partial))
        return Result<QString>::failure(QStringLiteral("%1: cannot copy into %2: %3")
                                            .arg(source.fileName(), traces.absolutePath(), copy.errorString()));
    if (!QFile::rename(partial, target)) {
        QFile::remove(partial);
        return Result<QString>::failure(QStringLiteral("%1: cannot be written").arg(target));
    }
    if (copied)
        *copied = true;
    return Result<QString>::success(target);
}

QString Project::pathFor(ProjectItem::Kind kind) const
{
    switch (kind) {
    case ProjectItem::Kind::Trace: return m_rootPath + QStringLiteral("/traces");
    case ProjectItem::Kind::Skill: return m_rootPath + QStringLiteral("/skills");
    case ProjectItem::Kind::TestSuite: return m_rootPath + QStringLiteral("/tests");
    case ProjectItem::Kind::Run: return m_rootPath + QStringLiteral("/runs");
    case ProjectItem::Kind::KernelTask: return m_rootPath + QStringLiteral("/kernels");
    }
    return m_rootPath;
}

namespace {

/// The run.json of the run in @p runDir; an empty manifest named by the folder when it cannot be read.
RunManifest manifestOf(const QString &runDir)
{
    QFile file(runDir + QStringLiteral("/run.json"));
    RunManifest manifest;
    if (file.open(QIODevice::ReadOnly))
        manifest = RunManifest::fromJson(QJsonDocument::fromJson(file.read(1 << 20)).object());
    if (manifest.runId.isEmpty())
        manifest.runId = QFileInfo(runDir).fileName();
    return manifest;
}

} // namespace

QList<ProjectItem> Project::items(ProjectItem::Kind kind) const
{
    const QDir dir(pathFor(kind));
    QList<ProjectItem> result;
    const auto add = [&](const QFileInfo &info) { result.append({kind, info.fileName(), info.absoluteFilePath()}); };

    switch (kind) {
    case ProjectItem::Kind::Trace:
        for (const QFileInfo &info : dir.entryInfoList(QDir::Files | QDir::Readable, QDir::Name))
            add(info);
        break;
    case ProjectItem::Kind::TestSuite:
        for (const QFileInfo &info : dir.entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
            add(info);
        break;
    case ProjectItem::Kind::Skill:
        for (const QFileInfo &info : dir.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            if (QFileInfo::exists(info.filePath() + QStringLiteral("/SKILL.md")))
                add(info);
        }
        break;
    case ProjectItem::Kind::Run:
        // Run ids start with their timestamp, so reverse name order is newest first.
        // Run ids are timestamps a person does not read: each run is named by what tells it from the others.
        {
            QList<RunManifest> manifests;
            for (const QFileInfo &info :
                 dir.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name | QDir::Reversed)) {
                if (QFileInfo::exists(info.filePath() + QStringLiteral("/run.json"))) {
                    add(info);
                    manifests.append(manifestOf(info.filePath()));
                }
            }
            const QStringList names = runNames(manifests);
            for (qsizetype i = 0; i < result.size(); ++i) {
                result[i].title = names[i];
                result[i].description = runDescription(manifests[i]);
            }
        }
        break;
    case ProjectItem::Kind::KernelTask:
        for (const QFileInfo &info : dir.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
            add(info);
        break;
    }
    return result;
}

} // namespace sf
