// A chat-completions server for benchmarks run from outside (bench_cli_concurrency.py): every request is
// answered after DELAY_MS, many at once, by the test suite's scripted HTTP server (no Python interpreter to
// share the two cores with the command being measured). Prints its base URL, then serves until killed.
//
//     bench_slow_provider DELAY_MS
#include "ScriptedHttpServer.h"

#include <QCoreApplication>
#include <cstdio>

using namespace sf::test;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const int delayMs = argc > 1 ? std::atoi(argv[1]) : 200;
    ScriptedHttpServer server;
    ScriptedResponse answer = ScriptedResponse::json(
        200,
        R"({"id":"c","object":"chat.completion","model":"bench","choices":[{"index":0,"message":{"role":"assistant",
        "content":"USE-RMSNORM-EPS"},"finish_reason":"stop"}],"usage":{"prompt_tokens":40,"completion_tokens":8}})");
    answer.delayMs = delayMs;
    server.route("POST", "/v1/chat/completions", answer);
    if (!server.listen()) {
        std::fprintf(stderr, "bench_slow_provider: cannot listen\n");
        return 1;
    }
    std::printf("%s/v1\n", server.baseUrl().toEncoded().constData());
    std::fflush(stdout);
    return app.exec();
}
