#include "common/EmptyState.h"

#include <algorithm>

namespace sf {

namespace {
constexpr int ReadableWidth = 560; // about 80 characters: wider lines are hard to read
constexpr int SideMargin = 12;
constexpr int Spacing = 6;
} // namespace

EmptyState::EmptyState(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_explanation(new QLabel(this))
{
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.4);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    for (QLabel *label : {m_title, m_explanation}) {
        label->setAlignment(Qt::AlignCenter);
        label->setWordWrap(true);
    }
    m_explanation->setTextInteractionFlags(Qt::TextSelectableByMouse);
}

QSize EmptyState::sizeHint() const
{
    return {ReadableWidth + 2 * SideMargin, 200};
}

QSize EmptyState::minimumSizeHint() const
{
    return {0, 0};
}

void EmptyState::setText(const QString &title, const QString &explanation)
{
    m_title->setText(title);
    m_explanation->setText(explanation);
    fitLabels();
}

void EmptyState::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitLabels();
}

void EmptyState::fitLabels()
{
    // Placed by hand, not by a box layout: there a centred, word-wrapped label gets its size hint, narrower
    // and shorter than its text needs, and the text was cut off mid-sentence. Each label gets the width
    // there is (up to a readable line) and the height its wrapped text needs at that width; the pair sits
    // a third of the way down, as the stretches 1:2 placed it before.
    const int width = std::max(60, std::min(ReadableWidth, this->width() - 2 * SideMargin));
    const int left = std::max(0, (this->width() - width) / 2);
    const int titleHeight = m_title->heightForWidth(width);
    const int explanationHeight = m_explanation->heightForWidth(width);
    const int top = std::max(0, (height() - titleHeight - Spacing - explanationHeight) / 3);
    m_title->setGeometry(left, top, width, titleHeight);
    m_explanation->setGeometry(left, top + titleHeight + Spacing, width, explanationHeight);
}

} // namespace sf
