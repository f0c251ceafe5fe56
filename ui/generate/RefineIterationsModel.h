#pragma once

#include "generate/RefineLoop.h"

#include <QAbstractTableModel>
#include <QList>

namespace sf {

/** The refine loop's iterations as a table: one row per evaluated version, lifts in percentage points, and which
 * version the skill folder holds once the loop ended. */
class RefineIterationsModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        Iteration,
        Version,
        Lift,
        WithSkill,
        WithoutSkill,
        HeldOutLift,
        Tokens,
        Decision,
        ColumnCount
    };

    explicit RefineIterationsModel(QObject *parent = nullptr);

    /** Adds @p iteration, or updates the row with its number. */
    void upsert(const RefineIteration &iteration);
    void clear();
    const QList<RefineIteration> &iterations() const { return m_iterations; }
    /// The iteration whose version the skill folder holds (0: none said yet); its row says so.
    void setKept(int number);
    int kept() const { return m_kept; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<RefineIteration> m_iterations;
    int m_kept = 0;
};

} // namespace sf
