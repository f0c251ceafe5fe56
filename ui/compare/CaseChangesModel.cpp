#include "compare/CaseChangesModel.h"

#include "common/Theme.h"

#include <QApplication>
#include <QBrush>
#include <QPalette>
#include <cmath>

namespace sf {

namespace {

QString percent(const std::optional<double> &rate)
{
    return rate ? QStringLiteral("%1%").arg(qRound(*rate * 100)) : QStringLiteral("—");
}

} // namespace

CaseChangesModel::CaseChangesModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void CaseChangesModel::setChanges(QList<CaseChange> changes, const QString &beforeLabel, const QString &afterLabel)
{
    beginResetModel();
    m_changes = std::move(changes);
    m_beforeLabel = beforeLabel;
    m_afterLabel = afterLabel;
    endResetModel();
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

int CaseChangesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_changes.size());
}

int CaseChangesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CaseChangesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const CaseChange &c = m_changes[index.row()];
    const bool measured = c.before && c.after;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case CaseColumn: return c.caseId;
        case ModelColumn: return c.model;
        case ArmColumn: return armLabel(c.arm);
        case BeforeColumn: return percent(c.before);
        case AfterColumn: return percent(c.after);
        case ChangeColumn:
            if (measured)
                return tr("%1%2 pp").arg(c.delta() > 0 ? QStringLiteral("+") : QString()).arg(qRound(c.delta() * 100));
            return c.after ? tr("only in %1").arg(m_afterLabel) : tr("only in %1").arg(m_beforeLabel);
        default: return {};
        }
    }
    if (role == SortRole) {
        switch (index.column()) {
        case BeforeColumn: return c.before.value_or(-1.0);
        case AfterColumn: return c.after.value_or(-1.0);
        case ChangeColumn: return measured ? c.delta() : -2.0;
        default: return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::BackgroundRole && index.column() == ChangeColumn && measured) {
        QColor colour = c.delta() > 0 ? Theme::success() : Theme::failure();
        colour.setAlphaF(float(0.15 + 0.35 * std::min(1.0, std::abs(c.delta()))));
        return QBrush(colour);
    }
    if (role == Qt::TextAlignmentRole && index.column() >= BeforeColumn)
        return int(Qt::AlignCenter);
    return {};
}

QVariant CaseChangesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case CaseColumn: return tr("Case");
    case ModelColumn: return tr("Model");
    case ArmColumn: return tr("Arm");
    case BeforeColumn: return m_beforeLabel.isEmpty() ? tr("Before") : tr("Before: %1").arg(m_beforeLabel);
    case AfterColumn: return m_afterLabel.isEmpty() ? tr("After") : tr("After: %1").arg(m_afterLabel);
    case ChangeColumn: return tr("Change");
    default: return {};
    }
}

} // namespace sf
