#include "trace/StepDetailView.h"

#include "common/Plural.h"
#include "common/Theme.h"
#include "trace/StepDelegate.h"
#include "trace/TraceTimelineModel.h"

#include <QFontDatabase>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

namespace sf {

namespace {

QString pretty(const QString &json)
{
    if (!json.startsWith(u'{') && !json.startsWith(u'['))
        return json;
    const QJsonDocument doc = QJsonDocument::fromJson(json.toUtf8());
    return doc.isNull() ? json : QString::fromUtf8(doc.toJson(QJsonDocument::Indented));
}

/// The beginning of @p text up to the fold limits; *folded says whether anything was left out.
QString folded(const QString &text, bool *wasFolded)
{
    qsizetype cut = std::min(text.size(), StepDetailView::FoldChars);
    qsizetype from = 0;
    for (int line = 0; line < StepDetailView::FoldLines; ++line) {
        from = text.indexOf(u'\n', from);
        if (from < 0 || from >= cut)
            break;
        ++from;
        if (line == StepDetailView::FoldLines - 1)
            cut = from;
    }
    *wasFolded = cut < text.size();
    return *wasFolded ? text.left(cut) : text;
}

} // namespace

StepDetailView::StepDetailView(QWidget *parent)
    : QWidget(parent)
    , m_header(new QLabel(this))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_primary(new QPlainTextEdit(this))
    , m_secondary(new QPlainTextEdit(this))
    , m_showAll(new QPushButton(this))
{
    for (QPlainTextEdit *edit : {m_primary, m_secondary}) {
        edit->setReadOnly(true);
        edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        edit->setLineWrapMode(QPlainTextEdit::WidgetWidth);
        m_splitter->addWidget(edit);
    }
    m_primary->setAccessibleName(tr("Step text"));
    m_secondary->setAccessibleName(tr("Paired tool call or result"));
    m_header->setTextFormat(Qt::RichText);
    m_header->setWordWrap(true);
    m_showAll->setVisible(false);
    connect(m_showAll, &QPushButton::clicked, this, &StepDetailView::showAll);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_header);
    layout->addWidget(m_splitter, 1);
    layout->addWidget(m_showAll, 0, Qt::AlignLeft);
    showStep(-1, -1);
}

void StepDetailView::setTrace(std::shared_ptr<const Trace> trace)
{
    m_trace = std::move(trace);
    showStep(-1, -1);
}

void StepDetailView::showStep(int thread, int step, bool unfold)
{
    m_thread = thread;
    m_step = step;
    fill(unfold);
}

void StepDetailView::showAll()
{
    fill(true);
}

void StepDetailView::fill(bool unfold)
{
    const bool valid = m_trace && m_thread >= 0 && m_thread < int(m_trace->threads.size()) && m_step >= 0 &&
                       m_step < int(m_trace->threads[size_t(m_thread)].steps.size());
    m_secondary->setVisible(false);
    m_showAll->setVisible(false);
    m_folded = false;
    if (!valid) {
        m_header->setText(tr("Select a step to see it in full."));
        m_primary->clear();
        m_secondary->clear();
        return;
    }
    const TraceThread &thread = m_trace->threads[size_t(m_thread)];
    const TraceStep &step = thread.steps[size_t(m_step)];
    const TraceTurn &turn = thread.turns[size_t(step.turn)];
    const QLocale locale;
    QStringList facts;
    const QColor window = m_header->palette().color(m_header->backgroundRole());
    facts << QStringLiteral("<b style='color:%1'>%2</b>")
                 .arg(Theme::readableOn(StepDelegate::kindColor(int(step.kind)), window).name(),
                      StepDelegate::kindLabel(int(step.kind)));
    if (!step.toolName.isEmpty())
        facts << QStringLiteral("<code>%1</code>").arg(step.toolName.toString().toHtmlEscaped());
    if (step.isError)
        facts << QStringLiteral("<b style='color:%1'>%2</b>")
                     .arg(Theme::statusText(Theme::Status::Fail, window).name(), tr("error"));
    if (!turn.model.isEmpty())
        facts << turn.model.toHtmlEscaped();
    if (turn.usage)
        facts << tr("input %1 (cache read %2, write %3) · output %4")
                     .arg(locale.toString(turn.usage->totalInput()), locale.toString(turn.usage->cacheRead),
                          locale.toString(turn.usage->cacheWrite5m + turn.usage->cacheWrite1h),
                          locale.toString(turn.usage->output));
    if (!turn.attributionSkill.isEmpty())
        facts << tr("skill %1").arg(turn.attributionSkill.toHtmlEscaped());
    if (!turn.timestamp.isEmpty())
        facts << turn.timestamp.toString().toHtmlEscaped();
    if (step.line > 0)
        facts << tr("line %1").arg(step.line);
    m_header->setText(facts.join(QStringLiteral(" · ")));

    const QString primary = step.kind == StepKind::ToolCall ? pretty(step.input.toString()) : step.text.toString();
    bool wasFolded = false;
    if (step.kind == StepKind::Thinking && m_foldThinking && !unfold) {
        m_primary->setPlainText(plural(step.text.characterCount(), tr("Thinking is folded (1 character)."), tr("Thinking is folded (%n characters).")));
        wasFolded = true;
    } else {
        m_primary->setPlainText(unfold ? primary : folded(primary, &wasFolded));
    }
    m_folded = wasFolded;
    if (wasFolded) {
        m_showAll->setText(step.kind == StepKind::Thinking
                               ? tr("Show thinking")
                               : tr("Show all (%1 characters)").arg(locale.toString(primary.size())));
        m_showAll->setVisible(true);
    }
    // A call shows its result beside it, and a result its call.
    if ((step.kind == StepKind::ToolCall || step.kind == StepKind::ToolResult) && step.paired >= 0) {
        const TraceStep &other = thread.steps[size_t(step.paired)];
        const QString text = other.kind == StepKind::ToolCall ? pretty(other.input.toString()) : other.text.toString();
        bool otherFolded = false;
        m_secondary->setPlainText(unfold ? text : folded(text, &otherFolded));
        m_secondary->setVisible(true);
        if (otherFolded && !m_showAll->isVisible()) {
            m_showAll->setText(tr("Show all"));
            m_showAll->setVisible(true);
            m_folded = true;
        }
    }
}

void StepDetailView::highlight(const QString &text)
{
    for (QPlainTextEdit *edit : {m_primary, m_secondary}) {
        edit->moveCursor(QTextCursor::Start);
        if (edit->isVisible() || edit == m_primary)
            if (edit->find(text))
                return;
    }
}

} // namespace sf
