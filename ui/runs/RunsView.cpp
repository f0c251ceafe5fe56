#include "runs/RunsView.h"

#include "agents/Harness.h"
#include "cluster/EvalLaunch.h"
#include "common/EmptyState.h"
#include "common/Plural.h"
#include "common/RunList.h"
#include "compare/CaseDetailDialog.h"
#include "eval/EvalSession.h"
#include "eval/RunLock.h"
#include "eval/RunSummary.h"
#include "eval/SandboxCommand.h"
#include "jobs/Job.h"
#include "jobs/JobListModel.h"
#include "project/Project.h"
#include "runs/EvalLaunchDialog.h"
#include "runs/RunGridModel.h"
#include "runs/RunSummaryTable.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace sf {

namespace {

// results.jsonl holds one line per finished item, so its line count is the number of items done.
qint64 countResultLines(const QString &runFolder)
{
    QFile file(runFolder + QStringLiteral("/results.jsonl"));
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    qint64 lines = 0;
    while (!file.atEnd()) {
        if (!file.readLine().trimmed().isEmpty())
            ++lines;
    }
    return lines;
}

// The run's matrix as its run.json describes it; empty when its suite can no longer be read.
QList<ItemKey> matrixOf(const RunStore &store)
{
    const EvalConfig config = EvalConfig::fromJson(store.manifest().parameters);
    const RunManifest &m = store.manifest();
    auto suite = m.suitePath.isEmpty() ? readSkillTestSuite(m.skillDir) : readTestSuite(m.suitePath);
    if (!std::holds_alternative<TestSuite>(suite) || config.models.isEmpty())
        return {};
    return EvalRunner::matrix(std::get<TestSuite>(suite), config);
}

// Who drove the student, for the run's details: " · Claude Code 2.1.332 (pinned by setup: …)"; "" for the loop.
QString harnessDetail(const RunManifest &manifest)
{
    const QString name = manifest.harness.value(QStringLiteral("name")).toString();
    if (name.isEmpty())
        return {};
    QString text = QStringLiteral(" · ") + Harness::label(name);
    if (const QString version = manifest.harness.value(QStringLiteral("version")).toString(); !version.isEmpty())
        text += u' ' + version;
    if (const QString source = manifest.harness.value(QStringLiteral("source")).toString(); !source.isEmpty())
        text += QStringLiteral(" (%1)").arg(source);
    return text;
}

} // namespace

RunsView::RunsView(QWidget *parent)
    : ViewPage(parent)
    , m_stack(new QStackedWidget(this))
    , m_empty(new EmptyState(this))
    , m_table(new QTreeWidget(this))
    , m_newButton(new QPushButton(tr("New Evaluation…"), this))
    , m_resumeButton(new QPushButton(tr("Resume"), this))
    , m_cancelButton(new QPushButton(tr("Cancel"), this))
    , m_status(new QLabel(this))
    , m_summary(new RunSummaryTable(this))
    , m_grid(new RunGridModel(this))
    , m_gridView(new QTableView(this))
    , m_transcript(new QPlainTextEdit(this))
    , m_sessionButton(new QPushButton(tr("Open CLI Session in Trace View"), this))
    , m_watch(new QTimer(this))
{
    m_empty->setText(tr("No runs yet"),
                     tr("An evaluation run tries every student model on the test suite, without and with the "
                        "skill, and stores its results in the project's runs/ folder."));
    m_table->setHeaderLabels({tr("Run"), tr("Items"), tr("Last written")});
    m_table->setRootIsDecorated(false);
    m_table->setUniformRowHeights(true);
    m_table->setTextElideMode(Qt::ElideMiddle); // runs of one skill differ at the end of their names
    m_table->header()->setStretchLastSection(false);
    m_table->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_table->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(m_table);

    m_status->setObjectName(QStringLiteral("runStatus"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_gridView->setObjectName(QStringLiteral("runGrid"));
    m_gridView->setModel(m_grid);
    m_gridView->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_gridView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_gridView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_transcript->setReadOnly(true);
    m_transcript->setPlaceholderText(tr("Click a cell to read its transcript."));

    // The statistics stay a one-line status and a few table rows; the grid and the transcript get the height.
    auto *statistics = new QWidget(this);
    auto *statisticsLayout = new QVBoxLayout(statistics);
    statisticsLayout->setContentsMargins(0, 0, 0, 0);
    statisticsLayout->addWidget(m_status);
    statisticsLayout->addWidget(m_summary);
    // An agent CLI's item: its own session file opens in the Trace view (the button, or a double-click on the cell).
    m_sessionButton->setObjectName(QStringLiteral("openCliSession"));
    m_sessionButton->setToolTip(tr("Every step the CLI took, from its own session file; double-clicking a cell opens "
                                   "it too"));
    m_sessionButton->hide();
    auto *transcript = new QWidget(this);
    auto *transcriptLayout = new QVBoxLayout(transcript);
    transcriptLayout->setContentsMargins(0, 0, 0, 0);
    auto *transcriptBar = new QHBoxLayout;
    transcriptBar->addStretch();
    transcriptBar->addWidget(m_sessionButton);
    transcriptLayout->addLayout(transcriptBar);
    transcriptLayout->addWidget(m_transcript, 1);
    auto *detail = new QSplitter(Qt::Vertical, this);
    detail->addWidget(statistics);
    detail->addWidget(m_gridView);
    detail->addWidget(transcript);
    detail->setStretchFactor(0, 0);
    detail->setStretchFactor(1, 2);
    detail->setStretchFactor(2, 2);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_stack);
    split->addWidget(detail);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    split->setSizes({320, 960});

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_newButton);
    buttons->addWidget(m_resumeButton);
    buttons->addWidget(m_cancelButton);
    buttons->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buttons);
    layout->addWidget(split);

    connect(m_table, &QTreeWidget::currentItemChanged, this, [this] {
        showRun(selectedRun());
        updateButtons();
    });
    connect(m_gridView, &QTableView::clicked, this, &RunsView::showTranscript);
    connect(m_gridView, &QTableView::doubleClicked, this, &RunsView::openSession);
    connect(m_sessionButton, &QPushButton::clicked, this, [this] { openSession(m_gridView->currentIndex()); });
    connect(m_newButton, &QPushButton::clicked, this, [this] {
        if (!m_project)
            return;
        EvalLaunchDialog dialog(*m_project, m_chat, this);
        if (m_openSkill)
            dialog.selectSkillDir(m_openSkill());
        if (dialog.exec() == QDialog::Accepted)
            startEvaluation(dialog.plan(), dialog.executor());
    });
    connect(m_resumeButton, &QPushButton::clicked, this, [this] {
        EvalPlan plan;
        plan.resumeDir = selectedRun();
        startEvaluation(plan);
    });
    connect(m_cancelButton, &QPushButton::clicked, this, &RunsView::cancelEvaluation);
    m_watch->setInterval(1000);
    connect(m_watch, &QTimer::timeout, this, [this] {
        const bool stillWritten = RunLock::holder(m_shownRun).has_value();
        // Read again (the results so far), and once more after the writer let go, for its last lines.
        showRun(m_shownRun);
        if (!stillWritten)
            updateButtons();
    });
    updateButtons();
}

RunsView::~RunsView()
{
    if (m_jobRunner)
        m_jobRunner->cancelAll(); // scancel: nothing of this window's keeps running on the cluster
    if (m_session)
        m_session->cancel();
}

void RunsView::setEvalServices(ChatClient *chat, JobListModel *jobs)
{
    m_chat = chat;
    m_jobs = jobs;
    updateButtons();
}

void RunsView::setProject(const Project *project)
{
    m_project = project;
    reload();
}

void RunsView::openPath(const QString &path)
{
    reload();
    for (int row = 0; row < m_table->topLevelItemCount(); ++row) {
        if (QDir(m_table->topLevelItem(row)->data(0, Qt::UserRole).toString()) == QDir(path))
            m_table->setCurrentItem(m_table->topLevelItem(row));
    }
}

bool RunsView::isBusy() const
{
    return m_launching || (m_session && m_session->runner().isRunning());
}

int RunsView::runCount() const
{
    return m_table->topLevelItemCount();
}

QString RunsView::selectedRun() const
{
    const QTreeWidgetItem *item = m_table->currentItem();
    return item ? item->data(0, Qt::UserRole).toString() : QString();
}

void RunsView::updateButtons()
{
    const bool services = m_chat && m_jobs;
    const bool running = isBusy();
    m_newButton->setVisible(services);
    m_resumeButton->setVisible(services);
    m_cancelButton->setVisible(services);
    m_newButton->setEnabled(m_project && !running);
    m_cancelButton->setEnabled(running);
    const QString run = selectedRun();
    bool resumable = false;
    if (!run.isEmpty() && !running) {
        auto store = RunStore::open(run, RunStore::Access::ReadOnly);
        if (const RunStore *s = std::get_if<RunStore>(&store)) {
            // Unfinished, or finished with items that ended in an error: resuming runs those again.
            resumable = (s->manifest().status != QLatin1String("finished") && s->manifest().plannedItems > 0) ||
                        std::any_of(s->results().cbegin(), s->results().cend(),
                                    [](const ItemResult &r) { return r.isError(); });
        }
    }
    // One writer per run: while another process writes it, this view only watches.
    const std::optional<QString> writer = resumable ? RunLock::holder(run) : std::nullopt;
    m_resumeButton->setEnabled(resumable && !writer);
    m_resumeButton->setToolTip(writer ? tr("Being written by %1; the view follows it").arg(*writer)
                                      : tr("Run the items that are missing or ended in an error"));
}

void RunsView::reload()
{
    const QString selected = selectedRun();
    m_table->clear();
    // Named by what tells them apart (eval/RunName.h), newest first; the id and folder are in the tooltip.
    const QList<RunListEntry> runs = m_project ? listRuns(m_project->runsPath()) : QList<RunListEntry>{};
    const QLocale locale;
    for (const RunListEntry &run : runs) {
        auto *item = new QTreeWidgetItem(m_table);
        const QDateTime written = QFileInfo(run.path + QStringLiteral("/run.json")).lastModified();
        item->setText(0, run.label);
        item->setToolTip(0, run.tooltip.isEmpty() ? QDir::toNativeSeparators(run.path) : run.tooltip);
        item->setText(1, locale.toString(countResultLines(run.path)));
        item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
        item->setText(2, locale.toString(written, QLocale::ShortFormat));
        item->setData(0, Qt::UserRole, run.path);
        if (QDir(run.path) == QDir(selected))
            m_table->setCurrentItem(item);
    }
    m_stack->setCurrentWidget(runs.isEmpty() ? static_cast<QWidget *>(m_empty) : m_table);
    updateButtons();
}

void RunsView::showRun(const QString &path)
{
    if (path != m_shownRun) {
        m_transcript->clear();
        m_sessionButton->hide();
    }
    const bool sameRun = path == m_shownRun;
    m_shownRun = path;
    const bool ours = m_session && QDir(m_session->store().dir()) == QDir(path);
    const std::optional<QString> writer = path.isEmpty() || ours ? std::nullopt : RunLock::holder(path);
    m_writer = writer.value_or(QString());
    if (writer && !m_watch->isActive())
        m_watch->start();
    else if (!writer)
        m_watch->stop();
    // A watched run is read again every second: the cell the user is reading stays selected.
    const QString selectedKey =
        sameRun ? m_gridView->currentIndex().data(RunGridModel::ItemKeyRole).toString() : QString();
    QList<ItemResult> results;
    QString status;
    m_harness.clear();
    if (ours) {
        results = m_session->store().results();
        m_grid->reset(m_session->runner().matrix(m_session->suite(), m_session->config()), results);
        for (const ItemKey &key : std::as_const(m_inFlight))
            m_grid->setRunning(key);
        status = sessionStatus();
        m_harness = harnessDetail(m_session->store().manifest());
    } else if (!path.isEmpty()) {
        auto store = RunStore::open(path, RunStore::Access::ReadOnly);
        if (const RunStore *s = std::get_if<RunStore>(&store)) {
            results = s->results();
            m_grid->reset(matrixOf(*s), results);
            const QString items = plural(results.size(), tr("1 item"), tr("%n items"));
            status = m_writer.isEmpty() ? tr("%1, %2").arg(s->manifest().status, items)
                                        : tr("Being written by %1: shown as it grows, %2 so far").arg(m_writer, items);
            m_harness = harnessDetail(s->manifest());
        } else {
            m_grid->reset({}, {});
            status = std::get<LoadError>(store).toString();
        }
    } else {
        m_grid->reset({}, {});
    }
    if (!selectedKey.isEmpty()) {
        for (int row = 0; row < m_grid->rowCount(); ++row) {
            for (int column = 0; column < m_grid->columnCount(); ++column) {
                const QModelIndex cell = m_grid->index(row, column);
                if (cell.data(RunGridModel::ItemKeyRole).toString() == selectedKey)
                    m_gridView->setCurrentIndex(cell);
            }
        }
    }
    showStatistics(status, results);
}

QString RunsView::sessionStatus() const
{
    return tr("%1 of %2 items done, %3 running")
        .arg(m_session->runner().done())
        .arg(m_session->runner().total())
        .arg(m_inFlight.size());
}

void RunsView::showStatistics(const QString &status, const QList<ItemResult> &results)
{
    m_status->setText(status + m_harness);
    m_summary->setSummary(summarizeRun(results));
    m_summary->setVisible(!results.isEmpty());
}

void RunsView::updateLiveStatistics()
{
    if (m_session && QDir(m_session->store().dir()) == QDir(m_shownRun))
        showStatistics(sessionStatus(), m_session->store().results());
}

void RunsView::showTranscript(const QModelIndex &index)
{
    const ItemResult *result = m_grid->resultAt(index);
    m_sessionButton->setVisible(result && !result->harnessSession.isEmpty());
    if (!result) {
        m_transcript->setPlainText(tr("This item has not finished yet."));
        return;
    }
    QString text =
        QStringLiteral("%1 · %2 · %3 #%4 — %5 (%6)\n")
            .arg(result->key.model, armLabel(result->key.arm), result->key.caseId)
            .arg(result->key.repeat)
            .arg(result->isError() ? tr("error: ") + result->error : (result->passed ? tr("passed") : tr("failed")),
                 result->stopReason) +
        tr("  %1 tokens, %2, %3\n")
            .arg(result->totalTokens())
            .arg(result->costText(), plural(result->turns, tr("1 model call"), tr("%n model calls")));
    for (const VerifierOutcome &v : result->verifiers)
        text += QStringLiteral("  [%1] %2: %3\n")
                    .arg(v.passed ? tr("pass") : tr("fail"), verifierLabel(v), v.evidence);
    QFile file(QDir(m_shownRun).filePath(result->transcript));
    if (!result->transcript.isEmpty() && file.open(QIODevice::ReadOnly)) {
        const QJsonObject transcript = QJsonDocument::fromJson(file.readAll()).object();
        // An agent CLI's item: the harness, whether it loaded the skill; its steps are in its own session file.
        if (const QString cli = agentCliText(*result, transcript); !cli.isEmpty())
            text += cli;
        const QJsonArray messages = transcript.value(QStringLiteral("messages")).toArray();
        for (const QJsonValue &value : messages) {
            const QJsonObject m = value.toObject();
            text += QStringLiteral("\n── %1 ──\n%2\n")
                        .arg(m.value(QStringLiteral("role")).toString(), m.value(QStringLiteral("content")).toString());
            for (const QJsonValue &call : m.value(QStringLiteral("tool_calls")).toArray())
                text += QStringLiteral("→ %1(%2)\n")
                            .arg(call.toObject().value(QStringLiteral("name")).toString(),
                                 call.toObject().value(QStringLiteral("arguments")).toString());
        }
    }
    if (!result->harnessSession.isEmpty())
        text += sessionText(QDir(m_shownRun).absoluteFilePath(result->harnessSession));
    m_transcript->setPlainText(text);
}

void RunsView::openSession(const QModelIndex &index)
{
    const ItemResult *result = m_grid->resultAt(index);
    if (result && !result->harnessSession.isEmpty())
        Q_EMIT traceRequested(QDir(m_shownRun).absoluteFilePath(result->harnessSession));
}

QString RunsView::transcriptText() const
{
    return m_transcript->toPlainText();
}

QString RunsView::summaryText() const
{
    return m_status->text() + u'\n' + m_summary->plainText();
}

namespace {

QString skillNameOf(const EvalPlan &plan)
{
    if (!plan.skillDir.isEmpty())
        return QFileInfo(plan.skillDir).fileName();
    const auto run = RunStore::open(plan.resumeDir, RunStore::Access::ReadOnly);
    const RunStore *store = std::get_if<RunStore>(&run);
    return store ? store->manifest().skillName : QFileInfo(plan.resumeDir).fileName();
}

} // namespace

bool RunsView::startEvaluation(const EvalPlan &plan, const std::optional<ExecutorChoice> &executor)
{
    if (!m_chat || !m_jobs || isBusy())
        return false;
    // A suite with nothing for Slurm runs here whatever was chosen: it must not fail on a scheduler it never needed.
    const ExecutorChoice chosen = executorFor(plan, executor                   ? *executor
                                                    : plan.resumeDir.isEmpty() ? ExecutorChoice::local()
                                                                               : recordedExecutor(plan.resumeDir));
    Job *job = nullptr;
    if (chosen.isSlurm()) {
        // Slurm may take seconds to answer: the panel says what is going on, and is where a refusal lands.
        job = m_jobs->add(new Job(tr("Evaluate %1 on Slurm").arg(skillNameOf(plan))));
        job->setDetail(tr("Asking Slurm whether it takes the jobs (sbatch --test-only)…"));
        m_launching = job;
        // Until the session runs, Cancel just drops the launch; afterwards the session's own cancel takes over.
        connect(job, &Job::cancelRequested, this, [this, job] {
            if (m_job != job)
                job->markCancelled();
        });
    }
    // Work done here is prepared before launchEvaluation() returns; Slurm's answer comes later.
    auto started = std::make_shared<bool>(false);
    launchEvaluation(
        *m_chat, plan, chosen, sandboxCommandRunner(), this,
        [this, plan, job = QPointer<Job>(job), started,
         slurm = chosen.isSlurm()](std::variant<LaunchedEvaluation, QString> launched) {
            m_launching.clear();
            if (slurm && (!job || !job->isActive())) { // cancelled while Slurm was asked
                updateButtons();
                return;
            }
            if (const QString *error = std::get_if<QString>(&launched)) {
                refuseLaunch(plan, *error, job);
                return;
            }
            run(std::move(std::get<LaunchedEvaluation>(launched)), job);
            *started = true;
        },
        job);
    updateButtons();
    return chosen.isSlurm() || *started;
}

void RunsView::refuseLaunch(const EvalPlan &plan, const QString &error, Job *job)
{
    if (job) {
        job->fail(error);
        updateButtons();
        return;
    }
    if (!plan.resumeDir.isEmpty() && RunLock::holder(plan.resumeDir)) {
        // Someone else is writing it: say so, and watch it instead.
        QMessageBox::information(this, tr("The run is being written"),
                                 tr("%1\n\nThe Runs view shows it as it grows.").arg(error));
        showRun(plan.resumeDir);
        updateButtons();
        return;
    }
    QMessageBox::warning(this, tr("Cannot start the evaluation"), error);
}

QString RunsView::jobDetail(const EvalRunner &runner) const
{
    // The running total is the run's: items recorded before a resume count, as the cap counts them.
    return tr("%1 of %2 items, %3")
        .arg(runner.done())
        .arg(runner.total())
        .arg(runner.spend().describe(runner.spendingCap()));
}

void RunsView::run(LaunchedEvaluation launched, Job *job)
{
    m_session = std::move(launched.session);
    m_jobRunner = std::move(launched.jobs);
    EvalRunner &runner = m_session->runner();
    // Named as the run is everywhere else (the sidebar, Compare), among the project's other runs.
    m_job = job ? job : m_jobs->add(new Job(tr("Evaluate %1").arg(runNameIn(m_session->store().dir()))));
    m_job->setDetail(jobDetail(runner));
    connect(m_job, &Job::cancelRequested, this, [this] {
        if (isBusy())
            m_session->cancel();
    });
    m_inFlight.clear();
    connect(&runner, &EvalRunner::itemStarted, this, [this](const ItemKey &key) {
        m_inFlight.insert(key.toString(), key);
        if (QDir(m_session->store().dir()) == QDir(m_shownRun)) {
            m_grid->setRunning(key);
            m_status->setText(sessionStatus() + m_harness);
        }
    });
    connect(&runner, &EvalRunner::itemFinished, this, [this](const ItemResult &result) {
        m_inFlight.remove(result.key.toString());
        if (QDir(m_session->store().dir()) == QDir(m_shownRun))
            m_grid->setResult(result);
        const EvalRunner &r = m_session->runner();
        m_job->setProgress(r.total() ? double(r.done()) / r.total() : 0.0);
        m_job->setDetail(jobDetail(r));
        updateLiveStatistics();
    });
    connect(&runner, &EvalRunner::finished, this, [this](bool cancelled) {
        const EvalRunner &r = m_session->runner();
        const ErrorItems errors = errorItems(m_session->store().results());
        if (r.capReached())
            // What was spent, first and short: the Jobs panel elides a long line in its middle.
            m_job->fail(tr("Spending cap reached: %1. Resume finishes the run, without a cap.")
                            .arg(r.spend().describe(r.spendingCap())));
        else if (!r.stopReason().isEmpty())
            // The embedded server could not stay up: one reason, not an error per item; Resume finishes the run.
            m_job->fail(tr("Stopped: %1 Select the run and press Resume to finish it.").arg(r.stopReason()));
        else if (cancelled)
            m_job->markCancelled();
        else if (errors.count > 0)
            m_job->fail(tr("%1 of %2 items ended in errors (the first: %3). Select the run and press Resume to run "
                           "them again.")
                            .arg(errors.count)
                            .arg(r.total())
                            .arg(errors.firstError.left(200)));
        else
            m_job->finish(
                tr("%1, %2").arg(plural(r.total(), tr("1 item"), tr("%n items")), r.spend().describe(r.spendingCap())));
        m_job = nullptr;
        m_jobRunner.reset();
        m_inFlight.clear();
        updateLiveStatistics();
        // The session is done; its results stay on disk and the grid keeps showing them.
        const QString runDir = m_session->store().dir();
        m_session.release()->deleteLater();
        reload();
        Q_EMIT evaluationFinished(cancelled, runDir);
    });
    const QString dir = m_session->store().dir();
    m_session->start();
    openPath(dir);
    showRun(dir);
    updateButtons();
}

void RunsView::cancelEvaluation()
{
    // Through the job, as its Cancel in the Jobs panel: Slurm's jobs are scancelled first, then the session stops.
    if (m_launching)
        m_launching->requestCancel();
    else if (m_job)
        m_job->requestCancel();
    else if (isBusy())
        m_session->cancel();
}

} // namespace sf
