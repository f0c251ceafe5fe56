#include "skill/SkillViewHeader.h"

#include "common/ElidedLabel.h"
#include "skill/SkillShareButton.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace sf {

namespace {

QToolButton *makeToggle(QWidget *parent, const QString &text, const QString &tip)
{
    auto *button = new QToolButton(parent);
    button->setText(text);
    button->setToolTip(tip);
    button->setCheckable(true);
    button->setChecked(true);
    button->setAutoRaise(true);
    return button;
}

} // namespace

SkillViewHeader::SkillViewHeader(QWidget *parent)
    : QWidget(parent)
    , m_title(new ElidedLabel(this, Qt::ElideMiddle))
    , m_tokens(new QLabel(this))
    , m_formToggle(makeToggle(this, tr("Front Matter"), tr("Show the front-matter form above the source")))
    , m_previewToggle(makeToggle(this, tr("Preview"), tr("Show the live preview beside the source")))
    , m_versionsButton(new QToolButton(this))
    , m_share(new SkillShareButton(this))
{
    // A long skill or file name is elided in the middle (keeping the file's name), never widening the window.
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_tokens->setToolTip(tr("Estimated tokens of this file and of the whole skill"));
    m_versionsButton->setText(tr("Versions…"));
    m_versionsButton->setToolTip(tr("Every saved version of the skill: compare any two, restore one"));
    m_versionsButton->setAutoRaise(true);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(m_title, 1);
    layout->addWidget(m_tokens);
    layout->addSpacing(8);
    layout->addWidget(m_formToggle);
    layout->addWidget(m_previewToggle);
    layout->addWidget(m_versionsButton);
    layout->addWidget(m_share);

    connect(m_formToggle, &QToolButton::toggled, this, &SkillViewHeader::formToggled);
    connect(m_previewToggle, &QToolButton::toggled, this, &SkillViewHeader::previewToggled);
    connect(m_versionsButton, &QToolButton::clicked, this, &SkillViewHeader::versionsRequested);
}

void SkillViewHeader::setFile(const QString &where, bool modified)
{
    if (where.isEmpty()) {
        m_title->clear();
        m_tokens->clear();
        return;
    }
    m_title->setText(where + (modified ? tr(" — modified") : QString()));
}

void SkillViewHeader::setTokens(const QString &text)
{
    m_tokens->setText(text);
}

void SkillViewHeader::setAvailable(bool form, bool preview, bool versions)
{
    m_formToggle->setEnabled(form);
    m_previewToggle->setEnabled(preview);
    m_versionsButton->setEnabled(versions);
}

bool SkillViewHeader::isFormWanted() const
{
    return m_formToggle->isChecked();
}

bool SkillViewHeader::isPreviewWanted() const
{
    return m_previewToggle->isChecked();
}

} // namespace sf
