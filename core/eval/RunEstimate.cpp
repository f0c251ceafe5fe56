#include "RunEstimate.h"

#include "EvalRunner.h"
#include "llm/LocalRuntime.h"
#include "llm/ModelName.h"

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
constexpr int ReplyTokensPerItem = 150;
constexpr int PromptTokensBesidesSkill = 450; // system prompt, tool definitions, the case
constexpr double RemoteSecondsPerItem = 15.0;

double localSecondsPerItem(int promptTokens)
{
    const double cores = std::max(1.0, QThread::idealThreadCount() / MeasuredCores);
    return (promptTokens / LocalPromptTokensPerSecond + ReplyTokensPerItem / LocalReplyTokensPerSecond) / cores;
}

} // namespace

RunEstimate estimateRun(const TestSuite &suite, const EvalConfig &config, int skillTokens)
{
    RunEstimate estimate;
    const QList<ItemKey> items = EvalRunner::matrix(suite, config);
    estimate.items = int(items.size());
    for (const TestCase &c : suite.cases)
        estimate.casesOwnRepeats += c.repeats > 0 && c.repeats != config.runs ? 1 : 0;
    double localSeconds = 0;
    double remoteSeconds = 0;
    for (const ItemKey &key : items) {
        const Result<ModelName> name = ModelName::parse(key.model);
        const int prompt = PromptTokensBesidesSkill + (key.arm == kWithSkillArm ? skillTokens : 0);
        if (name && name.value->provider == QLatin1String("local"))
            localSeconds += localSecondsPerItem(prompt);
        else
            remoteSeconds += RemoteSecondsPerItem;
    }
    const int concurrency = std::max(1, config.concurrency);
    localSeconds /= std::pow(std::min(concurrency, LocalRuntime::slots), LocalParallelExponent);
    remoteSeconds /= concurrency;
    estimate.seconds = qint64(std::ceil(std::max(localSeconds, remoteSeconds)));
    return estimate;
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
