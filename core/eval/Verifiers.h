#pragma once

#include "TestSuite.h"
#include "VerifierOutcome.h"
#include "llm/ChatTypes.h"

#include <QString>
#include <functional>
#include <optional>

namespace sf {

/// A shell command run in the student's workspace, contained: how it ended and what it printed.
struct CommandOutcome
{
    bool ran = false; ///< false: it could not be started (no sandbox); `error` says why
    int exitCode = -1;
    bool timedOut = false;
    bool outOfMemory = false;
    QString output; ///< stdout then stderr, already cut to a readable length
    QString error;
    qint64 wallMs = 0;
    QString jobError; ///< the job that was to run it failed on its node (core/cluster): the item is an error
};

/// Runs `command` with `workspace` as its only writable folder, for at most `timeoutMs`. Blocking: called on
/// worker threads. The runner passes the sandbox; without one, commands are refused, never run on the host.
using CommandRunner = std::function<CommandOutcome(const QString &command, const QString &workspace, int timeoutMs)>;

/// A command runner that refuses everything, naming @p why (used when no sandbox is available).
CommandRunner refusingCommandRunner(const QString &why);

/// Judges a student's CUDA kernel (core/kernels). Until a checker is wired in, cuda_kernel verifiers report
/// "not available" and fail.
class KernelChecker
{
public:
    virtual ~KernelChecker() = default;
    /// Blocking; @p sourcePath is inside the workspace.
    virtual VerifierOutcome check(const VerifierSpec &spec, const QString &workspace, const QString &sourcePath) = 0;
};

/// Everything the non-judge verifiers look at.
struct VerifyContext
{
    QString answer;    ///< the student's final text
    QString workspace; ///< its workspace folder
    CommandRunner runCommand;
    KernelChecker *kernels = nullptr;
};

/// Runs one verifier other than llm_judge (which needs a model call: see judgeRequest()). Blocking.
VerifierOutcome runVerifier(const VerifierSpec &spec, const VerifyContext &context);

/// The request sent to the judge model for an llm_judge verifier.
ChatRequest judgeRequest(const VerifierSpec &spec, const TestCase &testCase, const QString &answer);
/// Reads the judge's reply ("SCORE: n" on a line of its own, reasoning before it); a reply without a score
/// fails with that as evidence.
VerifierOutcome judgeOutcome(const VerifierSpec &spec, const QString &judgeModel, const QString &reply);

/// The absolute path of @p relative inside @p workspace, or "" when it would leave the workspace (through
/// "..", an absolute path or a symbolic link).
QString pathInWorkspace(const QString &workspace, const QString &relative);

} // namespace sf
