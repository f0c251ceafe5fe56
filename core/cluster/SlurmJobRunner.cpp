#include "SlurmJobRunner.h"

#include "SlurmText.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <chrono>
#include <future>

namespace sf {

namespace {
constexpr int kToolTimeoutMs = 60000;
constexpr int kGracePolls = 5; // polls a finished job may take to show its result file (a shared filesystem lags)

QString lastLines(const QString &path, int lines)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QStringList all = QString::fromUtf8(file.readAll()).trimmed().split(u'\n', Qt::SkipEmptyParts);
    return all.mid(std::max<qsizetype>(0, all.size() - lines)).join(QStringLiteral(" / "));
}
} // namespace

struct SlurmJobRunner::Waiter
{
    ClusterJob job;
    std::promise<ClusterJobResult> promise;
    QString arrayId; ///< the array's job id once submitted
    QString taskId;  ///< "arrayId_index"
    QString logPath;
    int index = 0;
    int unknownPolls = 0;
    int finishedPolls = 0;
    bool done = false;
};

SlurmJobRunner::SlurmJobRunner(SlurmOptions options)
    : m_options(std::move(options))
{
    if (m_options.program.isEmpty())
        m_options.program = QCoreApplication::applicationFilePath();
    if (m_options.sharedDir.isEmpty())
        m_options.sharedDir =
            QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/cluster");
    m_options.pollMs = std::max(250, m_options.pollMs);
    m_thread = std::thread([this] { loop(); });
}

SlurmJobRunner::~SlurmJobRunner()
{
    cancelAll();
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

ClusterJobResult SlurmJobRunner::run(const ClusterJob &job)
{
    auto waiter = std::make_shared<Waiter>();
    waiter->job = job;
    std::future<ClusterJobResult> result = waiter->promise.get_future();
    {
        std::lock_guard lock(m_mutex);
        if (m_stopping)
            return {QStringLiteral("cancelled"), {}, {}};
        m_pending.push_back(waiter);
    }
    m_wake.notify_all();
    return result.get();
}

void SlurmJobRunner::finishWaiter(const std::shared_ptr<Waiter> &waiter, ClusterJobResult result)
{
    if (waiter->done)
        return;
    waiter->done = true;
    if (result.where.isEmpty())
        result.where = waiter->taskId;
    waiter->promise.set_value(std::move(result));
}

void SlurmJobRunner::cancelAll()
{
    QStringList ids;
    {
        std::lock_guard lock(m_mutex);
        for (const auto &w : m_pending)
            finishWaiter(w, {QStringLiteral("cancelled"), {}, {}});
        m_pending.clear();
        for (const auto &w : m_active) {
            if (!ids.contains(w->arrayId))
                ids << w->arrayId;
            finishWaiter(w, {QStringLiteral("cancelled (scancel %1)").arg(w->taskId), {}, {}});
        }
        m_active.clear();
    }
    if (!ids.isEmpty()) {
        tool(QStringLiteral("scancel"), ids);
        {
            // The tasks it ended show as cancelled at once; the next poll (if any) says what Slurm made of them.
            std::lock_guard lock(m_mutex);
            for (auto &[id, state] : m_states) {
                if (ids.contains(id.section(u'_', 0, 0)) &&
                    (state == QLatin1String("pending") || state == QLatin1String("running")))
                    state = QStringLiteral("cancelled");
            }
        }
        reportActivity();
    }
}

void SlurmJobRunner::setActivityListener(std::function<void(const SlurmActivity &)> listener)
{
    std::lock_guard lock(m_listenerMutex);
    m_listener = std::move(listener);
    m_reported = {};
}

void SlurmJobRunner::reportActivity()
{
    SlurmActivity now;
    {
        std::lock_guard lock(m_mutex);
        now.states = m_states;
        now.refusal = m_refusal;
    }
    std::lock_guard lock(m_listenerMutex);
    if (!m_listener || (now.states == m_reported.states && now.refusal == m_reported.refusal))
        return;
    m_reported = now;
    m_listener(now);
}

SlurmJobRunner::ToolResult SlurmJobRunner::tool(const QString &program, const QStringList &arguments,
                                                const QByteArray &input) const
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!m_options.slurmConf.isEmpty())
        env.insert(QStringLiteral("SLURM_CONF"), m_options.slurmConf);
    process.setProcessEnvironment(env);
    process.start(program, arguments);
    ToolResult r;
    if (!process.waitForStarted(kToolTimeoutMs)) {
        r.err = QStringLiteral("cannot run %1: %2").arg(program, process.errorString());
        return r;
    }
    if (!input.isEmpty())
        process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(kToolTimeoutMs)) {
        process.kill();
        process.waitForFinished(1000);
        r.err = QStringLiteral("%1 did not answer within %2 s").arg(program).arg(kToolTimeoutMs / 1000);
        return r;
    }
    r.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    r.out = QString::fromUtf8(process.readAllStandardOutput());
    r.err = QString::fromUtf8(process.readAllStandardError());
    return r;
}

QStringList SlurmJobRunner::sbatchOptions(bool gpu, int timeLimitSeconds) const
{
    // --export=NONE: the job does not inherit this process's environment, where provider keys live.
    // --no-requeue: a job whose node fails ends NODE_FAIL, an error item that --resume runs again, instead of
    // waiting in the queue to start over.
    QStringList args{QStringLiteral("--parsable"), QStringLiteral("--job-name=skillforge"),
                     QStringLiteral("--export=NONE"), QStringLiteral("--no-requeue")};
    if (!m_options.partition.isEmpty())
        args << QStringLiteral("--partition=") + m_options.partition;
    if (!m_options.account.isEmpty())
        args << QStringLiteral("--account=") + m_options.account;
    if (gpu && !m_options.gres.isEmpty())
        args << QStringLiteral("--gres=") + m_options.gres;
    if (!m_options.time.isEmpty())
        args << QStringLiteral("--time=") + m_options.time;
    else if (timeLimitSeconds > 0) // a backstop: the work's own limit plus a minute for the build and start-up
        args << QStringLiteral("--time=%1").arg((timeLimitSeconds + 60 + 59) / 60);
    args << m_options.extraArgs;
    return args;
}

QString SlurmJobRunner::check(bool gpu) const
{
    if (!m_options.slurmConf.isEmpty() && !QFileInfo::exists(m_options.slurmConf))
        return QStringLiteral("SLURM_CONF names %1, which does not exist").arg(m_options.slurmConf);
    if (QStandardPaths::findExecutable(QStringLiteral("sbatch")).isEmpty())
        return QStringLiteral("sbatch is not on PATH: Slurm's client tools are needed on this machine");
    if (!QFileInfo(m_options.program).isExecutable())
        return QStringLiteral("the skillforge the nodes are to run (%1) is not an executable").arg(m_options.program);
    if (!QDir().mkpath(m_options.sharedDir))
        return QStringLiteral("cannot create the shared folder %1").arg(m_options.sharedDir);
    QStringList args = sbatchOptions(gpu, 0);
    args << QStringLiteral("--test-only") << QStringLiteral("--output=/dev/null") << QStringLiteral("--wrap=true");
    const ToolResult r = tool(QStringLiteral("sbatch"), args);
    if (r.exitCode != 0)
        return slurm::refusalMessage(r.err);
    return {};
}

void SlurmJobRunner::loop()
{
    using namespace std::chrono;
    auto nextPoll = steady_clock::now();
    std::unique_lock lock(m_mutex);
    while (!m_stopping) {
        if (m_pending.empty() && m_active.empty()) {
            m_wake.wait(lock, [this] { return m_stopping || !m_pending.empty(); });
            continue;
        }
        if (!m_pending.empty()) {
            // Let the items that finish together arrive, then send them as one array per kind of node.
            m_wake.wait_for(lock, milliseconds(m_options.batchWindowMs), [this] { return m_stopping; });
            if (m_stopping)
                break;
            std::vector<std::shared_ptr<Waiter>> gpu, cpu;
            for (auto &w : m_pending)
                (w->job.needsGpu ? gpu : cpu).push_back(w);
            m_pending.clear();
            lock.unlock();
            if (!cpu.empty())
                submit(std::move(cpu));
            if (!gpu.empty())
                submit(std::move(gpu));
            lock.lock();
            continue;
        }
        if (steady_clock::now() < nextPoll) {
            m_wake.wait_until(lock, nextPoll, [this] { return m_stopping || !m_pending.empty(); });
            continue;
        }
        lock.unlock();
        poll();
        lock.lock();
        nextPoll = steady_clock::now() + milliseconds(m_options.pollMs);
    }
}

void SlurmJobRunner::submit(std::vector<std::shared_ptr<Waiter>> batch)
{
    int number = 0;
    {
        std::lock_guard lock(m_mutex);
        number = ++m_batches;
    }
    const QString dir = QStringLiteral("%1/batch-%2-%3-%4")
                            .arg(m_options.sharedDir)
                            .arg(QCoreApplication::applicationPid())
                            .arg(QDateTime::currentMSecsSinceEpoch())
                            .arg(number);
    auto failAll = [&](const QString &error) {
        std::lock_guard lock(m_mutex);
        for (const auto &w : batch)
            finishWaiter(w, {error, {}, {}});
    };
    if (!QDir().mkpath(dir)) {
        failAll(QStringLiteral("cannot create %1").arg(dir));
        return;
    }
    // Each array task starts a slurmstepd and a skillforge on its node (a few hundred ms of CPU): short jobs share
    // tasks, task t running jobs t, t + T, t + 2T... one after another. GPU jobs get a task (and a GPU) each.
    const int n = int(batch.size());
    const int tasks = batch.front()->job.needsGpu ? n : std::clamp(m_options.maxArrayTasks, 1, n);
    int timeLimit = 0;
    for (size_t i = 0; i < batch.size(); ++i) {
        ClusterJob &job = batch[i]->job;
        job.resultPath = QStringLiteral("%1/result-%2.json").arg(dir).arg(i);
        batch[i]->index = int(i);
        timeLimit = std::max(timeLimit, job.timeLimitSeconds * ((n + tasks - 1) / tasks));
        QFile file(QStringLiteral("%1/job-%2.json").arg(dir).arg(i));
        if (!file.open(QIODevice::WriteOnly) ||
            file.write(QJsonDocument(job.toJson()).toJson(QJsonDocument::Compact)) < 0) {
            failAll(QStringLiteral("cannot write %1: %2").arg(file.fileName(), file.errorString()));
            return;
        }
    }
    // The script names only the program and the folder; the job's environment is built here, not inherited.
    const QString script =
        QStringLiteral("#!/bin/bash\n"
                       "# Skillforge: one job description per array task; each writes its result beside it.\n"
                       "export HOME=%1 PATH=%2 LANG=C.UTF-8\n"
                       "exec %3 cluster run-job --dir %4 --task \"$SLURM_ARRAY_TASK_ID\" --tasks %5\n")
            .arg(slurm::shellQuote(QDir::homePath()),
                 slurm::shellQuote(QProcessEnvironment::systemEnvironment().value(
                     QStringLiteral("PATH"), QStringLiteral("/usr/local/bin:/usr/bin:/bin"))),
                 slurm::shellQuote(m_options.program), slurm::shellQuote(dir))
            .arg(tasks);
    QStringList args = sbatchOptions(batch.front()->job.needsGpu, timeLimit);
    args << QStringLiteral("--array=0-%1").arg(tasks - 1) << QStringLiteral("--output=%1/slurm-%A_%a.out").arg(dir)
         << QStringLiteral("--chdir=") + dir;
    const ToolResult r = tool(QStringLiteral("sbatch"), args, script.toUtf8());
    const QString id = slurm::parseSbatchJobId(r.out);
    if (r.exitCode != 0 || id.isEmpty()) {
        const QString why = r.exitCode == 0 ? QStringLiteral("sbatch printed no job id: %1").arg(r.out.trimmed())
                                            : slurm::refusalMessage(r.err);
        failAll(why);
        {
            std::lock_guard lock(m_mutex);
            m_refusal = why;
        }
        reportActivity();
        return;
    }
    submitted(batch, id, dir, tasks);
    reportActivity();
}

void SlurmJobRunner::submitted(const std::vector<std::shared_ptr<Waiter>> &batch, const QString &id, const QString &dir,
                               int tasks)
{
    std::lock_guard lock(m_mutex);
    ++m_submissions;
    for (const auto &w : batch) {
        w->arrayId = id;
        w->taskId = QStringLiteral("%1_%2").arg(id).arg(w->index % tasks);
        w->logPath = QStringLiteral("%1/slurm-%2.out").arg(dir, w->taskId);
        m_states[w->taskId] = QStringLiteral("pending");
        if (!w->done) // cancelled while it was being submitted
            m_active.push_back(w);
        else
            tool(QStringLiteral("scancel"), {id});
    }
}

void SlurmJobRunner::poll()
{
    std::vector<std::shared_ptr<Waiter>> active;
    {
        std::lock_guard lock(m_mutex);
        active = m_active;
        ++m_polls;
    }
    // A result file is the answer, whatever Slurm says; only the rest need the scheduler.
    std::vector<std::pair<std::shared_ptr<Waiter>, ClusterJobResult>> finished;
    QStringList arrays;
    std::vector<std::shared_ptr<Waiter>> waiting;
    for (const auto &w : active) {
        if (auto result = readClusterJobResult(w->job.resultPath)) {
            finished.emplace_back(w, std::move(*result));
        } else {
            waiting.push_back(w);
            if (!arrays.contains(w->arrayId))
                arrays << w->arrayId;
        }
    }
    std::map<QString, slurm::TaskState> states;
    if (!arrays.isEmpty()) {
        const ToolResult r =
            tool(QStringLiteral("squeue"),
                 {QStringLiteral("-h"), QStringLiteral("-t"), QStringLiteral("all"), QStringLiteral("-r"),
                  QStringLiteral("-j"), arrays.join(u','), QStringLiteral("-o"), QStringLiteral("%i|%T|%r")});
        for (const slurm::TaskState &s : slurm::parseSqueue(r.out))
            states[s.id] = s;
        QStringList unknown;
        for (const auto &w : waiting) {
            if (!states.count(w->taskId) && !unknown.contains(w->arrayId))
                unknown << w->arrayId;
        }
        if (!unknown.isEmpty()) { // aged out of the controller's memory: accounting, then the job completion log
            for (const QStringList &extra : {QStringList{}, QStringList{QStringLiteral("-c")}}) {
                const ToolResult a =
                    tool(QStringLiteral("sacct"),
                         extra + QStringList{QStringLiteral("-n"), QStringLiteral("-P"), QStringLiteral("-X"),
                                             QStringLiteral("-j"), unknown.join(u','), QStringLiteral("-o"),
                                             QStringLiteral("JobID,State")});
                if (a.exitCode == 0) {
                    for (const slurm::TaskState &s : slurm::parseSqueue(a.out))
                        states.try_emplace(s.id, s);
                    break;
                }
            }
        }
    }
    QStringList neverStarts;
    std::unique_lock lock(m_mutex);
    for (auto &[w, result] : finished) {
        m_states[w->taskId] = result.ok() ? QStringLiteral("done") : QStringLiteral("failed");
        finishWaiter(w, std::move(result));
    }
    for (const auto &w : waiting) {
        if (w->done)
            continue;
        const auto it = states.find(w->taskId);
        if (it == states.end()) {
            if (++w->unknownPolls > kGracePolls)
                finishWaiter(
                    w, {QStringLiteral("Slurm no longer knows job %1 and it left no result").arg(w->taskId), {}, {}});
            continue;
        }
        w->unknownPolls = 0;
        const slurm::TaskState &s = it->second;
        m_states[w->taskId] = slurm::stateWord(s.state);
        if (s.state == QLatin1String("PENDING") && slurm::pendsForever(s.reason)) {
            if (!neverStarts.contains(w->arrayId))
                neverStarts << w->arrayId;
            finishWaiter(
                w, {QStringLiteral("Slurm will never start job %1 (%2): it was cancelled").arg(w->taskId, s.reason),
                    {},
                    {}});
            continue;
        }
        if (!slurm::isFinalState(s.state))
            continue;
        // COMPLETED: the result file may still be on its way through a shared filesystem.
        if (s.state == QLatin1String("COMPLETED") && ++w->finishedPolls <= kGracePolls)
            continue;
        if (auto result = readClusterJobResult(w->job.resultPath)) {
            finishWaiter(w, std::move(*result));
            continue;
        }
        QString why = QStringLiteral("Slurm job %1 ended %2").arg(w->taskId, s.state.section(u' ', 0, 0));
        if (!s.reason.isEmpty() && s.reason != QLatin1String("None"))
            why += QStringLiteral(" (%1)").arg(s.reason);
        why += QStringLiteral(" without a result");
        if (const QString log = lastLines(w->logPath, 2); !log.isEmpty())
            why += QStringLiteral(": ") + log;
        finishWaiter(w, {why, {}, {}});
    }
    std::erase_if(m_active, [](const auto &w) { return w->done; });
    lock.unlock();
    if (!neverStarts.isEmpty())
        tool(QStringLiteral("scancel"), neverStarts);
    reportActivity();
}

std::map<QString, QString> SlurmJobRunner::jobStates() const
{
    std::lock_guard lock(m_mutex);
    return m_states;
}

int SlurmJobRunner::submissions() const
{
    std::lock_guard lock(m_mutex);
    return m_submissions;
}

int SlurmJobRunner::polls() const
{
    std::lock_guard lock(m_mutex);
    return m_polls;
}

} // namespace sf
