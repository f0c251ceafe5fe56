#pragma once

#include "eval/EvalSession.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace sf {

class Project;

/// Asks what to evaluate: a skill of the project, a suite (the skill's own tests or one of tests/*.json), the
/// student models, repeats and how the skill is delivered.
class EvalLaunchDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit EvalLaunchDialog(const Project &project, QWidget *parent = nullptr);

    /// The plan the fields describe (runs go to the project's runs/ folder).
    EvalPlan plan() const;

private:
    void updateOk();
    void listSuites(const QString &select);
    void editSuite();

    const Project &m_project;
    QString m_runsDir;
    QComboBox *m_skill;
    QComboBox *m_suite;
    QLineEdit *m_models;
    QSpinBox *m_repeats;
    QComboBox *m_mode;
    QSpinBox *m_concurrency;
    QCheckBox *m_tools;
    QLineEdit *m_judge;
};

} // namespace sf
