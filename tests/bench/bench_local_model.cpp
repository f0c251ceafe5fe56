// Measures the embedded local model: cold start to Ready, then latency and generation speed of a
// few identical chats. Prints figures only; run it by hand (it is not a ctest test).
#include "llm/ChatCall.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/LocalModelServer.h"
#include "llm/LocalRuntime.h"
#include "llm/ProviderRegistry.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <numeric>
#include <vector>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n == 0 ? 0.0 : (n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0);
}

double mean(const std::vector<double> &values)
{
    return values.empty() ? 0.0 : std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
}

/** The resident memory of `pid` in MiB, from /proc (0 when it cannot be read). */
double residentMiB(qint64 pid)
{
    QFile status(u"/proc/%1/status"_s.arg(pid));
    if (!status.open(QIODevice::ReadOnly)) {
        return 0;
    }
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:")) {
            return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024.0;
        }
    }
    return 0;
}

/** Runs the event loop until `done` is set or `timeoutMs` passes. */
bool spin(const bool &done, int timeoutMs)
{
    QEventLoop loop;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done) {
            loop.quit();
        }
    });
    poll.start(10);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    if (!done) {
        loop.exec();
    }
    return done;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(u"Benchmark the embedded local model server"_s);
    parser.addHelpOption();
    const QCommandLineOption runsOption(u"runs"_s, u"Number of chats (default 5)."_s, u"N"_s, u"5"_s);
    const QCommandLineOption tokensOption(u"max-tokens"_s, u"Tokens per chat (default 128)."_s, u"N"_s, u"128"_s);
    parser.addOptions({runsOption, tokensOption});
    parser.process(app);

    if (!LocalRuntime::isInstalled()) {
        std::fprintf(stderr, "SKIP: %s\n", qPrintable(LocalRuntime::missingReason()));
        return 77;
    }
    std::printf("server: %s\nmodel:  %s\n", qPrintable(LocalRuntime::llamaServerPath()),
                qPrintable(LocalRuntime::modelPath()));

    HttpEngine engine;
    LocalModelServer server(engine);
    ProviderRegistry providers;
    ChatClient client(engine, providers, &server);

    bool ready = false;
    QObject::connect(&server, &LocalModelServer::ready, [&] { ready = true; });
    QObject::connect(&server, &LocalModelServer::failed,
                     [&](const QString &message) { std::fprintf(stderr, "server failed: %s\n", qPrintable(message)); });
    QElapsedTimer clock;
    clock.start();
    server.ensureStarted();
    if (!spin(ready, 180000)) {
        std::fprintf(stderr, "server did not become ready\n");
        return 1;
    }
    const double coldStartS = double(clock.elapsed()) / 1000.0;
    std::printf("cold start to Ready: %.2f s\n", coldStartS);
    std::printf("slots: %d, context per request: %d tokens, resident after start: %.0f MiB\n\n", server.slots(),
                server.requestContextTokens(), residentMiB(server.processId()));

    ChatRequest request;
    request.messages = {
        {u"user"_s, u"Explain in a few sentences what a CUDA kernel is and how threads are organised."_s}};
    request.maxTokens = parser.value(tokensOption).toInt();
    request.temperature = 0.0;

    std::vector<double> latencies, clientTps, serverTps;
    std::printf("%-4s %10s %10s %8s %12s %12s\n", "run", "latency ms", "ttfb ms", "out tok", "tok/s client",
                "tok/s server");
    const int runs = parser.value(runsOption).toInt();
    for (int i = 1; i <= runs; ++i) {
        std::unique_ptr<ChatCall> call(client.chat(sf::LocalRuntime::qualifiedModelName(), request));
        bool done = false;
        std::optional<ChatResponse> result;
        QObject::connect(call.get(), &ChatCall::finished, [&](const ChatResponse &response) {
            result = response;
            done = true;
        });
        QObject::connect(call.get(), &ChatCall::failed, [&](const QString &message) {
            std::fprintf(stderr, "chat %d failed: %s\n", i, qPrintable(message));
            done = true;
        });
        if (!spin(done, 300000) || !result) {
            return 1;
        }
        const double tps =
            result->latencyMs > 0 ? double(result->usage.output) * 1000.0 / double(result->latencyMs) : 0;
        latencies.push_back(double(result->latencyMs));
        clientTps.push_back(tps);
        if (result->serverTokensPerSecond) {
            serverTps.push_back(*result->serverTokensPerSecond);
        }
        std::printf("%-4d %10lld %10lld %8lld %12.1f %12s\n", i, result->latencyMs, result->firstByteMs,
                    result->usage.output, tps,
                    result->serverTokensPerSecond ? qPrintable(QString::number(*result->serverTokensPerSecond, 'f', 1))
                                                  : "-");
    }
    std::printf("\nresident after the chats: %.0f MiB\n", residentMiB(server.processId()));
    std::printf("latency ms      mean %.0f  median %.0f\n", mean(latencies), median(latencies));
    std::printf("tok/s client    mean %.1f  median %.1f\n", mean(clientTps), median(clientTps));
    if (!serverTps.empty()) {
        std::printf("tok/s server    mean %.1f  median %.1f\n", mean(serverTps), median(serverTps));
    }
    return 0;
}
