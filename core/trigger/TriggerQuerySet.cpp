#include "TriggerQuerySet.h"

#include "common/AtomicFile.h"
#include "common/JsonLocator.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace sf::triggerqueries {

namespace {

std::optional<bool> truth(const QJsonValue &value)
{
    if (value.isBool())
        return value.toBool();
    if (value.isDouble() && (value.toDouble() == 0 || value.toDouble() == 1))
        return value.toDouble() == 1;
    if (value.isString()) {
        const QString word = value.toString().trimmed().toLower();
        if (word == "true"_L1 || word == "yes"_L1 || word == "1"_L1)
            return true;
        if (word == "false"_L1 || word == "no"_L1 || word == "0"_L1)
            return false;
    }
    return std::nullopt;
}

} // namespace

std::variant<QList<TriggerQuery>, LoadError> parse(const QByteArray &json, const QString &fileName)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        LoadError error{fileName, 0, 0, u"not valid JSON: "_s + parseError.errorString()};
        lineAndColumnAt(json, parseError.offset, &error.line, &error.column);
        return error;
    }
    QJsonArray list;
    QList<JsonStep> prefix;
    if (doc.isArray()) {
        list = doc.array();
    } else {
        const QJsonObject root = doc.object();
        for (const QString &key : {u"queries"_s, u"evals"_s, u"eval_set"_s, u"trigger_evals"_s}) {
            if (root.value(key).isArray()) {
                list = root.value(key).toArray();
                prefix = {key};
                break;
            }
        }
        if (prefix.isEmpty())
            return LoadError{fileName, 1, 0, u"not a trigger query set: expected a list of {query, should_trigger}"_s};
    }
    const JsonLocator locator(json);
    QList<TriggerQuery> queries;
    for (int i = 0; i < list.size(); ++i) {
        QList<JsonStep> path = prefix;
        path.append(i);
        const auto fail = [&](const QString &why) {
            return LoadError{fileName, locator.lineOf(path), 0, u"query %1: %2"_s.arg(i + 1).arg(why)};
        };
        const QJsonObject entry = list.at(i).toObject();
        if (!list.at(i).isObject())
            return fail(u"not an object"_s);
        QString text;
        for (const QString &key : {u"query"_s, u"prompt"_s, u"input"_s}) {
            if (entry.value(key).isString()) {
                text = entry.value(key).toString();
                break;
            }
        }
        if (text.trimmed().isEmpty())
            return fail(u"no query text (\"query\")"_s);
        std::optional<bool> should;
        bool present = false;
        for (const QString &key : {u"should_trigger"_s, u"trigger"_s, u"expected"_s}) {
            if (entry.contains(key)) {
                present = true;
                should = truth(entry.value(key));
                path.append(key);
                break;
            }
        }
        if (!present)
            return fail(u"no \"should_trigger\""_s);
        if (!should)
            return fail(u"\"should_trigger\" is not true or false"_s);
        TriggerQuery query{text, *should};
        const QString split = entry.value("split"_L1).toString();
        if (split == "train"_L1 || split == "heldout"_L1 || split == "held_out"_L1 || split == "test"_L1)
            query.split = split == "train"_L1 ? u"train"_s : u"heldout"_s;
        queries.append(query);
    }
    if (queries.isEmpty())
        return LoadError{fileName, 1, 0, u"the query set is empty"_s};
    return queries;
}

std::variant<QList<TriggerQuery>, LoadError> read(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return LoadError{path, 0, 0, u"cannot read: "_s + file.errorString()};
    return parse(file.readAll(), path);
}

QByteArray toJson(const QList<TriggerQuery> &queries)
{
    QJsonArray list;
    for (const TriggerQuery &q : queries) {
        QJsonObject entry{{u"query"_s, q.query}, {u"should_trigger"_s, q.shouldTrigger}};
        if (!q.split.isEmpty())
            entry.insert(u"split"_s, q.split);
        list.append(entry);
    }
    return QJsonDocument(list).toJson(QJsonDocument::Indented);
}

QString write(const QString &path, const QList<TriggerQuery> &queries)
{
    return writeFileAtomically(path, toJson(queries));
}

} // namespace sf::triggerqueries
