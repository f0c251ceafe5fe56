#include "compare/TwoPassRatesModel.h"

#include "charts/ComparisonCharts.h"

#include <QLocale>
#include <algorithm>

namespace sf {

namespace {

QString percentText(double rate)
{
    return QLocale().toString(rate * 100, 'f', 1) + u'%';
}

} // namespace

TwoPassRatesModel::TwoPassRatesModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void TwoPassRatesModel::setRuns(QList<RunRates> runs)
{
    beginResetModel();
    m_rows.clear();
    for (RunRates &run : runs) {
        for (StatementPassRate &rate : run.rates)
            m_rows.append({run.label, std::move(rate)});
    }
    endResetModel();
}

bool TwoPassRatesModel::hasBenchmark() const
{
    return std::any_of(m_rows.begin(), m_rows.end(), [](const Row &r) { return r.rate.benchmarkRate.has_value(); });
}

int TwoPassRatesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int TwoPassRatesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TwoPassRatesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows[index.row()];
    const StatementPassRate &r = row.rate;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case RunColumn:
            return row.run;
        case ModelColumn:
            return r.model;
        case ArmColumn:
            return armLabel(r.arm);
        case SplitColumn:
            return charts::splitName(r.split);
        case CasePassRateColumn:
            return tr("%1 of %2 items (%3)").arg(r.itemsPassed).arg(r.items).arg(percentText(r.caseRate()));
        case StatementPassRateColumn:
            return r.items ? percentText(r.statementRate) : QStringLiteral("—");
        case StatementsColumn:
            return tr("%1 of %2").arg(r.statementsPassed).arg(r.statements);
        case BenchmarkColumn:
            if (!r.benchmarkRate)
                return QStringLiteral("—");
            return r.agreesWithBenchmark() ? tr("%1 (the same)").arg(percentText(*r.benchmarkRate))
                                           : tr("%1 (differs)").arg(percentText(*r.benchmarkRate));
        default:
            return {};
        }
    }
    if (role == RateRole) {
        switch (index.column()) {
        case CasePassRateColumn:
            return r.caseRate();
        case StatementPassRateColumn:
            return r.statementRate;
        case BenchmarkColumn:
            return r.benchmarkRate ? QVariant(*r.benchmarkRate) : QVariant();
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole && index.column() == BenchmarkColumn && r.benchmarkRate) {
        const QString mismatch = benchmarkMismatch(r);
        return mismatch.isEmpty() ? tr("%1 reports the same figure").arg(r.benchmarkFile) : mismatch;
    }
    if (role == Qt::TextAlignmentRole && index.column() >= CasePassRateColumn)
        return int(Qt::AlignCenter);
    return {};
}

QVariant TwoPassRatesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case CasePassRateColumn:
            return tr("Items whose every statement passed: what Skillforge's pass rate counts");
        case StatementPassRateColumn:
            return tr("Each item's passed statements over its statements, averaged over the items: skill-creator's "
                      "pass rate, as its benchmark.json reports it");
        case BenchmarkColumn:
            return tr("The pass rate the imported workspace's benchmark.json reports for the arm");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case RunColumn:
        return tr("Run");
    case ModelColumn:
        return tr("Model");
    case ArmColumn:
        return tr("Arm");
    case SplitColumn:
        return tr("Cases");
    case CasePassRateColumn:
        return tr("Case pass rate (Skillforge's)");
    case StatementPassRateColumn:
        return tr("Statement pass rate (skill-creator's)");
    case StatementsColumn:
        return tr("Statements passed");
    case BenchmarkColumn:
        return tr("benchmark.json says");
    default:
        return {};
    }
}

} // namespace sf
