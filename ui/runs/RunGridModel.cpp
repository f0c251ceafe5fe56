#include "runs/RunGridModel.h"

#include "common/Theme.h"

#include <QColor>

namespace sf {

namespace {

QString rowKey(const ItemKey &key)
{
    return key.caseId + u'#' + QString::number(key.repeat);
}

QString columnKey(const ItemKey &key)
{
    return key.model + u'|' + key.arm;
}

} // namespace

RunGridModel::RunGridModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void RunGridModel::reset(const QList<ItemKey> &items, const QList<ItemResult> &results)
{
    beginResetModel();
    m_rows.clear();
    m_columns.clear();
    m_results.clear();
    m_running.clear();
    auto place = [this](const ItemKey &key) {
        if (!m_rows.contains(rowKey(key)))
            m_rows.append(rowKey(key));
        if (!m_columns.contains(columnKey(key)))
            m_columns.append(columnKey(key));
    };
    for (const ItemKey &key : items)
        place(key);
    for (const ItemResult &r : results) {
        place(r.key); // results of an imported or older run may lie outside the matrix
        m_results.insert(r.key.toString(), r);
    }
    // Baseline before with_skill for each model, whatever order the matrix interleaved them in.
    QStringList models;
    for (const QString &column : std::as_const(m_columns)) {
        if (!models.contains(column.section(u'|', 0, -2)))
            models.append(column.section(u'|', 0, -2));
    }
    QStringList ordered;
    for (const QString &model : std::as_const(models)) {
        for (const QString &arm : {kBaselineArm, kWithSkillArm}) {
            if (m_columns.contains(model + u'|' + arm))
                ordered.append(model + u'|' + arm);
        }
    }
    m_columns = ordered;
    endResetModel();
}

QModelIndex RunGridModel::indexOf(const ItemKey &key) const
{
    const qsizetype row = m_rows.indexOf(rowKey(key));
    const qsizetype column = m_columns.indexOf(columnKey(key));
    return row < 0 || column < 0 ? QModelIndex() : index(int(row), int(column));
}

void RunGridModel::setRunning(const ItemKey &key)
{
    m_running.insert(key.toString());
    const QModelIndex cell = indexOf(key);
    if (cell.isValid())
        Q_EMIT dataChanged(cell, cell);
}

void RunGridModel::setResult(const ItemResult &result)
{
    m_running.remove(result.key.toString());
    m_results.insert(result.key.toString(), result);
    const QModelIndex cell = indexOf(result.key);
    if (cell.isValid())
        Q_EMIT dataChanged(cell, cell);
}

const ItemResult *RunGridModel::resultAt(const QModelIndex &index) const
{
    if (!index.isValid())
        return nullptr;
    const QString row = m_rows.value(index.row());
    const QString column = m_columns.value(index.column());
    const ItemKey key{column.section(u'|', 0, -2), column.section(u'|', -1), row.section(u'#', 0, -2),
                      row.section(u'#', -1).toInt()};
    const auto it = m_results.constFind(key.toString());
    return it == m_results.cend() ? nullptr : &*it;
}

int RunGridModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RunGridModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant RunGridModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const ItemResult *result = resultAt(index);
    const QString row = m_rows.value(index.row());
    const QString column = m_columns.value(index.column());
    const ItemKey key{column.section(u'|', 0, -2), column.section(u'|', -1), row.section(u'#', 0, -2),
                      row.section(u'#', -1).toInt()};
    CellState state = CellState::Pending;
    if (result)
        state = result->isError() ? CellState::Error : (result->passed ? CellState::Passed : CellState::Failed);
    else if (m_running.contains(key.toString()))
        state = CellState::Running;
    switch (role) {
    case Qt::DisplayRole:
        switch (state) {
        case CellState::Pending:
            return QString();
        case CellState::Running:
            return tr("running…");
        case CellState::Passed:
            return tr("pass");
        case CellState::Failed:
            return result->stopReason == StopReason::Answered ? tr("fail") : tr("fail (%1)").arg(result->stopReason);
        case CellState::Error:
            return tr("error");
        }
        return {};
    case Qt::ToolTipRole:
        if (!result)
            return {};
        if (result->isError())
            return result->error;
        return tr("%1 tokens, %2, %3 ms, %4 turns")
            .arg(result->totalTokens())
            .arg(result->costText())
            .arg(result->latencyMs)
            .arg(result->turns);
    case Qt::BackgroundRole:
        switch (state) {
        // Compare's case matrix colours a pass share the same way: one palette for pass and fail everywhere.
        case CellState::Passed:
            return Theme::passShareBackground(1.0);
        case CellState::Failed:
            return Theme::passShareBackground(0.0);
        case CellState::Error:
            return Theme::errorBackground();
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        return int(Qt::AlignCenter);
    case StateRole:
        return QVariant::fromValue(state);
    case ItemKeyRole:
        return key.toString();
    default:
        return {};
    }
}

QVariant RunGridModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Vertical)
        return m_rows.value(section).replace(u'#', QStringLiteral(" #"));
    const QString column = m_columns.value(section);
    return QStringLiteral("%1\n%2").arg(column.section(u'|', 0, -2), armLabel(column.section(u'|', -1)));
}

} // namespace sf
