// Measures the trace importer and viewer on generated data. Prints figures only; run it by hand (it is not
// a ctest test):
//   QT_QPA_PLATFORM=offscreen ./bench_trace_import [--mb 500] [--steps 1000000] [--repeat 3] [--keep DIR]
// 1. Writes a Claude Code session of --mb megabytes into a temporary folder (never into the repository):
//    prompts, responses written one line per content block with repeated usage, tool calls and results.
// 2. The reference: the fastest plain loop we could write over the same file, a line at a time. The file is
//    read in 4 MiB chunks into one reused buffer (reading it whole into fresh memory was slower: 200 MB of
//    first-touch page faults, 0.22 s against 0.15 s for std::getline), lines are found with memchr and each is
//    parsed in place by simdjson's DOM parser (no copy per line: the bytes simdjson may read past a line's end
//    are the next line's, or the buffer's padding), and each record's "type" is read. Its MB/s is the floor.
// 3. Imports it with importTrace(): MB/s, and peak memory against the file size. Steps 2 and 3 alternate
//    --repeat times and the best of each counts, so that a busy neighbour on a shared machine skews neither.
//    The two are compared by wall time: a large session is parsed on two threads, so the importer's CPU time
//    (printed too, all threads) is more than its wall time. The reference is one thread: its wall time is its
//    CPU time on a quiet machine. --threads 1 imports on one thread, as files under 16 MB are.
// 4. Viewer: a --steps step trace shown in the Trace view's timeline; time to the first painted rows after
//    import, and the time per page while scrolling end to end.
#include "trace/StepDelegate.h"
#include "trace/TraceFilterModel.h"
#include "trace/TraceImport.h"
#include "trace/TraceTextFinder.h"
#include "trace/TraceTimelineModel.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTreeView>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>
#include <simdjson.h>
#include <sys/resource.h>
#include <vector>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

/// Peak resident memory of this process so far, in bytes (ru_maxrss is in KiB on Linux).
qint64 peakRss()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return qint64(usage.ru_maxrss) * 1024;
}

/// CPU seconds of the calling thread, or of the whole process (every thread).
double cpuSeconds(clockid_t clock = CLOCK_THREAD_CPUTIME_ID)
{
    timespec now{};
    clock_gettime(clock, &now);
    return double(now.tv_sec) + double(now.tv_nsec) / 1e9;
}

qint64 currentRss()
{
    QFile status(QStringLiteral("/proc/self/statm"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    return status.readAll().split(' ').value(1).toLongLong() * 4096;
}

QByteArray filler(std::mt19937 &random, int bytes)
{
    static const char words[][10] = {"kernel", "tensor", "bf16",   "warp", "shared", "launch", "grid", "block",
                                     "reduce", "rsqrt",  "stride", "cuda", "flux",   "norm",   "eps",  "weight"};
    QByteArray out;
    out.reserve(bytes + 16);
    while (out.size() < bytes) {
        out += words[random() % 16];
        out += (random() % 9 == 0) ? "\\n" : " ";
    }
    return out;
}

/// Writes a Claude Code session of about @p megabytes; returns the number of lines.
qint64 writeSession(const QString &path, qint64 megabytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    std::mt19937 random(42);
    const qint64 target = megabytes * 1024 * 1024;
    qint64 lines = 0;
    QByteArray parent = "null";
    int n = 0;
    const QByteArray envelope =
        R"("isSidechain":false,"userType":"external","cwd":"/home/dev/flux","sessionId":"bench","version":"2.1.200","gitBranch":"main","timestamp":"2026-03-04T09:14:07.512Z")";
    auto emit = [&](const QByteArray &type, const QByteArray &body, const QByteArray &extra = {}) {
        const QByteArray uuid = "u" + QByteArray::number(++n);
        QByteArray line = "{\"parentUuid\":" + parent + "," + envelope + ",\"type\":\"" + type + "\",\"uuid\":\"" +
                          uuid + "\"" + extra + ",\"message\":" + body + "}\n";
        file.write(line);
        parent = "\"" + uuid + "\"";
        ++lines;
    };
    int response = 0;
    while (file.size() < target) {
        emit("user", "{\"role\":\"user\",\"content\":\"" + filler(random, 300) + "\"}");
        const int calls = 1 + int(random() % 3);
        for (int round = 0; round < 4; ++round) {
            const QByteArray id = "msg_" + QByteArray::number(++response);
            const QByteArray request = ",\"requestId\":\"req_" + QByteArray::number(response) + "\"";
            const QByteArray usage = "{\"input_tokens\":" + QByteArray::number(random() % 50) +
                                     ",\"cache_creation_input_tokens\":800,\"cache_read_input_tokens\":" +
                                     QByteArray::number(20000 + response) +
                                     ",\"cache_creation\":{\"ephemeral_5m_input_tokens\":800,"
                                     "\"ephemeral_1h_input_tokens\":0},\"output_tokens\":";
            auto assistant = [&](const QByteArray &block, int output) {
                emit("assistant",
                     "{\"id\":\"" + id +
                         "\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-opus-4-5\","
                         "\"content\":[" +
                         block + "],\"stop_reason\":null,\"usage\":" + usage + QByteArray::number(output) + "}}",
                     request);
            };
            assistant("{\"type\":\"thinking\",\"thinking\":\"" + filler(random, 400) + "\",\"signature\":\"sig\"}", 10);
            assistant("{\"type\":\"text\",\"text\":\"" + filler(random, 200) + "\"}", 40);
            for (int c = 0; c < calls; ++c) {
                const QByteArray toolId = "toolu_" + QByteArray::number(response) + "_" + QByteArray::number(c);
                assistant("{\"type\":\"tool_use\",\"id\":\"" + toolId +
                              "\",\"name\":\"Bash\",\"input\":{\"command\":\"" + filler(random, 60) + "\"}}",
                          60 + c);
                emit("user", "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"" + toolId +
                                 "\",\"content\":\"" + filler(random, 1500) + "\"}]}");
            }
        }
    }
    return lines;
}

/// Builds a trace of @p steps steps in memory (turns of five steps), for the viewer figures.
std::shared_ptr<const Trace> syntheticTrace(int steps)
{
    auto trace = std::make_shared<Trace>();
    trace->format = QStringLiteral("claude-code");
    TraceThread thread;
    thread.steps.reserve(size_t(steps));
    const TraceText bash = trace->store(u"Bash");
    const TraceText make = trace->store(u"{\"command\":\"make\"}");
    for (int s = 0; s < steps; ++s) {
        if (s % 5 == 0) {
            TraceTurn turn;
            turn.role = QStringLiteral("assistant");
            turn.model = QStringLiteral("claude-opus-4-5");
            turn.firstStep = s;
            turn.usage = TokenUsage{10, 20000, 800, 0, 50, 0};
            thread.turns.push_back(turn);
        }
        TraceStep step;
        step.kind = StepKind(s % StepKindCount);
        step.turn = int(thread.turns.size()) - 1;
        step.text =
            trace->store(QStringLiteral("Step %1: some text of the kind a session holds, long enough to elide").arg(s));
        step.toolName = bash;
        step.input = make;
        thread.turns.back().stepCount++;
        thread.steps.push_back(std::move(step));
    }
    trace->threads.push_back(std::move(thread));
    return trace;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addOption({QStringLiteral("mb"), QStringLiteral("size of the generated session"), QStringLiteral("MB"),
                      QStringLiteral("500")});
    parser.addOption({QStringLiteral("steps"), QStringLiteral("steps in the viewer trace"), QStringLiteral("N"),
                      QStringLiteral("1000000")});
    parser.addOption({QStringLiteral("repeat"), QStringLiteral("runs of the reference and the import, best kept"),
                      QStringLiteral("N"), QStringLiteral("3")});
    parser.addOption({QStringLiteral("threads"), QStringLiteral("1: import on one thread only"), QStringLiteral("N"),
                      QStringLiteral("2")});
    parser.addOption(
        {QStringLiteral("keep"), QStringLiteral("write the session into DIR and keep it"), QStringLiteral("DIR")});
    parser.addHelpOption();
    parser.process(app);

    std::setvbuf(stdout, nullptr, _IOLBF, 0); // figures appear as they are measured
    QTemporaryDir temp;
    const QString dir = parser.isSet(QStringLiteral("keep")) ? parser.value(QStringLiteral("keep")) : temp.path();
    const QString path = dir + QStringLiteral("/bench-session.jsonl");
    QElapsedTimer clock;
    clock.start();
    // A kept session is reused, so that repeated runs measure the same file without writing it again.
    const bool reuse = parser.isSet(QStringLiteral("keep")) && QFileInfo::exists(path);
    const qint64 lines = reuse ? -1 : writeSession(path, parser.value(QStringLiteral("mb")).toLongLong());
    const qint64 bytes = QFileInfo(path).size();
    const double megabytes = double(bytes) / (1024.0 * 1024.0);
    std::printf("session %.1f MB, %lld lines (-1: reused) ready in %.1f s\n", megabytes, qlonglong(lines),
                double(clock.elapsed()) / 1000.0);

    // Reference: the fastest plain line-by-line loop (see 2. above), reading the file as the importer must.
    auto simdjsonPass = [&path]() {
        QElapsedTimer wall;
        wall.start();
        simdjson::dom::parser json;
        std::FILE *file = std::fopen(path.toLocal8Bit().constData(), "rb");
        if (!file)
            qFatal("cannot read the session");
        constexpr size_t Chunk = 4 << 20;
        std::vector<char> buffer(Chunk + simdjson::SIMDJSON_PADDING);
        size_t held = 0; // bytes of an unfinished line carried to the buffer's start
        qint64 parsed = 0, types = 0;
        for (;;) {
            if (buffer.size() < held + Chunk + simdjson::SIMDJSON_PADDING)
                buffer.resize(held + Chunk + simdjson::SIMDJSON_PADDING); // a line longer than a chunk
            const size_t got = std::fread(buffer.data() + held, 1, Chunk, file);
            const size_t size = held + got;
            std::memset(buffer.data() + size, 0, simdjson::SIMDJSON_PADDING);
            const char *at = buffer.data();
            const char *const end = at + size;
            while (at < end) {
                const char *newline = static_cast<const char *>(std::memchr(at, '\n', size_t(end - at)));
                if (!newline && got > 0)
                    break; // the rest of this line comes with the next chunk
                const char *lineEnd = newline ? newline : end;
                simdjson::dom::element element;
                if (lineEnd > at && json.parse(at, size_t(lineEnd - at), false).get(element) == simdjson::SUCCESS) {
                    ++parsed;
                    std::string_view type;
                    if (element["type"].get(type) == simdjson::SUCCESS)
                        ++types;
                }
                at = lineEnd + 1;
            }
            held = at < end ? size_t(end - at) : 0;
            std::memmove(buffer.data(), at, held);
            if (got == 0)
                break;
        }
        std::fclose(file);
        if (parsed == 0 || types == 0)
            qFatal("simdjson read no records");
        return double(wall.nsecsElapsed()) / 1e9;
    };

    // On a shared machine one run can be slowed by a neighbour: the two are run in turns, and each figure
    // is the best of its runs. Peak memory is the first import's (later ones reuse freed memory).
    const int repeats = std::max(1, parser.value(QStringLiteral("repeat")).toInt());
    TraceImportOptions options;
    if (parser.value(QStringLiteral("threads")).toInt() == 1)
        options.twoThreadsFromBytes = -1;
    double referenceSeconds = 1e9, importCpu = 1e9, importSeconds = 1e9;
    qint64 peak = 0, rssBefore = 0;
    Result<Trace> result = Result<Trace>::failure(QString());
    for (int run = 0; run < repeats; ++run) {
        const double reference = simdjsonPass();
        referenceSeconds = std::min(referenceSeconds, reference);
        result = Result<Trace>::failure(QString());
        if (run == 0)
            rssBefore = currentRss();
        clock.restart();
        const double importCpuStart = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
        result = importTrace(path, options);
        const double cpu = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - importCpuStart;
        const double wall = double(clock.nsecsElapsed()) / 1e9;
        importSeconds = std::min(importSeconds, wall);
        importCpu = std::min(importCpu, cpu);
        if (!result) {
            std::printf("import failed: %s\n", qPrintable(result.error));
            return 1;
        }
        if (run == 0)
            peak = peakRss();
        std::printf("run %d: simdjson %.3f s (%.1f MB/s), import %.3f s wall, %.3f s CPU (%.1f MB/s), %.2fx\n", run + 1,
                    reference, megabytes / reference, wall, cpu, megabytes / wall, wall / reference);
    }
    std::printf("simdjson line-by-line, best of %d: %.3f s, %.1f MB/s\n", repeats, referenceSeconds,
                megabytes / referenceSeconds);
    const TraceStats stats = TraceStats::of(*result.value);
    std::printf("importTrace (%s), best of %d: %.3f s wall (%.1f MB/s, %.2fx simdjson's time), %.3f s CPU in all "
                "threads; %lld turns, %lld steps, usage lines deduplicated to %lld\n",
                options.twoThreadsFromBytes < 0 ? "one thread" : "two threads from 16 MB", repeats, importSeconds,
                megabytes / importSeconds, importSeconds / referenceSeconds, importCpu, qlonglong(stats.turns),
                qlonglong(stats.steps), qlonglong(stats.assistantTurnsWithUsage));
    std::printf("peak RSS %.0f MB (%.2fx the file), of which %.0f MB above the RSS before import (%.2fx); "
                "trace held: %.0f MB RSS now\n",
                double(peak) / 1048576.0, double(peak) / double(bytes), double(peak - rssBefore) / 1048576.0,
                double(peak - rssBefore) / double(bytes), double(currentRss()) / 1048576.0);
    // Find in the viewer goes through every step until it matches: a word that is nowhere is the worst case.
    for (const auto &[needle, cs] :
         {std::pair{u"no-such-word"_s, Qt::CaseInsensitive}, std::pair{u"no-such-word"_s, Qt::CaseSensitive},
          std::pair{u"naïve"_s, Qt::CaseInsensitive}}) {
        clock.restart();
        const TraceTextFinder finder(needle, cs);
        qint64 found = 0;
        for (const TraceThread &thread : result.value->threads)
            for (const TraceStep &step : thread.steps)
                found += finder.foundIn(step.text) || finder.foundIn(step.input);
        std::printf("find \"%s\" (%s) through all %lld steps: %.0f ms, %lld found\n", qPrintable(needle),
                    cs == Qt::CaseSensitive ? "case-sensitive" : "case-insensitive", qlonglong(stats.steps),
                    double(clock.nsecsElapsed()) / 1e6, qlonglong(found));
    }
    result = Result<Trace>::failure(QString()); // free the big trace before the viewer figures

    // Viewer: a million steps in the timeline.
    const int steps = parser.value(QStringLiteral("steps")).toInt();
    const std::shared_ptr<const Trace> trace = syntheticTrace(steps);
    TraceTimelineModel model;
    TraceFilterModel filter;
    filter.setSourceModel(&model);
    QTreeView view;
    view.setUniformRowHeights(true);
    view.setItemDelegate(new StepDelegate(&view));
    view.setModel(&filter);
    view.resize(1200, 800);
    view.show();
    QApplication::processEvents();
    clock.restart();
    const double viewerCpuStart = cpuSeconds();
    model.setTrace(trace);
    const double modelMs = double(clock.nsecsElapsed()) / 1e6;
    view.viewport()->repaint();
    const double firstPaintMs = double(clock.nsecsElapsed()) / 1e6;
    const double firstPaintCpuMs = (cpuSeconds() - viewerCpuStart) * 1000.0;
    std::printf("viewer, %d steps: model ready %.0f ms, first rows painted %.0f ms wall (%.0f ms CPU) after import\n",
                steps, modelMs, firstPaintMs, firstPaintCpuMs);

    QScrollBar *bar = view.verticalScrollBar();
    const int pages = 400;
    clock.restart();
    double worst = 0;
    for (int i = 0; i <= pages; ++i) {
        QElapsedTimer one;
        one.start();
        bar->setValue(int(qint64(bar->maximum()) * i / pages));
        view.viewport()->repaint();
        worst = std::max(worst, double(one.nsecsElapsed()) / 1e6);
    }
    const double perPage = double(clock.nsecsElapsed()) / 1e6 / (pages + 1);
    std::printf("scrolling end to end in %d jumps: %.2f ms per jump and repaint on average, worst %.2f ms\n", pages,
                perPage, worst);
    clock.restart();
    filter.setKindVisible(StepKind::Thinking, false);
    std::printf("filtering out one kind over %d steps: %.0f ms\n", steps, double(clock.nsecsElapsed()) / 1e6);
    return 0;
}
