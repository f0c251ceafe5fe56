#pragma once

#include <QString>
#include <QStringList>

namespace sf::cli {

/// What `generate --eval [--refine]` goes on to do with the skill it wrote.
struct TeachChain
{
    bool evaluate = false;
    bool refine = false;
    QString teacher;
    QStringList students;
    QString runsDir; ///< where the runs go; "" for eval's own default
    int runs = 0;    ///< repeats per case; 0 for eval's own default
};

/// upskill's generate chain in one command: after `generate` wrote @p skillDir, its tests (written by the teacher
/// into the skill's evals/ when it has none), the evaluation of every student with and without it, and with
/// refine the teacher's improvement loop, each step under its own heading and with its own output kept (the skill's
/// versions, the run folders). Stops at the first step that fails, saying which and what was kept. The exit code of
/// the last step run.
int runTeachChain(const QString &skillDir, const TeachChain &chain);

} // namespace sf::cli
