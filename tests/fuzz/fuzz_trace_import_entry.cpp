#include "FuzzTraceImport.h"
#include "trace/TraceImport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <cstdio>
#include <cstdlib>

namespace sf::fuzz {

namespace {

void require(bool condition, const char *property, const QString &format)
{
    if (!condition) {
        std::fprintf(stderr, "fuzzTraceImport(%s): property violated: %s\n", qUtf8Printable(format), property);
        std::abort();
    }
}

void checkTrace(const Trace &trace, const QString &format)
{
    const int threads = int(trace.threads.size());
    require(threads >= 1, "an imported trace has a thread", format);
    require(trace.skippedCount >= qint64(trace.skipped.size()), "skippedCount counts the listed ones", format);
    for (int t = 0; t < threads; ++t) {
        const TraceThread &thread = trace.threads[size_t(t)];
        const int steps = int(thread.steps.size());
        const int turns = int(thread.turns.size());
        require(thread.parentThread < threads, "parent thread exists", format);
        if (thread.parentStep >= 0) {
            require(thread.parentThread >= 0, "a parent step has a parent thread", format);
            const TraceThread &parent = trace.threads[size_t(thread.parentThread)];
            require(thread.parentStep < int(parent.steps.size()), "parent step exists", format);
            require(parent.steps[size_t(thread.parentStep)].childThread == t, "parent call points back", format);
        }
        int next = 0;
        for (int u = 0; u < turns; ++u) {
            const TraceTurn &turn = thread.turns[size_t(u)];
            require(turn.firstStep == next && turn.stepCount >= 0, "turns cover the steps in order", format);
            next += turn.stepCount;
        }
        require(next == steps, "turns cover every step", format);
        for (int s = 0; s < steps; ++s) {
            const TraceStep &step = thread.steps[size_t(s)];
            require(step.turn >= 0 && step.turn < turns, "a step's turn exists", format);
            const TraceTurn &turn = thread.turns[size_t(step.turn)];
            require(s >= turn.firstStep && s < turn.firstStep + turn.stepCount, "a step lies in its turn", format);
            if (step.paired >= 0) {
                require(step.paired < steps, "pair exists", format);
                const TraceStep &other = thread.steps[size_t(step.paired)];
                require(other.toolId == step.toolId && other.kind != step.kind, "pairs join a call and a result",
                        format);
            }
            if (step.childThread >= 0) {
                require(step.childThread > 0 && step.childThread < threads, "child thread exists", format);
                require(trace.threads[size_t(step.childThread)].parentStep == s, "child points back", format);
            }
        }
    }
}

} // namespace

int fuzzTraceImport(const QString &format, const std::uint8_t *data, std::size_t size)
{
    // Importers read files (libzip needs one), so each input is written to a scratch file, in a folder of
    // this process's own that goes when the process ends.
    static const QTemporaryDir scratch(QDir::temp().filePath(QStringLiteral("skillforge-fuzz-trace-XXXXXX")));
    static const QString path = scratch.filePath(QStringLiteral("input"));
    {
        QFile file(path);
        require(file.open(QIODevice::WriteOnly | QIODevice::Truncate), "scratch file writable", format);
        file.write(reinterpret_cast<const char *>(data), qint64(size));
    }
    TraceImportOptions options;
    options.format = format;
    const Result<Trace> result = importTrace(path, options);
    if (result)
        checkTrace(*result.value, format);
    else
        require(!result.error.isEmpty(), "a failed import says why", format);
    return 0;
}

} // namespace sf::fuzz
