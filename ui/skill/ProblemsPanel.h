#pragma once

#include "skill/SkillValidator.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QTreeView;

namespace sf {

class ProblemsModel;

/// The problems panel under the editor: the validation profile to check against, the error and warning
/// counts, and the problems; activating one jumps to its place.
class ProblemsPanel final : public QWidget
{
    Q_OBJECT

public:
    explicit ProblemsPanel(QWidget *parent = nullptr);

    void setProblems(const QList<SkillProblem> &problems);
    ProblemsModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }

    ValidationProfile profile() const;
    void setProfile(ValidationProfile profile);
    QString summary() const;

Q_SIGNALS:
    void problemActivated(const sf::SkillProblem &problem);
    void profileChanged(sf::ValidationProfile profile);

private:
    ProblemsModel *m_model;
    QTreeView *m_view;
    QComboBox *m_profile;
    QLabel *m_counts;
};

} // namespace sf
