#include "skill/MarkdownPreview.h"

#include "skill/DebouncedTask.h"

#include <QAbstractTextDocumentLayout>
#include <QDesktopServices>
#include <QDir>
#include <QElapsedTimer>
#include <QEvent>
#include <QScrollBar>
#include <QStackedLayout>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QThread>
#include <QUrl>
#include <memory>

namespace sf {

namespace {

constexpr qint64 SliceNs = 4'000'000; // UI time per layout slice
constexpr int SliceStepChars = 1500;  // layout progress per call inside a slice

double msOf(qint64 ns)
{
    return double(ns) / 1e6;
}

} // namespace

MarkdownPreview::MarkdownPreview(QWidget *parent)
    : QWidget(parent)
    , m_stack(new QStackedLayout(this))
    , m_blank(new QTextDocument(this))
{
    m_stack->setContentsMargins(0, 0, 0, 0);
    // Both browsers stay visible (and sized), the front one on top, so the back one lays out at the real width.
    m_stack->setStackingMode(QStackedLayout::StackAll);
    m_front = makeBrowser();
    m_back = makeBrowser();
    m_back->setDocument(m_blank);
    // The back browser is covered: it need not paint while a document is laid out in it.
    m_back->setUpdatesEnabled(false);
    m_stack->setCurrentWidget(m_front);
    m_document = new QTextDocument(this);
    m_front->setDocument(m_document);

    m_sliceTimer.setSingleShot(true);
    m_sliceTimer.setInterval(0);
    connect(&m_sliceTimer, &QTimer::timeout, this, &MarkdownPreview::layoutSlice);

    m_task = new DebouncedTask(
        250,
        [this]() -> DebouncedTask::Work {
            if (!m_provider)
                return {};
            const Input input = m_provider();
            const PreviewStyle style = PreviewStyle::from(palette(), m_front->font());
            QThread *uiThread = thread();
            return [this, input, style, uiThread]() -> DebouncedTask::Apply {
                QElapsedTimer timer;
                timer.start();
                struct Rendered
                {
                    std::unique_ptr<QTextDocument> document;
                    QList<PreviewAnchor> anchors;
                    double workMs = 0;
                };
                // Shared, because the result may also be dropped (a cancelled render): then it deletes the document.
                auto rendered = std::make_shared<Rendered>();
                rendered->document =
                    buildPreviewDocument(input.text, input.baseDir, input.mode, style, &rendered->anchors);
                // No layout is attached here: a layout made on this worker thread (which has no event loop)
                // starts timers that cannot be stopped once the document moves; the UI thread lays it out in slices.
                rendered->document->moveToThread(uiThread);
                rendered->workMs = msOf(timer.nsecsElapsed());
                return [this, rendered] {
                    startLayout(rendered->document.release(), rendered->anchors, rendered->workMs);
                };
            };
        },
        this);
}

MarkdownPreview::~MarkdownPreview()
{
    // The task waits for a render in flight before the widgets it would touch go away; the browsers go
    // before the documents they show.
    delete m_task;
    m_task = nullptr;
    m_sliceTimer.stop();
    delete m_front;
    delete m_back;
}

QTextBrowser *MarkdownPreview::makeBrowser()
{
    auto *browser = new QTextBrowser(this);
    browser->setOpenLinks(false);
    browser->setAccessibleName(tr("Preview"));
    browser->setFrameShape(QFrame::NoFrame);
    m_stack->addWidget(browser);
    // A document is laid out lazily, so the scroll range can grow after it is shown: follow the source again.
    connect(browser->verticalScrollBar(), &QScrollBar::rangeChanged, this, [this, browser] {
        if (browser == m_front && m_syncLine > 0)
            scrollToSourceLine(m_syncLine);
    });
    connect(browser, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        if (url.scheme() == u"http" || url.scheme() == u"https" || url.scheme() == u"mailto") {
            QDesktopServices::openUrl(url);
            return;
        }
        const QUrl resolved = m_document->baseUrl().resolved(url);
        if (resolved.isLocalFile())
            Q_EMIT fileLinkActivated(QDir::cleanPath(resolved.toLocalFile()));
    });
    return browser;
}

void MarkdownPreview::setDebounceInterval(int ms)
{
    m_task->setInterval(ms);
}

void MarkdownPreview::requestRender()
{
    m_task->request();
}

void MarkdownPreview::renderNow()
{
    m_task->runNow();
}

void MarkdownPreview::clear()
{
    m_task->cancel();
    dropPending();
    m_anchors.clear();
    m_syncLine = 0;
    QTextDocument *old = m_document;
    m_document = new QTextDocument(this);
    m_front->setDocument(m_document);
    delete old;
}

bool MarkdownPreview::isBusy() const
{
    return m_task->isBusy() || m_pending;
}

QString MarkdownPreview::renderedText() const
{
    return m_document->toPlainText();
}

void MarkdownPreview::startLayout(QTextDocument *document, const QList<PreviewAnchor> &anchors, double workMs)
{
    QElapsedTimer timer;
    timer.start();
    dropPending();
    m_pending = document;
    m_pending->setParent(this);
    m_pendingAnchors = anchors;
    m_pendingWorkMs = workMs;
    // The document layout's own lazy-layout timer would lay out ever bigger chunks (up to 200,000
    // characters at once); hold its timer events back and lay out in slices instead (layoutSlice).
    m_pending->documentLayout()->installEventFilter(this);
    // At the top, the back browser lays out only its first screen when it takes the document.
    m_back->verticalScrollBar()->setValue(0);
    m_back->setDocument(m_pending);
    m_layoutPosition = 0;
    const double ms = msOf(timer.nsecsElapsed());
    m_pendingUiMs = ms;
    m_pendingLongestMs = ms;
    m_sliceTimer.start();
}

void MarkdownPreview::layoutSlice()
{
    if (!m_pending)
        return;
    QElapsedTimer timer;
    timer.start();
    QAbstractTextDocumentLayout *layout = m_pending->documentLayout();
    const int end = qMax(0, m_pending->characterCount() - 1);
    while (m_layoutPosition < end && timer.nsecsElapsed() < SliceNs) {
        m_layoutPosition = qMin(end, m_layoutPosition + SliceStepChars);
        // Asking where a block is lays the document out up to it.
        layout->blockBoundingRect(m_pending->findBlock(m_layoutPosition));
    }
    const double ms = msOf(timer.nsecsElapsed());
    m_pendingUiMs += ms;
    m_pendingLongestMs = qMax(m_pendingLongestMs, ms);
    if (m_layoutPosition < end) {
        m_sliceTimer.start();
        return;
    }
    finishLayout();
}

void MarkdownPreview::finishLayout()
{
    QElapsedTimer timer;
    timer.start();
    QAbstractTextDocumentLayout *layout = m_pending->documentLayout();
    layout->removeEventFilter(this);
    // The layout reports its final size from a timer; tell the browser now, so its scroll range is right.
    Q_EMIT layout->documentSizeChanged(layout->documentSize());

    QTextDocument *old = m_document;
    m_document = m_pending;
    m_pending = nullptr;
    m_anchors = m_pendingAnchors;
    std::swap(m_front, m_back);
    if (m_syncLine > 0)
        scrollToSourceLine(m_syncLine);
    else
        m_front->verticalScrollBar()->setValue(m_back->verticalScrollBar()->value());
    m_front->setUpdatesEnabled(true);
    m_back->setUpdatesEnabled(false);
    m_stack->setCurrentWidget(m_front);
    // The old document leaves the (now hidden) back browser; deleting it later spreads the work.
    m_back->setDocument(m_blank);
    old->deleteLater();

    const double ms = msOf(timer.nsecsElapsed());
    m_lastUiMs = m_pendingUiMs + ms;
    m_lastLongestSliceMs = qMax(m_pendingLongestMs, ms);
    m_lastRenderMs = m_pendingWorkMs + m_lastUiMs;
    ++m_renders;
    Q_EMIT rendered();
}

void MarkdownPreview::dropPending()
{
    m_sliceTimer.stop();
    if (!m_pending)
        return;
    m_back->setDocument(m_blank);
    delete m_pending;
    m_pending = nullptr;
}

bool MarkdownPreview::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Timer && m_pending && watched == m_pending->documentLayout())
        return true;
    return QWidget::eventFilter(watched, event);
}

void MarkdownPreview::scrollToSourceLine(int line)
{
    m_syncLine = line;
    if (m_anchors.size() < 2)
        return;
    if (line <= 1) {
        m_front->verticalScrollBar()->setValue(0);
        return;
    }
    qsizetype i = 0;
    while (i + 1 < m_anchors.size() - 1 && m_anchors[i + 1].sourceLine <= line)
        ++i;
    const PreviewAnchor &from = m_anchors[i];
    const PreviewAnchor &to = m_anchors[i + 1];
    QAbstractTextDocumentLayout *layout = m_document->documentLayout();
    const auto yOf = [&](int position) { return layout->blockBoundingRect(m_document->findBlock(position)).top(); };
    const double y0 = yOf(from.position);
    const double y1 =
        to.position >= m_document->characterCount() - 1 ? layout->documentSize().height() : yOf(to.position);
    const double span = qMax(1, to.sourceLine - from.sourceLine);
    const double t = qBound(0.0, double(line - from.sourceLine) / span, 1.0);
    m_front->verticalScrollBar()->setValue(int(y0 + (y1 - y0) * t));
}

} // namespace sf
