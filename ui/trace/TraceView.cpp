#include "trace/TraceView.h"

#include "common/EmptyState.h"
#include "common/Plural.h"
#include "common/StatusMessages.h"
#include "common/Theme.h"
#include "project/Project.h"
#include "trace/ContextChart.h"
#include "trace/SessionBrowserDialog.h"
#include "trace/StepDelegate.h"
#include "trace/StepDetailView.h"
#include "trace/TraceFilterModel.h"
#include "trace/TraceImport.h"
#include "trace/TraceLoader.h"
#include "trace/TraceSummary.h"
#include "trace/TraceTimelineModel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QFile>
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
        m_shownPath = path;
        Q_EMIT loaded(path);
        if (path == std::exchange(m_addedCopy, QString())) {
            StatusMessages::show(tr("Added %1 to the project's traces/").arg(QFileInfo(path).fileName()));
            Q_EMIT traceAdded(path);
        }
    });
    connect(m_loader, &TraceLoader::failed, this, &TraceView::onLoadFailed);
    connect(m_loader, &TraceLoader::cancelled, this, [this](const QString &path) {
        if (path != m_path)
            return;
        if (path == std::exchange(m_addedCopy, QString()))
            QFile::remove(path);
        keepShownTrace(tr("Import of %1 cancelled.").arg(QFileInfo(path).fileName().toHtmlEscaped()));
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
    connect(button(tr("Open…"),
                   tr("Open a trace file and add it to the project's traces/ (File → Import Trace…, Ctrl+Shift+O)")),
            &QToolButton::clicked, this, &TraceView::chooseFileToImport);
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
    m_project = project;
    m_projectRoot = project ? project->rootPath() : QString();
    m_path.clear();
    m_addedCopy.clear();
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
    if (!m_model->trace())
        showTrace(nullptr);
    m_header->setText(tr("Importing %1…").arg(QFileInfo(path).fileName().toHtmlEscaped()));
    m_loader->load(path, QString(), m_jobs);
}

void TraceView::importFile(const QString &path)
{
    if (!m_project) {
        openPath(path);
        return;
    }
    bool copied = false;
    const Result<QString> copy = m_project->addTrace(path, &copied);
    if (!copy) {
        const QString line = tr("Could not add %1 to the project: %2")
                                 .arg(QFileInfo(path).fileName().toHtmlEscaped(), copy.error.toHtmlEscaped());
        m_stack->setCurrentIndex(1);
        keepShownTrace(line);
        return;
    }
    // A copy made now is announced (or removed) once it has been read; a file already in traces/ is only opened.
    if (copied)
        m_addedCopy = *copy.value;
    openPath(*copy.value);
}

void TraceView::chooseFileToImport()
{
    const QString start = m_shownPath.isEmpty() ? QString() : QFileInfo(m_shownPath).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, tr("Import trace"), start,
                                                      tr("Traces (*.jsonl *.json *.eval *.txt *.md);;All files (*)"));
    if (!path.isEmpty())
        importFile(path);
}

void TraceView::onLoadFailed(const QString &path, const QString &error)
{
    if (path != m_path)
        return;
    if (path == std::exchange(m_addedCopy, QString()))
        QFile::remove(path); // what is not a trace does not stay in the project
    const QString line = tr("Could not import %1: %2").arg(QFileInfo(path).fileName(), error);
    StatusMessages::show(line);
    keepShownTrace(QStringLiteral("<span style='color:%1'>%2</span>")
                       .arg(Theme::statusTextOnWindow(Theme::Status::Fail).name(), line.toHtmlEscaped()));
    Q_EMIT loadFailed(path, error);
}

void TraceView::keepShownTrace(const QString &line)
{
    if (m_model->trace()) {
        m_path = m_shownPath; // the trace on screen stays, and stays the view's
        m_header->setText(line + QStringLiteral("<br>") + m_summary);
        return;
    }
    showTrace(nullptr);
    m_header->setText(line);
}

QPlainTextEdit *TraceView::textEditor() const
{
    return m_detail->primaryEditor();
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
        m_shownPath.clear();
        m_summary.clear();
        m_header->clear();
        m_header->setToolTip(QString());
        updateActions();
        return;
    }
    const TraceStats stats = TraceStats::of(*trace);
    for (const auto &[name, count] : stats.toolCalls)
        m_toolCombo->addItem(QStringLiteral("%1 (%2)").arg(name).arg(count), name);
    const TraceCost &cost = m_model->cost();
    m_summary = TraceSummary::html(*trace, stats, cost);
    m_header->setText(m_summary);
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

void TraceView::updateActions()
{
    const bool hasSelection = m_model->trace() && m_tree->selectionModel()->hasSelection();
    m_copyButton->setEnabled(hasSelection);
    m_useButton->setEnabled(hasSelection && !m_projectRoot.isEmpty());
    m_useButton->setToolTip(m_projectRoot.isEmpty() ? tr("Open a project to keep a selection with it")
                                                    : tr("Keep the selected steps with the project "
                                                         "(traces/.selections/) as the source for a skill"));
}

void TraceView::browseSessions()
{
    SessionBrowserDialog dialog(claudeProjectsDir(), codexSessionsDir(), this);
    if (dialog.exec() == QDialog::Accepted && !dialog.selectedPath().isEmpty())
        importFile(dialog.selectedPath());
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
    importFile(urls.first().toLocalFile());
}

} // namespace sf
