#include "compare/CompareView.h"

#include "agents/Harness.h"
#include "charts/ChartPanel.h"
#include "charts/ComparisonCharts.h"
#include "common/ElidedLabel.h"
#include "common/EmptyState.h"
#include "common/RunList.h"
#include "compare/AcrossRunsPanel.h"
#include "compare/CaseChangesModel.h"
#include "compare/CaseMatrixModel.h"
#include "compare/CaseMatrixPage.h"
#include "compare/CompareCharts.h"
#include "compare/SuiteHealthTable.h"
#include "eval/Contamination.h"
#include "eval/RunName.h"
#include "eval/StatementPassRate.h"
#include "project/Project.h"
#include "report/ExportReportDialog.h"
#include "report/Report.h"

#include <QDir>
#include <QEvent>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QLocale>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace sf {

namespace {

/// What a worker thread hands back: the analysis, or why the run could not be read.
struct LoadedRun
{
    std::shared_ptr<const RunAnalysis> analysis;
    QString error;
    ContaminationReport contamination; ///< read from the transcripts on the worker thread too
};

} // namespace

CompareView::CompareView(QWidget *parent)
    : ViewPage(parent)
    , m_stack(new QStackedWidget(this))
    , m_empty(new EmptyState(this))
    , m_selection(new RunSelectionBar(this))
    , m_status(new ElidedLabel(this))
    , m_charts(new CompareCharts(this))
    , m_tabs(new QTabWidget(this))
    , m_matrixPage(new CaseMatrixPage(this))
    , m_verdicts(new VerdictsPanel(this))
    , m_healthTable(new SuiteHealthTable(this))
    , m_across(new AcrossRunsPanel(
          [this](const QString &dir) {
              load(dir);
              return m_cache.value(dir);
          },
          [this](const QString &dir) { return m_loading.contains(dir); }, this))
    , m_changes(new CaseChangesModel(this))
    , m_changesView(new QTableView(this))
    , m_changesPage(new QWidget(this))
{
    m_status->setForegroundRole(QPalette::PlaceholderText);
    connect(m_selection, &RunSelectionBar::selectionChanged, this, &CompareView::requestRuns);
    connect(m_selection, &RunSelectionBar::splitChanged, this, [this] {
        if (m_shown)
            rebuild();
    });
    connect(m_selection, &RunSelectionBar::exportRequested, this, [this] {
        ExportReportDialog::exportRun(m_jobs, shownRunDir(), comparedRunDir(),
                                      m_project ? m_project->runsPath() : QString(), this);
    });

    m_changesView->setModel(m_changes);
    m_changesView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_changesView->verticalHeader()->hide();
    m_changesView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto *changesLayout = new QVBoxLayout(m_changesPage);
    changesLayout->setContentsMargins(4, 4, 4, 4);
    changesLayout->addWidget(m_changesView);

    m_tabs->addTab(m_matrixPage, tr("Case matrix"));
    m_tabs->addTab(m_verdicts, tr("Verdicts and lift"));
    connect(m_verdicts, &VerdictsPanel::thresholdsChanged, this, [this](const VerdictThresholds &thresholds) {
        updateStatus();
        m_across->setThresholds(thresholds);
    });
    m_tabs->addTab(m_healthTable, tr("Suite health"));
    m_tabs->setTabToolTip(m_tabs->indexOf(m_healthTable),
                          tr("Computed from the shown run's results: checks that pass or fail in both arms every time "
                             "(they measure nothing), cases where the skill hurts, cases whose repeats disagree, and "
                             "items far out in time or tokens"));
    m_tabs->addTab(m_changesPage, tr("Changes between runs"));
    m_tabs->addTab(m_across, tr("Across runs"));
    m_across->setThresholds(m_verdicts->thresholds());
    m_tabs->setTabVisible(m_tabs->indexOf(m_changesPage), false);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_charts);
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({480, 320});
    auto *content = new QWidget(this);
    auto *contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(6, 6, 6, 6);
    contentLayout->addWidget(m_selection);
    contentLayout->addWidget(m_status);
    contentLayout->addWidget(split, 1);

    m_stack->addWidget(m_empty);
    m_stack->addWidget(content);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    connect(m_matrixPage, &CaseMatrixPage::traceRequested, this, &ViewPage::traceRequested);
    setProject(nullptr);
}

CompareView::~CompareView() = default;

void CompareView::setProject(const Project *project)
{
    m_project = project;
    // Analyses of the old project are dropped; reads still under way finish unseen.
    ++m_generation;
    m_cache.clear();
    m_contamination.clear();
    m_errors.clear();
    m_loading.clear();
    m_shown.reset();
    m_compared.reset();
    m_matrixPage->showRun(nullptr, {});
    reloadRunList();
}

void CompareView::reloadRunList()
{
    // A run that was still being written when it was read is read again: it may have more results now.
    for (auto it = m_cache.begin(); it != m_cache.end();) {
        if (it.value()->manifest.status == u"running")
            it = m_cache.erase(it);
        else
            ++it;
    }
    const QList<RunListEntry> runs = m_project ? listRuns(m_project->runsPath()) : QList<RunListEntry>();
    m_selection->setRuns(runs);
    m_across->setRuns(runs);
    if (runs.isEmpty()) {
        m_empty->setText(tr("Nothing to compare yet"),
                         tr("The comparison shows each student model's pass rate, tokens, cost and latency "
                            "without and with the skill. It needs an evaluation run in this project's runs/ "
                            "folder."));
        m_stack->setCurrentWidget(m_empty);
    } else {
        m_stack->setCurrentIndex(1);
    }
    requestRuns();
}

QString CompareView::shownRunDir() const
{
    return m_shown ? m_shown->dir : QString();
}

QString CompareView::comparedRunDir() const
{
    return m_compared ? m_compared->dir : QString();
}

QStringList CompareView::shownRunNames() const
{
    QStringList names;
    for (const RunAnalysis *run : {m_shown.get(), m_compared.get()}) {
        if (!run)
            continue;
        const QString listed = m_selection->nameOf(run->dir);
        names.append(listed.isEmpty() ? run->label() : listed);
    }
    return names;
}

void CompareView::openPath(const QString &path)
{
    reloadRunList();
    const QString dir = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    for (const RunListEntry &run : m_selection->runs()) {
        if (QDir(run.path) == QDir(dir))
            return m_selection->select(run.path, m_selection->comparedRun());
    }
}

void CompareView::showRuns(const QString &run, const QString &comparedWith)
{
    m_selection->select(run, comparedWith);
}

void CompareView::setSplit(Split split)
{
    m_selection->setSplit(split);
}

void CompareView::setMetric(charts::Metric metric)
{
    m_charts->setMetric(metric);
}

void CompareView::setScatterAxis(charts::Metric metric)
{
    m_charts->setScatterAxis(metric);
}

charts::ChartPanel *CompareView::barChart() const
{
    return m_charts->barChart();
}

charts::ChartPanel *CompareView::scatterChart() const
{
    return m_charts->scatterChart();
}

charts::ChartPanel *CompareView::liftChart() const
{
    return m_charts->liftChart();
}

bool CompareView::isBusy() const
{
    return !m_loading.isEmpty();
}

QString CompareView::loadError() const
{
    QStringList errors;
    for (const QString &dir : {m_selection->run(), m_selection->comparedRun()}) {
        if (m_errors.contains(dir))
            errors.append(m_errors.value(dir));
    }
    return errors.join(u'\n');
}

bool CompareView::changesShown() const
{
    return m_tabs->isTabVisible(m_tabs->indexOf(m_changesPage));
}

void CompareView::load(const QString &dir)
{
    if (dir.isEmpty() || m_cache.contains(dir) || m_errors.contains(dir) || m_loading.contains(dir))
        return;
    m_loading.insert(dir);
    auto *watcher = new QFutureWatcher<LoadedRun>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, dir, generation = m_generation] {
        watcher->deleteLater();
        if (generation != m_generation)
            return;
        m_loading.remove(dir);
        const LoadedRun loaded = watcher->result();
        if (loaded.analysis) {
            m_cache.insert(dir, loaded.analysis);
            m_contamination.insert(dir, loaded.contamination);
        } else
            m_errors.insert(dir, loaded.error);
        m_across->refresh();
        requestRuns();
    });
    watcher->setFuture(QtConcurrent::run([dir] {
        auto analysis = analyzeRun(dir);
        if (const LoadError *error = std::get_if<LoadError>(&analysis))
            return LoadedRun{nullptr, error->toString(), {}};
        auto shared = std::make_shared<const RunAnalysis>(std::move(std::get<RunAnalysis>(analysis)));
        ContaminationReport contamination = checkContamination(*shared);
        return LoadedRun{std::move(shared), {}, std::move(contamination)};
    }));
}

void CompareView::requestRuns()
{
    const QString run = m_selection->run();
    QString compared = m_selection->comparedRun();
    if (compared == run)
        compared.clear();
    load(run);
    load(compared);
    if (m_loading.contains(run) || m_loading.contains(compared)) {
        m_status->setText(tr("Reading the run…"));
        return;
    }
    const auto shown = m_cache.value(run);
    const auto other = m_cache.value(compared);
    const QString error = loadError();
    if (shown && shown == m_shown && other == m_compared && error.isEmpty())
        return; // already on screen
    m_shown = shown;
    m_compared = other;
    m_charts->setSaveHints(m_shown ? m_shown->manifest.skillName : QString(),
                           m_project ? m_project->rootPath() : QString());
    if (!m_shown) {
        m_matrixPage->showRun(nullptr, {});
        m_status->setText(error);
        return;
    }
    rebuild();
    if (!error.isEmpty())
        m_status->setText(error);
}

QStringList CompareView::splits() const
{
    switch (m_selection->split()) {
    case Split::All:
        break;
    case Split::Train:
        return {QStringLiteral("train")};
    case Split::HeldOut:
        return {QStringLiteral("heldout")};
    case Split::Apart:
        return {QStringLiteral("train"), QStringLiteral("heldout")};
    }
    return {QStringLiteral("all")};
}

void CompareView::rebuild()
{
    // Train and held-out apart only when the run has held-out cases (core summarizes them only then).
    m_selection->setHeldOutAvailable(std::any_of(m_shown->summary.arms.begin(), m_shown->summary.arms.end(),
                                                 [](const ArmSummary &a) { return a.split == u"heldout"; }));
    const QStringList shownSplits = splits();
    m_matrixPage->showRun(m_shown, shownSplits);

    const QLocale locale;
    const RunManifest &m = m_shown->manifest;
    const auto count = [&locale](qsizetype n, const QString &one, const QString &many) {
        return n == 1 ? one : many.arg(locale.toString(n));
    };
    m_statusFacts = tr("%1 · %2 · %3 · %4 · %5")
                        .arg(count(m_shown->results.size(), tr("1 item"), tr("%1 items")),
                             count(m_shown->matrix.columns.size() / 2, tr("1 model"), tr("%1 models")),
                             count(m_shown->matrix.rows.size(), tr("1 case"), tr("%1 cases")))
                        .arg(m.status.isEmpty() ? tr("status unknown") : m.status,
                             m.suitePath.isEmpty() ? m.skillName : QDir(m.suitePath).dirName());
    // Who drove the student: a run of a real agent CLI names it and its version ("Claude Code 2.1.332").
    if (const QString harness = m.harness.value(QStringLiteral("name")).toString(); !harness.isEmpty())
        m_statusFacts +=
            QStringLiteral(" · ") +
            tr("%1 %2").arg(Harness::label(harness), m.harness.value(QStringLiteral("version")).toString()).trimmed();
    if (!statementPassRates(*m_shown).isEmpty())
        m_statusFacts += QStringLiteral(" · ") + tr("graded by statements: two pass rates under Verdicts and lift");
    // Where the costs' prices came from, for whoever wonders about a cost figure.
    m_charts->setPricesText(tr("Costs are priced as each request was made. Prices %1").arg(runPricesText(m)));

    // Tables name the runs as the run choice lists them; legends, short of room, by what tells the two apart.
    const QStringList names = shownRunNames();
    QList<RunManifest> shown{m_shown->manifest};
    if (m_compared)
        shown.append(m_compared->manifest);
    const QStringList legendNames = runNames(shown, RunNaming::Short);
    QList<charts::ChartRun> chartRuns{{legendNames.value(0), &m_shown->summary}};
    if (m_compared)
        chartRuns.append({legendNames.value(1), &m_compared->summary});
    m_charts->showRuns(chartRuns, shownSplits);
    showVerdicts();
    fillHealthTable();

    if (m_compared) {
        // Changes read from the earlier run to the later one, whichever was picked first.
        const bool shownFirst = m_shown->manifest.startedAt <= m_compared->manifest.startedAt;
        m_changes->setChanges(shownFirst ? diffCaseMatrices(m_shown->matrix, m_compared->matrix)
                                         : diffCaseMatrices(m_compared->matrix, m_shown->matrix),
                              names.value(shownFirst ? 0 : 1), names.value(shownFirst ? 1 : 0));
    } else {
        m_changes->setChanges({}, {}, {});
    }
    m_tabs->setTabVisible(m_tabs->indexOf(m_changesPage), m_compared != nullptr);
    Q_EMIT runsShown();
}

void CompareView::showVerdicts()
{
    QList<const RunAnalysis *> runs{m_shown.get()};
    if (m_compared)
        runs.append(m_compared.get());
    m_verdicts->showRuns(runs, shownRunNames(), splits());
    updateStatus();
}

void CompareView::updateStatus()
{
    const QStringList words = m_verdicts->verdictWords();
    m_status->setText(words.isEmpty() ? m_statusFacts
                                      : m_statusFacts + tr(" · verdicts: %1").arg(words.join(QStringLiteral(", "))));
}

void CompareView::setVerdictThresholds(const VerdictThresholds &thresholds)
{
    m_verdicts->setThresholds(thresholds);
    if (m_shown)
        updateStatus();
    m_across->setThresholds(thresholds);
}

void CompareView::setAcrossRuns(const QStringList &dirs)
{
    m_across->setChecked(dirs);
}

QTableWidget *CompareView::healthTable() const
{
    return m_healthTable;
}

QListWidget *CompareView::acrossRunList() const
{
    return m_across->runList();
}

QTableWidget *CompareView::acrossTable() const
{
    return m_across->table();
}

charts::ChartPanel *CompareView::trendChart() const
{
    return m_across->trendChart();
}

void CompareView::fillHealthTable()
{
    const auto contamination = m_contamination.constFind(m_shown->dir);
    const qsizetype findings =
        m_healthTable->showRun(*m_shown, contamination != m_contamination.cend() ? &*contamination : nullptr);
    m_tabs->setTabText(m_tabs->indexOf(m_healthTable),
                       findings == 0 ? tr("Suite health") : tr("Suite health (%1)").arg(findings));
}

CaseMatrixModel *CompareView::matrixModel() const
{
    return m_matrixPage->model();
}

CaseMatrixFilter *CompareView::matrixFilter() const
{
    return m_matrixPage->filter();
}

QTableView *CompareView::matrixView() const
{
    return m_matrixPage->view();
}

QComboBox *CompareView::filterCombo() const
{
    return m_matrixPage->filterCombo();
}

CaseDetailDialog *CompareView::detailDialog() const
{
    return m_matrixPage->detailDialog();
}

QString CompareView::matrixCsv() const
{
    return m_matrixPage->csv();
}

void CompareView::openCell(const QModelIndex &index)
{
    m_matrixPage->openCell(index);
}

void CompareView::showEvent(QShowEvent *event)
{
    ViewPage::showEvent(event);
    // Runs finished (or started) since the view was last shown appear in the lists.
    if (m_project)
        reloadRunList();
}

void CompareView::changeEvent(QEvent *event)
{
    ViewPage::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && m_shown) {
        m_charts->redraw();
        m_matrixPage->refreshColours();
    }
}

} // namespace sf
