#include "trace/TraceView.h"

#include "common/EmptyState.h"
#include "common/FindBar.h"

#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace sf {

TraceView::TraceView(QWidget *parent)
    : ViewPage(parent)
    , m_stack(new QStackedWidget(this))
    , m_empty(new EmptyState(this))
    , m_header(new QLabel(this))
    , m_text(new QPlainTextEdit(this))
    , m_findBar(new FindBar(m_text, this))
{
    m_empty->setText(tr("No trace selected"),
                     tr("Choose a trace in the project sidebar. Traces are agent sessions (Claude Code, Codex, "
                        "OpenAI messages…) kept unchanged in the project's traces/ folder."));
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_header->setContentsMargins(8, 8, 8, 8);
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setAccessibleName(tr("Trace text"));

    auto *page = new QWidget(this);
    auto *pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    pageLayout->addWidget(m_header);
    pageLayout->addWidget(m_text, 1);
    pageLayout->addWidget(m_findBar);

    m_stack->addWidget(m_empty);
    m_stack->addWidget(page);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    connect(&m_watcher, &QFutureWatcher<TraceFileSummary>::finished, this, [this] {
        const TraceFileSummary summary = m_watcher.result();
        if (summary.path == m_path) // a newer request may have replaced this one
            showSummary(summary);
    });
}

void TraceView::setProject(const Project *)
{
    m_path.clear();
    m_text->clear();
    m_stack->setCurrentWidget(m_empty);
}

void TraceView::openPath(const QString &path)
{
    if (path == m_path && !m_text->document()->isEmpty())
        return;
    m_path = path;
    m_header->setText(tr("Reading %1…").arg(QFileInfo(path).fileName()));
    m_text->clear();
    m_stack->setCurrentIndex(1);
    m_watcher.setFuture(QtConcurrent::run([path] { return TraceFileSummary::read(path); }));
}

void TraceView::activateFind()
{
    if (m_stack->currentIndex() == 1)
        m_findBar->activate();
}

void TraceView::showSummary(const TraceFileSummary &summary)
{
    if (!summary.error.isEmpty()) {
        m_header->setText(summary.error);
        Q_EMIT loaded(summary.path);
        return;
    }
    const QLocale locale;
    QString header = QStringLiteral("<b>%1</b> — %2, %3 lines")
                         .arg(QFileInfo(summary.path).fileName().toHtmlEscaped(),
                              locale.formattedDataSize(summary.bytes), locale.toString(summary.lines));
    if (summary.isJsonLines) {
        QStringList types;
        for (const auto &[type, count] : summary.recordTypes)
            types.append(QStringLiteral("%1 %2").arg(type.toHtmlEscaped(), locale.toString(count)));
        header += tr("; JSON Lines records: %1").arg(types.isEmpty() ? tr("none typed") : types.join(QStringLiteral(", ")));
        if (summary.invalidJsonLines > 0)
            header += tr("<br>%n line(s) are not valid JSON, the first at line %1.", nullptr,
                         int(summary.invalidJsonLines))
                          .arg(summary.firstInvalidLine);
    }
    if (summary.previewTruncated)
        header += tr("<br>Showing the first %1.").arg(locale.formattedDataSize(summary.preview.toUtf8().size()));
    m_header->setText(header);
    m_text->setPlainText(summary.preview);
    Q_EMIT loaded(summary.path);
}

} // namespace sf
