#include "TeachChain.h"

#include "CommandRegistry.h"

#include <QDir>

using namespace Qt::StringLiterals;

namespace sf::cli {

namespace {

int runCommand(const QString &words, const QStringList &arguments)
{
    qsizetype consumed = 0;
    const Command *command = findCommand(words.split(u' '), &consumed);
    return command ? command->run(arguments) : BadUsage;
}

// The arguments eval and refine share: the skill, the teacher, each student under the step's own flag, repeats and
// where the runs go.
QStringList stepArguments(const QString &skillDir, const TeachChain &chain, const QString &studentFlag)
{
    QStringList arguments{skillDir, u"--teacher"_s, chain.teacher};
    for (const QString &student : chain.students)
        arguments << studentFlag << student;
    if (chain.runs > 0)
        arguments << u"--runs"_s << QString::number(chain.runs);
    if (!chain.runsDir.isEmpty())
        arguments << u"--out"_s << chain.runsDir;
    return arguments;
}

} // namespace

int runTeachChain(const QString &skillDir, const TeachChain &chain)
{
    const int steps = chain.refine ? 3 : 2;
    const QStringList evalArguments = stepArguments(skillDir, chain, u"--model"_s);
    err(u"\n== Step 2 of %1: tests and evaluation (skillforge eval %2) ==\n"_s.arg(steps).arg(
        evalArguments.join(u' ')));
    const int evaluated = runCommand(u"eval"_s, evalArguments);
    if (evaluated != Success) {
        err(u"skillforge generate: stopped after step 2, the evaluation (exit %1); the skill is kept in %2, its "
            u"tests in its evals/ and what ran in the run folder above\n"_s.arg(evaluated)
                .arg(QDir::toNativeSeparators(skillDir)));
        return evaluated;
    }
    if (!chain.refine)
        return Success;

    const QStringList refineArguments = stepArguments(skillDir, chain, u"--student"_s);
    err(u"\n== Step 3 of 3: refine (skillforge refine %1) ==\n"_s.arg(refineArguments.join(u' ')));
    const int refined = runCommand(u"refine"_s, refineArguments);
    if (refined != Success)
        err(u"skillforge generate: step 3, refine, ended with exit %1; the skill's versions are kept (.versions/)\n"_s
                .arg(refined));
    return refined;
}

} // namespace sf::cli
