#include "StructuredReply.h"

#include "SkillDraft.h"
#include "llm/ModelName.h"
#include "skill/SkillDocument.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <algorithm>

namespace sf {

namespace {

// Kept in step with SkillDraft's rule that files stay inside the skill, and narrow enough for a grammar. Every
// repetition is bounded: llama.cpp's grammar follows a pattern and not maxLength beside it, and an unbounded
// name is where a small model rambles until the token limit. A name is at most 16 + 3 * 16 = 64 characters.
const QString kFilePathPattern =
    QStringLiteral("^(references|scripts)/[a-z0-9][a-z0-9_-]{0,39}\\.(md|py|sh|txt|json)$");
const QString kNamePattern = QStringLiteral("^[a-z0-9]{1,16}(-[a-z0-9]{1,15}){0,3}$");

QJsonObject text(int minLength, int maxLength)
{
    return {{QStringLiteral("type"), QStringLiteral("string")},
            {QStringLiteral("minLength"), minLength},
            {QStringLiteral("maxLength"), maxLength}};
}

QJsonObject object(const QJsonObject &properties, const QStringList &required)
{
    return {{QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"), properties},
            {QStringLiteral("required"), QJsonArray::fromStringList(required)},
            {QStringLiteral("additionalProperties"), false}};
}

QJsonObject constant(const QString &value)
{
    return {{QStringLiteral("type"), QStringLiteral("string")}, {QStringLiteral("enum"), QJsonArray{value}}};
}

// Front matter every reader takes: one line, plain where YAML reads it back unchanged, quoted only where it must be
// (upskill's line reader keeps quotes as part of the value, so needless ones are a bug there).
QString frontMatterValue(const QString &value)
{
    return SkillDocument::yamlScalar(value.simplified());
}

ReplySchema schemaNamed(const QString &name, const QJsonObject &schema)
{
    return {name, QJsonDocument(schema).toJson(QJsonDocument::Compact)};
}

} // namespace

bool replyWasCutOff(const ChatResponse &response)
{
    return response.finishReason == QLatin1String("length") || response.finishReason == QLatin1String("max_tokens");
}

std::optional<ReplyFormat> replyFormatFromName(const QString &name)
{
    if (name == QLatin1String("auto"))
        return ReplyFormat::Auto;
    if (name == QLatin1String("files"))
        return ReplyFormat::Files;
    if (name == QLatin1String("json"))
        return ReplyFormat::Json;
    return std::nullopt;
}

ReplyFormat resolveReplyFormat(ReplyFormat format, const QString &model)
{
    if (format != ReplyFormat::Auto)
        return format;
    const Result<ModelName> name = ModelName::parse(model);
    const bool grammarServer =
        name && (name.value->provider == QLatin1String("local") || name.value->provider == QLatin1String("ollama"));
    return grammarServer ? ReplyFormat::Json : ReplyFormat::Files;
}

ReplySchema skillReplySchema(int maxTokens)
{
    // Under a grammar a small model may spend a token on each character, and two on an escape ("\n" is two
    // characters of JSON for one of the string), so the strings together stay within half the budget in characters
    // (from 512 tokens up; below, the name's 64 alone is a quarter) and none takes more than a quarter: a reply that
    // fills every one of them, even with escapes, still closes its JSON.
    const int budget = std::max(maxTokens, 256);
    const int bodyChars = std::clamp(budget / 4, 60, 48000);
    QJsonObject properties{
        {QStringLiteral("name"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                                             {QStringLiteral("pattern"), kNamePattern},
                                             {QStringLiteral("maxLength"), 64}}},
        {QStringLiteral("description"), text(20, std::clamp(budget / 20, 40, 1024))},
        {QStringLiteral("body"), text(40, bodyChars)}};
    QStringList required{QStringLiteral("name"), QStringLiteral("description"), QStringLiteral("body")};
    if (budget >= 8000) {
        // Only a budget that can hold them offers extra files; a small one spends everything on SKILL.md.
        properties.insert(QStringLiteral("files"),
                          QJsonObject{{QStringLiteral("type"), QStringLiteral("array")},
                                      {QStringLiteral("maxItems"), 3},
                                      {QStringLiteral("items"),
                                       object({{QStringLiteral("path"),
                                                QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                                                            {QStringLiteral("pattern"), kFilePathPattern}}},
                                               {QStringLiteral("content"), text(1, budget / 20)}},
                                              {QStringLiteral("path"), QStringLiteral("content")})}});
    }
    return schemaNamed(QStringLiteral("skill"), object(properties, required));
}

SkillDraft skillDraftFromJson(const QString &reply)
{
    SkillDraft draft;
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(reply.trimmed().toUtf8(), &error);
    if (!document.isObject()) {
        draft.problems << QStringLiteral("the reply is not the JSON object asked for (%1 at offset %2)")
                              .arg(error.errorString())
                              .arg(error.offset);
        return draft;
    }
    const QJsonObject skill = document.object();
    const QString name = skill.value(QStringLiteral("name")).toString().trimmed();
    const QString description = skill.value(QStringLiteral("description")).toString().trimmed();
    const QString body = SkillDraft::unwrapFence(skill.value(QStringLiteral("body")).toString()).trimmed();
    if (name.isEmpty() || description.isEmpty() || body.isEmpty()) {
        draft.problems << QStringLiteral("the reply lacks a name, a description or a body");
        return draft;
    }
    draft.files.insert(QStringLiteral("SKILL.md"), QStringLiteral("---\nname: %1\ndescription: %2\n---\n\n%3\n")
                                                       .arg(frontMatterValue(name), frontMatterValue(description), body)
                                                       .toUtf8());
    static const QRegularExpression allowedPath(kFilePathPattern);
    for (const QJsonValue &value : skill.value(QStringLiteral("files")).toArray()) {
        const QString path = value.toObject().value(QStringLiteral("path")).toString();
        if (!allowedPath.match(path).hasMatch()) {
            draft.problems << QStringLiteral("the file \"%1\" is not under references/ or scripts/; it was left out")
                                  .arg(path);
            continue;
        }
        draft.files.insert(path, value.toObject().value(QStringLiteral("content")).toString().toUtf8());
    }
    return draft;
}

ReplySchema testSuiteReplySchema(int count, const QStringList &kernelTasks, int maxTokens)
{
    // As for skills, a character may cost a token or more: each case gets an equal share of a third of the budget
    // in characters, its input 40% of it, each of its verifier strings 6%, and fewer verifiers when the share is
    // small, so that a case that fills every limit, with the JSON around it, still fits.
    const int perCase = std::max(160, std::max(maxTokens, 256) / 3 / std::max(count, 1));
    const int inputChars = std::clamp(perCase * 2 / 5, 20, 4000);
    const int argChars = std::clamp(perCase * 6 / 100, 8, 400);
    const int maxVerifiers = std::clamp(perCase / 200, 1, 3);
    const QJsonObject values{{QStringLiteral("type"), QStringLiteral("array")},
                             {QStringLiteral("minItems"), 1},
                             {QStringLiteral("maxItems"), 2},
                             {QStringLiteral("items"), text(1, argChars)}};
    const QString type = QStringLiteral("type");
    QJsonArray kinds{
        object({{type, constant(QStringLiteral("contains"))}, {QStringLiteral("values"), values}},
               {type, QStringLiteral("values")}),
        object({{type, constant(QStringLiteral("not_contains"))}, {QStringLiteral("values"), values}},
               {type, QStringLiteral("values")}),
        object({{type, constant(QStringLiteral("regex"))}, {QStringLiteral("pattern"), text(1, argChars)}},
               {type, QStringLiteral("pattern")}),
        object({{type, constant(QStringLiteral("file_exists"))}, {QStringLiteral("path"), text(1, 120)}},
               {type, QStringLiteral("path")}),
        object({{type, constant(QStringLiteral("file_contains"))},
                {QStringLiteral("path"), text(1, 120)},
                {QStringLiteral("text"), text(1, argChars)}},
               {type, QStringLiteral("path"), QStringLiteral("text")}),
        object({{type, constant(QStringLiteral("json_valid"))}}, {type}),
        object({{type, constant(QStringLiteral("command"))},
                {QStringLiteral("command"), text(1, argChars)},
                {QStringLiteral("timeout_seconds"), QJsonObject{{QStringLiteral("type"), QStringLiteral("integer")},
                                                                {QStringLiteral("minimum"), 1},
                                                                {QStringLiteral("maximum"), 600}}}},
               {type, QStringLiteral("command")}),
        object({{type, constant(QStringLiteral("llm_judge"))},
                {QStringLiteral("rubric"), text(8, argChars * 2)},
                {QStringLiteral("threshold"), QJsonObject{{QStringLiteral("enum"), QJsonArray{1, 2, 3, 4, 5}}}}},
               {type, QStringLiteral("rubric"), QStringLiteral("threshold")})};
    if (!kernelTasks.isEmpty()) {
        kinds.append(object({{type, constant(QStringLiteral("cuda_kernel"))},
                             {QStringLiteral("task"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                                                                  {QStringLiteral("enum"),
                                                                   QJsonArray::fromStringList(kernelTasks)}}},
                             {QStringLiteral("dtype"),
                              QJsonObject{{QStringLiteral("enum"), QJsonArray{QStringLiteral("fp32"),
                                                                              QStringLiteral("fp16"),
                                                                              QStringLiteral("bf16")}}}},
                             {QStringLiteral("path"), text(1, 120)}},
                            {type, QStringLiteral("task"), QStringLiteral("path")}));
    }
    const QJsonObject testCase = object(
        {{QStringLiteral("id"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                                            {QStringLiteral("pattern"), kNamePattern},
                                            {QStringLiteral("maxLength"), 64}}},
         {QStringLiteral("input"), text(10, inputChars)},
         {QStringLiteral("verifiers"), QJsonObject{{QStringLiteral("type"), QStringLiteral("array")},
                                                   {QStringLiteral("minItems"), 1},
                                                   {QStringLiteral("maxItems"), maxVerifiers},
                                                   {QStringLiteral("items"), QJsonObject{{QStringLiteral("anyOf"),
                                                                                          kinds}}}}}},
        {QStringLiteral("id"), QStringLiteral("input"), QStringLiteral("verifiers")});
    return schemaNamed(QStringLiteral("test_suite"),
                       object({{QStringLiteral("cases"), QJsonObject{{QStringLiteral("type"), QStringLiteral("array")},
                                                                     {QStringLiteral("minItems"), count},
                                                                     {QStringLiteral("maxItems"), count},
                                                                     {QStringLiteral("items"), testCase}}}},
                              {QStringLiteral("cases")}));
}

} // namespace sf
