#include "settings/PreferencesDialog.h"

#include "common/Theme.h"
#include "project/AppSettings.h"
#include "settings/SlurmPage.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QMessageBox>
#include <QSpinBox>
#include <QTabWidget>
#include <QThread>
#include <QVBoxLayout>

namespace sf {

PreferencesDialog::PreferencesDialog(AppSettings &settings, QWidget *parent)
    : QDialog(parent)
    , m_settings(settings)
    , m_theme(new QComboBox(this))
    , m_contextSize(new QSpinBox(this))
    , m_threads(new QSpinBox(this))
    , m_tabs(new QTabWidget(this))
    , m_slurm(new SlurmPage(settings, this))
{
    setWindowTitle(tr("Preferences"));

    m_theme->addItem(tr("Follow the system"), QStringLiteral("system"));
    m_theme->addItem(tr("Light"), QStringLiteral("light"));
    m_theme->addItem(tr("Dark"), QStringLiteral("dark"));
    m_theme->setCurrentIndex(std::max(0, m_theme->findData(settings.theme())));

    m_contextSize->setRange(512, 131072);
    m_contextSize->setSingleStep(1024);
    m_contextSize->setSuffix(tr(" tokens"));
    m_contextSize->setToolTip(tr("Prompt and reply of one request. The server holds this much for each request it "
                                 "serves at once, so memory grows with it."));
    m_contextSize->setValue(settings.localModelContextSize());
    m_threads->setRange(0, std::max(1, QThread::idealThreadCount()));
    m_threads->setSpecialValueText(tr("All cores"));
    m_threads->setValue(settings.localModelThreads());

    auto *appearance = new QGroupBox(tr("Appearance"), this);
    auto *appearanceForm = new QFormLayout(appearance);
    appearanceForm->addRow(tr("Theme:"), m_theme);

    auto *local = new QGroupBox(tr("Local model (llama.cpp server)"), this);
    auto *localForm = new QFormLayout(local);
    localForm->addRow(tr("Context per request:"), m_contextSize);
    localForm->addRow(tr("CPU threads:"), m_threads);
    auto *note = new QLabel(tr("Takes effect the next time the local model server starts."), this);
    note->setWordWrap(true);
    localForm->addRow(note);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *general = new QWidget(this);
    auto *generalLayout = new QVBoxLayout(general);
    generalLayout->addWidget(appearance);
    generalLayout->addWidget(local);
    generalLayout->addStretch(1);
    m_tabs->addTab(general, tr("General"));
    m_tabs->addTab(m_slurm, tr("Slurm"));

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs);
    layout->addWidget(buttons);
    // Room for a slurm.conf path and Slurm's refusal without eliding them.
    setMinimumWidth(560);
}

void PreferencesDialog::showSlurmPage()
{
    m_tabs->setCurrentWidget(m_slurm);
}

void PreferencesDialog::accept()
{
    if (const QString problem = m_slurm->save(); !problem.isEmpty()) {
        showSlurmPage();
        QMessageBox::warning(this, tr("Slurm profile"), problem);
        return;
    }
    const QString theme = m_theme->currentData().toString();
    if (theme != m_settings.theme()) {
        m_settings.setTheme(theme);
        Theme::apply(Theme::modeFromName(theme));
    }
    m_settings.setLocalModelContextSize(m_contextSize->value());
    m_settings.setLocalModelThreads(m_threads->value());
    QDialog::accept();
}

} // namespace sf
