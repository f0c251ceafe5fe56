#pragma once

#include "trace/Trace.h"

#include <QWidget>
#include <memory>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSplitter;

namespace sf {

/**
 * The selected step in full: its text, or a tool call's input pretty-printed with its result beside it.
 * Long texts are folded to their beginning with a "Show all" button; thinking is folded until asked for.
 */
class StepDetailView final : public QWidget
{
    Q_OBJECT

public:
    static constexpr qsizetype FoldChars = 20000;
    static constexpr int FoldLines = 300;

    explicit StepDetailView(QWidget *parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    /// Shows a step (thread -1: nothing); @p unfold shows it whole, as find does for a match.
    void showStep(int thread, int step, bool unfold = false);
    /// Selects the first occurrence of @p text in the shown step.
    void highlight(const QString &text);
    void setThinkingFoldedByDefault(bool folded) { m_foldThinking = folded; }

    QPlainTextEdit *primaryEditor() const { return m_primary; }
    QPlainTextEdit *secondaryEditor() const { return m_secondary; }
    bool isFolded() const { return m_folded; }
    void showAll();

private:
    void fill(bool unfold);

    std::shared_ptr<const Trace> m_trace;
    int m_thread = -1;
    int m_step = -1;
    bool m_folded = false;
    bool m_foldThinking = true;
    QLabel *m_header;
    QSplitter *m_splitter;
    QPlainTextEdit *m_primary;
    QPlainTextEdit *m_secondary;
    QPushButton *m_showAll;
};

} // namespace sf
