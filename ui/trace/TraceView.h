#pragma once

#include "common/ViewPage.h"
#include "trace/Trace.h"

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QStackedWidget;
class QToolButton;
class QTreeView;

namespace sf {

class ContextChart;
class EmptyState;
class JobListModel;
class StepDetailView;
class TraceFilterModel;
class TraceLoader;
class TraceTimelineModel;

/**
 * The Trace view: an imported trace as a virtual timeline of steps (subagents nested under their calls),
 * the selected step in full beside it, per-turn tokens with running totals, a context-size chart, find
 * across every step, filters by kind and tool, and the chosen steps kept for skill generation. Import
 * runs on a worker thread as a job with progress and cancel.
 */
class TraceView final : public ViewPage
{
    Q_OBJECT

public:
    explicit TraceView(QWidget *parent = nullptr);
    ~TraceView() override;

    void setProject(const Project *project) override;
    /// Opens the trace at @p path as it is (a project's trace, a run's agent session). While it is read the trace
    /// shown stays; if it cannot be read, the trace shown stays too and the header says why.
    void openPath(const QString &path) override;
    /// Opens a trace from anywhere (Open…, File → Import Trace…, a drop, an agent session): with a project open, a
    /// file from outside its traces/ is copied there first (Project::addTrace), and traceAdded() names the copy once
    /// it has been read; a copy that does not read as a trace is removed again.
    void importFile(const QString &path);
    /// Asks for a trace file and imports it (importFile).
    void chooseFileToImport();
    QPlainTextEdit *textEditor() const override;
    void activateFind() override;
    bool isBusy() const override;

    /// Where imports report progress (the Jobs panel's model); none: no job is listed.
    void setJobs(JobListModel *jobs) { m_jobs = jobs; }

    QString currentPath() const { return m_path; }
    const Trace *trace() const;
    QString statusText() const;
    TraceTimelineModel *timelineModel() const { return m_model; }
    TraceFilterModel *filterModel() const { return m_filter; }
    QTreeView *timeline() const { return m_tree; }
    StepDetailView *detail() const { return m_detail; }
    ContextChart *contextChart() const { return m_chart; }

    /// Moves to the next (or previous) step containing @p text, folded text included, wrapping at the ends; false when
    /// none. The status says which match of how many it is.
    bool findNext(const QString &text, bool backwards = false);
    QString findStatus() const;
    void setKindVisible(StepKind kind, bool visible);
    void setToolFilter(const QString &toolName);
    void setThinkingExpanded(bool expanded);
    /// "Showing 12 of 79 steps" while a filter hides some, else empty.
    QString filterStatus() const;
    /// Shows every kind and every tool again.
    void clearFilters();
    /// The selected steps as (thread, step), in timeline order.
    std::vector<std::pair<int, int>> selectedSteps() const;
    void selectSteps(const std::vector<std::pair<int, int>> &steps);
    /// Keeps the selected steps with the project for skill generation; returns an error or empty.
    QString useSelectionForGeneration();
    /// The selected steps as Markdown (also put on the clipboard by the toolbar action).
    QString selectionAsMarkdown() const;

Q_SIGNALS:
    void loaded(const QString &path);
    void loadFailed(const QString &path, const QString &error);
    /// A trace was copied into the project's traces/ and read (importFile).
    void traceAdded(const QString &path);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void collectMatches(const QString &text);
    void createToolbar(QWidget *toolbar);
    void showTrace(std::shared_ptr<const Trace> trace);
    void showCurrentStep();
    void browseSessions();
    void onLoadFailed(const QString &path, const QString &error);
    /// The open trace's header again, after @p line (an import that failed or was cancelled), or an empty view.
    void keepShownTrace(const QString &line);
    void updateActions();
    void restoreSelection();
    /// After a filter change: the count of steps shown, and the detail pane drops a step the filter hid.
    void filterChanged();

    QString m_path;      ///< the trace shown, or the one being read
    QString m_shownPath; ///< the trace shown ("" while none is)
    QString m_addedCopy; ///< a copy importFile made in traces/, while it is read
    QString m_summary;   ///< the shown trace's header (TraceSummary)
    const Project *m_project = nullptr;
    QString m_projectRoot;
    JobListModel *m_jobs = nullptr;
    TraceLoader *m_loader;
    TraceTimelineModel *m_model;
    TraceFilterModel *m_filter;
    QStackedWidget *m_stack;
    EmptyState *m_empty;
    QLabel *m_header;
    QTreeView *m_tree;
    StepDetailView *m_detail;
    ContextChart *m_chart;
    QToolButton *m_kindsButton = nullptr;
    QComboBox *m_toolCombo = nullptr;
    QLabel *m_filterStatus = nullptr;
    QToolButton *m_showAllButton = nullptr;
    QToolButton *m_useButton = nullptr;
    QToolButton *m_copyButton = nullptr;
    QWidget *m_findRow;
    QLineEdit *m_findInput;
    QLabel *m_findStatus;
    QLabel *m_selectionStatus;
    size_t m_findPosition = 0; ///< in the display order: the last match shown
    bool m_findShown = false;
    QString m_findQuery;
    std::vector<size_t> m_findMatches; ///< display-order positions of m_findQuery's matches, ascending
    bool m_findMatchesValid = false;   ///< false once the filter or the trace changed
};

} // namespace sf
