#include "compare/SuiteHealthTable.h"

#include "eval/SuiteHealth.h"

#include <QHeaderView>

namespace sf {

SuiteHealthTable::SuiteHealthTable(QWidget *parent)
    : QTableWidget(parent)
{
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    verticalHeader()->hide();
    setSortingEnabled(true);
    setWordWrap(false);
}

qsizetype SuiteHealthTable::showRun(const RunAnalysis &run, const ContaminationReport *contamination)
{
    setSortingEnabled(false);
    clear();
    setColumnCount(4);
    setHorizontalHeaderLabels({tr("Finding"), tr("Case"), tr("Where"), tr("Detail")});
    QList<SuiteHealthFinding> findings = suiteHealthFindings(diagnoseSuite(run));
    // The contamination check: whether the arms compared like with like.
    if (contamination)
        findings += contaminationFindings(*contamination);
    setRowCount(int(findings.size()));
    for (int row = 0; row < findings.size(); ++row) {
        const SuiteHealthFinding &f = findings[row];
        const QStringList texts{f.kind, f.caseId, f.where, f.detail};
        for (int column = 0; column < texts.size(); ++column) {
            auto *item = new QTableWidgetItem(texts[column]);
            item->setToolTip(f.detail);
            setItem(row, column, item);
        }
    }
    resizeColumnsToContents();
    setSortingEnabled(true);
    return findings.size();
}

} // namespace sf
