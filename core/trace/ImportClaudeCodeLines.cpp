// The fast reader of Claude Code user and assistant lines: simdjson's DOM parser over the line in place,
// then only the fields the trace keeps are copied, as UTF-8, into the record store. What a line means is
// defined by the QJsonDocument reader in ImportClaudeCode.cpp; this one follows it field by field and
// hands back any line where the two could differ.

#include "trace/ClaudeCodeRecords_p.h"

#include <QJsonDocument>
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <simdjson.h>

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
template <std::size_t N> std::array<Field, N> fieldsOf(const object &o, const std::array<std::string_view, N> &names)
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
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArray::fromRawData(json.data(), qsizetype(json.size())), &error);
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
        case '"':
            out->push_back('"');
            break;
        case '\\':
            out->push_back('\\');
            break;
        case '\b':
            out->push_back('b');
            break;
        case '\f':
            out->push_back('f');
            break;
        case '\n':
            out->push_back('n');
            break;
        case '\r':
            out->push_back('r');
            break;
        case '\t':
            out->push_back('t');
            break;
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

/// Appends a Qt string's UTF-8 to @p out.
void appendUtf8(const QString &text, std::string *out)
{
    const QByteArray utf8 = text.toUtf8();
    out->append(utf8.constData(), size_t(utf8.size()));
}

/// compactJson() of a field, in UTF-8 into @p out (emptied first); false when Qt would not read it.
bool compactOf(const Field &value, std::string *out)
{
    out->clear();
    if (!value || value->is_null())
        return true;
    if (std::string_view text; value->get_string().get(text) == simdjson::SUCCESS) {
        out->assign(text);
        return true;
    }
    if ((value->is_object() || value->is_array()) && writeQtCompact(*value, out))
        return true;
    out->clear();
    QJsonValue qt;
    if (!qtValue(*value, &qt))
        return false;
    appendUtf8(compactJson(qt), out);
    return true;
}

/// Appends contentText() of a value to @p out; false when a part needs Qt and Qt would not read it.
/// contentText() joins the parts with newlines; so does this, part by part.
bool appendContentText(const element &content, std::string *out)
{
    if (std::string_view text; content.get_string().get(text) == simdjson::SUCCESS) {
        out->append(text);
        return true;
    }
    bool first = true;
    auto separate = [&] {
        if (!first)
            out->push_back('\n');
        first = false;
    };
    auto addPart = [&](const element &part) {
        if (std::string_view text; part.get_string().get(text) == simdjson::SUCCESS) {
            separate();
            out->append(text);
            return true;
        }
        object block;
        if (part.get_object().get(block) != simdjson::SUCCESS)
            return true; // QJsonValue::toObject() of anything else is empty: nothing to add
        enum
        {
            Type,
            Text,
            Content
        };
        const auto f = fieldsOf<3>(block, {"type", "text", "content"});
        const std::string_view type = stringOf(f[Type]);
        if (f[Text]) {
            separate();
            out->append(stringOf(f[Text]));
        } else if (type.find("image") != std::string_view::npos) {
            separate();
            out->append("[image]");
        } else if (f[Content]) {
            separate();
            return appendContentText(*f[Content], out);
        } else if (!type.empty()) {
            separate();
            out->push_back('[');
            out->append(type);
            out->push_back(']');
        }
        return true;
    };
    if (content.is_object())
        return addPart(content);
    if (simdjson::dom::array parts; content.get_array().get(parts) == simdjson::SUCCESS) {
        for (const element part : parts)
            if (!addPart(part))
                return false;
        return true;
    }
    QJsonValue qt; // a number, true, false or null: Qt's own rendering
    if (!qtValue(content, &qt))
        return false;
    appendUtf8(contentText(qt), out);
    return true;
}

TokenUsage anthropicUsage(const object &usage)
{
    enum
    {
        Input,
        CacheRead,
        Output,
        Creation,
        CreationInput,
        OutputDetails
    };
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

bool isAgentIdChar(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

} // namespace

std::string_view agentIdIn(std::string_view text)
{
    // This runs over every tool result: memchr for the marker's capital I, far rarer in text than its
    // first letter, and the marker checked around each one.
    constexpr std::string_view Marker = "agentId: ";
    constexpr size_t IAt = Marker.find('I');
    const char *const begin = text.data();
    const char *const end = begin + text.size();
    for (const char *i = begin + std::min(IAt, text.size()); i < end;) {
        i = static_cast<const char *>(std::memchr(i, 'I', size_t(end - i)));
        if (!i)
            break;
        const auto at = size_t(i - begin) - IAt;
        ++i;
        if (text.substr(at, Marker.size()) != Marker)
            continue;
        const size_t start = at + Marker.size();
        size_t stop = start;
        while (stop < text.size() && isAgentIdChar(text[stop]))
            ++stop;
        if (stop > start)
            return text.substr(start, stop - start);
    }
    return {};
}

QString recordRoleName(RecordRole role)
{
    switch (role) {
    case RecordRole::User:
        return u"user"_s;
    case RecordRole::Assistant:
        return u"assistant"_s;
    case RecordRole::Tool:
        return u"tool"_s;
    case RecordRole::System:
        break;
    }
    return u"system"_s;
}

struct ClaudeLineReader::Impl
{
    explicit Impl()
        : parser(size_t(MaxLineBytes))
    {
    }
    simdjson::dom::parser parser;
    Interned model, skill;
    std::string buffer; ///< a tool input or result text being put together, reused from line to line
};

ClaudeLineReader::ClaudeLineReader()
    : d(std::make_unique<Impl>())
{
}

ClaudeLineReader::~ClaudeLineReader() = default;

ClaudeLineReader::Outcome ClaudeLineReader::read(std::string_view line, bool streamJson, bool isMainFile,
                                                 RecordStore *store, Record *record)
{
    if (qsizetype(line.size()) > MaxLineBytes)
        return Outcome::Slow;
    element root;
    object top;
    if (d->parser.parse(line.data(), line.size(), false).get(root) != simdjson::SUCCESS ||
        root.get_object().get(top) != simdjson::SUCCESS)
        return Outcome::Slow;
    enum
    {
        Type,
        Message,
        Uuid,
        ParentUuid,
        LogicalParentUuid,
        Timestamp,
        RequestId,
        Skill,
        ParentToolUseId,
        IsSidechain,
        IsMeta,
        ToolUseResult
    };
    const auto f =
        fieldsOf<12>(top, {"type", "message", "uuid", "parentUuid", "logicalParentUuid", "timestamp", "requestId",
                           "attributionSkill", "parent_tool_use_id", "isSidechain", "isMeta", "toolUseResult"});
    const std::string_view type = stringOf(f[Type]);
    const bool fromUser = type == "user";
    if (!fromUser && type != "assistant") {
        // Titles, system events, the session's cost (2.1.332's cost-state) and stream-json's result have their own
        // conversions; a record without a type is reported. Anything else (progress, file-history-snapshot,
        // queue-operation, future types) carries nothing to show.
        const bool converted = type.empty() || type == "summary" || type == "ai-title" || type == "custom-title" ||
                               type == "system" || type == "cost-state" || (type == "result" && streamJson);
        return converted ? Outcome::Slow : Outcome::Ignored;
    }
    const std::optional<object> found = objectOf(f[Message]);
    if (isEmpty(found))
        return Outcome::Slow; // reported as a record without a "message"
    const object message = *found;

    // Steps first: a line that turns out to need the Qt reader leaves only texts behind, never a record.
    TraceTextStore &texts = *store->texts;
    enum
    {
        Content,
        Model,
        Id,
        Usage
    };
    const auto m = fieldsOf<4>(message, {"content", "model", "id", "usage"});
    // The message's content, as convertContent() in ImportClaudeCode.cpp reads it.
    const StepKind textKind =
        boolOf(f[IsMeta]) ? StepKind::System : (fromUser ? StepKind::UserText : StepKind::AssistantText);
    simdjson::dom::array blocks;
    bool hasResult = false;
    std::string_view spawnedAgentId;
    if (const std::string_view text = stringOf(m[Content]); !text.empty()) {
        store->addStep(record, {textKind, false, texts.add(text), {}, {}, {}});
    } else if (m[Content] && m[Content]->get_array().get(blocks) == simdjson::SUCCESS) {
        for (const element value : blocks) {
            object block;
            if (value.get_object().get(block) != simdjson::SUCCESS)
                continue;
            enum
            {
                BlockType,
                Text,
                Thinking,
                BlockId,
                Name,
                Input,
                BlockContent,
                IsError,
                ToolUseId,
                Source
            };
            const auto b = fieldsOf<10>(block, {"type", "text", "thinking", "id", "name", "input", "content",
                                                "is_error", "tool_use_id", "source"});
            const std::string_view blockType = stringOf(b[BlockType]);
            if (blockType == "text") {
                if (const std::string_view t = stringOf(b[Text]); !t.empty())
                    store->addStep(record, {textKind, false, texts.add(t), {}, {}, {}});
            } else if (blockType == "thinking") {
                const std::string_view t = stringOf(b[Thinking]);
                store->addStep(
                    record,
                    {StepKind::Thinking, false, texts.add(t.empty() ? "(thinking not recorded)" : t), {}, {}, {}});
            } else if (blockType == "redacted_thinking") {
                store->addStep(record, {StepKind::Thinking, false, texts.add("(redacted thinking)"), {}, {}, {}});
            } else if (blockType == "tool_use" || blockType == "server_tool_use") {
                if (!compactOf(b[Input], &d->buffer)) {
                    store->dropSteps(record);
                    return Outcome::Slow;
                }
                store->addStep(record, {StepKind::ToolCall,
                                        false,
                                        {},
                                        texts.add(stringOf(b[BlockId])),
                                        texts.add(stringOf(b[Name])),
                                        texts.add(d->buffer)});
            } else if (blockType == "tool_result" || blockType.ends_with("_tool_result")) {
                d->buffer.clear();
                if (b[BlockContent] && !appendContentText(*b[BlockContent], &d->buffer)) {
                    store->dropSteps(record);
                    return Outcome::Slow;
                }
                const TraceText resultText = texts.add(d->buffer);
                if (spawnedAgentId.empty())
                    spawnedAgentId = agentIdIn(resultText.utf8());
                hasResult = true;
                store->addStep(
                    record,
                    {StepKind::ToolResult, boolOf(b[IsError]), resultText, texts.add(stringOf(b[ToolUseId])), {}, {}});
            } else if (blockType == "image" || blockType == "document") {
                const Field mediaType = fieldOf(objectOf(b[Source]), "media_type");
                std::string_view shown = blockType;
                if (mediaType && mediaType->is_string())
                    shown = stringOf(mediaType);
                store->addStep(record, {StepKind::Image, false, texts.add(shown), {}, {}, {}});
            }
        }
    }

    TraceTextStore &scratch = store->scratch;
    record->uuid = scratch.add(stringOf(f[Uuid]));
    const std::string_view parent = stringOf(f[ParentUuid]);
    record->parentUuid = scratch.add(parent.empty() ? stringOf(f[LogicalParentUuid]) : parent);
    record->timestamp = scratch.add(stringOf(f[Timestamp]));
    record->requestId = scratch.add(stringOf(f[RequestId]));
    record->skill = d->skill.get(stringOf(f[Skill]));
    if (streamJson)
        record->threadKey = scratch.add(stringOf(f[ParentToolUseId]));
    else if (isMainFile && boolOf(f[IsSidechain]))
        record->threadKey = scratch.add("sidechain");

    if (fromUser) {
        record->role = hasResult ? RecordRole::Tool : RecordRole::User;
        record->newTurn = !hasResult;
        if (const std::string_view agent = stringOf(fieldOf(objectOf(f[ToolUseResult]), "agentId")); !agent.empty())
            spawnedAgentId = agent;
        record->spawnedAgentId = scratch.add(spawnedAgentId);
        return Outcome::Record;
    }
    record->role = RecordRole::Assistant;
    record->spawnedAgentId = scratch.add(spawnedAgentId);
    record->model = d->model.get(stringOf(m[Model]));
    record->messageId = scratch.add(stringOf(m[Id]));
    if (const std::optional<object> usage = objectOf(m[Usage]))
        record->usage = anthropicUsage(*usage);
    return Outcome::Record;
}

} // namespace sf::trace_import
