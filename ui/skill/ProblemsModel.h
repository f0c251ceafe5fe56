#pragma once

#include "skill/SkillValidator.h"

#include <QAbstractTableModel>

namespace sf {

/// The problems of a skill as a table: severity, place ("SKILL.md:3:7") and message.
class ProblemsModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Columns
    {
        SeverityColumn,
        LocationColumn,
        MessageColumn,
        ColumnCount
    };
    enum Roles
    {
        ProblemCodeRole = Qt::UserRole + 1,
        LineRole,
        ColumnRole,
        FileRole
    };

    using QAbstractTableModel::QAbstractTableModel;

    void setProblems(const QList<SkillProblem> &problems);
    const QList<SkillProblem> &problems() const { return m_problems; }
    const SkillProblem &problem(int row) const { return m_problems[row]; }
    int errorCount() const;
    int warningCount() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<SkillProblem> m_problems;
};

} // namespace sf
