#pragma once

#include "RunStore.h"
#include "Verifiers.h"

#include <QString>
#include <QStringList>
#include <variant>

namespace sf {

class ChatClient;

/// Where the suite and skill of a run are found when it is judged again somewhere else (the run folder carried
/// to a GPU machine): run.json's paths unless given, and each checked against run.json's hash.
struct RejudgeOptions
{
    QString suitePath;  ///< "" : run.json's suite, or the skill's own tests when the run used those
    QString skillDir;   ///< "" : run.json's skill folder (its project's kernels/ join the bundled kernel tasks)
    QString judgeModel; ///< "" : the judge the run was made with
    CommandRunner runCommand;
    /// Judges cuda_kernel verifiers; null: a CudaKernelVerifier over the bundled tasks and the skill's project's.
    KernelChecker *kernels = nullptr;
};

/// What a rejudge did: counts, and one line per item whose verdict changed.
struct RejudgeReport
{
    int items = 0;            ///< items with a verifier that could not run where the run was made
    int verifiersRun = 0;     ///< verifiers run again
    int stillUnavailable = 0; ///< of those, the ones that still could not run here
    int newlyPassed = 0;
    int newlyFailed = 0; ///< items that passed before and fail now (a judge that disagrees)
    QStringList changes;
    QStringList stillUnavailableWhy; ///< distinct reasons, for the message
};

/// Runs again, for every item of @p store that has them, only the verifiers that could not run where the run was
/// made ("not available": no GPU for cuda_kernel, no sandbox for command, no judge for llm_judge), against the
/// item's recorded answer and workspace; the others keep their outcomes. Each item so judged gets a new line in
/// results.jsonl that supersedes the old one (the file keeps both). Items that ended in an error are left alone:
/// they have no answer to judge. Blocking; llm_judge calls go through @p chat (may be null when no judge is
/// needed). The report, or an error naming the file (a suite or skill that changed since the run).
std::variant<RejudgeReport, QString> rejudgeRun(RunStore &store, const RejudgeOptions &options, ChatClient *chat);

} // namespace sf
