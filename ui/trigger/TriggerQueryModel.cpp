#include "trigger/TriggerQueryModel.h"

#include <algorithm>

namespace sf {

TriggerQueryModel::TriggerQueryModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void TriggerQueryModel::setQueries(const QList<TriggerQuery> &queries)
{
    beginResetModel();
    m_queries = queries;
    m_modified = false;
    endResetModel();
}

int TriggerQueryModel::addQuery(bool shouldTrigger)
{
    const int row = int(m_queries.size());
    beginInsertRows({}, row, row);
    m_queries.append({QString(), shouldTrigger});
    endInsertRows();
    m_modified = true;
    return row;
}

void TriggerQueryModel::removeQueries(QList<int> rows)
{
    std::sort(rows.begin(), rows.end(), std::greater<>());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    for (const int row : std::as_const(rows)) {
        if (row < 0 || row >= m_queries.size())
            continue;
        beginRemoveRows({}, row, row);
        m_queries.removeAt(row);
        endRemoveRows();
        m_modified = true;
    }
}

int TriggerQueryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_queries.size());
}

int TriggerQueryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TriggerQueryModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const TriggerQuery &q = m_queries.at(index.row());
    if (index.column() == Query && (role == Qt::DisplayRole || role == Qt::EditRole || role == Qt::ToolTipRole))
        return q.query;
    if (index.column() == ShouldTrigger) {
        if (role == Qt::CheckStateRole)
            return q.shouldTrigger ? Qt::Checked : Qt::Unchecked;
        if (role == Qt::DisplayRole)
            return q.shouldTrigger ? tr("should load") : tr("should not load");
    }
    return {};
}

bool TriggerQueryModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    TriggerQuery &q = m_queries[index.row()];
    if (index.column() == Query && role == Qt::EditRole) {
        q.query = value.toString();
    } else if (index.column() == ShouldTrigger && role == Qt::CheckStateRole) {
        q.shouldTrigger = value.toInt() == Qt::Checked;
    } else {
        return false;
    }
    m_modified = true;
    Q_EMIT dataChanged(index, index);
    return true;
}

Qt::ItemFlags TriggerQueryModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    return flags | (index.column() == Query ? Qt::ItemIsEditable : Qt::ItemIsUserCheckable);
}

QVariant TriggerQueryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == Query ? tr("Query") : tr("Expected");
}

} // namespace sf
