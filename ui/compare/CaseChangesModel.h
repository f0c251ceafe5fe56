#pragma once

#include "eval/CaseMatrix.h"

#include <QAbstractTableModel>

namespace sf {

/// What changed per case from one run to another (core's diffCaseMatrices): case, model, arm, the pass rate
/// before and after, and the change in percentage points (or which run alone has the cell).
class CaseChangesModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { CaseColumn, ModelColumn, ArmColumn, BeforeColumn, AfterColumn, ChangeColumn, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit CaseChangesModel(QObject *parent = nullptr);

    void setChanges(QList<CaseChange> changes, const QString &beforeLabel, const QString &afterLabel);
    const QList<CaseChange> &changes() const { return m_changes; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<CaseChange> m_changes;
    QString m_beforeLabel;
    QString m_afterLabel;
};

} // namespace sf
