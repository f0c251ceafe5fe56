#include "generate/RefineIterationsModel.h"

#include "eval/RunSummary.h"

#include <QFont>

namespace sf {

namespace {

QString percent(double rate)
{
    return QString::number(qRound(rate * 100)) + u'%';
}

} // namespace

RefineIterationsModel::RefineIterationsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void RefineIterationsModel::upsert(const RefineIteration &iteration)
{
    for (qsizetype row = 0; row < m_iterations.size(); ++row) {
        if (m_iterations.at(row).number == iteration.number) {
            m_iterations[row] = iteration;
            Q_EMIT dataChanged(index(int(row), 0), index(int(row), ColumnCount - 1));
            return;
        }
    }
    const int row = int(m_iterations.size());
    beginInsertRows({}, row, row);
    m_iterations.append(iteration);
    endInsertRows();
}

void RefineIterationsModel::clear()
{
    beginResetModel();
    m_iterations.clear();
    m_kept = 0;
    endResetModel();
}

void RefineIterationsModel::setKept(int number)
{
    if (number == m_kept)
        return;
    m_kept = number;
    if (!m_iterations.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(int(m_iterations.size()) - 1, ColumnCount - 1));
}

int RefineIterationsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_iterations.size());
}

int RefineIterationsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RefineIterationsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) {
        return {};
    }
    const RefineIteration &it = m_iterations.at(index.row());
    if (role == Qt::TextAlignmentRole) {
        return index.column() == Version || index.column() == Decision ? QVariant()
                                                                       : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == Qt::ToolTipRole && index.column() == Version) {
        return it.runDir;
    }
    if (role == Qt::FontRole && m_kept != 0 && it.number == m_kept) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (Column(index.column())) {
    case Iteration:
        return it.number;
    case Version:
        return it.versionId;
    case Lift:
        return liftInPoints(it.trainLift);
    case WithSkill:
        return percent(it.trainPassRate);
    case WithoutSkill:
        return percent(it.baselinePassRate);
    case HeldOutLift:
        return it.heldOutLift ? liftInPoints(*it.heldOutLift) : tr("none held out");
    case Tokens:
        return QString::number(qRound64(it.meanTokens));
    case Decision: {
        QString text;
        if (!it.proposedVersionId.isEmpty())
            text = it.accepted ? tr("proposal accepted") : tr("proposal waiting");
        if (m_kept != 0 && it.number == m_kept)
            text = text.isEmpty() ? tr("kept in the skill") : tr("%1; kept in the skill").arg(text);
        return text;
    }
    case ColumnCount:
        break;
    }
    return {};
}

QVariant RefineIterationsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (Column(section)) {
    case Iteration:
        return tr("#");
    case Version:
        return tr("Version");
    case Lift:
        return tr("Lift (train)");
    case WithSkill:
        return tr("With skill");
    case WithoutSkill:
        return tr("Without");
    case HeldOutLift:
        return tr("Lift (held out)");
    case Tokens:
        return tr("Tokens / item");
    case Decision:
        return tr("Proposal / kept");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace sf
