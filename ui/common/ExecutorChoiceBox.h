#pragma once

#include "cluster/ExecutorChoice.h"

#include <QWidget>

class QComboBox;
class QPushButton;

namespace sf {

/**
 * "Run heavy work on: This machine / Slurm cluster (profile)": where an evaluation's shell-command and CUDA kernel
 * checks, or a kernel check, run. The Slurm entry uses the Slurm profile of the settings (Preferences → Slurm,
 * opened by the button beside it) and can be chosen only where sbatch is on PATH and there is work to send; otherwise
 * it is disabled and its tooltip says why. It starts on the choice last remembered.
 */
class ExecutorChoiceBox final : public QWidget
{
    Q_OBJECT

public:
    explicit ExecutorChoiceBox(QWidget *parent = nullptr);

    ExecutorChoice choice() const;
    /// Selects the executor @p choice names (Slurm only where it can be chosen); its Slurm options are the profile's.
    void select(ExecutorChoice::Kind kind);
    /// Reads the Slurm profile and looks for sbatch again; emits changed().
    void refresh();
    /// Keeps the choice for the next dialog or check (it starts on the one last kept). Slurm stays the choice kept
    /// while it is set aside for want of work (setNothingToSend()).
    void remember() const;
    bool slurmAvailable() const { return m_whyNotSlurm.isEmpty(); }
    /// @p why non-empty: what is to run has nothing for Slurm (only text checks, say); the Slurm entry is disabled with
    /// that reason and this machine chosen, until it is called with "" again, which brings Slurm back if it was
    /// chosen.
    void setNothingToSend(const QString &why);
    QString nothingToSend() const { return m_nothingToSend; }
    QComboBox *comboBox() const { return m_combo; }

Q_SIGNALS:
    void changed();

private:
    void editProfile();

    QComboBox *m_combo;
    QPushButton *m_profile;
    QString m_whyNotSlurm;
    QString m_nothingToSend;
    bool m_slurmSetAside = false; ///< Slurm was chosen when setNothingToSend() disabled it
};

} // namespace sf
