#pragma once

#include "Executor.h"
#include "TestSuite.h"

#include <QHash>

namespace sf {

/// How fast each model went in earlier runs: the seconds one item takes when it runs alone.
struct MeasuredPace
{
    struct Model
    {
        double secondsPerItem = 0; ///< an item's wall time with nothing beside it on the same server
        int items = 0;             ///< how many finished items that comes from
    };
    QHash<QString, Model> models; ///< by PROVIDER:MODEL as runs name it

    const Model *of(const QString &model) const;
};

/// Reads the finished items of the newest runs in @p runsDir (a run still being written counts with the items it has
/// so far), at most @p maxItemsPerModel per model, newest first. Items that ended in an error or were cancelled say
/// nothing of a model's pace and are left out; so are runs that cannot be read.
MeasuredPace measuredPace(const QString &runsDir, int maxItemsPerModel = 200);

/// What an evaluation will take, said before it runs: how many items, and roughly how long.
struct RunEstimate
{
    int items = 0;           ///< models x arms x every case's repeats
    int casesOwnRepeats = 0; ///< cases whose own `repeats` wins over the run's
    qint64 seconds = 0;      ///< rough wall time; 0 when nothing runs
    QStringList measured;    ///< models whose time comes from earlier runs
    QStringList guessed;     ///< models never run before: their time is a conservative first guess
};

/**
 * Counts the items EvalRunner will run and estimates their wall time. A model that ran before is taken at the
 * pace its earlier items went (@p pace, from measuredPace()); one that never ran gets a deliberately conservative
 * guess: for the embedded model, its prompt and reply tokens at the speed measured for it on two CPU cores (prompt
 * reading scales with this machine's cores, writing the reply does not: it is bound by memory), with replies of
 * several hundred tokens and more model calls where tools are offered; for a remote model, 10 s an item. Items run
 * side by side up to the concurrency: remote ones fully, the embedded server's (at most its slots) with the gain
 * batched decoding gives.
 */
RunEstimate estimateRun(const TestSuite &suite, const EvalConfig &config, int skillTokens,
                        const MeasuredPace &pace = {});

/// While a run goes: the seconds left at the pace of the items this session finished so far (@p finished of them in
/// @p elapsedMs, @p left still to run); before the first one, the estimate made before the run (@p estimatedSeconds,
/// less the time spent). -1 when neither says anything.
qint64 remainingSeconds(qint64 elapsedMs, int finished, int left, qint64 estimatedSeconds = -1);

/// "about 40 s", "about 12 min", "about 2.5 h".
QString roughDuration(qint64 seconds);

} // namespace sf
