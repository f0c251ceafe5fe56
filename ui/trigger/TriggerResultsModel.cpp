#include "trigger/TriggerResultsModel.h"

#include <QBrush>
#include <QColor>

namespace sf {

TriggerResultsModel::TriggerResultsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void TriggerResultsModel::setMeasurement(const TriggerMeasurement &measurement, const QList<TriggerQuery> &queries,
                                         const QList<bool> &heldOut)
{
    beginResetModel();
    m_outcomes = measurement.outcomes;
    m_queries = queries;
    m_heldOut = heldOut;
    endResetModel();
}

void TriggerResultsModel::clear()
{
    setMeasurement({}, {});
}

int TriggerResultsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_outcomes.size());
}

int TriggerResultsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TriggerResultsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QueryOutcome &o = m_outcomes.at(index.row());
    const TriggerQuery &q = m_queries.at(o.queryIndex);
    const bool passes = o.passes(q.shouldTrigger);
    if (role == Qt::ForegroundRole && index.column() == Verdict && o.trials)
        return QBrush(passes ? QColor(0x00, 0x9e, 0x73) : QColor(0xd5, 0x5e, 0x00));
    if (role == Qt::ToolTipRole && index.column() == Query)
        return q.query;
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Query:
        return q.query.simplified();
    case Expected: {
        const QString expected = q.shouldTrigger ? tr("load") : tr("not load");
        return index.row() < m_outcomes.size() && o.queryIndex < m_heldOut.size() && m_heldOut.at(o.queryIndex)
                   ? tr("%1 (held out)").arg(expected)
                   : expected;
    }
    case Model:
        return o.model;
    case Loaded:
        return o.trials ? tr("%1/%2 (%3%)").arg(o.candidateLoads).arg(o.trials).arg(qRound(o.share() * 100))
                        : tr("no answer");
    case Verdict:
        return o.trials ? (passes ? tr("ok") : tr("wrong")) : QString();
    case Instead: {
        QStringList parts;
        for (auto it = o.others.cbegin(); it != o.others.cend(); ++it)
            parts.append(tr("%1 ×%2").arg(it.key().isEmpty() ? tr("none") : it.key()).arg(it.value()));
        if (o.errors)
            parts.append(tr("%n failed", nullptr, o.errors));
        return parts.join(QStringLiteral(", "));
    }
    default:
        return {};
    }
}

QVariant TriggerResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Query:
        return tr("Query");
    case Expected:
        return tr("Expected");
    case Model:
        return tr("Model");
    case Loaded:
        return tr("Loaded the skill");
    case Verdict:
        return tr("Verdict");
    case Instead:
        return tr("Loaded instead");
    default:
        return {};
    }
}

} // namespace sf
