#include "skill/SkillMeta.h"

#include "common/AtomicFile.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonParseError>
#include <nlohmann/json.hpp>

namespace sf {

namespace {

const QString kFileName = QStringLiteral("skill_meta.json");

// upskill's own order (models.py SkillMetadata), so a file we rewrite diffs cleanly against upskill's.
const char *const kMetadataOrder[] = {"version",        "generated_by", "generated_at",  "source_task",
                                      "test_pass_rate", "license",      "compatibility", "candidate_id"};

nlohmann::ordered_json toOrdered(const QJsonValue &value)
{
    const QByteArray json = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return nlohmann::ordered_json::parse(json.constData(), json.constData() + json.size()).at(0);
}

void setOrRemove(QJsonObject *object, const QString &key, const QString &value)
{
    if (value.isEmpty())
        object->remove(key);
    else
        object->insert(key, value);
}

} // namespace

std::variant<SkillMeta, LoadError> readSkillMeta(const QString &skillDir)
{
    const QString path = QDir(skillDir).filePath(kFileName);
    SkillMeta meta;
    QFile file(path);
    if (!file.exists())
        return meta;
    if (!file.open(QIODevice::ReadOnly))
        return LoadError{path, 0, 0, file.errorString()};
    const QByteArray bytes = file.readAll();
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError) {
        LoadError loadError{path, 0, 0, error.errorString()};
        lineAndColumnAt(bytes, error.offset, &loadError.line, &loadError.column);
        return loadError;
    }
    if (!document.isObject())
        return LoadError{path, 1, 1, QStringLiteral("expected a JSON object with \"metadata\" and \"tests\"")};
    meta.raw = document.object();
    const QJsonObject metadata = meta.raw.value(QStringLiteral("metadata")).toObject();
    meta.version = metadata.value(QStringLiteral("version")).toString();
    meta.generatedBy = metadata.value(QStringLiteral("generated_by")).toString();
    meta.generatedAt = metadata.value(QStringLiteral("generated_at")).toString();
    meta.sourceTask = metadata.value(QStringLiteral("source_task")).toString();
    if (metadata.value(QStringLiteral("test_pass_rate")).isDouble())
        meta.testPassRate = metadata.value(QStringLiteral("test_pass_rate")).toDouble();
    meta.license = metadata.value(QStringLiteral("license")).toString();
    meta.compatibility = metadata.value(QStringLiteral("compatibility")).toString();
    meta.candidateId = metadata.value(QStringLiteral("candidate_id")).toString();
    meta.tests = meta.raw.value(QStringLiteral("tests")).toArray();
    return meta;
}

QString writeSkillMeta(const QString &skillDir, const SkillMeta &meta)
{
    QJsonObject metadata = meta.raw.value(QStringLiteral("metadata")).toObject();
    setOrRemove(&metadata, QStringLiteral("version"), meta.version);
    setOrRemove(&metadata, QStringLiteral("generated_by"), meta.generatedBy);
    setOrRemove(&metadata, QStringLiteral("generated_at"), meta.generatedAt);
    setOrRemove(&metadata, QStringLiteral("source_task"), meta.sourceTask);
    metadata.insert(QStringLiteral("test_pass_rate"),
                    meta.testPassRate ? QJsonValue(*meta.testPassRate) : QJsonValue());
    setOrRemove(&metadata, QStringLiteral("license"), meta.license);
    setOrRemove(&metadata, QStringLiteral("compatibility"), meta.compatibility);
    setOrRemove(&metadata, QStringLiteral("candidate_id"), meta.candidateId);

    nlohmann::ordered_json orderedMetadata = nlohmann::ordered_json::object();
    for (const char *key : kMetadataOrder) {
        const QString qkey = QString::fromLatin1(key);
        if (metadata.contains(qkey))
            orderedMetadata[key] = toOrdered(metadata.take(qkey));
    }
    for (auto it = metadata.begin(); it != metadata.end(); ++it)
        orderedMetadata[it.key().toStdString()] = toOrdered(it.value());

    nlohmann::ordered_json root = nlohmann::ordered_json::object();
    root["metadata"] = orderedMetadata;
    root["tests"] = toOrdered(meta.tests);
    for (auto it = meta.raw.begin(); it != meta.raw.end(); ++it) {
        if (it.key() != u"metadata" && it.key() != u"tests")
            root[it.key().toStdString()] = toOrdered(it.value());
    }
    const std::string text = root.dump(2) + "\n";
    return writeFileAtomically(QDir(skillDir).filePath(kFileName), QByteArray(text.data(), qsizetype(text.size())));
}

} // namespace sf
