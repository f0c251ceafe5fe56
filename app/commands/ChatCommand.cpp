#include "CommandRegistry.h"
#include "LlmServices.h"

#include "llm/ChatCall.h"
#include "llm/ChatClient.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace sf::cli {

namespace {

QJsonObject toJson(const ChatResponse &response, const QString &model)
{
    const TokenUsage &u = response.usage;
    QJsonObject usage{{QStringLiteral("uncached_input"), u.uncachedInput}, {QStringLiteral("cache_read"), u.cacheRead},
                      {QStringLiteral("cache_write_5m"), u.cacheWrite5m}, {QStringLiteral("cache_write_1h"), u.cacheWrite1h},
                      {QStringLiteral("output"), u.output}, {QStringLiteral("reasoning"), u.reasoning}};
    QJsonObject object{{QStringLiteral("model"), model},
                       {QStringLiteral("resolved_model"), response.model},
                       {QStringLiteral("text"), response.text},
                       {QStringLiteral("finish_reason"), response.finishReason},
                       {QStringLiteral("usage"), usage},
                       {QStringLiteral("latency_ms"), response.latencyMs},
                       {QStringLiteral("first_byte_ms"), response.firstByteMs}};
    if (response.serverTokensPerSecond)
        object.insert(QStringLiteral("server_tokens_per_second"), *response.serverTokensPerSecond);
    // An unpriced model has a null cost, never 0.
    object.insert(QStringLiteral("cost_usd"), response.costUsd ? QJsonValue(*response.costUsd) : QJsonValue());
    QJsonArray attempts;
    for (const ChatAttempt &attempt : response.attempts) {
        attempts.append(QJsonObject{{QStringLiteral("status"), attempt.status},
                                    {QStringLiteral("wait_ms"), attempt.waitMs},
                                    {QStringLiteral("duration_ms"), attempt.durationMs},
                                    {QStringLiteral("error"), attempt.error}});
    }
    object.insert(QStringLiteral("attempts"), attempts);
    return object;
}

QString costText(const ChatResponse &response, const QString &model)
{
    if (!response.costUsd)
        return QStringLiteral("no price for %1").arg(model);
    return QStringLiteral("$%1").arg(*response.costUsd, 0, 'f', 6);
}

// One line a person can read: where the tokens went, what it cost, how long it took.
QString summary(const ChatResponse &response, const QString &model)
{
    const TokenUsage &u = response.usage;
    QString input = QString::number(u.totalInput()) + QStringLiteral(" input");
    if (u.cacheRead > 0 || u.cacheWrite5m + u.cacheWrite1h > 0)
        input += QStringLiteral(" (%1 cache read, %2 cache write)").arg(u.cacheRead).arg(u.cacheWrite5m + u.cacheWrite1h);
    QString output = QString::number(u.output) + QStringLiteral(" output");
    if (u.reasoning > 0)
        output += QStringLiteral(" (%1 reasoning)").arg(u.reasoning);
    QString line = QStringLiteral("[%1] %2 + %3 tokens, %4, %5 ms (first byte %6 ms)")
                       .arg(model, input, output, costText(response, model))
                       .arg(response.latencyMs)
                       .arg(response.firstByteMs);
    if (response.attempts.size() > 1)
        line += QStringLiteral(", %1 attempts").arg(response.attempts.size());
    return line + u'\n';
}

int runChat(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("prompt"), QString());
    parser.addOption({QStringLiteral("model"), QString(), QStringLiteral("M")});
    parser.addOption({QStringLiteral("system"), QString(), QStringLiteral("S")});
    parser.addOption({QStringLiteral("max-tokens"), QString(), QStringLiteral("N"), QStringLiteral("512")});
    parser.addOption({QStringLiteral("temperature"), QString(), QStringLiteral("T")});
    parser.addOption(QCommandLineOption(QStringLiteral("json")));
    if (!parseArguments(parser, QStringLiteral("chat"), arguments))
        return BadUsage;
    const QString model = parser.value(QStringLiteral("model"));
    const QString prompt = parser.positionalArguments().join(u' ');
    if (model.isEmpty() || prompt.isEmpty()) {
        err(QStringLiteral("skillforge chat: needs --model PROVIDER:MODEL and a PROMPT (see --help)\n"));
        return BadUsage;
    }
    bool ok = false;
    ChatRequest request;
    request.system = parser.value(QStringLiteral("system"));
    request.messages.append({QStringLiteral("user"), prompt});
    request.maxTokens = parser.value(QStringLiteral("max-tokens")).toInt(&ok);
    if (!ok || request.maxTokens <= 0) {
        err(QStringLiteral("skillforge chat: --max-tokens must be a positive number\n"));
        return BadUsage;
    }
    if (parser.isSet(QStringLiteral("temperature"))) {
        request.temperature = parser.value(QStringLiteral("temperature")).toDouble(&ok);
        if (!ok || *request.temperature < 0) {
            err(QStringLiteral("skillforge chat: --temperature must be a number >= 0\n"));
            return BadUsage;
        }
    }

    const bool json = parser.isSet(QStringLiteral("json"));
    // Text is printed as it arrives; --json prints one document at the end, so it need not stream.
    request.stream = !json;

    LlmServices services;
    ChatCall *call = services.chat().chat(model, request);
    int exitCode = BadUsage;
    bool printedAny = false;
    QObject::connect(call, &ChatCall::textDelta, qApp, [&](const QString &text) {
        out(text);
        printedAny = true;
    });
    QObject::connect(call, &ChatCall::retrying, qApp, [&](int attempt, qint64 waitMs, const QString &reason) {
        // What was printed cannot be taken back; say plainly that the reply starts over.
        if (printedAny)
            out(QStringLiteral("\n"));
        printedAny = false;
        err(QStringLiteral("[%1] attempt %2 failed: %3; retrying in %4 s%5\n")
                .arg(model)
                .arg(attempt)
                .arg(reason)
                .arg(double(waitMs) / 1000.0, 0, 'f', 1)
                .arg(request.stream ? QStringLiteral(", the reply starts again") : QString()));
    });
    QObject::connect(call, &ChatCall::finished, qApp, [&](const ChatResponse &response) {
        if (json) {
            out(QString::fromUtf8(QJsonDocument(toJson(response, model)).toJson(QJsonDocument::Indented)));
        } else {
            if (!response.text.endsWith(u'\n'))
                out(QStringLiteral("\n"));
            err(summary(response, model));
        }
        exitCode = Success;
        QCoreApplication::quit();
    });
    QObject::connect(call, &ChatCall::failed, qApp, [&](const QString &message) {
        if (printedAny)
            out(QStringLiteral("\n"));
        err(QStringLiteral("skillforge chat: %1: %2\n").arg(model, message));
        QCoreApplication::quit();
    });
    QCoreApplication::exec();
    delete call;
    return exitCode;
}

} // namespace

Command chatCommand()
{
    Command command;
    command.words = {QStringLiteral("chat")};
    command.summary = QStringLiteral("send one prompt to a model and print its reply");
    command.help = QStringLiteral(
        "Usage: skillforge chat --model PROVIDER:MODEL [--system TEXT] [--max-tokens N] [--temperature T]\n"
        "                       [--json] PROMPT\n\n"
        "Sends PROMPT to the model and prints the reply as it is written; token usage, cost and latency go\n"
        "to stderr. Busy or failing providers are retried with backoff (each retry is reported on stderr,\n"
        "and the reply starts again).\n"
        "Providers: anthropic, openai, hf, ollama, generic, and local (the embedded llama.cpp server with a\n"
        "small model, started on demand: try --model local:qwen2.5-coder-1.5b). Keys come from the environment\n"
        "(ANTHROPIC_API_KEY, OPENAI_API_KEY, HF_TOKEN, GENERIC_API_KEY).\n\n"
        "  --json   print the reply, usage buckets, cost, timings and attempts as JSON (not streamed)\n\n"
        "Exit codes: 0 a reply came, 2 bad usage or the model call failed (with the server's message).\n");
    command.run = runChat;
    return command;
}

} // namespace sf::cli
