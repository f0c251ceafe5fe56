#include "CommandRegistry.h"
#include "ExecutorOptions.h"
#include "cluster/JobVerifiers.h"
#include "kernels/KernelCheck.h"
#include "kernels/KernelTask.h"

#include <QCommandLineParser>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace sf::cli {

namespace {

QString dimsText(const KernelTask &task, const KernelShape &shape)
{
    QStringList parts;
    for (size_t i = 0; i < shape.dims.size(); ++i)
        parts << QStringLiteral("%1=%2").arg(QString::fromStdString(task.op->dims[i])).arg(shape.dims[i]);
    return parts.join(u' ');
}

QStringList dtypeNames(const KernelTask &task)
{
    QStringList names;
    for (kernels::DType d : task.dtypes)
        names << QString::fromLatin1(kernels::dtypeName(d));
    return names;
}

int runTasks(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption({QStringLiteral("project"), QString(), QStringLiteral("DIR")});
    parser.addOption(QCommandLineOption(QStringLiteral("json")));
    if (!parseArguments(parser, QStringLiteral("kernel tasks"), arguments))
        return BadUsage;
    QString kernelsFolder;
    if (parser.isSet(QStringLiteral("project")))
        kernelsFolder = parser.value(QStringLiteral("project")) + QStringLiteral("/kernels");

    QList<LoadError> errors;
    const QList<KernelTask> tasks = KernelTaskLoader::loadAll(kernelsFolder, &errors);
    bool broken = !errors.isEmpty();
    QJsonArray list;
    QString text;
    for (const KernelTask &task : tasks) {
        const QStringList problems = KernelTaskLoader::nullCandidateProblems(task);
        broken = broken || !problems.isEmpty();
        QJsonArray shapes;
        for (const KernelShape &shape : task.shapes) {
            QJsonObject dims;
            for (size_t i = 0; i < shape.dims.size(); ++i)
                dims.insert(QString::fromStdString(task.op->dims[i]), qint64(shape.dims[i]));
            shapes.append(QJsonObject{{QStringLiteral("name"), shape.name},
                                      {QStringLiteral("dims"), dims},
                                      {QStringLiteral("bytes_bf16"), task.bytes(shape, kernels::DType::BF16)},
                                      {QStringLiteral("flops"), task.flops(shape)}});
        }
        list.append(QJsonObject{{QStringLiteral("id"), task.id},
                                {QStringLiteral("title"), task.title},
                                {QStringLiteral("op"), QString::fromStdString(task.op->name)},
                                {QStringLiteral("bundled"), task.bundled},
                                {QStringLiteral("dtypes"), QJsonArray::fromStringList(dtypeNames(task))},
                                {QStringLiteral("signature"), task.signature(task.dtypes.first())},
                                {QStringLiteral("shapes"), shapes},
                                {QStringLiteral("null_candidate_problems"), QJsonArray::fromStringList(problems)}});
        text += QStringLiteral("%1  %2 [%3] — %4 shapes, null candidates %5\n    %6;\n")
                    .arg(task.id, task.title, dtypeNames(task).join(u','))
                    .arg(task.shapes.size())
                    .arg(problems.isEmpty() ? QStringLiteral("rejected") : QStringLiteral("PASS (task is broken)"),
                         task.signature(task.dtypes.first()));
        for (const KernelShape &shape : task.shapes)
            text += QStringLiteral("    %1: %2\n").arg(shape.name, dimsText(task, shape));
        for (const QString &problem : problems)
            text += QStringLiteral("    problem: %1\n").arg(problem);
    }
    QJsonArray errorList;
    for (const LoadError &e : errors) {
        errorList.append(e.toString());
        err(e.toString() + u'\n');
    }
    if (parser.isSet(QStringLiteral("json")))
        out(QString::fromUtf8(
            QJsonDocument(QJsonObject{{QStringLiteral("tasks"), list}, {QStringLiteral("errors"), errorList}})
                .toJson(QJsonDocument::Indented)));
    else
        out(text);
    return broken ? CheckFailed : Success;
}

int runCheck(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("task"), QString());
    parser.addOption({QStringLiteral("candidate"), QString(), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("dtype"), QString(), QStringLiteral("D"), QStringLiteral("bf16")});
    parser.addOption({QStringLiteral("project"), QString(), QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("arch"), QString(), QStringLiteral("SM")});
    parser.addOption(QCommandLineOption(QStringLiteral("no-timing")));
    parser.addOption(QCommandLineOption(QStringLiteral("json")));
    addExecutorOptions(parser);
    if (!parseArguments(parser, QStringLiteral("kernel check"), arguments))
        return BadUsage;
    if (parser.positionalArguments().size() != 1 || !parser.isSet(QStringLiteral("candidate"))) {
        err(QStringLiteral("skillforge kernel check: needs a TASK and --candidate FILE.cu (see --help)\n"));
        return BadUsage;
    }
    const QString candidatePath = parser.value(QStringLiteral("candidate"));
    QFile candidate(candidatePath);
    if (!candidate.open(QIODevice::ReadOnly)) {
        err(QStringLiteral("skillforge kernel check: cannot read %1: %2\n")
                .arg(candidatePath, candidate.errorString()));
        return BadUsage;
    }
    KernelCheckRequest request;
    request.taskId = parser.positionalArguments().constFirst();
    request.dtype = parser.value(QStringLiteral("dtype"));
    request.source = QString::fromUtf8(candidate.readAll());
    request.candidateName = QFileInfo(candidatePath).fileName();
    request.arch = parser.value(QStringLiteral("arch"));
    request.timing = !parser.isSet(QStringLiteral("no-timing"));
    if (parser.isSet(QStringLiteral("project")))
        request.projectKernelsFolder = parser.value(QStringLiteral("project")) + QStringLiteral("/kernels");

    // Unknown tasks and dtypes are bad input, not a failed kernel.
    LoadError error;
    const auto task = KernelTaskLoader::find(request.taskId, request.projectKernelsFolder, &error);
    if (!task) {
        err(QStringLiteral("skillforge kernel check: %1\n").arg(error.toString()));
        return BadUsage;
    }
    kernels::DType dtype;
    if (!kernels::parseDType(request.dtype.toStdString(), &dtype) || !task->supports(dtype)) {
        err(QStringLiteral("skillforge kernel check: task %1 has no dtype '%2' (it has %3)\n")
                .arg(task->id, request.dtype, dtypeNames(*task).join(QStringLiteral(", "))));
        return BadUsage;
    }

    auto runner = jobRunnerFromOptions(parser, true);
    if (const QString *e = std::get_if<QString>(&runner)) {
        err(QStringLiteral("skillforge kernel check: %1\n").arg(*e));
        return BadUsage;
    }
    KernelVerdict verdict;
    if (const auto &jobs = std::get<std::shared_ptr<JobRunner>>(runner)) {
        // The same request as a job: built and run on a node, the verdict back through the shared folder.
        const ClusterJobResult r =
            jobs->run(kernelCheckJob(request.taskId, request.dtype, request.source, request.candidateName,
                                     request.projectKernelsFolder, request.arch, request.timing));
        waitIfInterrupted();
        if (!r.ok()) {
            err(QStringLiteral("skillforge kernel check: the job failed: %1\n").arg(r.error));
            return CheckFailed;
        }
        verdict = KernelVerdict::fromJson(r.output);
    } else {
        verdict = KernelCheck::run(request);
    }
    if (parser.isSet(QStringLiteral("json")))
        out(QString::fromUtf8(QJsonDocument(verdict.toJson()).toJson(QJsonDocument::Indented)));
    else
        out(verdict.evidence() + u'\n');
    if (verdict.passed())
        return Success;
    // Compiled but not run (no CUDA device here): neither a pass nor a failure.
    return verdict.notRun() ? Unfinished : CheckFailed;
}

} // namespace

Command kernelTasksCommand()
{
    Command command;
    command.words = {QStringLiteral("kernel"), QStringLiteral("tasks")};
    command.summary = QStringLiteral("list the CUDA kernel tasks and check each against null candidates");
    command.help = QStringLiteral(
        "Usage: skillforge kernel tasks [--project DIR] [--json]\n\n"
        "Lists the bundled kernel tasks and those in the project's kernels/ folder: entry point, dtypes\n"
        "and shapes. Each task is checked against null candidates (writes nothing, zeros, a copy of the\n"
        "input, constants, another input's output): a task any of them passes cannot tell a kernel that\n"
        "does nothing from a correct one, and is reported as broken.\n\n"
        "  --project DIR  also read DIR/kernels/<task>/task.json\n"
        "  --json         print the tasks as JSON\n\n"
        "Exit codes: 0 all tasks load and reject every null candidate, 1 a task is broken or does not\n"
        "load, 2 bad usage.\n");
    command.run = runTasks;
    return command;
}

Command kernelCheckCommand()
{
    Command command;
    command.words = {QStringLiteral("kernel"), QStringLiteral("check")};
    command.summary = QStringLiteral("build a CUDA kernel and run it against a task's reference");
    command.help =
        QStringLiteral(
            "Usage: skillforge kernel check TASK --candidate FILE.cu [--dtype bf16|fp16|fp32] [--project DIR]\n"
            "                               [--arch sm_XY] [--no-timing] [--json]\n"
            "                               [--executor local|slurm [--partition P] [--gres gpu:N] ...]\n\n"
            "Builds FILE.cu with nvcc (flags owned by Skillforge; arch from the GPU, else sm_90), rejects\n"
            "libraries that create streams or threads, reset the device, change limits or load libraries,\n"
            "and, where a CUDA device is present, runs it in the sandboxed kernel runner: every shape, five\n"
            "seeds, float64 reference, then timing against the task's baseline. Without a GPU the verdict\n"
            "is \"compiled, not run\" with the build facts.\n\n"
            "  --dtype D      element type (default bf16)\n"
            "  --project DIR  also read DIR/kernels/<task>/task.json\n"
            "  --arch SM      build for this architecture instead of the detected one\n"
            "  --no-timing    check correctness only\n"
            "  --json         print the verdict as JSON\n") +
        executorOptionsHelp() +
        QStringLiteral("\nExit codes: 0 passed, 1 failed (build error, rejected import, wrong result, crash, hang),\n"
                       "2 bad usage or unknown task/dtype, 3 compiled but not run (no CUDA device; never a pass).\n");
    command.run = runCheck;
    return command;
}

} // namespace sf::cli
