#include "compare/CompareView.h"

#include "agents/Harness.h"
#include "charts/ChartPanel.h"
#include "charts/ComparisonCharts.h"
#include "common/EmptyState.h"
#include "common/RunList.h"
#include "common/StatusMessages.h"
#include "compare/CaseChangesModel.h"
#include "compare/CaseDetailDialog.h"
#include "compare/CaseMatrixModel.h"
#include "compare/TwoPassRatesPanel.h"
#include "eval/Contamination.h"
#include "eval/StatementPassRate.h"
#include "eval/SuiteHealth.h"
#include "project/AppSettings.h"
#include "project/Project.h"
#include "report/ExportReportDialog.h"
#include "report/Report.h"

#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFile>
#include <QFutureWatcher>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QShortcut>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
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

/// The lift table's column that says how often the with-skill arm loaded the skill.
constexpr int LiftSkillLoadedColumn = 10;

/// A run's label and start time from its run.json alone (results are read only when the run is shown).
QTableWidgetItem *cell(const QString &text, const QVariant &sortValue = {})
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    if (sortValue.isValid())
        item->setData(Qt::UserRole, sortValue);
    return item;
}

} // namespace

QString skillLoadedText(const stats::Proportion &loaded)
{
    const QLocale locale;
    return CompareView::tr("skill loaded in %1 of %2 (%3%, 95% CI %4–%5)")
        .arg(loaded.successes)
        .arg(loaded.trials)
        .arg(locale.toString(loaded.rate * 100, 'f', 0), locale.toString(loaded.ci.low * 100, 'f', 0),
             locale.toString(loaded.ci.high * 100, 'f', 0));
}

CompareView::CompareView(QWidget *parent)
    : ViewPage(parent)
    , m_stack(new QStackedWidget(this))
    , m_empty(new EmptyState(this))
    , m_runCombo(new QComboBox(this))
    , m_compareCombo(new QComboBox(this))
    , m_splitCombo(new QComboBox(this))
    , m_metricCombo(new QComboBox(this))
    , m_scatterCombo(new QComboBox(this))
    , m_status(new QLabel(this))
    , m_verdicts(new QLabel(this))
    , m_minLiftSpin(new QDoubleSpinBox(this))
    , m_minPairsSpin(new QSpinBox(this))
    , m_thresholds(AppSettings().verdictThresholds())
    , m_barChart(new charts::ChartPanel(this))
    , m_scatterChart(new charts::ChartPanel(this))
    , m_liftChart(new charts::ChartPanel(this))
    , m_tabs(new QTabWidget(this))
    , m_matrix(new CaseMatrixModel(this))
    , m_filter(new CaseMatrixFilter(this))
    , m_matrixView(new QTableView(this))
    , m_filterCombo(new QComboBox(this))
    , m_copyButton(new QPushButton(tr("Copy as CSV"), this))
    , m_exportButton(new QPushButton(tr("Export Report…"), this))
    , m_liftTable(new QTableWidget(this))
    , m_twoPassRates(new TwoPassRatesPanel(this))
    , m_healthTable(new QTableWidget(this))
    , m_acrossList(new QListWidget(this))
    , m_acrossTable(new QTableWidget(this))
    , m_trendChart(new charts::ChartPanel(this))
    , m_changes(new CaseChangesModel(this))
    , m_changesView(new QTableView(this))
    , m_changesPage(new QWidget(this))
    , m_detail(new CaseDetailDialog(this))
{
    using charts::Metric;
    m_runCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_compareCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_runCombo->setToolTip(tr("The run to look at (newest first)"));
    m_compareCombo->setToolTip(tr("A second run to show beside it, e.g. another version of the skill"));
    m_splitCombo->setToolTip(tr("Which cases count: all, the training cases, the held-out cases, or both apart"));
    for (const Metric metric : {Metric::PassRate, Metric::Tokens, Metric::Cost, Metric::Latency})
        m_metricCombo->addItem(charts::metricName(metric), int(metric));
    m_scatterCombo->addItem(tr("Tokens"), int(Metric::Tokens));
    m_scatterCombo->addItem(tr("Cost"), int(Metric::Cost));
    m_scatterCombo->setToolTip(tr("Pass rate against mean tokens or mean cost per item: a small model with the skill "
                                  "that beats a large one without it, for less, sits up and to the left of it"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_verdicts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_verdicts->setWordWrap(true);

    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Run:"), this));
    controls->addWidget(m_runCombo);
    controls->addWidget(new QLabel(tr("Compare with:"), this));
    controls->addWidget(m_compareCombo);
    controls->addWidget(new QLabel(tr("Cases:"), this));
    controls->addWidget(m_splitCombo);
    controls->addWidget(new QLabel(tr("Bars:"), this));
    controls->addWidget(m_metricCombo);
    controls->addWidget(new QLabel(tr("Pass rate against:"), this));
    controls->addWidget(m_scatterCombo);
    controls->addStretch(1);
    controls->addWidget(m_exportButton);
    m_exportButton->setObjectName(QStringLiteral("exportReport"));
    m_exportButton->setToolTip(tr("A report of the runs shown: HTML, PDF, Markdown, CSV, JSON or JUnit"));
    connect(m_exportButton, &QPushButton::clicked, this, [this] {
        ExportReportDialog::exportRun(m_jobs, m_shown ? m_shown->dir : QString(),
                                      m_compared ? m_compared->dir : QString(),
                                      m_project ? m_project->runsPath() : QString(), this);
    });
    m_status->setForegroundRole(QPalette::PlaceholderText);

    for (charts::ChartPanel *panel : {m_barChart, m_scatterChart, m_liftChart})
        panel->setToolTip(tr("Hover a bar or point for its numbers; right-click to save the chart as PNG or SVG."));
    auto *chartRow = new QSplitter(Qt::Horizontal, this);
    chartRow->addWidget(m_barChart);
    chartRow->addWidget(m_scatterChart);
    chartRow->addWidget(m_liftChart);
    chartRow->setStretchFactor(0, 3);
    chartRow->setStretchFactor(1, 2);
    chartRow->setStretchFactor(2, 2);

    // The case matrix: flipped cases first until the user sorts otherwise.
    m_filter->setSourceModel(m_matrix);
    m_matrixView->setModel(m_filter);
    m_matrixView->setSortingEnabled(true);
    m_matrixView->sortByColumn(CaseMatrixModel::FlipsColumn, Qt::DescendingOrder);
    m_matrixView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_matrixView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_matrixView->verticalHeader()->hide();
    m_matrixView->setToolTip(tr("Click a case to read its transcripts without and with the skill side by side"));
    m_matrixView->horizontalHeader()->setDefaultAlignment(Qt::AlignCenter);
    m_filterCombo->addItem(tr("All cases"), int(CaseMatrixFilter::Show::All));
    m_filterCombo->addItem(tr("Failures"), int(CaseMatrixFilter::Show::Failures));
    m_filterCombo->addItem(tr("Flipped"), int(CaseMatrixFilter::Show::Flipped));
    m_filterCombo->addItem(tr("Errors"), int(CaseMatrixFilter::Show::Errors));
    m_filterCombo->addItem(tr("Held-out"), int(CaseMatrixFilter::Show::HeldOut));
    m_filterCombo->addItem(tr("Silent bypasses"), int(CaseMatrixFilter::Show::SilentBypass));
    m_filterCombo->setItemData(m_filterCombo->count() - 1,
                               tr("Cases with a with-skill repeat that never loaded the skill (○, ◐)"),
                               Qt::ToolTipRole);
    auto *matrixPage = new QWidget(this);
    auto *matrixBar = new QHBoxLayout;
    matrixBar->addWidget(new QLabel(tr("Show:"), matrixPage));
    matrixBar->addWidget(m_filterCombo);
    matrixBar->addStretch();
    matrixBar->addWidget(m_copyButton);
    auto *matrixLayout = new QVBoxLayout(matrixPage);
    matrixLayout->setContentsMargins(4, 4, 4, 4);
    matrixLayout->addLayout(matrixBar);
    matrixLayout->addWidget(m_matrixView, 1);
    auto *copy = new QShortcut(QKeySequence::Copy, m_matrixView);
    copy->setContext(Qt::WidgetWithChildrenShortcut);
    connect(copy, &QShortcut::activated, m_copyButton, &QPushButton::click);
    connect(m_copyButton, &QPushButton::clicked, this, [this] {
        QGuiApplication::clipboard()->setText(matrixCsv());
        StatusMessages::show(tr("Copied the case matrix as CSV"));
    });

    m_liftTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_liftTable->verticalHeader()->hide();
    m_liftTable->setSortingEnabled(true);

    m_changesView->setModel(m_changes);
    m_changesView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_changesView->verticalHeader()->hide();
    m_changesView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto *changesLayout = new QVBoxLayout(m_changesPage);
    changesLayout->setContentsMargins(4, 4, 4, 4);
    changesLayout->addWidget(m_changesView);

    m_tabs->addTab(matrixPage, tr("Case matrix"));
    // The verdicts above the lift they come from; the status line names them in a word each.
    auto *liftPage = new QWidget(this);
    auto *liftLayout = new QVBoxLayout(liftPage);
    liftLayout->setContentsMargins(4, 4, 4, 4);
    {
        // The thresholds, in view and editable: they are the settings every verdict (reports, eval) uses.
        auto *thresholds = new QHBoxLayout;
        thresholds->addWidget(new QLabel(tr("Keep when the lift is above"), liftPage));
        m_minLiftSpin->setRange(0, 100);
        m_minLiftSpin->setDecimals(1);
        m_minLiftSpin->setSuffix(tr(" pp"));
        m_minLiftSpin->setValue(m_thresholds.minLift * 100);
        thresholds->addWidget(m_minLiftSpin);
        thresholds->addWidget(new QLabel(tr("with its interval above 0; can't tell yet under"), liftPage));
        m_minPairsSpin->setRange(1, 100000);
        m_minPairsSpin->setValue(m_thresholds.minPairs);
        m_minPairsSpin->setSuffix(tr(" paired cases"));
        thresholds->addWidget(m_minPairsSpin);
        thresholds->addStretch(1);
        liftLayout->addLayout(thresholds);
        const auto changed = [this] {
            const VerdictThresholds chosen{m_minLiftSpin->value() / 100, m_minPairsSpin->value()};
            AppSettings().setVerdictThresholds(chosen);
            setVerdictThresholds(chosen);
        };
        connect(m_minLiftSpin, &QDoubleSpinBox::valueChanged, this, changed);
        connect(m_minPairsSpin, &QSpinBox::valueChanged, this, changed);
    }
    liftLayout->addWidget(m_verdicts);
    liftLayout->addWidget(m_twoPassRates);
    liftLayout->addWidget(m_liftTable, 1);
    m_tabs->addTab(liftPage, tr("Verdicts and lift"));
    m_healthTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_healthTable->verticalHeader()->hide();
    m_healthTable->setSortingEnabled(true);
    m_healthTable->setWordWrap(false);
    m_tabs->addTab(m_healthTable, tr("Suite health"));
    m_tabs->addTab(m_changesPage, tr("Changes between runs"));
    {
        // Any number of runs: check them on the left; the matrix and the trend follow.
        auto *acrossPage = new QSplitter(Qt::Horizontal, this);
        m_acrossList->setToolTip(tr("The runs to put side by side (skill versions, teachers, models)"));
        m_acrossTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
        acrossPage->addWidget(m_acrossList);
        acrossPage->addWidget(m_acrossTable);
        acrossPage->addWidget(m_trendChart);
        acrossPage->setStretchFactor(1, 2);
        acrossPage->setStretchFactor(2, 2);
        m_tabs->addTab(acrossPage, tr("Across runs"));
        connect(m_acrossList, &QListWidget::itemChanged, this, [this] { fillAcrossRuns(); });
    }
    m_tabs->setTabVisible(m_tabs->indexOf(m_changesPage), false);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(chartRow);
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({480, 320});
    auto *content = new QWidget(this);
    auto *contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(6, 6, 6, 6);
    contentLayout->addLayout(controls);
    contentLayout->addWidget(m_status);
    contentLayout->addWidget(split, 1);

    m_stack->addWidget(m_empty);
    m_stack->addWidget(content);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    connect(m_runCombo, &QComboBox::currentIndexChanged, this, &CompareView::requestRuns);
    connect(m_compareCombo, &QComboBox::currentIndexChanged, this, &CompareView::requestRuns);
    connect(m_splitCombo, &QComboBox::currentIndexChanged, this, [this] {
        if (m_shown)
            rebuild();
    });
    connect(m_metricCombo, &QComboBox::currentIndexChanged, this, [this] {
        if (m_shown)
            rebuildCharts();
    });
    connect(m_scatterCombo, &QComboBox::currentIndexChanged, this, [this] {
        if (m_shown)
            rebuildCharts();
    });
    connect(m_filterCombo, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setShow(CaseMatrixFilter::Show(m_filterCombo->currentData().toInt())); });
    connect(m_matrixView, &QTableView::clicked, this, &CompareView::openCell);
    connect(m_detail, &CaseDetailDialog::traceRequested, this, &ViewPage::traceRequested);
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
    m_detail->hide();
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
    const QString run = m_runCombo->currentData().toString();
    const QString compared = m_compareCombo->currentData().toString();
    const QList<RunListEntry> runs = m_project ? listRuns(m_project->runsPath()) : QList<RunListEntry>();
    fillRunCombo(m_runCombo, runs, run);
    fillRunCombo(m_compareCombo, runs, compared, tr("(no second run)"));
    {
        QSet<QString> checked;
        for (int i = 0; i < m_acrossList->count(); ++i) {
            if (m_acrossList->item(i)->checkState() == Qt::Checked)
                checked.insert(m_acrossList->item(i)->data(Qt::UserRole).toString());
        }
        const QSignalBlocker block(m_acrossList);
        m_acrossList->clear();
        for (int i = 0; i < m_runCombo->count(); ++i) {
            auto *item = new QListWidgetItem(m_runCombo->itemText(i), m_acrossList);
            item->setData(Qt::UserRole, m_runCombo->itemData(i));
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(checked.contains(m_runCombo->itemData(i).toString()) ? Qt::Checked : Qt::Unchecked);
        }
    }
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

void CompareView::openPath(const QString &path)
{
    reloadRunList();
    for (int i = 0; i < m_runCombo->count(); ++i) {
        if (QDir(m_runCombo->itemData(i).toString()) == QDir(path))
            m_runCombo->setCurrentIndex(i);
    }
}

void CompareView::showRuns(const QString &run, const QString &comparedWith)
{
    const QSignalBlocker block(m_compareCombo);
    m_compareCombo->setCurrentIndex(std::max(0, m_compareCombo->findData(comparedWith)));
    const int index = m_runCombo->findData(run);
    if (index == m_runCombo->currentIndex())
        requestRuns();
    else
        m_runCombo->setCurrentIndex(index);
}

void CompareView::setSplit(Split split)
{
    const int index = m_splitCombo->findData(int(split));
    if (index >= 0)
        m_splitCombo->setCurrentIndex(index);
}

void CompareView::setMetric(charts::Metric metric)
{
    m_metricCombo->setCurrentIndex(m_metricCombo->findData(int(metric)));
}

void CompareView::setScatterAxis(charts::Metric metric)
{
    m_scatterCombo->setCurrentIndex(std::max(0, m_scatterCombo->findData(int(metric))));
}

bool CompareView::isBusy() const
{
    return !m_loading.isEmpty();
}

QString CompareView::loadError() const
{
    QStringList errors;
    for (const QString &dir : {m_runCombo->currentData().toString(), m_compareCombo->currentData().toString()}) {
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
        fillAcrossRuns();
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
    const QString run = m_runCombo->currentData().toString();
    QString compared = m_compareCombo->currentData().toString();
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
    for (charts::ChartPanel *panel : {m_barChart, m_scatterChart, m_liftChart})
        panel->setSaveHints(m_shown ? m_shown->manifest.skillName : QString(),
                            m_project ? m_project->rootPath() : QString());
    if (!m_shown) {
        m_matrix->setAnalysis(nullptr);
        m_status->setText(error);
        return;
    }
    rebuild();
    if (!error.isEmpty())
        m_status->setText(error);
}

QStringList CompareView::splits() const
{
    switch (Split(m_splitCombo->currentData().toInt())) {
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
    const bool hasHeldOut = std::any_of(m_shown->summary.arms.begin(), m_shown->summary.arms.end(),
                                        [](const ArmSummary &a) { return a.split == u"heldout"; });
    {
        const QSignalBlocker block(m_splitCombo);
        const QVariant current = m_splitCombo->currentData();
        m_splitCombo->clear();
        m_splitCombo->addItem(tr("All cases"), int(Split::All));
        if (hasHeldOut) {
            m_splitCombo->addItem(tr("Train"), int(Split::Train));
            m_splitCombo->addItem(tr("Held-out"), int(Split::HeldOut));
            m_splitCombo->addItem(tr("Train and held-out apart"), int(Split::Apart));
        }
        m_splitCombo->setCurrentIndex(std::max(0, m_splitCombo->findData(current)));
    }

    if (m_matrix->analysis() != m_shown.get()) {
        m_matrix->setAnalysis(m_shown);
        m_matrixView->resizeColumnsToContents();
    }
    const QStringList shownSplits = splits();
    m_filter->setSplits(shownSplits == QStringList{QStringLiteral("all")} ? QStringList() : shownSplits);

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
    const QString prices = tr("Costs are priced as each request was made. Prices %1").arg(runPricesText(m));
    for (charts::ChartPanel *panel : {m_barChart, m_scatterChart})
        panel->setToolTip(prices);
    rebuildCharts();
    fillLiftTable();
    fillVerdicts();
    fillHealthTable();

    if (m_compared) {
        // Changes read from the earlier run to the later one, whichever was picked first.
        const bool shownFirst = m_shown->manifest.startedAt <= m_compared->manifest.startedAt;
        const RunAnalysis &before = shownFirst ? *m_shown : *m_compared;
        const RunAnalysis &after = shownFirst ? *m_compared : *m_shown;
        m_changes->setChanges(diffCaseMatrices(before.matrix, after.matrix), before.label(), after.label());
    } else {
        m_changes->setChanges({}, {}, {});
    }
    m_tabs->setTabVisible(m_tabs->indexOf(m_changesPage), m_compared != nullptr);
    Q_EMIT runsShown();
}

void CompareView::rebuildCharts()
{
    QList<charts::ChartRun> runs{{m_shown->label(), &m_shown->summary}};
    if (m_compared)
        runs.append({m_compared->label(), &m_compared->summary});
    const QStringList shownSplits = splits();
    const auto metric = charts::Metric(m_metricCombo->currentData().toInt());
    m_barChart->replaceChart(charts::makeArmBarChart(charts::armBarData(runs, shownSplits, metric)));
    const auto scatterAxis = charts::Metric(m_scatterCombo->currentData().toInt());
    m_scatterChart->replaceChart(
        charts::makeScatterChart(charts::scatterData(runs, shownSplits, scatterAxis), scatterAxis));
    m_liftChart->replaceChart(charts::makeLiftChart(charts::liftData(runs, shownSplits)));
}

void CompareView::fillLiftTable()
{
    const QStringList shownSplits = splits();
    m_liftTable->setSortingEnabled(false);
    m_liftTable->clear();
    m_liftTable->setRowCount(0);
    m_liftTable->setColumnCount(11);
    m_liftTable->setHorizontalHeaderLabels({tr("Run"), tr("Model"), tr("Cases"), tr("Lift (pp)"), tr("Pairs"),
                                            tr("p (exact McNemar)"), tr("Flipped to pass"), tr("Flipped to fail"),
                                            tr("95% interval (pp)"), tr("Verdict"), tr("Skill loaded")});
    m_liftTable->horizontalHeaderItem(LiftSkillLoadedColumn)
        ->setToolTip(tr("With-skill items that loaded the skill (those that ended in an error not counted), with the "
                        "Wilson 95% interval. The rest are silent bypasses: their outcomes say nothing about the "
                        "skill's content."));
    bool activation = false;
    const QLocale locale;
    for (const RunAnalysis *run : {m_shown.get(), m_compared.get()}) {
        if (!run)
            continue;
        const QList<Verdict> verdicts = decideVerdicts(run->summary, m_thresholds);
        for (const ArmComparison &c : run->summary.comparisons) {
            if (!shownSplits.contains(c.split))
                continue;
            const int row = m_liftTable->rowCount();
            m_liftTable->insertRow(row);
            m_liftTable->setItem(row, 0, cell(run->label()));
            m_liftTable->setItem(row, 1, cell(c.model));
            m_liftTable->setItem(row, 2, cell(charts::splitName(c.split)));
            m_liftTable->setItem(row, 3,
                                 cell(QStringLiteral("%1%2").arg(c.lift > 0 ? QStringLiteral("+") : QString(),
                                                                 locale.toString(c.lift * 100, 'f', 1))));
            m_liftTable->setItem(row, 4, cell(QString::number(c.table.pairs())));
            m_liftTable->setItem(row, 5, cell(QString::number(c.pValue, 'g', 3)));
            m_liftTable->setItem(row, 6, cell(QString::number(c.table.onlySecond)));
            m_liftTable->setItem(row, 7, cell(QString::number(c.table.onlyFirst)));
            m_liftTable->setItem(row, 8,
                                 cell(QStringLiteral("%1 to %2")
                                          .arg(locale.toString(c.liftCi.low * 100, 'f', 1),
                                               locale.toString(c.liftCi.high * 100, 'f', 1))));
            // The verdict stands on the row of the cases that decided it (held-out ones where there are any).
            for (const Verdict &v : verdicts) {
                if (v.model == c.model && v.split == c.split) {
                    QTableWidgetItem *item = cell(v.word());
                    item->setToolTip(v.reason());
                    m_liftTable->setItem(row, 9, item);
                }
            }
            // Beside the lift: how often the skill was loaded at all (agent CLIs, the agentic loop).
            if (const ArmSummary *withSkill = run->summary.arm(c.model, kWithSkillArm, c.split);
                withSkill && withSkill->triggerRate) {
                m_liftTable->setItem(row, LiftSkillLoadedColumn, cell(skillLoadedText(*withSkill->triggerRate)));
                activation = true;
            }
        }
    }
    m_twoPassRates->setRuns(m_compared ? QList<const RunAnalysis *>{m_shown.get(), m_compared.get()}
                                       : QList<const RunAnalysis *>{m_shown.get()},
                            splits());
    m_liftTable->setColumnHidden(0, !m_compared);
    m_liftTable->setColumnHidden(LiftSkillLoadedColumn, !activation);
    m_liftTable->resizeColumnsToContents();
}

void CompareView::setVerdictThresholds(const VerdictThresholds &thresholds)
{
    m_thresholds = thresholds;
    {
        const QSignalBlocker blockLift(m_minLiftSpin);
        const QSignalBlocker blockPairs(m_minPairsSpin);
        m_minLiftSpin->setValue(thresholds.minLift * 100);
        m_minPairsSpin->setValue(thresholds.minPairs);
    }
    if (m_shown) {
        fillLiftTable();
        fillVerdicts();
    }
    fillAcrossRuns();
}

void CompareView::setAcrossRuns(const QStringList &dirs)
{
    {
        const QSignalBlocker block(m_acrossList);
        for (int i = 0; i < m_acrossList->count(); ++i) {
            QListWidgetItem *item = m_acrossList->item(i);
            item->setCheckState(dirs.contains(item->data(Qt::UserRole).toString()) ? Qt::Checked : Qt::Unchecked);
        }
    }
    fillAcrossRuns();
}

void CompareView::fillAcrossRuns()
{
    QList<const RunAnalysis *> runs;
    int reading = 0;
    for (int i = 0; i < m_acrossList->count(); ++i) {
        if (m_acrossList->item(i)->checkState() != Qt::Checked)
            continue;
        const QString dir = m_acrossList->item(i)->data(Qt::UserRole).toString();
        load(dir);
        if (const auto analysis = m_cache.value(dir))
            runs.append(analysis.get());
        else
            reading += m_loading.contains(dir) ? 1 : 0;
    }
    const LiftAcrossRuns across = liftAcrossRuns(runs, m_thresholds);
    m_acrossTable->clear();
    m_acrossTable->setRowCount(int(across.models.size()));
    m_acrossTable->setColumnCount(int(across.runs.size()));
    QStringList headers;
    for (const RunAnalysis *run : across.runs)
        headers.append(run->label());
    m_acrossTable->setHorizontalHeaderLabels(headers);
    m_acrossTable->setVerticalHeaderLabels(across.models);
    const QLocale locale;
    for (int m = 0; m < across.models.size(); ++m) {
        for (int r = 0; r < across.runs.size(); ++r) {
            const auto &cell = across.cells[m][r];
            auto *item = new QTableWidgetItem(
                cell ? tr("%1 [%2, %3] · %4")
                           .arg(QStringLiteral("%1%2").arg(cell->lift > 0 ? QStringLiteral("+") : QString(),
                                                           locale.toString(cell->lift * 100, 'f', 1)),
                                locale.toString(cell->liftCi.low * 100, 'f', 1),
                                locale.toString(cell->liftCi.high * 100, 'f', 1),
                                cell->split == u"heldout" ? cell->word() + tr(" (held-out cases)") : cell->word())
                     : tr("not measured"));
            if (cell)
                item->setToolTip(cell->reason());
            m_acrossTable->setItem(m, r, item);
        }
    }
    m_acrossTable->resizeColumnsToContents();
    m_acrossTable->setToolTip(reading > 0 ? tr("Reading %n more run(s)…", nullptr, reading)
                                          : tr("Lift in percentage points [95% interval] and the verdict, per model "
                                               "and run; thresholds: %1")
                                                .arg(m_thresholds.describe()));
    m_trendChart->replaceChart(charts::makeLiftTrendChart(across));
}

void CompareView::fillHealthTable()
{
    m_healthTable->setSortingEnabled(false);
    m_healthTable->clear();
    m_healthTable->setColumnCount(4);
    m_healthTable->setHorizontalHeaderLabels({tr("Finding"), tr("Case"), tr("Where"), tr("Detail")});
    QList<SuiteHealthFinding> findings = suiteHealthFindings(diagnoseSuite(*m_shown));
    // The contamination check: whether the arms compared like with like.
    if (const auto it = m_contamination.constFind(m_shown->dir); it != m_contamination.cend()) {
        findings.append({tr("contamination check"), QString(), tr("both arms"), it->summary()});
        for (const ContaminationReport::Leak &leak : it->leaks)
            findings.append({tr("skill text in baseline"), leak.item.section(u'|', 2, 2), leak.item,
                             tr("%1: \"%2\"").arg(leak.where, leak.line)});
    }
    m_healthTable->setRowCount(int(findings.size()));
    for (int row = 0; row < findings.size(); ++row) {
        const SuiteHealthFinding &f = findings[row];
        const QStringList texts{f.kind, f.caseId, f.where, f.detail};
        for (int column = 0; column < texts.size(); ++column) {
            auto *item = new QTableWidgetItem(texts[column]);
            item->setToolTip(f.detail);
            m_healthTable->setItem(row, column, item);
        }
    }
    m_healthTable->resizeColumnsToContents();
    m_healthTable->setSortingEnabled(true);
    m_tabs->setTabText(m_tabs->indexOf(m_healthTable),
                       findings.isEmpty() ? tr("Suite health") : tr("Suite health (%1)").arg(findings.size()));
    m_tabs->setTabToolTip(m_tabs->indexOf(m_healthTable),
                          tr("Computed from the shown run's results: checks that pass or fail in both arms every time "
                             "(they measure nothing), cases where the skill hurts, cases whose repeats disagree, and "
                             "items far out in time or tokens"));
}

void CompareView::fillVerdicts()
{
    QStringList lines;
    QStringList words;
    const QList<const RunAnalysis *> runs{m_shown.get(), m_compared.get()};
    for (const RunAnalysis *run : runs) {
        if (!run)
            continue;
        for (const Verdict &v : decideVerdicts(run->summary, m_thresholds)) {
            if (run == m_shown.get())
                words.append(QStringLiteral("%1 %2").arg(v.model, v.word()));
            QString line = tr("<b>%1</b> — %2").arg(v.model.toHtmlEscaped(), v.reason().toHtmlEscaped());
            // A lift from items that never read the skill says nothing about it: how often it was loaded, beside it.
            if (const ArmSummary *withSkill = run->summary.arm(v.model, kWithSkillArm, v.split);
                withSkill && withSkill->triggerRate)
                line += QStringLiteral("; ") + skillLoadedText(*withSkill->triggerRate).toHtmlEscaped();
            if (m_compared)
                line = run->label().toHtmlEscaped() + QStringLiteral(" · ") + line;
            lines.append(line);
        }
    }
    if (lines.isEmpty()) {
        m_status->setText(m_statusFacts);
        m_verdicts->clear();
        m_verdicts->setToolTip({});
        return;
    }
    m_status->setText(m_statusFacts + tr(" · verdicts: %1").arg(words.join(QStringLiteral(", "))));
    m_verdicts->setText(tr("Verdicts: ") + lines.join(QStringLiteral("<br>")) +
                        tr("<br><small>Thresholds: %1.</small>").arg(m_thresholds.describe().toHtmlEscaped()));
    m_verdicts->setToolTip(tr("Decided on the held-out cases where the run has any, from Newcombe's paired interval "
                              "of the lift"));
}

QString CompareView::matrixCsv() const
{
    return tableToCsv(*m_filter);
}

void CompareView::openCell(const QModelIndex &index)
{
    const QModelIndex source = m_filter->mapToSource(index);
    // A click on the case's name, split or flips opens it too, on the first model's transcripts.
    const CaseColumn *column = m_matrix->matrixColumn(std::max<int>(source.column(), CaseMatrixModel::FirstCellColumn));
    if (!column || !m_shown || !source.isValid())
        return;
    const QString caseId = m_matrix->index(source.row(), CaseMatrixModel::CaseNameColumn).data().toString();
    m_detail->showCase(m_shown, column->model, caseId);
    m_detail->show();
    m_detail->raise();
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
        rebuildCharts();
        m_matrix->refreshColours();
    }
}

} // namespace sf
