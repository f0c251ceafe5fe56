#include "skill/NoticeBar.h"

#include "common/Theme.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>

namespace sf {

NoticeBar::NoticeBar(QWidget *parent)
    : QFrame(parent)
    , m_icon(new QLabel(this))
    , m_text(new QLabel(this))
    , m_buttons(new QHBoxLayout)
{
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(m_icon);
    layout->addWidget(m_text, 1);
    layout->addLayout(m_buttons);
    hide();
}

void NoticeBar::showNotice(const QString &text, Kind kind, const QList<Action> &actions)
{
    const int iconSize = style()->pixelMetric(QStyle::PM_SmallIconSize);
    const QIcon icon =
        style()->standardIcon(kind == Kind::Warning ? QStyle::SP_MessageBoxWarning : QStyle::SP_MessageBoxInformation);
    m_icon->setPixmap(icon.pixmap(iconSize, iconSize));
    m_text->setText(text);
    QPalette pal = palette();
    const QColor accent = kind == Kind::Warning ? Theme::failure() : Theme::success();
    const QColor base = pal.color(QPalette::Window);
    pal.setColor(QPalette::Window, QColor::fromRgbF(float(base.redF() * 0.85 + accent.redF() * 0.15),
                                                    float(base.greenF() * 0.85 + accent.greenF() * 0.15),
                                                    float(base.blueF() * 0.85 + accent.blueF() * 0.15)));
    setPalette(pal);
    // Later, not now: this may run from the clicked() of one of these buttons.
    while (QLayoutItem *item = m_buttons->takeAt(0)) {
        if (QWidget *button = item->widget()) {
            button->hide();
            button->deleteLater();
        }
        delete item;
    }
    for (const Action &action : actions) {
        auto *button = new QPushButton(action.text, this);
        button->setObjectName(action.objectName);
        const auto run = action.run;
        connect(button, &QPushButton::clicked, this, [this, run] {
            hide();
            if (run)
                run();
        });
        m_buttons->addWidget(button);
    }
    show();
}

QString NoticeBar::text() const
{
    return m_text->text();
}

} // namespace sf
