#pragma once

#include "trigger/TriggerMeasure.h"

#include <QAbstractTableModel>

namespace sf {

/// One measurement per query and model: how often the candidate was loaded, the verdict, and what was loaded instead.
class TriggerResultsModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        Query,
        Expected,
        Model,
        Loaded,
        Verdict,
        Instead,
        ColumnCount
    };

    explicit TriggerResultsModel(QObject *parent = nullptr);

    void setMeasurement(const TriggerMeasurement &measurement, const QList<TriggerQuery> &queries,
                        const QList<bool> &heldOut = {});
    void clear();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<QueryOutcome> m_outcomes;
    QList<TriggerQuery> m_queries;
    QList<bool> m_heldOut;
};

} // namespace sf
