#include "common/EmptyState.h"

#include <QVBoxLayout>

namespace sf {

EmptyState::EmptyState(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_explanation(new QLabel(this))
{
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.4);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setAlignment(Qt::AlignCenter);
    m_explanation->setAlignment(Qt::AlignCenter);
    m_explanation->setWordWrap(true);
    m_explanation->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_explanation->setMaximumWidth(560);

    auto *layout = new QVBoxLayout(this);
    layout->addStretch(1);
    layout->addWidget(m_title);
    layout->addWidget(m_explanation, 0, Qt::AlignHCenter);
    layout->addStretch(2);
}

void EmptyState::setText(const QString &title, const QString &explanation)
{
    m_title->setText(title);
    m_explanation->setText(explanation);
}

} // namespace sf
