#include "RunEstimate.h"

#include "EvalRunner.h"
#include "RunStore.h"
#include "llm/LocalRuntime.h"
#include "llm/ModelName.h"

#include <QDir>
#include <QThread>
#include <algorithm>
#include <cmath>

namespace sf {

namespace {

// The embedded model on two CPU cores, measured with llama-server: prompt tokens read and reply tokens
// written per second by one request. Four requests at once finished the sample suite's items 2.5 times
// as fast as one after another (batched decoding; the slots keep their prompt prefix), about n^0.65.
constexpr double LocalPromptTokensPerSecond = 80.0;
constexpr double LocalReplyTokensPerSecond = 12.0;
constexpr double LocalParallelExponent = 0.65;
constexpr double MeasuredCores = 2.0;
// A first guess errs long: a student answering a task writes several hundred tokens (two items that were guessed
// at 30 s with 150 took 3:41), and one offered tools calls the model again for each tool it uses.
constexpr int ReplyTokensPerItem = 800;
constexpr double ModelCallsWithTools = 2.5;
constexpr int PromptTokensBesidesSkill = 450; // system prompt, tool definitions, the case
// A remote model's item is mostly one short completion: a few seconds (a run guessed at 5 min took 26 s at 15).
constexpr double RemoteSecondsPerItem = 10.0;

bool isLocal(const QString &model)
{
    const Result<ModelName> name = ModelName::parse(model);
    return name && name.value->provider == QLatin1String("local");
}

/// How many items run at once with @p concurrency, and what that gains over one after another.
double parallelGain(bool local, int concurrency, qsizetype items)
{
    const double together = double(std::max<qsizetype>(1, std::min<qsizetype>(concurrency, items)));
    return local ? std::pow(std::min(together, double(LocalRuntime::slots)), LocalParallelExponent) : together;
}

/// How much longer an item took because @p together items ran at once: the embedded server shares its speed between
/// them, a remote provider does not.
double stretch(bool local, int together)
{
    together = std::clamp(together, 1, LocalRuntime::slots);
    return local ? double(together) / parallelGain(true, together, together) : 1.0;
}

double guessedLocalSeconds(int promptTokens, bool tools)
{
    const double cores = std::max(1.0, QThread::idealThreadCount() / MeasuredCores);
    const double calls = tools ? ModelCallsWithTools : 1.0;
    return calls * (promptTokens / LocalPromptTokensPerSecond / cores + ReplyTokensPerItem / LocalReplyTokensPerSecond);
}

bool offersTools(const EvalConfig &config)
{
    return config.studentTools == ToolOffer::Always || config.mode == QLatin1String("agentic") ||
           config.harness != QLatin1String("builtin");
}

} // namespace

const MeasuredPace::Model *MeasuredPace::of(const QString &model) const
{
    const auto found = models.constFind(model);
    return found == models.cend() || found->items == 0 ? nullptr : &*found;
}

MeasuredPace measuredPace(const QString &runsDir, int maxItemsPerModel)
{
    struct Sum
    {
        double seconds = 0;
        int items = 0;
    };
    QHash<QString, Sum> sums;
    // Run ids begin with their UTC start time: newest first by name.
    const QStringList runs = QDir(runsDir).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name | QDir::Reversed);
    for (const QString &run : runs) {
        const auto opened = RunStore::open(QDir(runsDir).filePath(run), RunStore::Access::ReadOnly);
        const RunStore *store = std::get_if<RunStore>(&opened);
        if (!store)
            continue;
        const int concurrency = EvalConfig::fromJson(store->manifest().parameters).concurrency;
        // The embedded model's items shared the server with as many as ran at once: no more than the run had.
        const auto localItems = std::count_if(store->results().cbegin(), store->results().cend(),
                                              [](const ItemResult &item) { return isLocal(item.key.model); });
        const int together = int(std::min<qsizetype>(concurrency, localItems));
        for (const ItemResult &item : store->results()) {
            if (item.isError() || item.stopReason == StopReason::Cancelled || item.latencyMs <= 0)
                continue;
            Sum &sum = sums[item.key.model];
            if (sum.items >= maxItemsPerModel)
                continue;
            sum.seconds += item.latencyMs / 1000.0 / stretch(isLocal(item.key.model), together);
            ++sum.items;
        }
    }
    MeasuredPace pace;
    for (auto sum = sums.cbegin(); sum != sums.cend(); ++sum)
        pace.models.insert(sum.key(), {sum->seconds / sum->items, sum->items});
    return pace;
}

RunEstimate estimateRun(const TestSuite &suite, const EvalConfig &config, int skillTokens, const MeasuredPace &pace)
{
    RunEstimate estimate;
    const QList<ItemKey> items = EvalRunner::matrix(suite, config);
    estimate.items = int(items.size());
    for (const TestCase &c : suite.cases)
        estimate.casesOwnRepeats += c.repeats > 0 && c.repeats != config.runs ? 1 : 0;
    double localSeconds = 0;
    double remoteSeconds = 0;
    qsizetype localItems = 0;
    qsizetype remoteItems = 0;
    const bool tools = offersTools(config);
    for (const ItemKey &key : items) {
        const bool local = isLocal(key.model);
        double seconds = 0;
        if (const MeasuredPace::Model *measured = pace.of(key.model)) {
            seconds = measured->secondsPerItem;
            if (!estimate.measured.contains(key.model))
                estimate.measured.append(key.model);
        } else {
            const int prompt = PromptTokensBesidesSkill + (key.arm == kWithSkillArm ? skillTokens : 0);
            seconds = local ? guessedLocalSeconds(prompt, tools) : RemoteSecondsPerItem;
            if (!estimate.guessed.contains(key.model))
                estimate.guessed.append(key.model);
        }
        (local ? localSeconds : remoteSeconds) += seconds;
        ++(local ? localItems : remoteItems);
    }
    const int concurrency = std::max(1, config.concurrency);
    localSeconds /= parallelGain(true, concurrency, localItems);
    remoteSeconds /= parallelGain(false, concurrency, remoteItems);
    estimate.seconds = qint64(std::ceil(std::max(localSeconds, remoteSeconds)));
    return estimate;
}

qint64 remainingSeconds(qint64 elapsedMs, int finished, int left, qint64 estimatedSeconds)
{
    if (left <= 0)
        return 0;
    if (finished > 0)
        return qint64(std::ceil(double(elapsedMs) / 1000.0 * left / finished));
    // Past the guess with nothing finished: the guess says nothing any more.
    if (estimatedSeconds < 0 || elapsedMs / 1000 >= estimatedSeconds)
        return -1;
    return estimatedSeconds - elapsedMs / 1000;
}

QString roughDuration(qint64 seconds)
{
    if (seconds < 90)
        return QStringLiteral("about %1 s").arg(std::max<qint64>(10, (seconds + 5) / 10 * 10));
    if (seconds < 90 * 60)
        return QStringLiteral("about %1 min").arg((seconds + 30) / 60);
    return QStringLiteral("about %1 h").arg(QString::number(seconds / 3600.0, 'f', 1));
}

} // namespace sf
