#include "TriggerQueryGenerator.h"

#include "SkillCatalogue.h"
#include "generate/PromptTemplate.h"
#include "llm/ChatCall.h"
#include "llm/ChatClient.h"
#include "skill/SkillDocument.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

ReplySchema querySetSchema(int count)
{
    const QJsonObject item{
        {u"type"_s, u"object"_s},
        {u"properties"_s, QJsonObject{{u"query"_s, QJsonObject{{u"type"_s, u"string"_s}, {u"maxLength"_s, 400}}},
                                      {u"should_trigger"_s, QJsonObject{{u"type"_s, u"boolean"_s}}}}},
        {u"required"_s, QJsonArray{u"query"_s, u"should_trigger"_s}},
        {u"additionalProperties"_s, false}};
    const QJsonObject schema{{u"type"_s, u"object"_s},
                             {u"properties"_s, QJsonObject{{u"queries"_s, QJsonObject{{u"type"_s, u"array"_s},
                                                                                      {u"items"_s, item},
                                                                                      {u"minItems"_s, count},
                                                                                      {u"maxItems"_s, count}}}}},
                             {u"required"_s, QJsonArray{u"queries"_s}},
                             {u"additionalProperties"_s, false}};
    return {u"trigger_queries"_s, QJsonDocument(schema).toJson(QJsonDocument::Compact)};
}

} // namespace

TriggerQueryGenerator::TriggerQueryGenerator(ChatClient &chat, QObject *parent)
    : QObject(parent)
    , m_chat(chat)
{
}

TriggerQueryGenerator::~TriggerQueryGenerator()
{
    delete m_call.data();
}

void TriggerQueryGenerator::start(const TriggerQueryRequest &request)
{
    m_request = request;
    QFile file(QDir(request.skillDir).filePath(u"SKILL.md"_s));
    if (!file.open(QIODevice::ReadOnly))
        return fail(u"cannot read %1"_s.arg(file.fileName()));
    const SkillDocument doc = SkillDocument::parse(QString::fromUtf8(file.readAll()));
    const QString name = doc.name().isEmpty() ? QFileInfo(request.skillDir).fileName() : doc.name();
    QString others;
    for (const CatalogueEntry &e : SkillCatalogue::besideAndBundled(request.skillDir)) {
        if (e.name != name)
            others += u"- %1: %2\n"_s.arg(e.name, e.description);
    }
    const auto system = PromptTemplate::load(u"generate-trigger-queries.system"_s);
    const auto user = PromptTemplate::load(u"generate-trigger-queries.user"_s);
    if (!system || !user)
        return fail(system ? user.error : system.error);
    const auto text = user.value->render({{u"count"_s, QString::number(request.count)},
                                          {u"name"_s, name},
                                          {u"description"_s, doc.description().trimmed()},
                                          {u"body"_s, doc.body().trimmed().left(6000)},
                                          {u"others"_s, others}});
    if (!text)
        return fail(text.error);
    ChatRequest chat;
    chat.system = system.value->text();
    chat.messages = {{u"user"_s, *text.value}};
    chat.maxTokens = request.maxTokens;
    chat.replySchema = querySetSchema(request.count);
    m_call = m_chat.chat(request.model, chat);
    m_call->setParent(this);
    connect(m_call, &ChatCall::finished, this, &TriggerQueryGenerator::onReply);
    connect(m_call, &ChatCall::failed, this, &TriggerQueryGenerator::fail);
}

void TriggerQueryGenerator::onReply(const ChatResponse &response)
{
    m_call->deleteLater();
    const QString reply = response.text;
    const qsizetype open = reply.indexOf(u'{');
    const qsizetype close = reply.lastIndexOf(u'}');
    const auto parsed =
        triggerqueries::parse(open >= 0 && close > open ? reply.mid(open, close - open + 1).toUtf8() : reply.toUtf8(),
                              u"the model's reply"_s);
    if (const LoadError *e = std::get_if<LoadError>(&parsed))
        return fail(u"%1\nThe reply:\n%2"_s.arg(e->toString(), reply.left(2000)));
    const QList<TriggerQuery> queries = std::get<QList<TriggerQuery>>(parsed);
    if (const QString error = triggerqueries::write(m_request.outputPath, queries); !error.isEmpty())
        return fail(error);
    Q_EMIT finished(m_request.outputPath, queries);
}

void TriggerQueryGenerator::fail(const QString &message)
{
    QMetaObject::invokeMethod(
        this, [this, message] { Q_EMIT failed(message); }, Qt::QueuedConnection);
}

} // namespace sf
