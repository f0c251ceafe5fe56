// A stand-in for llama-server in LocalModelServer tests: same command line, same /health behaviour
// (503 while "loading", then 200), a canned chat answer, and environment knobs to misbehave.
//   FAKE_LLAMA_HEALTH_DELAY_MS  how long /health answers 503 (default 300)
//   FAKE_LLAMA_EXIT_AFTER_MS    exit with code 3 this long after starting, as a crash would
//   FAKE_LLAMA_FAIL_AT_START    print a model-loading error and exit 1 at once
//   FAKE_LLAMA_BIND_FAIL_ONCE   a marker path: the first process to see it missing creates it and
//                               exits complaining that the port is taken, as llama-server does
//   FAKE_LLAMA_CHAT_DELAY_MS    silence before a chat answer, as a long generation (default 0)
//   FAKE_LLAMA_MESSAGES_FAULT   how POST /v1/messages (a Claude Code student's requests) misbehaves before it
//                               answers with usage (9 input, 4 output tokens): "cut-before-any-byte" or
//                               "cut-mid-body" once, or "cut-after-ms:N" every time, mid-body after N ms of
//                               silence
#include "ScriptedHttpServer.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTimer>
#include <cstdio>

using namespace sf::test;

namespace {

const QByteArray chatAnswer = R"({"choices":[{"finish_reason":"stop","index":0,
  "message":{"role":"assistant","content":"Fake reply from the local model."}}],
  "created":1764450000,"model":"fake-model","object":"chat.completion","id":"chatcmpl-fake",
  "usage":{"completion_tokens":7,"prompt_tokens":12,"total_tokens":19},
  "timings":{"prompt_n":12,"prompt_ms":10.0,"predicted_n":7,"predicted_ms":70.0,"predicted_per_second":100.0}})";

[[noreturn]] void die(const QByteArray &message, int code)
{
    std::fprintf(stderr, "%s\n", message.constData());
    std::fflush(stderr);
    std::_Exit(code);
}

int envInt(const char *name, int fallback)
{
    bool ok = false;
    const int value = qEnvironmentVariableIntValue(name, &ok);
    return ok ? value : fallback;
}

const QByteArray messagesAnswer = R"({"id":"msg_fake","type":"message","role":"assistant","model":"fake-model",)"
                                  R"("content":[{"type":"text","text":"Fake reply."}],"stop_reason":"end_turn",)"
                                  R"("usage":{"input_tokens":9,"output_tokens":4}})";

/// POST /v1/messages: the answer, after the fault FAKE_LLAMA_MESSAGES_FAULT names (none: not served, 404).
void routeMessages(ScriptedHttpServer &server, const QString &fault)
{
    const ScriptedResponse answer = ScriptedResponse::json(200, messagesAnswer);
    if (fault == QLatin1String("cut-before-any-byte")) {
        server.routeSequence("POST", "/v1/messages", {ScriptedResponse::abruptClose(), answer});
    } else if (fault == QLatin1String("cut-mid-body")) {
        // Half of a different answer, with its own usage in the half that arrives: none of it may be counted.
        ScriptedResponse half;
        half.headers = {{"Content-Type", "application/json"}};
        half.chunks = {R"({"id":"msg_cut","type":"message","usage":{"input_tokens":500,"output_tokens":300},)"
                       R"("content":[{"type":"text","text":"This answer never)",
                       R"( ends"}]})"};
        half.resetAfterChunks = 1;
        server.routeSequence("POST", "/v1/messages", {half, answer});
    } else if (fault.startsWith(QLatin1String("cut-after-ms:"))) {
        // Some bytes, then the cut: a connection that died with nothing received curl retries by itself, and that
        // retry would never reach the door.
        ScriptedResponse cut;
        cut.headers = {{"Content-Type", "application/json"}};
        cut.chunks = {R"({"id":"msg_cut","type":"message",)", R"("never":"sent"})"};
        cut.resetAfterChunks = 1;
        cut.delayMs = fault.section(QLatin1Char(':'), 1).toInt();
        server.route("POST", "/v1/messages", cut);
    }
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList arguments = app.arguments();
    const qsizetype portIndex = arguments.indexOf(QStringLiteral("--port"));
    const quint16 port = portIndex >= 0 ? quint16(arguments.value(portIndex + 1).toUInt()) : 8080;
    std::fprintf(stderr, "fake llama-server starting on port %u\n", unsigned(port));

    if (qEnvironmentVariableIsSet("FAKE_LLAMA_FAIL_AT_START")) {
        die("llama_model_load: error loading model: fake failure to load the model", 1);
    }
    const QByteArray bindMarker = qgetenv("FAKE_LLAMA_BIND_FAIL_ONCE");
    const QByteArray bindError =
        "srv    start: couldn't bind HTTP server socket, hostname: 127.0.0.1, port: " + QByteArray::number(port);
    if (!bindMarker.isEmpty() && !QFile::exists(QString::fromLocal8Bit(bindMarker))) {
        QFile marker(QString::fromLocal8Bit(bindMarker));
        if (marker.open(QIODevice::WriteOnly)) {
            marker.close();
        }
        die(bindError, 1);
    }

    ScriptedHttpServer server;
    if (!server.listen(port)) {
        die(bindError, 1);
    }
    server.route("GET", "/health", ScriptedResponse::json(503, R"({"error":{"code":503,"message":"Loading model"}})"));
    QTimer::singleShot(envInt("FAKE_LLAMA_HEALTH_DELAY_MS", 300), &server, [&server] {
        server.route("GET", "/health", ScriptedResponse::json(200, R"({"status":"ok"})"));
    });
    ScriptedResponse answer = ScriptedResponse::json(200, chatAnswer);
    answer.delayMs = envInt("FAKE_LLAMA_CHAT_DELAY_MS", 0);
    server.route("POST", "/v1/chat/completions", answer);
    routeMessages(server, qEnvironmentVariable("FAKE_LLAMA_MESSAGES_FAULT"));
    // The body of the last chat request, so a test sees what the client really sent.
    server.routeHandler("GET", "/fake/last-chat", [&server](const RecordedRequest &) {
        QByteArray body = "{}";
        const QList<RecordedRequest> requests = server.requests();
        for (auto it = requests.crbegin(); it != requests.crend(); ++it) {
            if (it->path == "/v1/chat/completions") {
                body = it->body;
                break;
            }
        }
        return ScriptedResponse::json(200, body);
    });
    server.route("GET", "/fake/arguments",
                 ScriptedResponse::json(200, QJsonDocument(QJsonArray::fromStringList(arguments)).toJson()));

    if (const int exitAfter = envInt("FAKE_LLAMA_EXIT_AFTER_MS", -1); exitAfter >= 0) {
        QTimer::singleShot(exitAfter, [exitAfter] {
            die("fake llama-server exiting after " + QByteArray::number(exitAfter) + " ms", 3);
        });
    }
    return app.exec();
}
