#pragma once

#include "eval/StatementPassRate.h"

#include <QAbstractTableModel>

namespace sf {

/// A run graded statement by statement (an imported skill-creator workspace) counted both ways, one row per run,
/// model, arm and split (core's statementPassRates): Skillforge's case pass rate beside skill-creator's statement pass
/// rate, the statements counted, and what benchmark.json reports where the import kept it.
class TwoPassRatesModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        RunColumn,
        ModelColumn,
        ArmColumn,
        SplitColumn,
        CasePassRateColumn,
        StatementPassRateColumn,
        StatementsColumn,
        BenchmarkColumn,
        ColumnCount
    };
    enum Role
    {
        RateRole = Qt::UserRole + 1 ///< the rate columns' figure as a double in 0..1; null where there is none
    };

    /// One run's rows: its label (the run column) and its rates.
    struct RunRates
    {
        QString label;
        QList<StatementPassRate> rates;
    };

    explicit TwoPassRatesModel(QObject *parent = nullptr);

    void setRuns(QList<RunRates> runs);
    /// Whether any row has a figure from benchmark.json.
    bool hasBenchmark() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        QString run;
        StatementPassRate rate;
    };
    QList<Row> m_rows;
};

} // namespace sf
