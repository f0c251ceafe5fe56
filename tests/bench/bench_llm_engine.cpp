// Measures the chat engine (ChatClient over HttpEngine's libcurl-multi thread) against a scripted
// loopback server running in its own thread:
//  1. overhead: 2,000 requests at concurrency 64 with zero server latency, requests per second and
//     client CPU time per request, next to what the `curl` tool achieves on the same server
//     (`curl --parallel --parallel-max 64`, same requests, in the same run);
//  2. scheduling: 400 requests with 200 ms server latency at concurrency 16, wall time against the
//     ideal 400 / 16 x 0.2 s = 5 s.
// Prints figures only; run it by hand (it is not a ctest test).
#include "ScriptedHttpServer.h"
#include "llm/ChatCall.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/ProviderRegistry.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QProcess>
#include <QSemaphore>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QFile>
#include <atomic>
#include <cstdio>
#include <ctime>
#include <memory>
#include <sys/resource.h>

using namespace sf;
using namespace sf::test;
using namespace Qt::StringLiterals;

namespace {

const QByteArray answer = R"({"id":"c1","object":"chat.completion","model":"bench","choices":[{"index":0,
  "message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":1}})";

double cpuSeconds(int who)
{
    rusage usage{};
    getrusage(who, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

double threadCpuSeconds()
{
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return double(now.tv_sec) + double(now.tv_nsec) / 1e9;
}

/** The scripted server on a thread of its own, so serving does not compete with the client's event loop. */
class ServerThread final : public QThread
{
public:
    explicit ServerThread(int delayMs)
        : m_delayMs(delayMs)
    {
    }

    void run() override
    {
        ScriptedHttpServer server;
        server.listen();
        ScriptedResponse response = ScriptedResponse::json(200, answer);
        response.delayMs = m_delayMs;
        server.route("POST", "/v1/chat/completions", response);
        m_port = server.port();
        QTimer cpuProbe; // samples this thread's CPU time from inside it
        QObject::connect(&cpuProbe, &QTimer::timeout, &server, [this] { m_cpuSeconds = threadCpuSeconds(); });
        cpuProbe.start(20);
        m_ready.release();
        exec();
        m_cpuSeconds = threadCpuSeconds();
    }

    quint16 waitForPort()
    {
        m_ready.acquire();
        return m_port;
    }
    double cpuSeconds() const { return m_cpuSeconds; }

private:
    int m_delayMs;
    quint16 m_port = 0;
    std::atomic<double> m_cpuSeconds{0};
    QSemaphore m_ready;
};

struct EngineRun
{
    double wallSeconds = 0;
    double clientCpuSeconds = 0;
    int failures = 0;
    QString firstError;
};

EngineRun runEngine(quint16 port, int requests, int concurrency, ServerThread &server)
{
    qputenv("OPENAI_BASE_URL", u"http://127.0.0.1:%1/v1"_s.arg(port).toUtf8());
    qputenv("OPENAI_API_KEY", "sk-bench-0000000000");
    HttpEngine engine;
    ProviderRegistry providers;
    ProviderConfig openai = *providers.find(u"openai"_s);
    openai.maxConcurrent = concurrency; // ChatClient queues the rest, as it would for a real provider
    providers.add(openai);
    ChatClient client(engine, providers, nullptr);
    ChatRequest request;
    request.messages = {{u"user"_s, u"ping"_s}};
    request.maxTokens = 1;

    EngineRun run;
    int done = 0;
    QEventLoop loop;
    const double cpuBefore = cpuSeconds(RUSAGE_SELF);
    const double serverCpuBefore = server.cpuSeconds();
    QElapsedTimer clock;
    clock.start();
    for (int i = 0; i < requests; ++i) {
        ChatCall *call = client.chat(u"openai:bench"_s, request);
        QObject::connect(call, &ChatCall::finished, &loop, [&, call] {
            call->deleteLater();
            if (++done == requests) {
                loop.quit();
            }
        });
        QObject::connect(call, &ChatCall::failed, &loop, [&, call](const QString &message) {
            call->deleteLater();
            if (run.failures++ == 0) {
                run.firstError = message;
            }
            if (++done == requests) {
                loop.quit();
            }
        });
    }
    loop.exec();
    run.wallSeconds = double(clock.nsecsElapsed()) / 1e9;
    QThread::msleep(50); // let the server thread's CPU probe tick once more
    run.clientCpuSeconds = (cpuSeconds(RUSAGE_SELF) - cpuBefore) - (server.cpuSeconds() - serverCpuBefore);
    return run;
}

struct CurlRun
{
    double wallSeconds = 0;
    double cpuSeconds = 0;
    int exitCode = -1;
    QString error;
};

CurlRun runCurl(quint16 port, int requests, int concurrency)
{
    CurlRun run;
    QTemporaryDir dir;
    QFile config(dir.filePath(u"urls.txt"_s));
    if (!config.open(QIODevice::WriteOnly)) {
        run.error = u"cannot write the curl config"_s;
        return run;
    }
    const QByteArray url = "http://127.0.0.1:" + QByteArray::number(port) + "/v1/chat/completions";
    for (int i = 0; i < requests; ++i) {
        config.write("url = \"" + url + "\"\noutput = \"/dev/null\"\n");
    }
    config.close();
    const QByteArray body = R"({"model":"bench","messages":[{"role":"user","content":"ping"}],"max_tokens":1,"stream":false})";
    QProcess curl;
    const double childCpuBefore = cpuSeconds(RUSAGE_CHILDREN);
    QElapsedTimer clock;
    clock.start();
    curl.start(u"curl"_s, {u"--no-progress-meter"_s, u"--show-error"_s, u"--parallel"_s, u"--parallel-max"_s,
                           QString::number(concurrency), u"-H"_s, u"Content-Type: application/json"_s, u"-H"_s,
                           u"Authorization: Bearer sk-bench-0000000000"_s, u"--data-binary"_s, QString::fromUtf8(body),
                           u"--config"_s, config.fileName()});
    if (!curl.waitForFinished(300000)) {
        run.error = curl.errorString();
        return run;
    }
    run.wallSeconds = double(clock.nsecsElapsed()) / 1e9;
    run.cpuSeconds = cpuSeconds(RUSAGE_CHILDREN) - childCpuBefore;
    run.exitCode = curl.exitCode();
    if (run.exitCode != 0) {
        run.error = QString::fromUtf8(curl.readAllStandardError()).trimmed();
    }
    return run;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    qputenv("QT_LOGGING_RULES", "skillforge.*.debug=false");

    {
        constexpr int requests = 2000;
        constexpr int concurrency = 64;
        ServerThread server(0);
        server.start();
        const quint16 port = server.waitForPort();
        runEngine(port, 200, concurrency, server); // warm-up: connections, allocator, caches
        const EngineRun engine = runEngine(port, requests, concurrency, server);
        const CurlRun curl = runCurl(port, requests, concurrency);
        server.quit();
        server.wait();
        std::printf("Engine overhead: %d requests, concurrency %d, zero-latency scripted server\n", requests,
                    concurrency);
        std::printf("  skillforge engine: %.3f s, %.0f requests/s, %.1f us client CPU per request, %d failed%s%s\n",
                    engine.wallSeconds, requests / engine.wallSeconds, engine.clientCpuSeconds / requests * 1e6,
                    engine.failures, engine.firstError.isEmpty() ? "" : ": ", qPrintable(engine.firstError));
        std::printf("  curl --parallel:   %.3f s, %.0f requests/s, %.1f us CPU per request (exit %d%s%s)\n",
                    curl.wallSeconds, requests / curl.wallSeconds, curl.cpuSeconds / requests * 1e6, curl.exitCode,
                    curl.error.isEmpty() ? "" : ": ", qPrintable(curl.error.left(200)));
        std::printf("  engine / curl throughput: %.2f\n", curl.wallSeconds / engine.wallSeconds);
    }
    {
        constexpr int requests = 400;
        constexpr int concurrency = 16;
        constexpr int latencyMs = 200;
        ServerThread server(latencyMs);
        server.start();
        const quint16 port = server.waitForPort();
        const EngineRun engine = runEngine(port, requests, concurrency, server);
        server.quit();
        server.wait();
        const double ideal = double(requests) / concurrency * latencyMs / 1000.0;
        std::printf("Latency-bound scheduling: %d requests, %d ms server latency, concurrency %d\n", requests,
                    latencyMs, concurrency);
        std::printf("  wall %.3f s vs ideal %.3f s (%.1f%% over), %d failed%s%s\n", engine.wallSeconds, ideal,
                    (engine.wallSeconds / ideal - 1.0) * 100.0, engine.failures,
                    engine.firstError.isEmpty() ? "" : ": ", qPrintable(engine.firstError));
    }
    return 0;
}
