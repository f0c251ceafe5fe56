#include "suite/SuiteCasesModel.h"

#include "suite/SuiteDocument.h"
#include "suite/VerifierForm.h"

#include <QIcon>
#include <QMap>

namespace sf {

SuiteCasesModel::SuiteCasesModel(SuiteDocument *document, QObject *parent)
    : QAbstractTableModel(parent)
    , m_document(document)
{
    connect(document, &SuiteDocument::suiteChanged, this, &SuiteCasesModel::onSuiteChanged);
    onSuiteChanged(true, -1);
}

void SuiteCasesModel::onSuiteChanged(bool structural, int row)
{
    const QList<TestCase> &cases = m_document->suite().cases;
    // Typing in one case re-checks that case only: the reader's check costs a parse per case.
    if (!structural && row >= 0 && row < m_problems.size()) {
        m_problems[row] = SuiteDocument::problemOf(cases.at(row));
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
        return;
    }
    if (structural)
        beginResetModel();
    m_problems.clear();
    for (const TestCase &c : cases)
        m_problems.append(SuiteDocument::problemOf(c));
    if (structural)
        endResetModel();
    else if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

bool SuiteCasesModel::isCase(const QModelIndex &index) const
{
    return index.isValid() && !index.parent().isValid() && index.row() < rowCount() && index.column() < ColumnCount;
}

int SuiteCasesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_document->suite().cases.size());
}

int SuiteCasesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString SuiteCasesModel::checksSummary(const TestCase &testCase)
{
    QMap<QString, int> counts;
    QStringList order;
    for (const VerifierSpec &spec : testCase.allVerifiers()) {
        if (!counts.contains(spec.type))
            order.append(spec.type);
        ++counts[spec.type];
    }
    QStringList parts;
    for (const QString &type : order)
        parts.append(counts[type] > 1 ? QStringLiteral("%1 ×%2").arg(VerifierForm::kindLabel(type)).arg(counts[type])
                                      : VerifierForm::kindLabel(type));
    return parts.join(QStringLiteral(", "));
}

QVariant SuiteCasesModel::data(const QModelIndex &index, int role) const
{
    if (!isCase(index))
        return {};
    const TestCase &c = m_document->suite().cases.at(index.row());
    const QString &problem = m_problems.value(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        switch (Column(index.column())) {
        case Id:
            return c.id;
        case Repeats:
            if (role == Qt::EditRole)
                return c.repeats;
            return c.repeats > 0 ? QString::number(c.repeats) : tr("default");
        case Input: {
            QString excerpt = c.input.simplified();
            if (excerpt.size() > 120)
                excerpt = excerpt.left(119) + QChar(0x2026);
            return excerpt;
        }
        case Checks:
            return checksSummary(c);
        case HeldOut:
        case ColumnCount:
            break;
        }
        break;
    case Qt::CheckStateRole:
        if (index.column() == HeldOut)
            return c.isHeldOut() ? Qt::Checked : Qt::Unchecked;
        break;
    case Qt::ToolTipRole:
        if (!problem.isEmpty())
            return problem;
        if (index.column() == Input)
            return c.input;
        if (index.column() == HeldOut)
            return tr("Held-out cases are reported apart from the cases the skill was developed on");
        if (index.column() == Repeats && c.repeats <= 0)
            return tr("Runs as many times as the evaluation's Repeats setting says");
        break;
    case Qt::DecorationRole:
        if (index.column() == Id && !problem.isEmpty())
            return QIcon::fromTheme(QStringLiteral("dialog-warning"));
        break;
    case ProblemRole:
        return problem;
    default:
        break;
    }
    return {};
}

bool SuiteCasesModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (!isCase(index))
        return false;
    const int row = index.row();
    const TestCase &c = m_document->suite().cases.at(row);
    if (index.column() == HeldOut && role == Qt::CheckStateRole) {
        const bool heldOut = value.toInt() == Qt::Checked;
        if (heldOut == c.isHeldOut())
            return true;
        m_document->changeCase(
            row, heldOut ? tr("Mark %1 held-out").arg(c.id) : tr("Mark %1 train").arg(c.id),
            [heldOut](TestCase &t) { t.split = heldOut ? QStringLiteral("heldout") : QStringLiteral("train"); });
        return true;
    }
    if (role != Qt::EditRole)
        return false;
    if (index.column() == Id) {
        const QString id = value.toString().trimmed();
        if (id == c.id)
            return true;
        // Ids name results in every run: an empty or repeated one would make two cases indistinguishable.
        if (id.isEmpty() || m_document->freshId(id) != id)
            return false;
        m_document->changeCase(row, tr("Rename %1").arg(c.id), [id](TestCase &t) { t.id = id; });
        return true;
    }
    if (index.column() == Repeats) {
        bool ok = false;
        const int repeats = value.toInt(&ok);
        if (!ok || repeats < 0)
            return false;
        if (repeats != c.repeats)
            m_document->changeCase(row, tr("Set repeats of %1").arg(c.id),
                                   [repeats](TestCase &t) { t.repeats = repeats; });
        return true;
    }
    return false;
}

Qt::ItemFlags SuiteCasesModel::flags(const QModelIndex &index) const
{
    if (!isCase(index))
        return Qt::NoItemFlags;
    Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() == HeldOut)
        flags |= Qt::ItemIsUserCheckable;
    if (index.column() == Id || index.column() == Repeats)
        flags |= Qt::ItemIsEditable;
    return flags;
}

QVariant SuiteCasesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case Id:
        return tr("Id");
    case HeldOut:
        return tr("Held-out");
    case Repeats:
        return tr("Repeats");
    case Input:
        return tr("Input");
    case Checks:
        return tr("Checks");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace sf
