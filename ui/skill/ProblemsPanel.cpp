#include "skill/ProblemsPanel.h"

#include "common/Theme.h"
#include "skill/ProblemsModel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

namespace sf {

ProblemsPanel::ProblemsPanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new ProblemsModel(this))
    , m_view(new QTreeView(this))
    , m_profile(new QComboBox(this))
    , m_counts(new QLabel(this))
{
    auto *title = new QLabel(tr("<b>Problems</b>"), this);
    for (const ValidationProfile profile : allProfiles())
        m_profile->addItem(profileName(profile), int(profile));
    m_profile->setToolTip(tr("The rules to check the skill against: the open Agent Skills specification, Claude "
                             "Code, claude.ai uploads or upskill"));
    m_profile->setAccessibleName(tr("Validation profile"));
    auto *profileLabel = new QLabel(tr("Profile:"), this);
    profileLabel->setBuddy(m_profile);

    m_view->setModel(m_model);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setAllColumnsShowFocus(true);
    m_view->setAccessibleName(tr("Problems"));
    m_view->header()->setStretchLastSection(true);
    m_view->header()->setSectionResizeMode(ProblemsModel::SeverityColumn, QHeaderView::ResizeToContents);
    m_view->header()->setSectionResizeMode(ProblemsModel::LocationColumn, QHeaderView::ResizeToContents);

    auto *header = new QHBoxLayout;
    header->setContentsMargins(6, 4, 6, 2);
    header->addWidget(title);
    header->addSpacing(12);
    header->addWidget(m_counts);
    header->addStretch(1);
    header->addWidget(profileLabel);
    header->addWidget(m_profile);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(header);
    layout->addWidget(m_view, 1);

    connect(m_view, &QTreeView::activated, this,
            [this](const QModelIndex &index) { Q_EMIT problemActivated(m_model->problem(index.row())); });
    connect(m_view, &QTreeView::clicked, this,
            [this](const QModelIndex &index) { Q_EMIT problemActivated(m_model->problem(index.row())); });
    connect(m_profile, &QComboBox::currentIndexChanged, this, [this] { Q_EMIT profileChanged(profile()); });
    setProblems({});
}

void ProblemsPanel::setProblems(const QList<SkillProblem> &problems)
{
    m_model->setProblems(problems);
    m_counts->setText(summary());
    const QColor color = m_model->errorCount() > 0 ? Theme::failure() : Theme::muted();
    m_counts->setStyleSheet(QStringLiteral("color: %1").arg(color.name()));
}

QString ProblemsPanel::summary() const
{
    const int errors = m_model->errorCount();
    const int warnings = m_model->warningCount();
    if (errors == 0 && warnings == 0)
        return tr("No problems");
    const QString errorText = errors == 1 ? tr("1 error") : tr("%1 errors").arg(errors);
    const QString warningText = warnings == 1 ? tr("1 warning") : tr("%1 warnings").arg(warnings);
    return errorText + QStringLiteral(", ") + warningText;
}

ValidationProfile ProblemsPanel::profile() const
{
    return ValidationProfile(m_profile->currentData().toInt());
}

void ProblemsPanel::setProfile(ValidationProfile profile)
{
    m_profile->setCurrentIndex(m_profile->findData(int(profile)));
}

} // namespace sf
