// The fast reader of Claude Code user and assistant lines: simdjson's DOM parser over the line in place,
// then only the fields the trace keeps become Qt strings. What a line means is defined by the
// QJsonDocument reader in ImportClaudeCode.cpp; this one follows it field by field and hands back any
// line where the two could differ.

#include "trace/ClaudeCodeRecords_p.h"

#include <QJsonDocument>
#include <QRegularExpression>
#include <simdjson.h>

#include <algorithm>
#include <array>
#include <cstdint>

namespace sf::trace_import {

namespace {

using namespace Qt::StringLiterals;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

static_assert(LineReader::Padding >= qsizetype(simdjson::SIMDJSON_PADDING));

QString toQString(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

using Field = std::optional<element>;

/// The values of @p names in @p o, in one pass over its fields. A JSON object may repeat a key; like
/// QJsonObject, the last one counts.
template <std::size_t N>
std::array<Field, N> fieldsOf(const object &o, const std::array<std::string_view, N> &names)
{
    std::array<Field, N> values;
    for (const simdjson::dom::key_value_pair field : o) {
        for (std::size_t i = 0; i < N; ++i) {
            if (field.key == names[i]) {
                values[i] = field.value;
                break;
            }
        }
    }
    return values;
}

/// As QJsonValue::toString(): missing or not a string is "".
std::string_view stringOf(const Field &value)
{
    std::string_view text;
    if (!value || value->get_string().get(text) != simdjson::SUCCESS)
        return {};
    return text;
}

/// As QJsonValue::toBool(): only a JSON true is true.
bool boolOf(const Field &value)
{
    bool flag = false;
    return value && value->get_bool().get(flag) == simdjson::SUCCESS && flag;
}

/// As intField(): a number's value as qint64, anything else 0.
qint64 numberOf(const Field &value)
{
    double number = 0;
    if (!value || value->get_double().get(number) != simdjson::SUCCESS)
        return 0;
    return qint64(number);
}

/// As QJsonValue::toObject(), with "missing or not an object" as nullopt (a default simdjson object is
/// no object at all).
std::optional<object> objectOf(const Field &value)
{
    object o;
    if (!value || value->get_object().get(o) != simdjson::SUCCESS)
        return std::nullopt;
    return o;
}

bool isEmpty(const std::optional<object> &o)
{
    return !o || o->size() == 0;
}

/// One field of an object that may be missing.
Field fieldOf(const std::optional<object> &o, std::string_view name)
{
    return o ? fieldsOf<1>(*o, {name})[0] : Field();
}

/// The Qt value of @p value (read again by QJsonDocument from simdjson's compact writing of it), for
/// the few places that keep Qt's own rendering; false if Qt would not read it.
bool qtValue(const element &value, QJsonValue *out)
{
    std::string json(1, '[');
    json += simdjson::to_string(value);
    json += ']';
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromRawData(json.data(), qsizetype(json.size())), &error);
    if (error.error != QJsonParseError::NoError || !doc.isArray())
        return false;
    *out = doc.array().at(0);
    return true;
}

void writeQtString(std::string_view text, std::string *out)
{
    static constexpr char hex[] = "0123456789abcdef";
    out->push_back('"');
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && c != '"' && c != '\\') {
            out->push_back(c); // UTF-8 (simdjson validated it) and DEL stay as they are
            continue;
        }
        out->push_back('\\');
        switch (c) {
        case '"': out->push_back('"'); break;
        case '\\': out->push_back('\\'); break;
        case '\b': out->push_back('b'); break;
        case '\f': out->push_back('f'); break;
        case '\n': out->push_back('n'); break;
        case '\r': out->push_back('r'); break;
        case '\t': out->push_back('t'); break;
        default:
            out->append("u00");
            out->push_back(hex[u >> 4]);
            out->push_back(hex[u & 0xf]);
        }
    }
    out->push_back('"');
}

/// Writes @p value as QJsonDocument::Compact writes what Qt parsed from it: object keys sorted, the last of
/// a repeated key kept, strings escaped as Qt escapes them. False for what only Qt renders exactly
/// (numbers that are not integers Qt holds as such, non-ASCII keys): those take the Qt way.
bool writeQtCompact(const element &value, std::string *out)
{
    switch (value.type()) {
    case element_type::OBJECT: {
        object o;
        if (value.get_object().get(o) != simdjson::SUCCESS)
            return false;
        std::vector<std::pair<std::string_view, element>> members;
        for (const simdjson::dom::key_value_pair field : o) {
            for (const char c : field.key)
                if (static_cast<unsigned char>(c) >= 0x80)
                    return false; // Qt orders such keys by UTF-16, not by bytes
            members.emplace_back(field.key, field.value);
        }
        std::stable_sort(members.begin(), members.end(),
                         [](const auto &a, const auto &b) { return a.first < b.first; });
        out->push_back('{');
        bool first = true;
        for (std::size_t i = 0; i < members.size(); ++i) {
            if (i + 1 < members.size() && members[i + 1].first == members[i].first)
                continue;
            if (!first)
                out->push_back(',');
            first = false;
            writeQtString(members[i].first, out);
            out->push_back(':');
            if (!writeQtCompact(members[i].second, out))
                return false;
        }
        out->push_back('}');
        return true;
    }
    case element_type::ARRAY: {
        simdjson::dom::array a;
        if (value.get_array().get(a) != simdjson::SUCCESS)
            return false;
        out->push_back('[');
        bool first = true;
        for (const element item : a) {
            if (!first)
                out->push_back(',');
            first = false;
            if (!writeQtCompact(item, out))
                return false;
        }
        out->push_back(']');
        return true;
    }
    case element_type::STRING: {
        std::string_view text;
        if (value.get_string().get(text) != simdjson::SUCCESS)
            return false;
        writeQtString(text, out);
        return true;
    }
    case element_type::INT64: {
        std::int64_t number = 0;
        constexpr std::int64_t Exact = std::int64_t(1) << 53;
        if (value.get_int64().get(number) != simdjson::SUCCESS || number <= -Exact || number >= Exact)
            return false;
        out->append(std::to_string(number));
        return true;
    }
    case element_type::BOOL: {
        bool flag = false;
        if (value.get_bool().get(flag) != simdjson::SUCCESS)
            return false;
        out->append(flag ? "true" : "false");
        return true;
    }
    case element_type::NULL_VALUE:
        out->append("null");
        return true;
    default:
        return false;
    }
}

/// compactJson() of a field; false when Qt would not read it.
bool compactOf(const Field &value, QString *out)
{
    if (!value || value->is_null()) {
        *out = QString();
        return true;
    }
    if (std::string_view text; value->get_string().get(text) == simdjson::SUCCESS) {
        *out = toQString(text);
        return true;
    }
    if (value->is_object() || value->is_array()) {
        std::string json;
        if (writeQtCompact(*value, &json)) {
            *out = toQString(json);
            return true;
        }
    }
    QJsonValue qt;
    if (!qtValue(*value, &qt))
        return false;
    *out = compactJson(qt);
    return true;
}

/// contentText() of a value; false when a part needs Qt and Qt would not read it.
bool contentTextOf(const element &content, QString *out)
{
    if (std::string_view text; content.get_string().get(text) == simdjson::SUCCESS) {
        *out = toQString(text);
        return true;
    }
    QStringList texts;
    auto addPart = [&texts](const element &part) {
        if (std::string_view text; part.get_string().get(text) == simdjson::SUCCESS) {
            texts.append(toQString(text));
            return true;
        }
        object block;
        if (part.get_object().get(block) != simdjson::SUCCESS)
            return true; // QJsonValue::toObject() of anything else is empty: nothing to add
        enum { Type, Text, Content };
        const auto f = fieldsOf<3>(block, {"type", "text", "content"});
        const std::string_view type = stringOf(f[Type]);
        if (f[Text]) {
            texts.append(toQString(stringOf(f[Text])));
        } else if (type.find("image") != std::string_view::npos) {
            texts.append(QStringLiteral("[image]"));
        } else if (f[Content]) {
            QString text;
            if (!contentTextOf(*f[Content], &text))
                return false;
            texts.append(text);
        } else if (!type.empty()) {
            texts.append(u'[' + toQString(type) + u']');
        }
        return true;
    };
    if (content.is_object()) {
        if (!addPart(content))
            return false;
    } else if (simdjson::dom::array parts; content.get_array().get(parts) == simdjson::SUCCESS) {
        for (const element part : parts)
            if (!addPart(part))
                return false;
    } else {
        QJsonValue qt; // a number, true, false or null: Qt's own rendering
        if (!qtValue(content, &qt))
            return false;
        *out = contentText(qt);
        return true;
    }
    *out = texts.join(u'\n');
    return true;
}

TokenUsage anthropicUsage(const object &usage)
{
    enum { Input, CacheRead, Output, Creation, CreationInput, OutputDetails };
    const auto f = fieldsOf<6>(usage, {"input_tokens", "cache_read_input_tokens", "output_tokens", "cache_creation",
                                       "cache_creation_input_tokens", "output_tokens_details"});
    TokenUsage u;
    u.uncachedInput = numberOf(f[Input]);
    u.cacheRead = numberOf(f[CacheRead]);
    u.output = numberOf(f[Output]);
    const std::optional<object> creation = objectOf(f[Creation]);
    if (!isEmpty(creation)) {
        const auto c = fieldsOf<2>(*creation, {"ephemeral_5m_input_tokens", "ephemeral_1h_input_tokens"});
        u.cacheWrite5m = numberOf(c[0]);
        u.cacheWrite1h = numberOf(c[1]);
    } else {
        u.cacheWrite5m = numberOf(f[CreationInput]);
    }
    u.reasoning = numberOf(fieldOf(objectOf(f[OutputDetails]), "thinking_tokens"));
    return u;
}

/// A string that repeats from line to line (model, skill) shares one QString instead of one per turn.
class Interned
{
public:
    const QString &get(std::string_view text)
    {
        if (text != m_utf8) {
            m_utf8.assign(text);
            m_string = toQString(text);
        }
        return m_string;
    }

private:
    std::string m_utf8;
    QString m_string;
};

} // namespace

QString agentIdIn(const QString &text)
{
    static const QRegularExpression pattern(u"agentId: ([A-Za-z0-9_-]+)"_s);
    if (!text.contains("agentId: "_L1)) // most results; the cheap test spares them the regular expression
        return QString();
    const auto match = pattern.match(text);
    return match.hasMatch() ? match.captured(1) : QString();
}

struct ClaudeLineReader::Impl
{
    explicit Impl()
        : parser(size_t(MaxLineBytes))
    {
    }
    simdjson::dom::parser parser;
    Interned model, skill;
};

ClaudeLineReader::ClaudeLineReader()
    : d(std::make_unique<Impl>())
{
}

ClaudeLineReader::~ClaudeLineReader() = default;

ClaudeLineReader::Outcome ClaudeLineReader::read(std::string_view line, bool streamJson, bool isMainFile,
                                                 Record *record)
{
    if (qsizetype(line.size()) > MaxLineBytes)
        return Outcome::Slow;
    element root;
    object top;
    if (d->parser.parse(line.data(), line.size(), false).get(root) != simdjson::SUCCESS ||
        root.get_object().get(top) != simdjson::SUCCESS)
        return Outcome::Slow;
    enum { Type, Message, Uuid, ParentUuid, LogicalParentUuid, Timestamp, RequestId, Skill, ParentToolUseId,
           IsSidechain, IsMeta, ToolUseResult };
    const auto f = fieldsOf<12>(top, {"type", "message", "uuid", "parentUuid", "logicalParentUuid", "timestamp",
                                      "requestId", "attributionSkill", "parent_tool_use_id", "isSidechain", "isMeta",
                                      "toolUseResult"});
    const std::string_view type = stringOf(f[Type]);
    const bool fromUser = type == "user";
    if (!fromUser && type != "assistant") {
        // Titles, system events and stream-json's result have their own conversions; a record without a
        // type is reported. Anything else (progress, file-history-snapshot, queue-operation, future types)
        // carries nothing to show.
        const bool converted = type.empty() || type == "summary" || type == "ai-title" || type == "custom-title" ||
                               type == "system" || (type == "result" && streamJson);
        return converted ? Outcome::Slow : Outcome::Ignored;
    }
    const std::optional<object> found = objectOf(f[Message]);
    if (isEmpty(found))
        return Outcome::Slow; // reported as a record without a "message"
    const object message = *found;

    record->uuid = toQString(stringOf(f[Uuid]));
    record->parentUuid = toQString(stringOf(f[ParentUuid]));
    if (record->parentUuid.isEmpty())
        record->parentUuid = toQString(stringOf(f[LogicalParentUuid]));
    record->timestamp = toQString(stringOf(f[Timestamp]));
    record->requestId = toQString(stringOf(f[RequestId]));
    record->skill = d->skill.get(stringOf(f[Skill]));
    if (streamJson)
        record->threadKey = toQString(stringOf(f[ParentToolUseId]));
    else if (isMainFile && boolOf(f[IsSidechain]))
        record->threadKey = u"sidechain"_s;
    record->role = fromUser ? u"user"_s : u"assistant"_s;

    enum { Content, Model, Id, Usage };
    const auto m = fieldsOf<4>(message, {"content", "model", "id", "usage"});
    // The message's content, as convertContent() in ImportClaudeCode.cpp reads it.
    const StepKind textKind =
        boolOf(f[IsMeta]) ? StepKind::System : (fromUser ? StepKind::UserText : StepKind::AssistantText);
    simdjson::dom::array blocks;
    if (const std::string_view text = stringOf(m[Content]); !text.empty()) {
        record->steps.push_back({textKind, false, toQString(text), {}, {}, {}});
    } else if (m[Content] && m[Content]->get_array().get(blocks) == simdjson::SUCCESS) {
        for (const element value : blocks) {
            object block;
            if (value.get_object().get(block) != simdjson::SUCCESS)
                continue;
            enum { BlockType, Text, Thinking, BlockId, Name, Input, BlockContent, IsError, ToolUseId, Source };
            const auto b = fieldsOf<10>(block, {"type", "text", "thinking", "id", "name", "input", "content",
                                                "is_error", "tool_use_id", "source"});
            const std::string_view blockType = stringOf(b[BlockType]);
            if (blockType == "text") {
                if (const std::string_view t = stringOf(b[Text]); !t.empty())
                    record->steps.push_back({textKind, false, toQString(t), {}, {}, {}});
            } else if (blockType == "thinking") {
                const std::string_view t = stringOf(b[Thinking]);
                record->steps.push_back({StepKind::Thinking, false,
                                         t.empty() ? QStringLiteral("(thinking not recorded)") : toQString(t),
                                         {}, {}, {}});
            } else if (blockType == "redacted_thinking") {
                record->steps.push_back({StepKind::Thinking, false, QStringLiteral("(redacted thinking)"), {}, {}, {}});
            } else if (blockType == "tool_use" || blockType == "server_tool_use") {
                QString input;
                if (!compactOf(b[Input], &input))
                    return Outcome::Slow;
                record->steps.push_back({StepKind::ToolCall, false, {}, toQString(stringOf(b[BlockId])),
                                         toQString(stringOf(b[Name])), std::move(input)});
            } else if (blockType == "tool_result" || blockType.ends_with("_tool_result")) {
                QString resultText;
                if (b[BlockContent] && !contentTextOf(*b[BlockContent], &resultText))
                    return Outcome::Slow;
                if (record->spawnedAgentId.isEmpty())
                    record->spawnedAgentId = agentIdIn(resultText);
                record->steps.push_back({StepKind::ToolResult, boolOf(b[IsError]), std::move(resultText),
                                         toQString(stringOf(b[ToolUseId])), {}, {}});
            } else if (blockType == "image" || blockType == "document") {
                const Field mediaType = fieldOf(objectOf(b[Source]), "media_type");
                std::string_view shown = blockType;
                if (mediaType && mediaType->is_string())
                    shown = stringOf(mediaType);
                record->steps.push_back({StepKind::Image, false, toQString(shown), {}, {}, {}});
            }
        }
    }

    if (fromUser) {
        const bool hasResult = std::any_of(record->steps.cbegin(), record->steps.cend(),
                                           [](const PendingStep &s) { return s.kind == StepKind::ToolResult; });
        if (hasResult)
            record->role = u"tool"_s;
        record->newTurn = !hasResult;
        if (const std::string_view agent = stringOf(fieldOf(objectOf(f[ToolUseResult]), "agentId")); !agent.empty())
            record->spawnedAgentId = toQString(agent);
        return Outcome::Record;
    }
    record->model = d->model.get(stringOf(m[Model]));
    record->messageId = toQString(stringOf(m[Id]));
    if (const std::optional<object> usage = objectOf(m[Usage]))
        record->usage = anthropicUsage(*usage);
    return Outcome::Record;
}

} // namespace sf::trace_import
