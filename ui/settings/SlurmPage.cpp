#include "settings/SlurmPage.h"

#include "common/OffThread.h"
#include "common/Theme.h"
#include "project/AppSettings.h"

#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QVBoxLayout>

namespace sf {

namespace {

QLineEdit *field(QWidget *parent, const QString &name, const QString &placeholder, const QString &tip)
{
    auto *edit = new QLineEdit(parent);
    edit->setObjectName(name);
    edit->setPlaceholderText(placeholder);
    edit->setToolTip(tip);
    edit->setClearButtonEnabled(true);
    return edit;
}

// sbatch options as a shell would split them: "--qos=short --comment='two words'".
std::optional<QStringList> splitOptions(const QString &text)
{
    if (text.count(u'\'') % 2 != 0 || text.count(u'"') % 2 != 0)
        return std::nullopt;
    return QProcess::splitCommand(text);
}

QString joinOptions(const QStringList &options)
{
    QStringList quoted;
    for (const QString &option : options)
        quoted << (option.contains(u' ') ? QStringLiteral("\"%1\"").arg(option) : option);
    return quoted.join(u' ');
}

} // namespace

SlurmPage::SlurmPage(AppSettings &settings, QWidget *parent)
    : QWidget(parent)
    , m_settings(settings)
    , m_slurmConf(field(this, QStringLiteral("slurmConf"), tr("from the environment (SLURM_CONF) or Slurm's default"),
                        tr("The slurm.conf the client tools (sbatch, squeue, scancel) read")))
    , m_partition(
          field(this, QStringLiteral("partition"), tr("the cluster's default partition"), tr("sbatch --partition")))
    , m_gres(field(this, QStringLiteral("gres"), tr("none, e.g. gpu:1"),
                   tr("sbatch --gres, asked only for jobs that need a GPU (cuda_kernel verifiers, kernel checks)")))
    , m_account(field(this, QStringLiteral("account"), tr("your default account"), tr("sbatch --account")))
    , m_time(field(this, QStringLiteral("time"), tr("each job's own limit plus a minute"),
                   tr("sbatch --time: minutes, or [D-]HH:MM:SS")))
    , m_sbatchOptions(field(this, QStringLiteral("sbatchOptions"), tr("none, e.g. --qos=short --mem=4G"),
                            tr("More sbatch options, as on a command line")))
    , m_sharedDir(field(this, QStringLiteral("sharedDir"), tr("~/.cache/skillforge/cluster"),
                        tr("A folder the nodes see at the same path: job files and results go there")))
    , m_availability(new QLabel(this))
    , m_test(new QPushButton(tr("Test"), this))
    , m_status(new QLabel(this))
{
    const SlurmProfile profile = settings.slurmProfile();
    m_slurmConf->setText(profile.slurmConf);
    m_partition->setText(profile.partition);
    m_gres->setText(profile.gres);
    m_account->setText(profile.account);
    m_time->setText(profile.time);
    m_sbatchOptions->setText(joinOptions(profile.sbatchArgs));
    m_sharedDir->setText(profile.sharedDir);

    auto *browseConf = new QPushButton(tr("Browse…"), this);
    connect(browseConf, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("SLURM_CONF"), m_slurmConf->text(),
                                                          tr("Slurm configuration (*.conf);;All files (*)"));
        if (!file.isEmpty())
            m_slurmConf->setText(file);
    });
    auto *browseShared = new QPushButton(tr("Browse…"), this);
    connect(browseShared, &QPushButton::clicked, this, [this] {
        const QString folder = QFileDialog::getExistingDirectory(this, tr("Shared folder"), m_sharedDir->text());
        if (!folder.isEmpty())
            m_sharedDir->setText(folder);
    });
    auto withButton = [this](QLineEdit *edit, QPushButton *button) {
        auto *row = new QHBoxLayout;
        row->addWidget(edit, 1);
        row->addWidget(button);
        return row;
    };

    m_availability->setObjectName(QStringLiteral("slurmAvailability"));
    m_availability->setWordWrap(true);
    const QString why = whySlurmUnavailable();
    m_availability->setText(
        why.isEmpty() ? tr("Evaluations and kernel checks can send their heavy work (command and cuda_kernel "
                           "verifiers, kernel builds and runs) to Slurm. Model calls always stay on this "
                           "machine: no provider key goes to the cluster.")
                      : tr("Slurm cannot be used from this machine: %1. The profile can still be edited.").arg(why));
    if (!why.isEmpty())
        m_availability->setStyleSheet(QStringLiteral("color: %1").arg(Theme::failure().name()));
    m_test->setObjectName(QStringLiteral("testSlurm"));
    m_test->setEnabled(why.isEmpty());
    m_test->setToolTip(why.isEmpty() ? tr("Ask Slurm whether it would take a job with these options "
                                          "(sbatch --test-only; nothing runs)")
                                     : why);
    m_status->setObjectName(QStringLiteral("slurmTestStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *form = new QFormLayout;
    form->addRow(tr("SLURM_CONF:"), withButton(m_slurmConf, browseConf));
    form->addRow(tr("Partition:"), m_partition);
    form->addRow(tr("GPU gres:"), m_gres);
    form->addRow(tr("Account:"), m_account);
    form->addRow(tr("Time limit:"), m_time);
    form->addRow(tr("More sbatch options:"), m_sbatchOptions);
    form->addRow(tr("Shared folder:"), withButton(m_sharedDir, browseShared));
    auto *testRow = new QHBoxLayout;
    testRow->addWidget(m_test);
    testRow->addWidget(m_status, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_availability);
    layout->addLayout(form);
    layout->addLayout(testRow);
    layout->addStretch(1);
    connect(m_test, &QPushButton::clicked, this, &SlurmPage::test);
}

SlurmProfile SlurmPage::profile() const
{
    SlurmProfile p;
    p.slurmConf = m_slurmConf->text().trimmed();
    p.partition = m_partition->text().trimmed();
    p.gres = m_gres->text().trimmed();
    p.account = m_account->text().trimmed();
    p.time = m_time->text().trimmed();
    p.sbatchArgs = splitOptions(m_sbatchOptions->text()).value_or(QStringList());
    p.sharedDir = m_sharedDir->text().trimmed();
    return p;
}

QString SlurmPage::save()
{
    if (!splitOptions(m_sbatchOptions->text())) {
        const QString problem = tr("More sbatch options: a quote is not closed");
        setStatus(problem, true);
        return problem;
    }
    m_settings.setSlurmProfile(profile());
    return {};
}

void SlurmPage::test()
{
    if (m_testing)
        return;
    if (!splitOptions(m_sbatchOptions->text())) {
        setStatus(tr("More sbatch options: a quote is not closed"), true);
        Q_EMIT tested(false, statusText());
        return;
    }
    m_testing = true;
    m_test->setEnabled(false);
    const SlurmProfile tried = profile();
    setStatus(tr("Asking Slurm (sbatch --test-only)…"), false);
    runOffThread(
        this, [tried, tuning = m_tuning] { return checkSlurmProfile(tried, tuning); },
        [this, tried](const QString &refusal) {
            m_testing = false;
            m_test->setEnabled(true);
            if (refusal.isEmpty())
                setStatus(
                    tried.gres.isEmpty()
                        ? tr("Slurm would take jobs with these options.")
                        : tr("Slurm would take jobs with these options, GPU jobs with --gres=%1.").arg(tried.gres),
                    false);
            else
                setStatus(refusal, true); // the check words it: "Slurm refused the job: …", "sbatch is not on PATH…"
            Q_EMIT tested(refusal.isEmpty(), statusText());
        });
}

QString SlurmPage::statusText() const
{
    return m_status->text();
}

void SlurmPage::setStatus(const QString &text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: %1").arg(Theme::failure().name()) : QString());
}

} // namespace sf
