#include "skill/LiveDraftPage.h"

#include "skill/MarkdownHighlighter.h"
#include "generate/SkillGenerator.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QVBoxLayout>

namespace sf {

LiveDraftPage::LiveDraftPage(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_stage(new QLabel(this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_draft(new QPlainTextEdit(this))
    , m_highlighter(new MarkdownHighlighter(m_draft->document()))
{
    m_title->setObjectName(QStringLiteral("liveDraftTitle"));
    m_stage->setObjectName(QStringLiteral("liveDraftStage"));
    m_cancel->setObjectName(QStringLiteral("liveDraftCancel"));
    m_draft->setObjectName(QStringLiteral("liveDraft"));
    m_draft->setReadOnly(true);
    m_draft->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_draft->setFont(mono);
    m_stage->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *header = new QHBoxLayout;
    header->setContentsMargins(8, 4, 8, 4);
    auto *titles = new QVBoxLayout;
    titles->addWidget(m_title);
    titles->addWidget(m_stage);
    header->addLayout(titles, 1);
    header->addWidget(m_cancel);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(header);
    layout->addWidget(m_draft, 1);

    connect(m_cancel, &QPushButton::clicked, this, [this] {
        if (m_generator)
            m_generator->cancel();
        else
            Q_EMIT closeRequested();
    });
}

void LiveDraftPage::follow(SkillGenerator *generator, const QString &teacher)
{
    if (m_generator)
        m_generator->disconnect(this);
    m_generator = generator;
    m_draft->clear();
    m_title->setText(tr("<b>%1 is writing the skill</b>").arg(teacher.toHtmlEscaped()));
    m_stage->setText(tr("Waiting for the first words…"));
    m_cancel->setText(tr("Cancel"));
    connect(generator, &SkillGenerator::stage, this, [this](const QString &what) { m_stage->setText(what + u'…'); });
    connect(generator, &SkillGenerator::replyRestarted, m_draft, &QPlainTextEdit::clear);
    connect(generator, &SkillGenerator::replyDelta, this, &LiveDraftPage::append);
    connect(generator, &SkillGenerator::finished, this, [this](const SkillGenerationResult &result) {
        m_generator = nullptr;
        Q_EMIT written(result.skillDir, result.promptPath, result.replyPath);
    });
    connect(generator, &SkillGenerator::failed, this, [this](const QString &message) {
        m_generator = nullptr;
        m_cancel->setText(tr("Close"));
        m_stage->setText(message == u"cancelled" ? tr("Cancelled.") : message);
        Q_EMIT stopped(message);
    });
}

QString LiveDraftPage::draftText() const
{
    return m_draft->toPlainText();
}

QString LiveDraftPage::stageText() const
{
    return m_stage->text();
}

void LiveDraftPage::append(const QString &text)
{
    // Follow the end only while the user has not scrolled up to read something earlier.
    QScrollBar *bar = m_draft->verticalScrollBar();
    const bool atEnd = bar->value() >= bar->maximum() - 2;
    QTextCursor cursor(m_draft->document());
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(text);
    if (atEnd)
        bar->setValue(bar->maximum());
}

} // namespace sf
