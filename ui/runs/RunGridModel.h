#pragma once

#include "eval/EvalResult.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QSet>

namespace sf {

/// A run's matrix as a grid: one row per case and repeat, one column per model and arm; each cell pending,
/// running, passed, failed or an error, filling in as results arrive.
class RunGridModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum class CellState
    {
        Pending,
        Running,
        Passed,
        Failed,
        Error
    };
    Q_ENUM(CellState)
    enum Roles
    {
        StateRole = Qt::UserRole + 1,
        ItemKeyRole
    };

    explicit RunGridModel(QObject *parent = nullptr);

    /// Lays out the grid for @p items (the runner's matrix) and fills it with @p results.
    void reset(const QList<ItemKey> &items, const QList<ItemResult> &results);
    void setRunning(const ItemKey &key);
    void setResult(const ItemResult &result);
    /// The result in a cell, or nullptr while it has none.
    const ItemResult *resultAt(const QModelIndex &index) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QModelIndex indexOf(const ItemKey &key) const;

    QStringList m_rows;                   ///< "case#repeat"
    QStringList m_columns;                ///< "model|arm"
    QHash<QString, ItemResult> m_results; ///< by ItemKey::toString()
    QSet<QString> m_running;
};

} // namespace sf
