#include "compare/CaseMatrixModel.h"

#include "charts/ComparisonCharts.h"
#include "common/Theme.h"

#include <QApplication>
#include <QBrush>
#include <QFont>
#include <QPalette>
#include <algorithm>

namespace sf {

CaseMatrixModel::CaseMatrixModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void CaseMatrixModel::setAnalysis(std::shared_ptr<const RunAnalysis> analysis)
{
    beginResetModel();
    m_analysis = std::move(analysis);
    endResetModel();
}

const CaseColumn *CaseMatrixModel::matrixColumn(int column) const
{
    const int c = column - FirstCellColumn;
    if (!m_analysis || c < 0 || c >= m_analysis->matrix.columns.size())
        return nullptr;
    return &m_analysis->matrix.columns[c];
}

const CaseCell *CaseMatrixModel::cellAt(const QModelIndex &index) const
{
    if (!index.isValid() || index.model() != this || !matrixColumn(index.column()))
        return nullptr;
    return &m_analysis->matrix.rows[index.row()].cells[index.column() - FirstCellColumn];
}

void CaseMatrixModel::refreshColours()
{
    if (rowCount() > 0 && columnCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1),
                           {Qt::BackgroundRole, Qt::ForegroundRole});
}

int CaseMatrixModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_analysis ? 0 : int(m_analysis->matrix.rows.size());
}

int CaseMatrixModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_analysis ? 0 : FirstCellColumn + int(m_analysis->matrix.columns.size());
}

QVariant CaseMatrixModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const CaseRow &row = m_analysis->matrix.rows[index.row()];
    switch (role) {
    case FlippedRole:
        return row.flipped();
    case FailureRole:
        return row.hasFailure;
    case ErrorRole:
        return row.hasError;
    case SplitRole:
        return row.split;
    default:
        break;
    }
    if (role == SilentBypassRole) {
        if (index.column() >= FirstCellColumn)
            return silentBypasses(row.cells[index.column() - FirstCellColumn]);
        int bypasses = 0;
        for (const CaseCell &cell : row.cells)
            bypasses += silentBypasses(cell);
        return bypasses;
    }
    switch (index.column()) {
    case CaseNameColumn:
        if (role == Qt::DisplayRole || role == SortRole)
            return row.caseId;
        return {};
    case SplitColumn:
        if (role == Qt::DisplayRole || role == SortRole)
            return charts::splitName(row.split);
        return {};
    case FlipsColumn:
        if (role == Qt::DisplayRole)
            return row.flipped() ? tr("+%1 / −%2").arg(row.flipsToPass).arg(row.flipsToFail) : QString();
        if (role == SortRole)
            return row.flipsToPass + row.flipsToFail;
        if (role == Qt::ToolTipRole && row.flipped())
            return tr("Paired repeats over all models:\n%1 failed without the skill and passed with it\n"
                      "%2 passed without it and failed with it")
                .arg(row.flipsToPass)
                .arg(row.flipsToFail);
        return {};
    default:
        break;
    }
    const CaseCell &cell = row.cells[index.column() - FirstCellColumn];
    const std::optional<double> rate = cell.passRate();
    switch (role) {
    case Qt::DisplayRole: {
        if (cell.judged == 0 && cell.errors == 0)
            return QString();
        QString text = cell.judged > 0 ? QStringLiteral("%1/%2").arg(cell.passed).arg(cell.judged) : QString();
        if (cell.errors > 0)
            text += (text.isEmpty() ? QString() : QStringLiteral(" ")) +
                    (cell.errors == 1 ? tr("(1 error)") : tr("(%1 errors)").arg(cell.errors));
        // Hollow: the skill was never loaded; half: some repeats skipped it.
        if (const int bypasses = silentBypasses(cell); bypasses > 0)
            text = (bypasses == cell.judged ? QStringLiteral("○ ") : QStringLiteral("◐ ")) + text;
        return text;
    }
    case SortRole:
        return rate ? *rate : -1.0;
    case Qt::TextAlignmentRole:
        return int(Qt::AlignCenter);
    case Qt::BackgroundRole: {
        if (!rate)
            return cell.errors > 0 ? QBrush(Theme::errorBackground(), Qt::BDiagPattern) : QVariant();
        return QBrush(Theme::passShareBackground(*rate));
    }
    case Qt::FontRole:
        if (cell.errors > 0 || (cell.judged > 0 && silentBypasses(cell) == cell.judged)) {
            QFont font;
            font.setBold(cell.errors > 0);
            font.setItalic(cell.judged > 0 && silentBypasses(cell) == cell.judged);
            return font;
        }
        return {};
    case Qt::ToolTipRole:
        return cellTooltip(row, cell, m_analysis->matrix.columns[index.column() - FirstCellColumn]);
    default:
        return {};
    }
}

int CaseMatrixModel::silentBypasses(const CaseCell &cell) const
{
    return int(std::count_if(cell.items.begin(), cell.items.end(), [this](int item) {
        const ItemResult &r = m_analysis->results[item];
        return r.key.arm == kWithSkillArm && !r.isError() && r.skillLoaded && !*r.skillLoaded;
    }));
}

QString CaseMatrixModel::cellTooltip(const CaseRow &row, const CaseCell &cell, const CaseColumn &column) const
{
    QString text = QStringLiteral("%1 — %2, %3").arg(row.caseId, column.model, armLabel(column.arm));
    if (const int bypasses = silentBypasses(cell); bypasses > 0 && bypasses == cell.judged)
        text += u'\n' + tr("○ Silent bypass — the skill was never loaded: this outcome says nothing about its content");
    else if (bypasses > 0)
        text += u'\n' + tr("◐ The skill was not loaded in %1 of %2 repeats: their outcomes say nothing about its "
                           "content")
                            .arg(bypasses)
                            .arg(cell.judged);
    for (const int item : cell.items) {
        const ItemResult &r = m_analysis->results[item];
        QString line = tr("Repeat %1: %2")
                           .arg(r.key.repeat)
                           .arg(r.isError() ? tr("error (%1)").arg(r.error) : (r.passed ? tr("passed") : tr("failed")));
        if (r.key.arm == kWithSkillArm && r.skillLoaded && !r.isError())
            line += *r.skillLoaded ? tr(", skill loaded after model call %1").arg(r.skillLoadedAtTurn)
                                   : tr(", skill never loaded");
        text += u'\n' + line;
    }
    return text + u'\n' + tr("Click to compare the transcripts.");
}

QVariant CaseMatrixModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case CaseNameColumn:
        return tr("Case");
    case SplitColumn:
        return tr("Split");
    case FlipsColumn:
        return tr("Flips");
    default:
        break;
    }
    if (const CaseColumn *column = matrixColumn(section))
        return QStringLiteral("%1\n%2").arg(column->model, armLabel(column->arm));
    return {};
}

CaseMatrixFilter::CaseMatrixFilter(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(CaseMatrixModel::SortRole);
}

void CaseMatrixFilter::setShow(Show show)
{
    if (show == m_show)
        return;
    m_show = show;
    invalidateFilter();
}

void CaseMatrixFilter::setSplits(const QStringList &splits)
{
    if (splits == m_splits)
        return;
    m_splits = splits;
    invalidateFilter();
}

bool CaseMatrixFilter::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    const QString split = index.data(CaseMatrixModel::SplitRole).toString();
    if (!m_splits.isEmpty() && !m_splits.contains(split))
        return false;
    switch (m_show) {
    case Show::All:
        return true;
    case Show::Failures:
        return index.data(CaseMatrixModel::FailureRole).toBool();
    case Show::Flipped:
        return index.data(CaseMatrixModel::FlippedRole).toBool();
    case Show::Errors:
        return index.data(CaseMatrixModel::ErrorRole).toBool();
    case Show::HeldOut:
        return split == u"heldout";
    case Show::SilentBypass:
        return index.data(CaseMatrixModel::SilentBypassRole).toInt() > 0;
    }
    return true;
}

QString tableToCsv(const QAbstractItemModel &model)
{
    auto field = [](QString value) -> QString {
        value.replace(u'\n', u' ');
        if (value.contains(u',') || value.contains(u'"'))
            return u'"' + value.replace(QStringLiteral("\""), QStringLiteral("\"\"")) + u'"';
        return value;
    };
    QString csv;
    QStringList fields;
    for (int c = 0; c < model.columnCount(); ++c)
        fields.append(field(model.headerData(c, Qt::Horizontal).toString()));
    csv += fields.join(u',') + u'\n';
    for (int r = 0; r < model.rowCount(); ++r) {
        fields.clear();
        for (int c = 0; c < model.columnCount(); ++c)
            fields.append(field(model.index(r, c).data().toString()));
        csv += fields.join(u',') + u'\n';
    }
    return csv;
}

} // namespace sf
