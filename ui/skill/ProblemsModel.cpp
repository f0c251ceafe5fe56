#include "skill/ProblemsModel.h"

#include "common/Theme.h"

#include <QApplication>
#include <QStyle>
#include <algorithm>

namespace sf {

void ProblemsModel::setProblems(const QList<SkillProblem> &problems)
{
    const bool same = std::equal(problems.begin(), problems.end(), m_problems.begin(), m_problems.end(),
                                 [](const SkillProblem &a, const SkillProblem &b) {
                                     return a.severity == b.severity && a.file == b.file && a.line == b.line &&
                                            a.column == b.column && a.code == b.code && a.message == b.message;
                                 });
    if (same)
        return;
    beginResetModel();
    m_problems = problems;
    endResetModel();
}

int ProblemsModel::errorCount() const
{
    return int(std::count_if(m_problems.begin(), m_problems.end(), [](const SkillProblem &p) { return p.isError(); }));
}

int ProblemsModel::warningCount() const
{
    return int(m_problems.size()) - errorCount();
}

int ProblemsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_problems.size());
}

int ProblemsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProblemsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SkillProblem &p = m_problems[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeverityColumn:
            return p.isError() ? tr("Error") : tr("Warning");
        case LocationColumn: {
            QString place = p.file;
            if (p.line > 0)
                place += u':' + QString::number(p.line);
            if (p.line > 0 && p.column > 0)
                place += u':' + QString::number(p.column);
            return place;
        }
        case MessageColumn:
            return p.message;
        default:
            break;
        }
        break;
    case Qt::DecorationRole:
        if (index.column() == SeverityColumn)
            return QApplication::style()->standardIcon(p.isError() ? QStyle::SP_MessageBoxCritical
                                                                   : QStyle::SP_MessageBoxWarning);
        break;
    case Qt::ForegroundRole:
        if (index.column() == SeverityColumn)
            return p.isError() ? Theme::failure() : Theme::muted();
        break;
    case Qt::ToolTipRole:
        return QString(p.toString() + QStringLiteral(" [") + p.code + u']');
    case ProblemCodeRole:
        return p.code;
    case LineRole:
        return p.line;
    case ColumnRole:
        return p.column;
    case FileRole:
        return p.file;
    default:
        break;
    }
    return {};
}

QVariant ProblemsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case LocationColumn:
        return tr("Where");
    case MessageColumn:
        return tr("Problem");
    default:
        break;
    }
    return {};
}

} // namespace sf
