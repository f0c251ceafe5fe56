#include "trace/TraceView.h"

#include "common/EmptyState.h"
#include "common/Plural.h"
#include "common/StatusMessages.h"
#include "project/Project.h"
#include "trace/ContextChart.h"
#include "trace/SessionBrowserDialog.h"
#include "trace/StepDelegate.h"
#include "trace/StepDetailView.h"
#include "trace/TraceExport.h"
#include "trace/TraceFilterModel.h"
#include "trace/TraceImport.h"
#include "trace/TraceLoader.h"
#include "trace/TraceSelection.h"
#include "trace/TraceTextFinder.h"
#include "trace/TraceTimelineModel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QShortcut>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace sf {

using namespace Qt::StringLiterals;

TraceView::TraceView(QWidget *parent)
    : ViewPage(parent)
    , m_loader(new TraceLoader(this))
    , m_model(new TraceTimelineModel(this))
    , m_filter(new TraceFilterModel(this))
    , m_stack(new QStackedWidget(this))
    , m_empty(new EmptyState(this))
    , m_header(new QLabel(this))
    , m_tree(new QTreeView(this))
    , m_detail(new StepDetailView(this))
    , m_chart(new ContextChart(this))
    , m_findRow(new QWidget(this))
    , m_findInput(new QLineEdit(this))
    , m_findStatus(new QLabel(this))
    , m_selectionStatus(new QLabel(this))
{
    setAcceptDrops(true);
    m_empty->setText(tr("No trace open"),
                     tr("Choose a trace in the project sidebar, open a file, drop one here, or browse the "
                        "Claude Code and Codex sessions on this computer. Claude Code, Codex, OpenAI messages, "
                        "fast-agent, smolagents, inspect_ai, ATIF and upskill runs are read."));
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_header->setContentsMargins(6, 4, 6, 4);

    m_filter->setSourceModel(m_model);
    // What find counts depends on what the filter shows: any change of it makes the next find count again.
    const auto forgetMatches = [this] { m_findMatchesValid = false; };
    connect(m_filter, &QAbstractItemModel::modelReset, this, forgetMatches);
    connect(m_filter, &QAbstractItemModel::layoutChanged, this, forgetMatches);
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, forgetMatches);
    connect(m_filter, &QAbstractItemModel::rowsRemoved, this, forgetMatches);
    m_tree->setModel(m_filter);
    m_tree->setItemDelegate(new StepDelegate(m_tree));
    m_tree->setUniformRowHeights(true); // what keeps a million rows smooth
    m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_tree->setAllColumnsShowFocus(true);
    m_tree->setAccessibleName(tr("Trace timeline"));
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(TraceTimelineModel::StepColumn, QHeaderView::Stretch);
    for (int column :
         {TraceTimelineModel::TokensColumn, TraceTimelineModel::TotalColumn, TraceTimelineModel::CostColumn,
          TraceTimelineModel::TotalCostColumn, TraceTimelineModel::ModelColumn})
        m_tree->header()->setSectionResizeMode(column, QHeaderView::Interactive);
    m_tree->header()->resizeSection(TraceTimelineModel::TokensColumn, 130);
    m_tree->header()->resizeSection(TraceTimelineModel::TotalColumn, 100);
    m_tree->header()->resizeSection(TraceTimelineModel::CostColumn, 80);
    m_tree->header()->resizeSection(TraceTimelineModel::TotalCostColumn, 90);
    m_tree->header()->resizeSection(TraceTimelineModel::ModelColumn, 150);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &TraceView::showCurrentStep);
    connect(m_tree->selectionModel(), &QItemSelectionModel::selectionChanged, this, &TraceView::updateActions);

    auto *toolbar = new QWidget(this);
    createToolbar(toolbar);

    auto *findLayout = new QHBoxLayout(m_findRow);
    findLayout->setContentsMargins(6, 2, 6, 2);
    auto *previous = new QToolButton(m_findRow);
    previous->setText(tr("Previous"));
    auto *next = new QToolButton(m_findRow);
    next->setText(tr("Next"));
    auto *close = new QToolButton(m_findRow);
    close->setText(tr("Close"));
    m_findInput->setPlaceholderText(tr("Find in every step, folded ones too"));
    m_findInput->setClearButtonEnabled(true);
    findLayout->addWidget(m_findInput, 1);
    findLayout->addWidget(previous);
    findLayout->addWidget(next);
    findLayout->addWidget(m_findStatus);
    findLayout->addWidget(close);
    m_findRow->setVisible(false);
    connect(m_findInput, &QLineEdit::returnPressed, this,
            [this] { findNext(m_findInput->text(), QApplication::keyboardModifiers() & Qt::ShiftModifier); });
    connect(next, &QToolButton::clicked, this, [this] { findNext(m_findInput->text()); });
    connect(previous, &QToolButton::clicked, this, [this] { findNext(m_findInput->text(), true); });
    connect(close, &QToolButton::clicked, m_findRow, &QWidget::hide);
    auto *escape = new QShortcut(QKeySequence(Qt::Key_Escape), m_findRow);
    escape->setContext(Qt::WidgetWithChildrenShortcut);
    connect(escape, &QShortcut::activated, m_findRow, &QWidget::hide);
    auto *findNextKey = new QShortcut(QKeySequence::FindNext, this);
    connect(findNextKey, &QShortcut::activated, this, [this] { findNext(m_findInput->text()); });
    auto *findPreviousKey = new QShortcut(QKeySequence::FindPrevious, this);
    connect(findPreviousKey, &QShortcut::activated, this, [this] { findNext(m_findInput->text(), true); });

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_tree);
    splitter->addWidget(m_detail);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    auto *page = new QWidget(this);
    auto *pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    pageLayout->setSpacing(0);
    pageLayout->addWidget(m_header);
    pageLayout->addWidget(m_chart);
    pageLayout->addWidget(splitter, 1);
    pageLayout->addWidget(m_findRow);
    pageLayout->addWidget(m_selectionStatus);
    m_chart->setMaximumHeight(150);
    m_chart->setVisible(false);

    m_stack->addWidget(m_empty);
    m_stack->addWidget(page);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(toolbar);
    layout->addWidget(m_stack, 1);

    connect(m_loader, &TraceLoader::loaded, this, [this](const QString &path, std::shared_ptr<const Trace> trace) {
        if (path != m_path)
            return;
        showTrace(std::move(trace));
        Q_EMIT loaded(path);
    });
    connect(m_loader, &TraceLoader::failed, this, [this](const QString &path, const QString &error) {
        if (path != m_path)
            return;
        showTrace(nullptr);
        m_header->setText(
            tr("Could not import %1: %2").arg(QFileInfo(path).fileName().toHtmlEscaped(), error.toHtmlEscaped()));
        Q_EMIT loadFailed(path, error);
    });
    connect(m_loader, &TraceLoader::cancelled, this, [this](const QString &path) {
        if (path == m_path)
            m_header->setText(tr("Import of %1 cancelled.").arg(QFileInfo(path).fileName().toHtmlEscaped()));
    });
    updateActions();
}

TraceView::~TraceView() = default;

void TraceView::createToolbar(QWidget *toolbar)
{
    auto *layout = new QHBoxLayout(toolbar);
    layout->setContentsMargins(4, 2, 4, 2);
    auto button = [toolbar, layout](const QString &text, const QString &tip) {
        auto *b = new QToolButton(toolbar);
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        layout->addWidget(b);
        return b;
    };
    connect(button(tr("Open…"), tr("Open a trace file")), &QToolButton::clicked, this, &TraceView::chooseFile);
    connect(button(tr("Agent sessions…"), tr("Browse the Claude Code and Codex sessions on this computer")),
            &QToolButton::clicked, this, &TraceView::browseSessions);

    m_kindsButton = button(tr("Kinds"), tr("Show or hide steps by kind"));
    m_kindsButton->setPopupMode(QToolButton::InstantPopup);
    auto *kinds = new QMenu(m_kindsButton);
    for (int k = 0; k < StepKindCount; ++k) {
        QAction *action = kinds->addAction(StepDelegate::kindLabel(k));
        action->setCheckable(true);
        action->setChecked(true);
        connect(action, &QAction::toggled, this, [this, k](bool on) {
            m_filter->setKindVisible(StepKind(k), on);
            filterChanged();
        });
    }
    m_kindsButton->setMenu(kinds);

    m_toolCombo = new QComboBox(toolbar);
    m_toolCombo->setToolTip(tr("Show only the calls and results of one tool"));
    m_toolCombo->addItem(tr("All tools"), QString());
    connect(m_toolCombo, &QComboBox::currentIndexChanged, this,
            [this] {
                m_filter->setToolName(m_toolCombo->currentData().toString());
                filterChanged();
            });
    layout->addWidget(m_toolCombo);
    m_filterStatus = new QLabel(toolbar);
    m_filterStatus->setObjectName(QStringLiteral("filterStatus"));
    m_filterStatus->setVisible(false);
    layout->addWidget(m_filterStatus);
    m_showAllButton = button(tr("Show all"), tr("Show every kind of step and every tool again"));
    m_showAllButton->setVisible(false);
    connect(m_showAllButton, &QToolButton::clicked, this, &TraceView::clearFilters);

    QToolButton *thinking = button(tr("Show thinking"), tr("Unfold thinking in the timeline"));
    thinking->setCheckable(true);
    connect(thinking, &QToolButton::toggled, this, &TraceView::setThinkingExpanded);
    layout->addStretch(1);

    m_copyButton = button(tr("Copy as Markdown"), tr("Copy the selected steps as Markdown"));
    m_copyButton->setObjectName(QStringLiteral("copySelection"));
    connect(m_copyButton, &QToolButton::clicked, this,
            [this] {
                QApplication::clipboard()->setText(selectionAsMarkdown());
                const int steps = int(selectedSteps().size());
                StatusMessages::show(plural(steps, tr("Copied 1 step as Markdown"), tr("Copied %n steps as Markdown")));
            });
    m_useButton = button(tr("Use for skill generation"),
                         tr("Keep the selected steps with the project (traces/.selections/) as the source for "
                            "generating a skill"));
    connect(m_useButton, &QToolButton::clicked, this, [this] {
        const QString error = useSelectionForGeneration();
        if (!error.isEmpty())
            m_selectionStatus->setText(error);
    });
}

void TraceView::setProject(const Project *project)
{
    m_projectRoot = project ? project->rootPath() : QString();
    m_path.clear();
    m_loader->cancel();
    showTrace(nullptr);
    m_stack->setCurrentWidget(m_empty);
}

void TraceView::openPath(const QString &path)
{
    if (path == m_path && (m_model->trace() || m_loader->isRunning()))
        return;
    m_path = path;
    m_stack->setCurrentIndex(1);
    showTrace(nullptr);
    m_header->setText(tr("Importing %1…").arg(QFileInfo(path).fileName().toHtmlEscaped()));
    m_loader->load(path, QString(), m_jobs);
}

QPlainTextEdit *TraceView::textEditor() const
{
    return m_detail->primaryEditor();
}

void TraceView::activateFind()
{
    if (m_stack->currentIndex() != 1)
        return;
    m_findRow->setVisible(true);
    m_findInput->setFocus();
    m_findInput->selectAll();
}

bool TraceView::isBusy() const
{
    return m_loader->isRunning();
}

const Trace *TraceView::trace() const
{
    return m_model->trace();
}

QString TraceView::statusText() const
{
    return m_header->text();
}

void TraceView::showTrace(std::shared_ptr<const Trace> trace)
{
    m_model->setTrace(trace);
    m_detail->setTrace(trace);
    m_chart->setTrace(trace.get());
    m_findPosition = 0;
    m_findShown = false;
    m_findMatchesValid = false;
    m_findStatus->clear();
    m_selectionStatus->clear();
    {
        const QSignalBlocker blocker(m_toolCombo);
        m_toolCombo->clear();
        m_toolCombo->addItem(tr("All tools"), QString());
        m_filter->setToolName(QString());
    }
    if (!trace) {
        m_header->clear();
        m_header->setToolTip(QString());
        updateActions();
        return;
    }
    const TraceStats stats = TraceStats::of(*trace);
    for (const auto &[name, count] : stats.toolCalls)
        m_toolCombo->addItem(QStringLiteral("%1 (%2)").arg(name).arg(count), name);
    const QLocale locale;
    const TokenUsage &u = stats.usage;
    QString header =
        QStringLiteral("<b>%1</b> — %2")
            .arg((trace->title.isEmpty() ? QFileInfo(trace->path).fileName() : trace->title).toHtmlEscaped(),
                 trace->format);
    header += plural(stats.threads, tr("<br>1 thread, %2 turns, %3 steps, %4 tool calls (%5 failed)"),
                     tr("<br>%n threads, %2 turns, %3 steps, %4 tool calls (%5 failed)"))
                  .arg(locale.toString(stats.turns), locale.toString(stats.steps),
                       locale.toString(stats.stepsByKind[int(StepKind::ToolCall)]), locale.toString(stats.toolErrors));
    header += tr("<br>Tokens: input %1 (uncached %2, cache read %3, cache write %4) · output %5 (reasoning %6)")
                  .arg(locale.toString(u.totalInput()), locale.toString(u.uncachedInput), locale.toString(u.cacheRead),
                       locale.toString(u.cacheWrite5m + u.cacheWrite1h), locale.toString(u.output),
                       locale.toString(u.reasoning));
    const TraceCost &cost = m_model->cost();
    if (cost.hasCost())
        header += tr(" · cost %1 by the pricing table").arg(formatUsd(cost.totalUsd));
    if (cost.unpricedTurns > 0)
        header += plural(cost.unpricedTurns, tr(" (1 turn not priced: no price for %1)"), tr(" (%n turns not priced: no price for %1)"))
                      .arg(cost.unpricedModels.join(u", "_s).toHtmlEscaped());
    if (trace->reportedCostUsd)
        header += tr(" · cost $%1 (logged by the source)").arg(*trace->reportedCostUsd, 0, 'f', 4);
    if (trace->skippedCount > 0) {
        QStringList reasons;
        for (size_t i = 0; i < std::min<size_t>(trace->skipped.size(), 20); ++i)
            reasons << (trace->skipped[i].line > 0
                            ? tr("line %1: %2").arg(trace->skipped[i].line).arg(trace->skipped[i].reason)
                            : trace->skipped[i].reason);
        header +=
            plural(trace->skippedCount, tr("<br><span style='color:#c62828'>1 record skipped</span>: %1"), tr("<br><span style='color:#c62828'>%n records skipped</span>: %1"))
                .arg(reasons.join(u"; "_s).toHtmlEscaped());
    }
    // How the totals above relate to the file's own (e.g. an ATIF file's final_metrics), when they differ.
    for (const QString &note : std::as_const(trace->notes))
        header += tr("<br>Note: %1").arg(note.toHtmlEscaped());
    m_header->setText(header);
    // Where each price came from, for whoever wonders about a figure (the cost cells say it per turn).
    m_header->setToolTip(cost.priceSources.isEmpty() ? QString()
                                                     : tr("Priced as:\n%1").arg(cost.priceSources.join(u'\n')));
    if (m_model->rowCount() > 0)
        m_tree->setCurrentIndex(m_filter->index(0, 0));
    restoreSelection();
    updateActions();
}

void TraceView::showCurrentStep()
{
    const QModelIndex current = m_tree->currentIndex();
    if (!current.isValid()) {
        m_detail->showStep(-1, -1);
        return;
    }
    m_detail->showStep(current.data(TraceTimelineModel::ThreadRole).toInt(),
                       current.data(TraceTimelineModel::StepRole).toInt());
}

void TraceView::collectMatches(const QString &text)
{
    // Every step the filter shows whose text, tool input or tool name holds the query, in timeline order; kept
    // until the query, the filter or the trace changes, so Next and Previous walk the same list and it can be counted.
    m_findMatches.clear();
    m_findQuery = text;
    m_findMatchesValid = true;
    const Trace *trace = m_model->trace();
    if (!trace)
        return;
    const auto &order = m_model->displayOrder();
    const TraceTextFinder finder(text, Qt::CaseInsensitive);
    for (size_t i = 0; i < order.size(); ++i) {
        const auto [t, s] = order[i];
        const TraceStep &step = trace->threads[size_t(t)].steps[size_t(s)];
        if (!m_filter->acceptsStep(step))
            continue;
        if (finder.foundIn(step.text) || (step.kind == StepKind::ToolCall && finder.foundIn(step.input)) ||
            finder.foundIn(step.toolName))
            m_findMatches.push_back(i);
    }
}

bool TraceView::findNext(const QString &text, bool backwards)
{
    const Trace *trace = m_model->trace();
    const auto &order = m_model->displayOrder();
    if (!trace || order.empty() || text.isEmpty()) {
        m_findStatus->clear();
        return false;
    }
    if (!m_findMatchesValid || text != m_findQuery)
        collectMatches(text);
    if (m_findMatches.empty()) {
        m_findStatus->setText(tr("Not found"));
        return false;
    }
    // From the row the user is on, wherever they moved since the last find; else from the last match shown.
    std::optional<size_t> here;
    const QModelIndex current = m_tree->currentIndex();
    if (current.isValid()) {
        const std::pair<int, int> at{current.data(TraceTimelineModel::ThreadRole).toInt(),
                                     current.data(TraceTimelineModel::StepRole).toInt()};
        if (m_findPosition < order.size() && order[m_findPosition] == at) {
            here = m_findPosition;
        } else if (const auto it = std::find(order.begin(), order.end(), at); it != order.end()) {
            here = size_t(it - order.begin());
        }
    }
    if (!here && m_findShown)
        here = m_findPosition;
    size_t match = 0; // index into m_findMatches
    if (!here) {
        match = backwards ? m_findMatches.size() - 1 : 0;
    } else if (backwards) {
        const auto it = std::lower_bound(m_findMatches.begin(), m_findMatches.end(), *here);
        match = it == m_findMatches.begin() ? m_findMatches.size() - 1 : size_t(it - m_findMatches.begin()) - 1;
    } else {
        const auto it = std::upper_bound(m_findMatches.begin(), m_findMatches.end(), *here);
        match = it == m_findMatches.end() ? 0 : size_t(it - m_findMatches.begin());
    }

    const size_t i = m_findMatches[match];
    m_findPosition = i;
    m_findShown = true;
    const auto [t, s] = order[i];
    const QModelIndex index = m_filter->mapFromSource(m_model->indexFor(t, s));
    {
        const QSignalBlocker blocker(m_tree->selectionModel());
        m_tree->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    }
    m_tree->scrollTo(index, QAbstractItemView::PositionAtCenter);
    m_tree->viewport()->update();
    m_detail->showStep(t, s, true);
    m_detail->highlight(text);
    updateActions();
    m_findStatus->setText(tr("Match %1 of %2")
                              .arg(QLocale().toString(qint64(match + 1)),
                                   QLocale().toString(qint64(m_findMatches.size()))));
    return true;
}

QString TraceView::findStatus() const
{
    return m_findStatus->text();
}

void TraceView::setKindVisible(StepKind kind, bool visible)
{
    const QList<QAction *> actions = m_kindsButton->menu()->actions();
    actions.at(int(kind))->setChecked(visible); // toggles the filter through the action
}

void TraceView::setToolFilter(const QString &toolName)
{
    const int index = m_toolCombo->findData(toolName);
    m_toolCombo->setCurrentIndex(std::max(index, 0));
}

void TraceView::setThinkingExpanded(bool expanded)
{
    m_model->setThinkingExpanded(expanded);
    m_detail->setThinkingFoldedByDefault(!expanded);
    showCurrentStep();
}

QString TraceView::filterStatus() const
{
    return m_filterStatus->isHidden() ? QString() : m_filterStatus->text();
}

void TraceView::clearFilters()
{
    for (QAction *action : m_kindsButton->menu()->actions())
        action->setChecked(true);
    m_toolCombo->setCurrentIndex(0);
}

void TraceView::filterChanged()
{
    int hiddenKinds = 0;
    for (int k = 0; k < StepKindCount; ++k)
        hiddenKinds += m_filter->isKindVisible(StepKind(k)) ? 0 : 1;
    m_kindsButton->setText(hiddenKinds == 0 ? tr("Kinds") : tr("Kinds (%1 of %2)").arg(StepKindCount - hiddenKinds).arg(StepKindCount));
    const Trace *trace = m_model->trace();
    const bool filtered = trace && (hiddenKinds > 0 || !m_filter->toolName().isEmpty());
    if (filtered) {
        size_t shown = 0;
        for (const auto &[thread, step] : m_model->displayOrder())
            shown += m_filter->acceptsStep(trace->threads[size_t(thread)].steps[size_t(step)]) ? 1 : 0;
        m_filterStatus->setText(plural(qsizetype(m_model->displayOrder().size()), tr("Showing %1 of 1 step"),
                                       tr("Showing %1 of %n steps"))
                                    .arg(QLocale().toString(qulonglong(shown))));
    }
    m_filterStatus->setVisible(filtered);
    m_showAllButton->setVisible(filtered);
    // The current index is one the filter shows (or none): a step the filter hid leaves the detail pane.
    showCurrentStep();
}

std::vector<std::pair<int, int>> TraceView::selectedSteps() const
{
    std::vector<std::pair<int, int>> steps;
    for (const QModelIndex &index : m_tree->selectionModel()->selectedRows(0)) {
        const int step = index.data(TraceTimelineModel::StepRole).toInt();
        if (step >= 0)
            steps.emplace_back(index.data(TraceTimelineModel::ThreadRole).toInt(), step);
    }
    // Timeline order, whatever order the user clicked in.
    const auto &order = m_model->displayOrder();
    if (steps.size() > 1) {
        QHash<quint64, size_t> position;
        for (size_t i = 0; i < order.size(); ++i)
            position.insert((quint64(order[i].first) << 32) | quint32(order[i].second), i);
        std::sort(steps.begin(), steps.end(), [&position](const auto &a, const auto &b) {
            return position.value((quint64(a.first) << 32) | quint32(a.second)) <
                   position.value((quint64(b.first) << 32) | quint32(b.second));
        });
    }
    return steps;
}

void TraceView::selectSteps(const std::vector<std::pair<int, int>> &steps)
{
    QItemSelection selection;
    for (const auto &[t, s] : steps) {
        const QModelIndex index = m_filter->mapFromSource(m_model->indexFor(t, s));
        if (index.isValid())
            selection.select(index, index);
    }
    m_tree->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

QString TraceView::useSelectionForGeneration()
{
    const Trace *trace = m_model->trace();
    if (!trace || m_projectRoot.isEmpty())
        return tr("Open a project first: the selection is kept in the project.");
    const auto steps = selectedSteps();
    if (steps.empty())
        return tr("Select the steps to use first.");
    const TraceSelection selection = TraceSelection::fromSteps(*trace, steps);
    const QString error = selection.save(m_projectRoot);
    if (error.isEmpty())
        m_model->setKeptSteps(steps);
    if (error.isEmpty())
        m_selectionStatus->setText(
            plural(steps.size(), tr("1 step kept for skill generation in %1"), tr("%n steps kept for skill generation in %1"))
                .arg(QDir(m_projectRoot)
                         .relativeFilePath(TraceSelection::selectionPathFor(m_projectRoot, trace->path))));
    return error;
}

void TraceView::restoreSelection()
{
    const Trace *trace = m_model->trace();
    if (!trace || m_projectRoot.isEmpty())
        return;
    const QString file = TraceSelection::selectionPathFor(m_projectRoot, trace->path);
    if (!QFileInfo::exists(file))
        return;
    const Result<TraceSelection> saved = TraceSelection::load(file);
    if (!saved)
        return;
    std::vector<std::pair<int, int>> steps;
    for (const SelectedStep &step : saved.value->steps)
        steps.emplace_back(step.thread, step.step);
    m_model->setKeptSteps(steps);
    selectSteps(steps);
    m_selectionStatus->setText(plural(steps.size(), tr("1 step kept for skill generation."), tr("%n steps kept for skill generation.")));
}

QString TraceView::selectionAsMarkdown() const
{
    const Trace *trace = m_model->trace();
    const auto steps = selectedSteps();
    return trace && !steps.empty() ? traceToMarkdown(*trace, steps) : QString();
}

void TraceView::updateActions()
{
    const bool hasSelection = m_model->trace() && m_tree->selectionModel()->hasSelection();
    m_copyButton->setEnabled(hasSelection);
    m_useButton->setEnabled(hasSelection && !m_projectRoot.isEmpty());
    m_useButton->setToolTip(m_projectRoot.isEmpty() ? tr("Open a project to keep a selection with it")
                                                    : tr("Keep the selected steps with the project "
                                                         "(traces/.selections/) as the source for a skill"));
}

void TraceView::chooseFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open trace"), QFileInfo(m_path).absolutePath(),
                                                      tr("Traces (*.jsonl *.json *.eval *.txt *.md);;All files (*)"));
    if (!path.isEmpty())
        openPath(path);
}

void TraceView::browseSessions()
{
    SessionBrowserDialog dialog(claudeProjectsDir(), codexSessionsDir(), this);
    if (dialog.exec() == QDialog::Accepted && !dialog.selectedPath().isEmpty())
        openPath(dialog.selectedPath());
}

void TraceView::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile())
        event->acceptProposedAction();
}

void TraceView::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile())
        return;
    event->acceptProposedAction();
    openPath(urls.first().toLocalFile());
}

} // namespace sf
