#include "ScriptedAgentEndpoints.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <algorithm>

namespace sf::test {

namespace {

using namespace Qt::StringLiterals;

QJsonObject parseObject(const QByteArray &body)
{
    return QJsonDocument::fromJson(body).object();
}

QByteArray compact(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

/// One server-sent event as both APIs write it: its name, then its JSON data.
QByteArray sseEvent(const QByteArray &name, const QJsonObject &data)
{
    return "event: " + name + "\ndata: " + compact(data) + "\n\n";
}

/// Text the CLI wrote itself rather than the user: system reminders, environment context, instructions.
bool isCliText(const QString &text)
{
    return text.trimmed().startsWith(u'<');
}

/// Whether any string of a tool input names @p skillName (the key differs between CLI versions).
bool inputNamesSkill(const QJsonObject &input, const QString &skillName)
{
    for (auto it = input.begin(); it != input.end(); ++it) {
        QString value = it.value().toString();
        if (value.startsWith(u'/'))
            value.remove(0, 1);
        if (value == skillName || value.endsWith(u':' + skillName))
            return true;
    }
    return false;
}

/// The lines that follow @p marker and begin with "- ", up to the first other line after them.
QStringList listedLines(const QString &text, const QString &marker)
{
    QStringList lines;
    const qsizetype at = text.indexOf(marker);
    if (at < 0)
        return lines;
    const QStringList rest = text.mid(at + marker.size()).split(u'\n');
    for (const QString &line : rest) {
        if (line.startsWith("- "_L1))
            lines << line.mid(2);
        else if (!lines.isEmpty() || !line.trimmed().isEmpty())
            break;
    }
    return lines;
}

/// "name: description": a plugin skill's name has a colon too ("plugin:skill: ..."), so the name ends at ": ".
QString listedName(const QString &line)
{
    const qsizetype colon = line.indexOf(": "_L1);
    return (colon < 0 ? line : line.left(colon)).trimmed();
}

QString between(const QString &text, const QString &start, const QString &end)
{
    const qsizetype from = text.indexOf(start);
    if (from < 0)
        return {};
    const qsizetype to = text.indexOf(end, from + start.size());
    return text.mid(from + start.size(), to < 0 ? -1 : to - from - start.size());
}

QString shellQuoted(const QString &text)
{
    return u'\'' + QString(text).replace(u'\'', "'\\''"_L1) + u'\'';
}

// Anthropic Messages ------------------------------------------------------------------------------------------------

/// The key the Skill tool's input names the skill by, read from its schema: its first required property.
QString skillInputKey(const QJsonArray &tools)
{
    for (const QJsonValue &tool : tools) {
        if (tool["name"_L1].toString() != "Skill"_L1)
            continue;
        const QJsonObject schema = tool["input_schema"_L1].toObject();
        const QJsonArray required = schema["required"_L1].toArray();
        if (!required.isEmpty())
            return required.first().toString();
        const QStringList keys = schema["properties"_L1].toObject().keys();
        if (!keys.isEmpty())
            return keys.first();
    }
    return u"skill"_s;
}

/// Anthropic's usage: input_tokens is only the part neither read from nor written to the cache.
QJsonObject messagesUsage(const AgentExchange &exchange, qint64 output)
{
    return {{"input_tokens"_L1, exchange.inputTokens - exchange.cacheReadTokens - exchange.cacheWriteTokens},
            {"cache_creation_input_tokens"_L1, exchange.cacheWriteTokens},
            {"cache_read_input_tokens"_L1, exchange.cacheReadTokens},
            {"cache_creation"_L1, QJsonObject{{"ephemeral_5m_input_tokens"_L1, exchange.cacheWriteTokens},
                                              {"ephemeral_1h_input_tokens"_L1, 0}}},
            {"output_tokens"_L1, output}};
}

/// The streamed message as the Anthropic API sends it: message_start, each block's start, delta and stop,
/// message_delta with the stop reason and usage, message_stop.
QList<QByteArray> messagesStream(const QString &id, const QString &model, const QJsonArray &content,
                                 const QString &stopReason, const AgentExchange &exchange)
{
    QList<QByteArray> events;
    QJsonObject message{{"id"_L1, id},
                        {"type"_L1, "message"_L1},
                        {"role"_L1, "assistant"_L1},
                        {"model"_L1, model},
                        {"content"_L1, QJsonArray()},
                        {"stop_reason"_L1, QJsonValue()},
                        {"stop_sequence"_L1, QJsonValue()},
                        {"usage"_L1, messagesUsage(exchange, 1)}};
    events << sseEvent("message_start", {{"type"_L1, "message_start"_L1}, {"message"_L1, message}});
    for (int index = 0; index < content.size(); ++index) {
        const QJsonObject block = content.at(index).toObject();
        QJsonObject start = block;
        QJsonObject delta;
        if (block["type"_L1].toString() == "tool_use"_L1) {
            start.insert("input"_L1, QJsonObject());
            delta = {{"type"_L1, "input_json_delta"_L1},
                     {"partial_json"_L1, QString::fromUtf8(compact(block["input"_L1].toObject()))}};
        } else {
            start.insert("text"_L1, QString());
            delta = {{"type"_L1, "text_delta"_L1}, {"text"_L1, block["text"_L1].toString()}};
        }
        events << sseEvent("content_block_start",
                           {{"type"_L1, "content_block_start"_L1}, {"index"_L1, index}, {"content_block"_L1, start}});
        events << sseEvent("content_block_delta",
                           {{"type"_L1, "content_block_delta"_L1}, {"index"_L1, index}, {"delta"_L1, delta}});
        events << sseEvent("content_block_stop", {{"type"_L1, "content_block_stop"_L1}, {"index"_L1, index}});
    }
    events << sseEvent("message_delta",
                       {{"type"_L1, "message_delta"_L1},
                        {"delta"_L1, QJsonObject{{"stop_reason"_L1, stopReason}, {"stop_sequence"_L1, QJsonValue()}}},
                        {"usage"_L1, messagesUsage(exchange, exchange.outputTokens)}});
    events << sseEvent("message_stop", {{"type"_L1, "message_stop"_L1}});
    return events;
}

// OpenAI Responses --------------------------------------------------------------------------------------------------

/// The shell tool Codex offers, newest first; empty when it offers none.
QString codexShellTool(const QJsonArray &tools)
{
    QStringList names;
    for (const QJsonValue &tool : tools)
        names << tool["name"_L1].toString();
    for (const QString &name : {u"exec_command"_s, u"shell_command"_s, u"shell"_s}) {
        if (names.contains(name))
            return name;
    }
    return {};
}

/// A command as @p tool takes it: exec_command {cmd}, shell_command {command}, shell {command: argv}.
QJsonObject shellArguments(const QString &tool, const QString &command)
{
    if (tool == "exec_command"_L1)
        return {{"cmd"_L1, command}};
    if (tool == "shell_command"_L1)
        return {{"command"_L1, command}};
    return {{"command"_L1, QJsonArray{u"bash"_s, u"-lc"_s, command}}};
}

/// The Responses API's stream of one output item: created, the item added, its content streamed, the item done,
/// completed with usage.
QList<QByteArray> responsesStream(const QJsonObject &response, const QJsonObject &item)
{
    QList<QByteArray> events;
    int sequence = 0;
    auto event = [&](const QByteArray &name, QJsonObject data) {
        data.insert("type"_L1, QString::fromLatin1(name));
        data.insert("sequence_number"_L1, sequence++);
        events << sseEvent(name, data);
    };
    QJsonObject created = response;
    created.insert("status"_L1, "in_progress"_L1);
    created.insert("output"_L1, QJsonArray());
    created.remove("usage"_L1);
    event("response.created", {{"response"_L1, created}});
    event("response.in_progress", {{"response"_L1, created}});

    const QString itemId = item["id"_L1].toString();
    QJsonObject added = item;
    added.insert("status"_L1, "in_progress"_L1);
    if (item["type"_L1].toString() == "message"_L1) {
        added.insert("content"_L1, QJsonArray());
        event("response.output_item.added", {{"output_index"_L1, 0}, {"item"_L1, added}});
        const QJsonObject part = item["content"_L1].toArray().first().toObject();
        const QJsonObject where{{"item_id"_L1, itemId}, {"output_index"_L1, 0}, {"content_index"_L1, 0}};
        QJsonObject emptyPart = part;
        emptyPart.insert("text"_L1, QString());
        auto with = [&where](std::initializer_list<QPair<QString, QJsonValue>> fields) {
            QJsonObject data = where;
            for (const auto &[key, value] : fields)
                data.insert(key, value);
            return data;
        };
        event("response.content_part.added", with({{u"part"_s, emptyPart}}));
        event("response.output_text.delta", with({{u"delta"_s, part["text"_L1]}}));
        event("response.output_text.done", with({{u"text"_s, part["text"_L1]}}));
        event("response.content_part.done", with({{u"part"_s, part}}));
    } else {
        added.insert("arguments"_L1, QString());
        event("response.output_item.added", {{"output_index"_L1, 0}, {"item"_L1, added}});
        event("response.function_call_arguments.delta",
              {{"item_id"_L1, itemId}, {"output_index"_L1, 0}, {"delta"_L1, item["arguments"_L1]}});
        event("response.function_call_arguments.done",
              {{"item_id"_L1, itemId}, {"output_index"_L1, 0}, {"arguments"_L1, item["arguments"_L1]}});
    }
    event("response.output_item.done", {{"output_index"_L1, 0}, {"item"_L1, item}});
    event("response.completed", {{"response"_L1, response}});
    return events;
}

} // namespace

bool AgentPolicy::promptAsksForSkill(const QString &prompt) const
{
    if (!skillName.isEmpty() && prompt.contains(skillName, Qt::CaseInsensitive))
        return true;
    return std::any_of(keywords.cbegin(), keywords.cend(), [&prompt](const QString &keyword) {
        return !keyword.isEmpty() && prompt.contains(keyword, Qt::CaseInsensitive);
    });
}

AgentMove AgentPolicy::next(const AgentRequestView &view) const
{
    if (!view.mainConversation)
        return AgentMove::SideReply;
    if (!view.skillLoaded && view.canLoadSkill && view.listedSkills.contains(skillName) &&
        promptAsksForSkill(view.prompt))
        return AgentMove::LoadSkill;
    if (view.skillLoaded && view.skillFilesRead.size() < skillFilesToRead.size())
        return AgentMove::ReadSkillFile;
    if (!writeFile.isEmpty() && !view.fileWritten && view.canWriteFiles && (view.skillLoaded || writeWithoutSkill))
        return AgentMove::WriteFile;
    return AgentMove::Answer;
}

AgentRequestView readMessagesRequest(const QByteArray &body, const AgentPolicy &policy)
{
    const QJsonObject request = parseObject(body);
    AgentRequestView view;
    const QJsonArray tools = request["tools"_L1].toArray();
    QStringList toolNames;
    for (const QJsonValue &tool : tools)
        toolNames << tool["name"_L1].toString();
    view.mainConversation = !tools.isEmpty();
    view.canLoadSkill = toolNames.contains("Skill"_L1);
    view.canWriteFiles = toolNames.contains("Write"_L1);

    QStringList userTexts;
    QStringList answeredCalls;
    QList<QJsonObject> calls;
    for (const QJsonValue &messageValue : request["messages"_L1].toArray()) {
        const QJsonObject message = messageValue.toObject();
        const bool user = message["role"_L1].toString() == "user"_L1;
        const QJsonValue content = message["content"_L1];
        if (content.isString() && user)
            userTexts << content.toString();
        for (const QJsonValue &blockValue : content.toArray()) {
            const QJsonObject block = blockValue.toObject();
            const QString type = block["type"_L1].toString();
            if (user && type == "text"_L1)
                userTexts << block["text"_L1].toString();
            else if (user && type == "tool_result"_L1)
                answeredCalls << block["tool_use_id"_L1].toString();
            else if (!user && type == "tool_use"_L1)
                calls << block;
        }
    }
    for (const QString &text : std::as_const(userTexts)) {
        if (view.prompt.isEmpty() && !isCliText(text))
            view.prompt = text;
        if (view.listedSkills.isEmpty()) {
            for (const QString &line :
                 listedLines(text, u"The following skills are available for use with the Skill tool:"_s))
                view.listedSkills << listedName(line);
        }
        if (view.workspace.isEmpty())
            view.workspace = between(text, u"Primary working directory: "_s, u"\n"_s).trimmed();
        if (view.skillDir.isEmpty())
            view.skillDir = between(text, u"Base directory for this skill: "_s, u"\n"_s).trimmed();
    }
    for (const QJsonObject &call : std::as_const(calls)) {
        const QString name = call["name"_L1].toString();
        const QJsonObject input = call["input"_L1].toObject();
        if (name == "Skill"_L1 && inputNamesSkill(input, policy.skillName) &&
            answeredCalls.contains(call["id"_L1].toString()))
            view.skillLoaded = true;
        for (const QString &file : policy.skillFilesToRead) {
            if (name == "Read"_L1 && input["file_path"_L1].toString().endsWith(u'/' + file) &&
                !view.skillFilesRead.contains(file))
                view.skillFilesRead << file;
        }
        if (name == "Write"_L1 && !policy.writeFile.isEmpty() &&
            input["file_path"_L1].toString().endsWith(u'/' + policy.writeFile))
            view.fileWritten = true;
    }
    return view;
}

AgentRequestView readResponsesRequest(const QByteArray &body, const AgentPolicy &policy)
{
    const QJsonObject request = parseObject(body);
    AgentRequestView view;
    const QJsonArray tools = request["tools"_L1].toArray();
    view.mainConversation = !tools.isEmpty();
    view.canLoadSkill = view.canWriteFiles = !codexShellTool(tools).isEmpty();

    QStringList texts{request["instructions"_L1].toString()};
    QStringList answeredCalls;
    QList<QJsonObject> calls;
    const QJsonValue input = request["input"_L1];
    if (input.isString())
        texts << input.toString();
    for (const QJsonValue &itemValue : input.toArray()) {
        const QJsonObject item = itemValue.toObject();
        const QString type = item["type"_L1].toString();
        if (type == "function_call"_L1) {
            calls << item;
        } else if (type == "function_call_output"_L1) {
            answeredCalls << item["call_id"_L1].toString();
        } else if (type == "message"_L1 || item.contains("role"_L1)) {
            const bool user = item["role"_L1].toString() == "user"_L1;
            const QJsonValue content = item["content"_L1];
            QStringList parts;
            if (content.isString())
                parts << content.toString();
            for (const QJsonValue &part : content.toArray())
                parts << part["text"_L1].toString();
            for (const QString &text : std::as_const(parts)) {
                if (user && view.prompt.isEmpty() && !isCliText(text) && !text.trimmed().isEmpty())
                    view.prompt = text;
            }
            texts << parts;
        }
    }
    // Codex lists skills as "- name: description (file: r1/name/SKILL.md)" below a table of roots "- `r1` = `/dir`".
    static const QRegularExpression root(u"^- `(\\w+)` = `([^`]*)`"_s, QRegularExpression::MultilineOption);
    static const QRegularExpression fileOf(u"\\(file: ([^)]+)\\)\\s*$"_s);
    for (const QString &text : std::as_const(texts)) {
        const QString skills = between(text, u"<skills_instructions>"_s, u"</skills_instructions>"_s);
        if (!skills.isEmpty() && view.listedSkills.isEmpty()) {
            QHash<QString, QString> roots;
            for (auto match = root.globalMatch(skills); match.hasNext();) {
                const QRegularExpressionMatch m = match.next();
                roots.insert(m.captured(1), m.captured(2));
            }
            for (const QString &line : listedLines(skills, u"### Available skills"_s)) {
                const QString name = listedName(line);
                view.listedSkills << name;
                QString path = fileOf.match(line).captured(1);
                const QString alias = path.section(u'/', 0, 0);
                if (roots.contains(alias))
                    path = roots.value(alias) + path.mid(alias.size());
                if (name == policy.skillName) {
                    view.skillFile = path;
                    view.skillDir = path.section(u'/', 0, -2);
                }
            }
        }
        if (view.workspace.isEmpty())
            view.workspace = between(text, u"<cwd>"_s, u"</cwd>"_s).trimmed();
    }
    const QString skillPath = u".agents/skills/%1/SKILL.md"_s.arg(policy.skillName);
    for (const QJsonObject &call : std::as_const(calls)) {
        const QString arguments = call["arguments"_L1].toString();
        const QString id = call["call_id"_L1].toString();
        if ((arguments.contains(skillPath) || (!view.skillFile.isEmpty() && arguments.contains(view.skillFile))) &&
            answeredCalls.contains(id))
            view.skillLoaded = true;
        if (id.startsWith("call_sf_write"_L1))
            view.fileWritten = true;
        for (const QString &file : policy.skillFilesToRead) {
            if (id.startsWith("call_sf_read"_L1) && arguments.contains(u'/' + file) &&
                !view.skillFilesRead.contains(file))
                view.skillFilesRead << file;
        }
    }
    return view;
}

ScriptedAgentEndpoints::ScriptedAgentEndpoints(AgentPolicy policy)
    : m_policy(std::move(policy))
{
}

void ScriptedAgentEndpoints::install(ScriptedHttpServer &server)
{
    server.routeHandler("POST", "/v1/messages", [this](const RecordedRequest &r) { return answerMessages(r); });
    server.routeHandler("POST", "/v1/responses", [this](const RecordedRequest &r) { return answerResponses(r); });
    server.routeHandler("POST", "/v1/messages/count_tokens", [](const RecordedRequest &r) {
        return ScriptedResponse::json(200, compact({{"input_tokens"_L1, r.body.size() / 4}}));
    });
}

AgentExchange ScriptedAgentEndpoints::record(const QByteArray &path, const RecordedRequest &request,
                                             const AgentRequestView &view)
{
    AgentExchange exchange;
    exchange.path = path;
    exchange.view = view;
    exchange.skillListed = view.listedSkills.contains(m_policy.skillName);
    exchange.move = m_policy.next(view);
    exchange.inputTokens =
        m_policy.inputTokensPerRequest > 0 ? m_policy.inputTokensPerRequest : qint64(request.body.size() / 4);
    exchange.cacheReadTokens = exchange.inputTokens / 2;
    if (path == "/v1/messages")
        exchange.cacheWriteTokens = exchange.inputTokens / 4;
    exchange.outputTokens = kOutputTokens;
    m_exchanges << exchange;
    return exchange;
}

ScriptedResponse ScriptedAgentEndpoints::answerMessages(const RecordedRequest &request)
{
    const QJsonObject body = parseObject(request.body);
    const AgentExchange exchange = record("/v1/messages", request, readMessagesRequest(request.body, m_policy));
    const int id = m_nextId++;
    QJsonArray content;
    QString stopReason = u"tool_use"_s;
    switch (exchange.move) {
    case AgentMove::LoadSkill:
        content << QJsonObject{
            {"type"_L1, "tool_use"_L1},
            {"id"_L1, u"toolu_sf_skill_%1"_s.arg(id)},
            {"name"_L1, "Skill"_L1},
            {"input"_L1, QJsonObject{{skillInputKey(body["tools"_L1].toArray()), m_policy.skillName}}}};
        break;
    case AgentMove::ReadSkillFile: {
        const QString dir = exchange.view.skillDir.isEmpty()
                                ? u"%1/.claude/skills/%2"_s.arg(exchange.view.workspace, m_policy.skillName)
                                : exchange.view.skillDir;
        const QString file = m_policy.skillFilesToRead.at(exchange.view.skillFilesRead.size());
        content << QJsonObject{{"type"_L1, "tool_use"_L1},
                               {"id"_L1, u"toolu_sf_read_%1"_s.arg(id)},
                               {"name"_L1, "Read"_L1},
                               {"input"_L1, QJsonObject{{"file_path"_L1, QString(dir + u'/' + file)}}}};
        break;
    }
    case AgentMove::WriteFile:
        content << QJsonObject{
            {"type"_L1, "tool_use"_L1},
            {"id"_L1, u"toolu_sf_write_%1"_s.arg(id)},
            {"name"_L1, "Write"_L1},
            {"input"_L1, QJsonObject{{"file_path"_L1, QString(exchange.view.workspace + u'/' + m_policy.writeFile)},
                                     {"content"_L1, m_policy.writeContent}}}};
        break;
    case AgentMove::Answer:
    case AgentMove::SideReply:
        stopReason = u"end_turn"_s;
        content << QJsonObject{{"type"_L1, "text"_L1},
                               {"text"_L1, exchange.move == AgentMove::SideReply ? u"OK"_s
                                           : exchange.view.skillLoaded           ? m_policy.answerWithSkill
                                                                                 : m_policy.answerBaseline}};
        break;
    }
    const QString messageId = u"msg_sf_%1"_s.arg(id);
    const QString model = body["model"_L1].toString();
    if (body["stream"_L1].toBool())
        return ScriptedResponse::streamed(messagesStream(messageId, model, content, stopReason, exchange), 0);
    return ScriptedResponse::json(200, compact({{"id"_L1, messageId},
                                                {"type"_L1, "message"_L1},
                                                {"role"_L1, "assistant"_L1},
                                                {"model"_L1, model},
                                                {"content"_L1, content},
                                                {"stop_reason"_L1, stopReason},
                                                {"stop_sequence"_L1, QJsonValue()},
                                                {"usage"_L1, messagesUsage(exchange, exchange.outputTokens)}}));
}

ScriptedResponse ScriptedAgentEndpoints::answerResponses(const RecordedRequest &request)
{
    const QJsonObject body = parseObject(request.body);
    const AgentExchange exchange = record("/v1/responses", request, readResponsesRequest(request.body, m_policy));
    const int id = m_nextId++;
    const QString tool = codexShellTool(body["tools"_L1].toArray());
    auto functionCall = [&](const QString &callId, const QString &command) {
        return QJsonObject{{"type"_L1, "function_call"_L1},
                           {"id"_L1, u"fc_sf_%1"_s.arg(id)},
                           {"call_id"_L1, callId},
                           {"name"_L1, tool},
                           {"arguments"_L1, QString::fromUtf8(compact(shellArguments(tool, command)))},
                           {"status"_L1, "completed"_L1}};
    };
    QJsonObject item;
    switch (exchange.move) {
    case AgentMove::LoadSkill: {
        const QString path = exchange.view.skillFile.isEmpty() ? u".agents/skills/%1/SKILL.md"_s.arg(m_policy.skillName)
                                                               : exchange.view.skillFile;
        item = functionCall(u"call_sf_skill_%1"_s.arg(id), u"cat "_s + shellQuoted(path));
        break;
    }
    case AgentMove::ReadSkillFile: {
        const QString dir =
            exchange.view.skillDir.isEmpty() ? u".agents/skills/%1"_s.arg(m_policy.skillName) : exchange.view.skillDir;
        const QString file = m_policy.skillFilesToRead.at(exchange.view.skillFilesRead.size());
        item = functionCall(u"call_sf_read_%1"_s.arg(id), u"cat "_s + shellQuoted(dir + u'/' + file));
        break;
    }
    case AgentMove::WriteFile:
        item =
            functionCall(u"call_sf_write_%1"_s.arg(id), u"printf '%s' %1 > %2"_s.arg(shellQuoted(m_policy.writeContent),
                                                                                     shellQuoted(m_policy.writeFile)));
        break;
    case AgentMove::Answer:
    case AgentMove::SideReply: {
        const QString text = exchange.move == AgentMove::SideReply ? u"OK"_s
                             : exchange.view.skillLoaded           ? m_policy.answerWithSkill
                                                                   : m_policy.answerBaseline;
        item = {{"type"_L1, "message"_L1},
                {"id"_L1, u"msg_sf_%1"_s.arg(id)},
                {"role"_L1, "assistant"_L1},
                {"status"_L1, "completed"_L1},
                {"content"_L1,
                 QJsonArray{
                     QJsonObject{{"type"_L1, "output_text"_L1}, {"text"_L1, text}, {"annotations"_L1, QJsonArray()}}}}};
        break;
    }
    }
    const QJsonObject usage{{"input_tokens"_L1, exchange.inputTokens},
                            {"input_tokens_details"_L1, QJsonObject{{"cached_tokens"_L1, exchange.cacheReadTokens}}},
                            {"output_tokens"_L1, exchange.outputTokens},
                            {"output_tokens_details"_L1, QJsonObject{{"reasoning_tokens"_L1, 0}}},
                            {"total_tokens"_L1, exchange.inputTokens + exchange.outputTokens}};
    const QJsonObject response{{"id"_L1, u"resp_sf_%1"_s.arg(id)},
                               {"object"_L1, "response"_L1},
                               {"created_at"_L1, 0},
                               {"status"_L1, "completed"_L1},
                               {"model"_L1, body["model"_L1].toString()},
                               {"output"_L1, QJsonArray{item}},
                               {"usage"_L1, usage}};
    if (body["stream"_L1].toBool())
        return ScriptedResponse::streamed(responsesStream(response, item), 0);
    return ScriptedResponse::json(200, compact(response));
}

QList<AgentExchange> ScriptedAgentEndpoints::exchangesIn(const QString &workspace) const
{
    QList<AgentExchange> result;
    for (const AgentExchange &exchange : m_exchanges) {
        if (workspace.isEmpty() || exchange.view.workspace == workspace)
            result << exchange;
    }
    return result;
}

int ScriptedAgentEndpoints::requestsOfferingSkill(const QString &workspace) const
{
    const QList<AgentExchange> exchanges = exchangesIn(workspace);
    return int(std::count_if(exchanges.cbegin(), exchanges.cend(), [](const AgentExchange &exchange) {
        return exchange.view.mainConversation && exchange.skillListed;
    }));
}

int ScriptedAgentEndpoints::mainRequests(const QString &workspace) const
{
    const QList<AgentExchange> exchanges = exchangesIn(workspace);
    return int(std::count_if(exchanges.cbegin(), exchanges.cend(),
                             [](const AgentExchange &exchange) { return exchange.view.mainConversation; }));
}

AgentExchange ScriptedAgentEndpoints::tokens(const QString &workspace) const
{
    AgentExchange total;
    for (const AgentExchange &exchange : exchangesIn(workspace)) {
        total.inputTokens += exchange.inputTokens;
        total.cacheReadTokens += exchange.cacheReadTokens;
        total.cacheWriteTokens += exchange.cacheWriteTokens;
        total.outputTokens += exchange.outputTokens;
    }
    return total;
}

} // namespace sf::test
