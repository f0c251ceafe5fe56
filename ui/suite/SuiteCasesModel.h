#pragma once

#include <QAbstractTableModel>

namespace sf {

class SuiteDocument;
struct TestCase;

/// The cases of a suite as a table: id, held-out (a check box), repeats, the start of the input and what the
/// case checks. Id, held-out and repeats are edited in place; every edit is an undoable step of the document.
class SuiteCasesModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        Id,
        HeldOut,
        Repeats,
        Input,
        Checks,
        ColumnCount
    };
    enum Role
    {
        ProblemRole = Qt::UserRole + 1
    };

    explicit SuiteCasesModel(SuiteDocument *document, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// "contains ×2, regex, command": the case's checks, expected.contains included.
    static QString checksSummary(const TestCase &testCase);

private:
    void onSuiteChanged(bool structural, int row);
    bool isCase(const QModelIndex &index) const;

    SuiteDocument *m_document;
    QStringList m_problems; ///< per row, what the reader would object to ("" when fine)
};

} // namespace sf
