#include "CliStudentSession.h"

#include "ItemJudge.h"
#include "agents/Harness.h"
#include "llm/ModelName.h"
#include "trace/TraceImport.h"

#include <QDateTime>
#include <QDir>
#include <QJsonArray>
#include <QUuid>

namespace sf {

namespace {

/// The last lines of what the CLI wrote to stderr, for an error item's message and its transcript.
QString stderrTail(const QByteArray &stdErr, int lines = 6)
{
    QStringList all = QString::fromUtf8(stdErr).trimmed().split(u'\n', Qt::SkipEmptyParts);
    if (all.size() > lines)
        all = all.mid(all.size() - lines);
    return all.join(u'\n');
}

QJsonObject requestJson(const DoorRequestRecord &record, std::optional<double> cost)
{
    QJsonObject o{{QStringLiteral("path"), record.path},
                  {QStringLiteral("status"), record.status},
                  {QStringLiteral("model"), record.model},
                  {QStringLiteral("usage"), usageToJson(record.usage)},
                  {QStringLiteral("cost_usd"), cost ? QJsonValue(*cost) : QJsonValue()},
                  {QStringLiteral("latency_ms"), record.latencyMs},
                  {QStringLiteral("ended_at"), record.endedAt.toString(Qt::ISODateWithMs)}};
    if (!record.error.isEmpty())
        o.insert(QStringLiteral("error"), record.error);
    return o;
}

} // namespace

QString cliPromptFor(const TestCase &testCase, const QString &skillName)
{
    QString prompt = testCase.studentPrompt(skillName);
    if (!testCase.files.isEmpty()) {
        const QStringList names = testCase.files.keys();
        prompt += QStringLiteral("\n\nThe task's files are in the current directory: %1").arg(names.join(u", "));
    }
    return prompt;
}

CliStudentSession::CliStudentSession(ChatClient &chat, DoorServices services, const AgentSetup &setup,
                                     AgentCliBinary binary, WorkItem item, QString runDir, QObject *parent)
    : QObject(parent)
    , m_chat(chat)
    , m_services(services)
    , m_setup(setup)
    , m_binary(std::move(binary))
    , m_item(std::move(item))
    , m_runDir(std::move(runDir))
{
}

CliStudentSession::~CliStudentSession()
{
    delete m_run.data();
    delete m_judge.data();
}

void CliStudentSession::start()
{
    m_clock.start();
    m_result.key = m_item.key;
    m_result.split = m_item.testCase.split;
    m_result.startedAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    if (const Result<ModelName> name = ModelName::parse(m_item.key.model)) {
        m_result.provider = name.value->provider;
        m_result.resolvedModel = name.value->model;
    }
    const bool withSkill = m_item.key.arm == kWithSkillArm;
    if (withSkill)
        m_result.skillLoaded = false;
    const QString harness = m_setup.config.harness;
    m_transcript = {{QStringLiteral("item"), m_item.key.toString()},
                    {QStringLiteral("model"), m_item.key.model},
                    {QStringLiteral("arm"), m_item.key.arm},
                    {QStringLiteral("case"), m_item.key.caseId},
                    {QStringLiteral("repeat"), m_item.key.repeat},
                    {QStringLiteral("workspace"), m_item.workspace},
                    {QStringLiteral("harness"), harness},
                    {QStringLiteral("cli_version"), m_binary.version}};
    if (m_item.workspace.isEmpty()) {
        stop(StopReason::Error, QStringLiteral("an agent CLI needs a workspace, and the item has none"));
        return;
    }
    if (const QString error = writeCaseFiles(m_item.testCase, m_item.workspace); !error.isEmpty()) {
        stop(StopReason::Error, error);
        return;
    }
    CliItemSpec spec;
    spec.binary = m_binary;
    spec.model = m_item.key.model;
    spec.prompt = cliPromptFor(m_item.testCase, m_setup.skill.name);
    spec.workspace = QDir(m_item.workspace).absolutePath();
    // Beside the workspace, not in it: what verifiers judge is only what the student made. A resumed item gets a
    // fresh one, as its workspace is.
    spec.home = QDir(QFileInfo(spec.workspace).absolutePath()).filePath(QStringLiteral("cli-home"));
    QDir(spec.home).removeRecursively();
    if (withSkill)
        spec.skillDir = m_setup.skill.dir;
    spec.skillName = m_setup.skill.name;
    spec.sessionId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    spec.mcpConfig = m_setup.config.mcpConfig;
    spec.allowedTools = m_setup.config.allowedTools;
    spec.requestTimeoutMs = m_setup.config.timeoutSeconds * 1000;
    m_transcript.insert(QStringLiteral("prompt"), spec.prompt);

    DoorLimits limits;
    limits.maxTotalTokens = m_setup.config.maxTokens;
    limits.maxOutputTokens = m_setup.config.maxOutputTokens;
    limits.requestTimeoutMs = m_setup.config.timeoutSeconds * 1000;
    m_run = new CliItemRun(m_services, AgentCli::forHarness(harness), spec, limits,
                           m_setup.config.timeoutSeconds * 1000, this);
    connect(m_run, &CliItemRun::finished, this, &CliStudentSession::onCliFinished);
    m_run->start();
}

void CliStudentSession::onCliFinished(const CliItemOutcome &outcome)
{
    const QString name = Harness::label(m_setup.config.harness);
    m_result.usage = outcome.doorUsage;
    m_result.llmMs = outcome.modelMs;
    m_result.turns = int(outcome.requests.size());
    // Each request at its own rates and tier, never their sum: a session of many requests crosses no tier that none
    // of them crossed, and pays each request's fee once.
    QList<std::optional<double>> costs;
    m_cost = costOfRequests(outcome.requests, m_item.key.model, &costs);
    QJsonArray requests;
    for (qsizetype i = 0; i < outcome.requests.size(); ++i)
        requests.append(requestJson(outcome.requests[i], costs[i]));
    m_transcript.insert(QStringLiteral("requests"), requests);
    m_transcript.insert(QStringLiteral("settings_fingerprint"), outcome.settingsFingerprint);
    m_transcript.insert(QStringLiteral("workspace_in_sandbox"), outcome.workspaceInSandbox);
    m_transcript.insert(QStringLiteral("first_request_ms"), outcome.firstRequestMs);
    m_result.cliStartupMs = outcome.firstRequestMs;
    m_transcript.insert(QStringLiteral("exit_code"), outcome.process.exitCode);
    m_transcript.insert(QStringLiteral("stderr_tail"), stderrTail(outcome.process.stdErr, 40));
    if (outcome.output) {
        m_result.answer = outcome.output->finalText;
        m_transcript.insert(QStringLiteral("cli_reported_usage"), usageToJson(outcome.output->usage));
        if (outcome.output->costUsd)
            m_transcript.insert(QStringLiteral("cli_reported_cost_usd"), *outcome.output->costUsd);
    }
    if (!outcome.sessionFile.isEmpty()) {
        m_result.harnessSession = QDir(m_runDir).relativeFilePath(outcome.sessionFile);
        m_transcript.insert(QStringLiteral("session"), m_result.harnessSession);
        readSession(outcome.sessionFile);
    }

    if (!outcome.error.isEmpty()) {
        stop(StopReason::Error, QStringLiteral("%1 could not run: %2").arg(name, outcome.error));
        return;
    }
    const SandboxResult &process = outcome.process;
    if (process.cancelled) {
        stop(StopReason::Cancelled, QStringLiteral("cancelled"));
        return;
    }
    if (process.timedOut) {
        stop(StopReason::Timeout);
        return;
    }
    if (outcome.budgetExhausted) {
        stop(StopReason::MaxTokens);
        return;
    }
    if (process.exitCode != 0 || process.crashed || !outcome.output) {
        QString why = process.exitCode != 0 || process.crashed ? process.summary() : outcome.outputError;
        if (const QString tail = stderrTail(process.stdErr); !tail.isEmpty())
            why += QStringLiteral(": ") + tail;
        stop(StopReason::Error, QStringLiteral("%1 failed (%2)").arg(name, why));
        return;
    }
    if (outcome.output->isError) {
        stop(StopReason::Error, QStringLiteral("%1 reported an error: %2").arg(name, outcome.output->errorText));
        return;
    }
    stop(StopReason::Answered);
}

void CliStudentSession::readSession(const QString &sessionFile)
{
    const Result<Trace> trace = importTrace(sessionFile);
    if (!trace) {
        m_transcript.insert(QStringLiteral("session_error"), trace.error);
        return;
    }
    const TraceStats stats = TraceStats::of(*trace.value);
    for (const auto &[tool, count] : stats.toolCalls) {
        m_result.toolCallCounts.insert(tool, int(count));
        m_result.toolCalls += int(count);
    }
    m_result.toolErrors = int(stats.toolErrors);
    m_transcript.insert(QStringLiteral("session_usage"), usageToJson(stats.usage));
    if (m_item.key.arm != kWithSkillArm)
        return;
    const SkillActivation activation = detectSkillActivation(*trace.value, m_setup.config.harness, m_setup.skill.name);
    m_result.skillLoaded = activation.loaded;
    m_result.skillLoadedAtTurn = activation.atTurn;
    m_result.skillFilesRead = activation.filesRead;
    if (activation.loaded)
        m_transcript.insert(QStringLiteral("skill_loaded_by"), activation.how);
}

void CliStudentSession::stop(const QString &reason, const QString &error)
{
    m_result.stopReason = reason;
    m_result.error = error;
    if (!error.isEmpty()) {
        finish(m_result);
        return;
    }
    VerifyContext context;
    context.workspace = m_item.workspace;
    context.runCommand = m_setup.verifierCommand ? m_setup.verifierCommand : m_setup.runCommand;
    context.kernels = m_setup.kernels;
    m_judge = new ItemJudge(m_chat, m_item.testCase, context, m_setup.config.judgeModel, this);
    connect(m_judge, &ItemJudge::finished, this, &CliStudentSession::finish);
    m_judge->judge(m_result);
}

void CliStudentSession::finish(const ItemResult &judged)
{
    m_result = judged;
    m_result.latencyMs = m_clock.elapsed();
    m_result.passed = ItemJudge::passes(m_result);
    m_result.setCost(m_cost);
    if (m_result.isError())
        m_transcript.insert(QStringLiteral("error"), m_result.error);
    Q_EMIT finished(m_result, m_transcript);
}

} // namespace sf
