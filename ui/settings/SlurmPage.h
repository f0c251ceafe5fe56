#pragma once

#include "cluster/ExecutorChoice.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;

namespace sf {

class AppSettings;

/**
 * Preferences → Slurm: the Slurm profile that "Slurm cluster" (the evaluation launch dialog, the Kernels view) and
 * `--executor slurm` use: SLURM_CONF, partition, GPU gres, account, time limit, more sbatch options and the folder
 * shared with the nodes. Test asks Slurm, off the UI thread, whether it would take jobs with these options (the
 * same `sbatch --test-only` a run starts with) and shows its answer or refusal. Says so plainly where sbatch is not
 * on PATH.
 */
class SlurmPage final : public QWidget
{
    Q_OBJECT

public:
    explicit SlurmPage(AppSettings &settings, QWidget *parent = nullptr);

    /// The profile the fields describe.
    SlurmProfile profile() const;
    /// Writes the fields to the settings' slurm/ group; a message on a field that cannot be read (an option with an
    /// open quote), else "".
    QString save();
    void test();
    /// The skillforge the nodes run, for the check (default: this program); tests point it elsewhere.
    void setTuning(const SlurmTuning &tuning) { m_tuning = tuning; }
    QString statusText() const;
    bool isTesting() const { return m_testing; }

Q_SIGNALS:
    /// The last Test finished: @p ok when Slurm would take the jobs, else @p message says why not.
    void tested(bool ok, const QString &message);

private:
    void setStatus(const QString &text, bool error);

    AppSettings &m_settings;
    SlurmTuning m_tuning;
    bool m_testing = false;
    QLineEdit *m_slurmConf;
    QLineEdit *m_partition;
    QLineEdit *m_gres;
    QLineEdit *m_account;
    QLineEdit *m_time;
    QLineEdit *m_sbatchOptions;
    QLineEdit *m_sharedDir;
    QLabel *m_availability;
    QPushButton *m_test;
    QLabel *m_status;
};

} // namespace sf
