#pragma once

#include <QDialog>

class QComboBox;
class QSpinBox;

namespace sf {

class AppSettings;

/// Preferences: appearance and the embedded local model server. Applies on OK, writes AppSettings.
class PreferencesDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit PreferencesDialog(AppSettings &settings, QWidget *parent = nullptr);

    void accept() override;

private:
    AppSettings &m_settings;
    QComboBox *m_theme;
    QSpinBox *m_contextSize;
    QSpinBox *m_threads;
};

} // namespace sf
