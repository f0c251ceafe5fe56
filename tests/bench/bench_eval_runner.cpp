// Runner overhead: items per second against a scripted provider that answers at once (concurrency 64), and
// wall time against the ideal for 400 items that each wait 200 ms, at concurrency 16 and 64. The provider runs on
// its own thread so that its work is not counted as the runner's. Everything real: HTTP over loopback, the run
// store's flushed appends and transcripts on disk, and the built-in provider as a user gets it (its default
// limit of 8 requests at once is not what a run asking for more is held to).
#include "ScriptedHttpServer.h"
#include "eval/EvalRunner.h"
#include "eval/LocalExecutor.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/ProviderRegistry.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <cmath>
#include <cstdio>

using namespace sf;
using namespace sf::test;

namespace {

ScriptedResponse answer(int delayMs)
{
    ScriptedResponse r = ScriptedResponse::json(
        200,
        R"({"id":"c","object":"chat.completion","model":"bench","choices":[{"index":0,"message":{"role":"assistant",
        "content":"USE-RMSNORM-EPS"},"finish_reason":"stop"}],"usage":{"prompt_tokens":40,"completion_tokens":8}})");
    r.delayMs = delayMs;
    return r;
}

TestSuite suiteOf(int cases)
{
    QJsonArray list;
    for (int i = 0; i < cases; ++i)
        list.append(QJsonObject{
            {QStringLiteral("id"), QStringLiteral("c%1").arg(i)},
            {QStringLiteral("input"), QStringLiteral("Normalize tensor %1").arg(i)},
            {QStringLiteral("expected"), QJsonObject{{QStringLiteral("contains"), QStringLiteral("EPS")}}}});
    return std::get<TestSuite>(parseTestSuite(QJsonDocument(list).toJson(), QStringLiteral("bench.json")));
}

// Runs cases x runs x 2 arms and returns the wall time in milliseconds.
qint64 runMatrix(ChatClient &chat, const AgentSetup &setup, const TestSuite &suite, const QString &runsDir)
{
    RunStore store = std::get<RunStore>(RunStore::create(runsDir, {}));
    LocalExecutor executor(chat, setup);
    EvalRunner runner(executor, store, suite, setup.config);
    QEventLoop loop;
    QObject::connect(&runner, &EvalRunner::finished, &loop, &QEventLoop::quit);
    QElapsedTimer clock;
    clock.start();
    runner.start();
    loop.exec();
    const qint64 ms = clock.elapsed();
    if (store.results().size() != runner.total())
        std::fprintf(stderr, "warning: %lld of %d items recorded\n", qlonglong(store.results().size()), runner.total());
    return ms;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QTemporaryDir dir;

    QThread serverThread;
    serverThread.start();
    QObject inServerThread;
    inServerThread.moveToThread(&serverThread);
    ScriptedHttpServer *server = nullptr;
    QMetaObject::invokeMethod(
        &inServerThread,
        [&] {
            server = new ScriptedHttpServer;
            server->listen();
        },
        Qt::BlockingQueuedConnection);
    auto setDelay = [&](int delayMs) {
        QMetaObject::invokeMethod(
            &inServerThread, [&, delayMs] { server->route("POST", "/v1/chat/completions", answer(delayMs)); },
            Qt::BlockingQueuedConnection);
    };
    qputenv("GENERIC_BASE_URL", server->baseUrl().toEncoded() + "/v1");

    HttpEngine engine;
    ProviderRegistry providers;
    ChatClient chat(engine, providers, nullptr);

    QFile skill(dir.filePath(QStringLiteral("skill/SKILL.md")));
    QDir().mkpath(dir.filePath(QStringLiteral("skill")));
    skill.open(QIODevice::WriteOnly);
    skill.write("---\nname: bench\ndescription: Bench skill.\n---\nAnswer with USE-RMSNORM-EPS.\n");
    skill.close();
    AgentSetup setup;
    setup.skill = std::get<SkillUnderTest>(loadSkillUnderTest(dir.filePath(QStringLiteral("skill"))));
    setup.config.models = {QStringLiteral("generic:bench")};
    setup.config.studentTools = sf::ToolOffer::Never;
    setup.runCommand = refusingCommandRunner(QStringLiteral("bench"));

    // 1. Zero latency, concurrency 64: 100 cases x 10 repeats x 2 arms = 2000 items.
    setDelay(0);
    setup.config.concurrency = 64;
    setup.config.runs = 10;
    const TestSuite hundred = suiteOf(100);
    runMatrix(chat, setup, suiteOf(8), dir.filePath(QStringLiteral("warmup")));
    const qint64 fastMs = runMatrix(chat, setup, hundred, dir.filePath(QStringLiteral("fast")));
    std::printf("zero latency, concurrency 64: 2000 items in %lld ms = %.0f items/s (%.2f ms per item)\n",
                qlonglong(fastMs), 2000.0 * 1000.0 / double(fastMs), double(fastMs) / 2000.0);

    // 2. 200 ms latency: 100 cases x 2 repeats x 2 arms = 400 items. The ideal is ceil(400 / C) waves of 200 ms: 5 s at
    // 16, 1.4 s at 64 (400 / 64 = 6.25 waves; no schedule does better than 7).
    setDelay(200);
    setup.config.runs = 2;
    for (const int concurrency : {16, 64}) {
        setup.config.concurrency = concurrency;
        const qint64 ms = runMatrix(chat, setup, hundred, dir.filePath(QStringLiteral("slow-%1").arg(concurrency)));
        const double ideal = std::ceil(400.0 / concurrency) * 200.0;
        std::printf("200 ms latency, concurrency %d: 400 items in %lld ms, ideal %.0f ms (%.2fx)\n", concurrency,
                    qlonglong(ms), ideal, double(ms) / ideal);
    }

    QMetaObject::invokeMethod(
        &inServerThread, [&] { delete server; }, Qt::BlockingQueuedConnection);
    serverThread.quit();
    serverThread.wait();
    return 0;
}
