#include "SandboxCommand.h"

#include "sandbox/Sandbox.h"

#include <memory>
#include <mutex>

namespace sf {

namespace {
constexpr qsizetype kOutputChars = 8000; // what a verifier's evidence or a tool result keeps of a command's output
}

CommandRunner sandboxCommandRunner()
{
    // Whether the sandbox works is asked on the first command, not when the runner is made: the probe starts
    // bubblewrap once (about 40 ms), and a run of questions answered in text never needs it.
    struct Probe
    {
        std::once_flag once;
        bool available = false;
        QString why;
    };
    auto probe = std::make_shared<Probe>();
    return [probe](const QString &command, const QString &workspace, int timeoutMs) {
        std::call_once(probe->once, [&probe] { probe->available = sandboxAvailable(&probe->why); });
        if (!probe->available)
            return refusingCommandRunner(QStringLiteral("no sandbox: ") + probe->why)(command, workspace, timeoutMs);
        SandboxSpec spec;
        spec.program = QStringLiteral("sh");
        spec.arguments = {QStringLiteral("-c"), command};
        spec.workspace = workspace;
        spec.limits.timeoutMs = timeoutMs;
        spec.limits.maxOutputBytes = 256 * 1024;
        const SandboxResult r = runSandboxed(spec);
        CommandOutcome o;
        o.ran = r.error.isEmpty();
        o.error = r.error;
        o.exitCode = r.exitCode;
        o.timedOut = r.timedOut;
        o.outOfMemory = r.outOfMemory;
        o.wallMs = r.wallMs;
        QString output = QString::fromUtf8(r.stdOut);
        if (!r.stdErr.isEmpty())
            output += (output.isEmpty() || output.endsWith(u'\n') ? QString() : QStringLiteral("\n")) +
                      QString::fromUtf8(r.stdErr);
        if (r.tooManyProcesses)
            output += QStringLiteral("\n[stopped: too many processes]");
        if (output.size() > kOutputChars || r.outputTruncated)
            output = output.left(kOutputChars) + QStringLiteral("\n[output cut]");
        o.output = output;
        return o;
    };
}

} // namespace sf
