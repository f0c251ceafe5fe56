#include "common/ExecutorChoiceBox.h"

#include "project/AppSettings.h"
#include "settings/PreferencesDialog.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QPushButton>
#include <QStandardItemModel>

namespace sf {

namespace {
constexpr int LocalRow = 0;
constexpr int SlurmRow = 1;
} // namespace

ExecutorChoiceBox::ExecutorChoiceBox(QWidget *parent)
    : QWidget(parent)
    , m_combo(new QComboBox(this))
    , m_profile(new QPushButton(tr("Slurm Profile…"), this))
{
    m_combo->setObjectName(QStringLiteral("executorChoice"));
    m_combo->setAccessibleName(tr("Run heavy work on"));
    m_combo->addItem(tr("This machine"), QStringLiteral("local"));
    m_combo->addItem(QString(), QStringLiteral("slurm"));
    m_profile->setObjectName(QStringLiteral("editSlurmProfile"));
    m_profile->setToolTip(tr("Partition, GPU gres, account, time limit, sbatch options and the shared folder "
                             "(Preferences → Slurm)"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_combo, 1);
    layout->addWidget(m_profile);
    connect(m_combo, &QComboBox::currentIndexChanged, this, &ExecutorChoiceBox::changed);
    connect(m_profile, &QPushButton::clicked, this, &ExecutorChoiceBox::editProfile);
    refresh();
    if (AppSettings().lastExecutor() == QLatin1String("slurm"))
        select(ExecutorChoice::Kind::Slurm);
}

void ExecutorChoiceBox::remember() const
{
    AppSettings().setLastExecutor(m_slurmSetAside ? QStringLiteral("slurm") : choice().name());
}

void ExecutorChoiceBox::setNothingToSend(const QString &why)
{
    if (why == m_nothingToSend)
        return;
    if (!why.isEmpty() && m_combo->currentIndex() == SlurmRow)
        m_slurmSetAside = true;
    m_nothingToSend = why;
    const bool bringBack = why.isEmpty() && m_slurmSetAside;
    if (why.isEmpty())
        m_slurmSetAside = false;
    refresh();
    if (bringBack)
        select(ExecutorChoice::Kind::Slurm);
}

void ExecutorChoiceBox::refresh()
{
    m_whyNotSlurm = whySlurmUnavailable();
    m_combo->setItemText(
        SlurmRow,
        tr("Slurm cluster (%1)").arg(ExecutorChoice::onSlurm(AppSettings().slurmProfile()).slurmOptionsText()));
    auto *model = qobject_cast<QStandardItemModel *>(m_combo->model());
    QStandardItem *slurm = model->item(SlurmRow);
    const bool usable = slurmAvailable() && m_nothingToSend.isEmpty();
    slurm->setEnabled(usable);
    const QString tip = !slurmAvailable() ? tr("Slurm cannot be used: %1.").arg(m_whyNotSlurm)
                        : !usable         ? m_nothingToSend
                                          : tr("Shell-command and CUDA kernel checks (and kernel checks) run as Slurm "
                                                       "jobs with the settings' Slurm profile; model calls stay on this "
                                                       "machine.");
    slurm->setToolTip(tip);
    if (!usable && m_combo->currentIndex() == SlurmRow)
        m_combo->setCurrentIndex(LocalRow);
    m_combo->setToolTip(usable ? tr("Where the heavy work runs: here, or as Slurm jobs") : tip);
    Q_EMIT changed(); // the profile may name another partition now: what the dialog says of the run follows it
}

ExecutorChoice ExecutorChoiceBox::choice() const
{
    // The profile as the settings hold it now: Preferences may have changed it since this box was filled.
    return m_combo->currentIndex() == SlurmRow ? ExecutorChoice::onSlurm(AppSettings().slurmProfile())
                                               : ExecutorChoice::local();
}

void ExecutorChoiceBox::select(ExecutorChoice::Kind kind)
{
    const bool slurm = kind == ExecutorChoice::Kind::Slurm && slurmAvailable();
    // Chosen while there is nothing to send: kept for when there is.
    m_slurmSetAside = slurm && !m_nothingToSend.isEmpty();
    m_combo->setCurrentIndex(slurm && m_nothingToSend.isEmpty() ? SlurmRow : LocalRow);
}

void ExecutorChoiceBox::editProfile()
{
    AppSettings settings;
    PreferencesDialog dialog(settings, this);
    dialog.showSlurmPage();
    if (dialog.exec() == QDialog::Accepted)
        refresh();
}

} // namespace sf
