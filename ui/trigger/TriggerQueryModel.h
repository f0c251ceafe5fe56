#pragma once

#include "trigger/TriggerQuerySet.h"

#include <QAbstractTableModel>

namespace sf {

/// A trigger query set as an editable table: the query's text, and a check box for "should trigger".
class TriggerQueryModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        Query,
        ShouldTrigger,
        ColumnCount
    };

    explicit TriggerQueryModel(QObject *parent = nullptr);

    void setQueries(const QList<TriggerQuery> &queries);
    const QList<TriggerQuery> &queries() const { return m_queries; }
    /// Appends an empty query (to be typed in) and returns its row.
    int addQuery(bool shouldTrigger);
    void removeQueries(QList<int> rows);
    bool isModified() const { return m_modified; }
    void setModified(bool modified) { m_modified = modified; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<TriggerQuery> m_queries;
    bool m_modified = false;
};

} // namespace sf
