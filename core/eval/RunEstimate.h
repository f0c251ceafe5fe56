#pragma once

#include "Executor.h"
#include "TestSuite.h"

namespace sf {

/// What an evaluation will take, said before it runs: how many items, and roughly how long.
struct RunEstimate
{
    int items = 0;           ///< models x arms x every case's repeats
    int casesOwnRepeats = 0; ///< cases whose own `repeats` wins over the run's
    qint64 seconds = 0;      ///< rough wall time; 0 when nothing runs
};

/**
 * Counts the items EvalRunner will run and guesses their wall time. The guess is coarse on purpose
 * (it cannot know how long a model writes or how many tools it calls): the embedded model's pace is
 * the one measured on two CPU cores (prompt and reply tokens per second), scaled by this machine's
 * cores; a remote model is taken to finish an item in about 15 s.
 */
RunEstimate estimateRun(const TestSuite &suite, const EvalConfig &config, int skillTokens);

/// "about 40 s", "about 12 min", "about 2.5 h".
QString roughDuration(qint64 seconds);

} // namespace sf
