#include "CommandRegistry.h"
#include "LlmServices.h"

#include "llm/ChatCall.h"
#include "llm/ChatClient.h"

#include <QCommandLineParser>
#include <QCoreApplication>
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
    return object;
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

    LlmServices services;
    ChatCall *call = services.chat().chat(model, request);
    int exitCode = CheckFailed;
    QObject::connect(call, &ChatCall::finished, qApp, [&](const ChatResponse &response) {
        if (parser.isSet(QStringLiteral("json"))) {
            out(QString::fromUtf8(QJsonDocument(toJson(response, model)).toJson(QJsonDocument::Indented)));
        } else {
            out(response.text.trimmed() + u'\n');
            err(QStringLiteral("[%1] %2 input + %3 output tokens, %4 ms\n")
                    .arg(model)
                    .arg(response.usage.totalInput())
                    .arg(response.usage.output)
                    .arg(response.latencyMs));
        }
        exitCode = Success;
        QCoreApplication::quit();
    });
    QObject::connect(call, &ChatCall::failed, qApp, [&](const QString &message) {
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
        "Sends PROMPT to the model and prints the reply; token usage and latency go to stderr.\n"
        "Providers: anthropic, openai, hf, ollama, generic, and local (the embedded llama.cpp server with a\n"
        "small model, started on demand: try --model local:gemma3-270m). Keys come from the environment\n"
        "(ANTHROPIC_API_KEY, OPENAI_API_KEY, HF_TOKEN, GENERIC_API_KEY).\n\n"
        "  --json   print the reply, usage buckets and timings as JSON\n\n"
        "Exit codes: 0 a reply came, 1 the model call failed, 2 bad usage.\n");
    command.run = runChat;
    return command;
}

} // namespace sf::cli
