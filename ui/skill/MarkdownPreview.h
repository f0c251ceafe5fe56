#pragma once

#include "skill/PreviewDocument.h"

#include <QList>
#include <QTimer>
#include <QWidget>
#include <functional>

class QStackedLayout;
class QTextBrowser;
class QTextDocument;

namespace sf {

class DebouncedTask;

/**
 * The live preview beside the source: Markdown rendered by QTextDocument, with a SKILL.md's front matter
 * as a small table above the body (buildPreviewDocument). Rendering is debounced and runs on the thread
 * pool, one render at a time; a change during a render leads to one more render after it.
 *
 * Laying out a long document is the one part that must happen on the UI thread, and QTextBrowser would do
 * it in growing chunks (tens of milliseconds each on a 5,000-line file). So a new document goes into a
 * second browser stacked under the visible one and is laid out in slices of a few milliseconds between
 * events; then the two swap. Typing never waits for more than a slice.
 *
 * The preview follows the source: scrollToSourceLine() maps a source line to the rendered position through
 * the headings on both sides.
 */
class MarkdownPreview final : public QWidget
{
    Q_OBJECT

public:
    using Mode = PreviewMode;
    struct Input
    {
        QString text;
        QString baseDir; ///< where relative links and images point
        Mode mode = Mode::Skill;
    };

    explicit MarkdownPreview(QWidget *parent = nullptr);
    ~MarkdownPreview() override;

    /// Where a render gets its input; called on the UI thread when a render starts.
    void setInputProvider(std::function<Input()> provider) { m_provider = std::move(provider); }
    void setDebounceInterval(int ms);

    /// The input changed: renders once it has been quiet for the debounce interval.
    void requestRender();
    void renderNow();
    void clear();

    /// Scrolls so that what source line @p line (1-based) renders to is at the top.
    void scrollToSourceLine(int line);

    /// The browser that is showing the preview.
    QTextBrowser *browser() const { return m_front; }
    QString renderedText() const;
    /// True while a render is asked for, running, or being laid out.
    bool isBusy() const;
    int renderCount() const { return m_renders; }
    /// Milliseconds the last render took from start to shown.
    double lastRenderMs() const { return m_lastRenderMs; }
    /// Of that, the time spent on the UI thread (laying out and showing), and its longest single slice: the
    /// longest the UI thread was kept from handling input.
    double lastUiMs() const { return m_lastUiMs; }
    double lastLongestSliceMs() const { return m_lastLongestSliceMs; }

Q_SIGNALS:
    void rendered();
    /// A link to a file of the skill (relative, or file:) was clicked: the absolute path.
    void fileLinkActivated(const QString &path);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QTextBrowser *makeBrowser();
    void startLayout(QTextDocument *document, const QList<PreviewAnchor> &anchors, double workMs);
    void layoutSlice();
    void finishLayout();
    void dropPending();

    DebouncedTask *m_task;
    QStackedLayout *m_stack;
    QTextBrowser *m_front;
    QTextBrowser *m_back;
    QTextDocument *m_blank;              ///< what the back browser holds between renders
    QTextDocument *m_document = nullptr; ///< shown by m_front; owned
    QTextDocument *m_pending = nullptr;  ///< being laid out in m_back; owned
    QList<PreviewAnchor> m_anchors;
    QList<PreviewAnchor> m_pendingAnchors;
    std::function<Input()> m_provider;
    QTimer m_sliceTimer;
    int m_layoutPosition = 0;
    int m_syncLine = 0;
    int m_renders = 0;
    double m_pendingWorkMs = 0;
    double m_pendingUiMs = 0;
    double m_pendingLongestMs = 0;
    double m_lastRenderMs = 0;
    double m_lastUiMs = 0;
    double m_lastLongestSliceMs = 0;
};

} // namespace sf
