#pragma once

#include "common/ViewPage.h"
#include "trace/TraceFileSummary.h"

#include <QFutureWatcher>

class QLabel;
class QPlainTextEdit;
class QStackedWidget;

namespace sf {

class EmptyState;
class FindBar;

/// The Trace view: a trace file's summary (size, lines, record types, bad lines) and its text.
/// Files are read on a worker thread, so opening a large one never freezes the window.
class TraceView final : public ViewPage
{
    Q_OBJECT

public:
    explicit TraceView(QWidget *parent = nullptr);

    void setProject(const Project *project) override;
    void openPath(const QString &path) override;
    QPlainTextEdit *textEditor() const override { return m_text; }
    void activateFind() override;

    QString currentPath() const { return m_path; }
    bool isBusy() const override { return m_watcher.isRunning(); }

Q_SIGNALS:
    void loaded(const QString &path);

private:
    void showSummary(const TraceFileSummary &summary);

    QString m_path;
    QStackedWidget *m_stack;
    EmptyState *m_empty;
    QLabel *m_header;
    QPlainTextEdit *m_text;
    FindBar *m_findBar;
    QFutureWatcher<TraceFileSummary> m_watcher;
};

} // namespace sf
