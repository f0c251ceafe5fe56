#include "SandboxCommand.h"

#include "sandbox/FolderUsage.h"
#include "sandbox/Sandbox.h"

#include <QHash>
#include <memory>
#include <mutex>

namespace sf {

namespace {
constexpr qsizetype kOutputChars = 8000; // what a verifier's evidence or a tool result keeps of a command's output
}

CommandRunner sandboxCommandRunner(qint64 maxWorkspaceGrowthBytes)
{
    // Whether the sandbox works is asked on the first command, not when the runner is made: the probe starts
    // bubblewrap once (about 40 ms), and a run of questions answered in text never needs it.
    struct Shared
    {
        std::once_flag once;
        bool available = false;
        QString why;
        // Each workspace's size before its first command: all of an item's commands together may grow it by
        // the sandbox's limit, not each of them.
        std::mutex sizesMutex;
        QHash<QString, qint64> sizeBeforeFirstCommand;
    };
    auto shared = std::make_shared<Shared>();
    return [shared, maxWorkspaceGrowthBytes](const QString &command, const QString &workspace, int timeoutMs) {
        std::call_once(shared->once, [&shared] { shared->available = sandboxAvailable(&shared->why); });
        if (!shared->available)
            return refusingCommandRunner(QStringLiteral("no sandbox: ") + shared->why)(command, workspace, timeoutMs);
        SandboxSpec spec;
        spec.program = QStringLiteral("sh");
        spec.arguments = {QStringLiteral("-c"), command};
        spec.workspace = workspace;
        {
            const std::lock_guard lock(shared->sizesMutex);
            auto before = shared->sizeBeforeFirstCommand.find(workspace);
            if (before == shared->sizeBeforeFirstCommand.end())
                before = shared->sizeBeforeFirstCommand.insert(workspace, folderDiskBytes(workspace));
            spec.workspaceBytesBefore = before.value();
        }
        spec.limits.timeoutMs = timeoutMs;
        spec.limits.maxOutputBytes = 256 * 1024;
        spec.limits.maxWorkspaceGrowthBytes = maxWorkspaceGrowthBytes;
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
        if (r.workspaceFull)
            output += QStringLiteral("\n[stopped: the workspace grew by more than %1 MiB since the first command]")
                          .arg(spec.limits.maxWorkspaceGrowthBytes >> 20);
        if (output.size() > kOutputChars || r.outputTruncated)
            output = output.left(kOutputChars) + QStringLiteral("\n[output cut]");
        o.output = output;
        return o;
    };
}

} // namespace sf
