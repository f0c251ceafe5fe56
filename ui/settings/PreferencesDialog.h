#pragma once

#include <QDialog>

class QComboBox;
class QSpinBox;
class QTabWidget;

namespace sf {

class AppSettings;
class SlurmPage;

/// Preferences: appearance and the embedded local model server (General), and the Slurm profile heavy work uses
/// on a cluster (Slurm). Applies on OK, writes AppSettings.
class PreferencesDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit PreferencesDialog(AppSettings &settings, QWidget *parent = nullptr);

    void accept() override;
    void showSlurmPage();
    SlurmPage *slurmPage() const { return m_slurm; }

private:
    AppSettings &m_settings;
    QComboBox *m_theme;
    QSpinBox *m_contextSize;
    QSpinBox *m_threads;
    QTabWidget *m_tabs;
    SlurmPage *m_slurm;
};

} // namespace sf
