#include "AgentSession.h"

#include "EvalLogging.h"
#include "ItemJudge.h"
#include "common/TokenEstimate.h"
#include "llm/ChatCall.h"
#include "llm/ChatClient.h"
#include "llm/ModelName.h"
#include "llm/ToolCallText.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLocale>
#include <QtConcurrent/QtConcurrentRun>

namespace sf {

namespace {

QJsonObject toolCallJson(const ToolCall &call)
{
    return {{QStringLiteral("id"), call.id},
            {QStringLiteral("name"), call.name},
            {QStringLiteral("arguments"), QString::fromUtf8(call.arguments)}};
}

bool isAgenticWithSkill(const AgentSetup &setup, const QString &arm)
{
    return setup.config.mode == QLatin1String("agentic") && arm == kWithSkillArm;
}

} // namespace

QString systemPromptFor(const AgentSetup &setup, const QString &arm, bool tools)
{
    QString prompt = QStringLiteral(
        "You are a capable assistant solving a task. You work in a workspace folder that holds any files the task "
        "mentions.");
    if (tools)
        prompt += QStringLiteral(" You can use the tools read_file, write_file, list_files and run_command (a shell in "
                                 "the workspace, without network).");
    prompt += QStringLiteral(" When you are done, reply with your final answer as text.");
    if (arm != kWithSkillArm)
        return prompt;
    if (setup.config.mode == QLatin1String("agentic")) {
        prompt +=
            QStringLiteral("\n\n## Available skills\n\nA skill holds instructions for a kind of task. When one is "
                           "relevant, load it with the load_skill tool (or read its SKILL.md with read_file) "
                           "before you start.\n\n<skill name=\"%1\" location=\"%2SKILL.md\">%3</skill>\n")
                .arg(setup.skill.name, setup.skill.location(), setup.skill.description);
    } else {
        prompt += QStringLiteral("\n\n## Skill: %1\n\n%2").arg(setup.skill.name, setup.skill.body.trimmed());
    }
    return prompt;
}

QString writeCaseFiles(const TestCase &testCase, const QString &workspace)
{
    for (auto it = testCase.files.begin(); it != testCase.files.end(); ++it) {
        const QString path = pathInWorkspace(workspace, it.key());
        QFile file(path);
        if (path.isEmpty() || !QDir().mkpath(QFileInfo(path).absolutePath()) || !file.open(QIODevice::WriteOnly) ||
            file.write(it.value().toUtf8()) < 0)
            return QStringLiteral("cannot write the context file \"%1\" into the workspace").arg(it.key());
    }
    return {};
}

QString userPromptFor(const TestCase &testCase, const QString &skillName)
{
    QString prompt = testCase.studentPrompt(skillName);
    for (auto it = testCase.files.begin(); it != testCase.files.end(); ++it)
        prompt += QStringLiteral("\n\n%1:\n```\n%2\n```").arg(it.key(), it.value());
    return prompt;
}

AgentSession::AgentSession(ChatClient &chat, const AgentSetup &setup, WorkItem item, QObject *parent)
    : QObject(parent)
    , m_chat(chat)
    , m_setup(setup)
    , m_item(std::move(item))
{
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] { stop(StopReason::Timeout); });
}

AgentSession::~AgentSession()
{
    delete m_call.data();
}

namespace {

const QEvent::Type StartEvent = QEvent::Type(QEvent::registerEventType());

} // namespace

void AgentSession::startSoon()
{
    QCoreApplication::postEvent(this, new QEvent(StartEvent), Qt::HighEventPriority);
}

bool AgentSession::event(QEvent *event)
{
    if (event->type() == StartEvent) {
        start();
        return true;
    }
    return QObject::event(event);
}

void AgentSession::record(const QJsonObject &entry)
{
    m_transcript.append(entry);
}

void AgentSession::start()
{
    m_clock.start();
    m_result.key = m_item.key;
    m_result.split = m_item.testCase.split;
    m_result.startedAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    if (const Result<ModelName> name = ModelName::parse(m_item.key.model))
        m_result.provider = name.value->provider;
    if (isAgenticWithSkill(m_setup, m_item.key.arm))
        m_result.skillLoaded = false;
    m_deadline.start(m_setup.config.timeoutSeconds * 1000);

    if (const QString error = writeCaseFiles(m_item.testCase, m_item.workspace); !error.isEmpty()) {
        stop(StopReason::Error, error);
        return;
    }
    const bool tools = studentToolsFor(m_item.testCase, m_setup.config).offered;
    m_result.toolsOffered = tools;
    m_system = systemPromptFor(m_setup, m_item.key.arm, tools);
    if (tools)
        m_tools = studentTools(isAgenticWithSkill(m_setup, m_item.key.arm));
    ChatMessage user;
    user.role = QStringLiteral("user");
    user.content = userPromptFor(m_item.testCase, m_setup.skill.name);
    m_messages.append(user);
    record({{QStringLiteral("role"), QStringLiteral("system")}, {QStringLiteral("content"), m_system}});
    record({{QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), user.content}});
    callModel();
}

void AgentSession::callModel()
{
    if (m_result.turns >= m_setup.config.maxTurns) {
        stop(StopReason::MaxTurns);
        return;
    }
    if (m_result.totalTokens() >= m_setup.config.maxTokens) {
        stop(StopReason::MaxTokens);
        return;
    }
    ChatRequest request;
    request.system = m_system;
    request.messages = m_messages;
    request.maxTokens = m_setup.config.maxOutputTokens;
    request.temperature = m_setup.config.temperature;
    request.topP = m_setup.config.topP;
    request.seed = m_setup.config.seed;
    request.tools = m_tools;
    m_call = m_chat.chat(m_item.key.model, request);
    connect(m_call, &ChatCall::finished, this, &AgentSession::onReply);
    connect(m_call, &ChatCall::failed, this, &AgentSession::onFailed);
}

void AgentSession::onReply(const ChatResponse &response)
{
    m_call->deleteLater();
    m_call = nullptr;
    ++m_result.turns;
    m_result.usage += response.usage;
    m_cost.add(m_item.key.model, response.costUsd);
    m_result.llmMs += response.latencyMs;
    if (!response.model.isEmpty())
        m_result.resolvedModel = response.model;
    QString text = response.text;
    QList<ToolCall> toolCalls = response.toolCalls;
    bool callsFromText = false;
    if (toolCalls.isEmpty() && !m_tools.isEmpty()) {
        // Small local models write their calls into the text; they are calls all the same.
        TextToolCalls found = toolCallsInText(text, m_tools, m_result.toolCalls + 1);
        if (!found.calls.isEmpty()) {
            toolCalls = std::move(found.calls);
            text = std::move(found.remainingText);
            callsFromText = true;
        }
    }
    QJsonArray calls;
    for (const ToolCall &call : std::as_const(toolCalls))
        calls.append(toolCallJson(call));
    QJsonObject entry{{QStringLiteral("role"), QStringLiteral("assistant")},
                      {QStringLiteral("content"), text},
                      {QStringLiteral("thinking"), response.thinking},
                      {QStringLiteral("tool_calls"), calls},
                      {QStringLiteral("finish_reason"), response.finishReason},
                      {QStringLiteral("usage"), usageToJson(response.usage)},
                      {QStringLiteral("cost_usd"), response.costUsd ? QJsonValue(*response.costUsd) : QJsonValue()},
                      {QStringLiteral("latency_ms"), response.latencyMs},
                      {QStringLiteral("ended_at"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)}};
    if (callsFromText) {
        entry.insert(QStringLiteral("tool_calls_from_text"), true);
        entry.insert(QStringLiteral("raw_content"), response.text);
    }
    record(entry);
    ChatMessage assistant;
    assistant.role = QStringLiteral("assistant");
    assistant.content = text;
    assistant.toolCalls = toolCalls;
    m_messages.append(assistant);
    if (!text.trimmed().isEmpty())
        m_result.answer = text;
    if (!toolCalls.isEmpty() && !m_tools.isEmpty()) {
        runTools(toolCalls);
        return;
    }
    stop(StopReason::Answered);
}

void AgentSession::onFailed(const QString &message)
{
    const bool overflow = m_call && m_call->exceededContext();
    if (m_call)
        m_call->deleteLater();
    m_call = nullptr;
    if (overflow && m_item.key.arm == kWithSkillArm && m_setup.config.mode != QLatin1String("agentic")) {
        // Say what the user can act on: the skill they wrote is most of the prompt.
        stop(StopReason::Error,
             QStringLiteral("The skill \"%1\" (about %2 tokens) does not fit %3 with this case. %4")
                 .arg(m_setup.skill.name, QLocale(QLocale::English).toString(estimateTokens(m_setup.skill.body)),
                      m_item.key.model, message));
        return;
    }
    stop(StopReason::Error, message);
}

void AgentSession::runTools(const QList<ToolCall> &calls)
{
    ToolContext context;
    context.workspace = m_item.workspace;
    context.runCommand = m_setup.runCommand;
    context.commandTimeoutMs = m_setup.config.commandTimeoutSeconds * 1000;
    // The worker gets its own copy of the skill (implicitly shared, so cheap): a cancelled run may delete the
    // executor that owns the original while a tool is still running.
    std::optional<SkillUnderTest> skill;
    if (isAgenticWithSkill(m_setup, m_item.key.arm))
        skill = m_setup.skill;
    m_result.toolCalls += int(calls.size());
    for (const ToolCall &call : calls)
        m_result.toolCallCounts[call.name] += 1;
    auto *watcher = new QFutureWatcher<QList<ToolOutcome>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, calls] {
        watcher->deleteLater();
        if (m_stopped)
            return;
        const QList<ToolOutcome> outcomes = watcher->result();
        for (qsizetype i = 0; i < calls.size(); ++i) {
            const ToolOutcome &o = outcomes[i];
            ChatMessage message;
            message.role = QStringLiteral("tool");
            message.toolCallId = calls[i].id;
            message.content = o.content;
            message.isError = o.isError;
            m_messages.append(message);
            m_result.toolErrors += o.isError ? 1 : 0;
            if (o.loadedSkill && m_result.skillLoaded && !*m_result.skillLoaded) {
                m_result.skillLoaded = true;
                m_result.skillLoadedAtTurn = m_result.turns;
            }
            record({{QStringLiteral("role"), QStringLiteral("tool")},
                    {QStringLiteral("tool_call_id"), calls[i].id},
                    {QStringLiteral("name"), calls[i].name},
                    {QStringLiteral("content"), o.content},
                    {QStringLiteral("is_error"), o.isError}});
        }
        callModel();
    });
    watcher->setFuture(QtConcurrent::run([context, calls, skill]() mutable {
        context.skill = skill ? &*skill : nullptr;
        QList<ToolOutcome> outcomes;
        for (const ToolCall &call : calls)
            outcomes.append(runStudentTool(call, context));
        return outcomes;
    }));
}

void AgentSession::stop(const QString &reason, const QString &error)
{
    if (m_stopped)
        return;
    m_stopped = true;
    m_deadline.stop();
    delete m_call.data(); // a call still in flight (timeout) is cancelled
    m_result.stopReason = reason;
    m_result.error = error;
    if (!error.isEmpty()) {
        record({{QStringLiteral("role"), QStringLiteral("error")}, {QStringLiteral("content"), error}});
        finish();
        return;
    }
    verify();
}

void AgentSession::verify()
{
    VerifyContext context;
    context.workspace = m_item.workspace;
    context.runCommand = m_setup.verifierCommand ? m_setup.verifierCommand : m_setup.runCommand;
    context.kernels = m_setup.kernels;
    m_judge = new ItemJudge(m_chat, m_item.testCase, context, m_setup.config.judgeModel, this);
    connect(m_judge, &ItemJudge::finished, this, [this](const ItemResult &judged) {
        m_result = judged;
        if (m_result.isError())
            record({{QStringLiteral("role"), QStringLiteral("error")}, {QStringLiteral("content"), m_result.error}});
        finish();
    });
    m_judge->judge(m_result);
}

void AgentSession::finish()
{
    m_result.latencyMs = m_clock.elapsed();
    m_result.passed = ItemJudge::passes(m_result);
    // The judge hands back its own copy of the item: the cost is the student's requests, each priced as it came back.
    m_result.setCost(m_cost);
    QJsonObject transcript{
        {QStringLiteral("item"), m_item.key.toString()}, {QStringLiteral("model"), m_item.key.model},
        {QStringLiteral("arm"), m_item.key.arm},         {QStringLiteral("case"), m_item.key.caseId},
        {QStringLiteral("repeat"), m_item.key.repeat},   {QStringLiteral("workspace"), m_item.workspace},
        {QStringLiteral("messages"), m_transcript}};
    Q_EMIT finished(m_result, transcript);
}

} // namespace sf
