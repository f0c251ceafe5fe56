#include "compare/CaseMatrixPage.h"

#include "common/StatusMessages.h"
#include "compare/CaseDetailDialog.h"
#include "compare/CaseMatrixModel.h"

#include <QClipboard>
#include <QComboBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QShortcut>
#include <QTableView>
#include <QVBoxLayout>

namespace sf {

CaseMatrixPage::CaseMatrixPage(QWidget *parent)
    : QWidget(parent)
    , m_matrix(new CaseMatrixModel(this))
    , m_filter(new CaseMatrixFilter(this))
    , m_view(new QTableView(this))
    , m_filterCombo(new QComboBox(this))
    , m_copyButton(new QPushButton(tr("Copy as CSV"), this))
    , m_detail(new CaseDetailDialog(this))
{
    // Flipped cases first until the user sorts otherwise.
    m_filter->setSourceModel(m_matrix);
    m_view->setModel(m_filter);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(CaseMatrixModel::FlipsColumn, Qt::DescendingOrder);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->setToolTip(tr("Click a case to read its transcripts without and with the skill side by side"));
    m_view->horizontalHeader()->setDefaultAlignment(Qt::AlignCenter);
    m_filterCombo->addItem(tr("All cases"), int(CaseMatrixFilter::Show::All));
    m_filterCombo->addItem(tr("Failures"), int(CaseMatrixFilter::Show::Failures));
    m_filterCombo->addItem(tr("Flipped"), int(CaseMatrixFilter::Show::Flipped));
    m_filterCombo->addItem(tr("Errors"), int(CaseMatrixFilter::Show::Errors));
    m_filterCombo->addItem(tr("Held-out"), int(CaseMatrixFilter::Show::HeldOut));
    m_filterCombo->addItem(tr("Silent bypasses"), int(CaseMatrixFilter::Show::SilentBypass));
    m_filterCombo->setItemData(m_filterCombo->count() - 1,
                               tr("Cases with a with-skill repeat that never loaded the skill (○, ◐)"),
                               Qt::ToolTipRole);
    connect(m_filterCombo, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setShow(CaseMatrixFilter::Show(m_filterCombo->currentData().toInt())); });
    connect(m_view, &QTableView::clicked, this, &CaseMatrixPage::openCell);
    connect(m_detail, &CaseDetailDialog::traceRequested, this, &CaseMatrixPage::traceRequested);

    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Show:"), this));
    bar->addWidget(m_filterCombo);
    bar->addStretch();
    bar->addWidget(m_copyButton);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    auto *copy = new QShortcut(QKeySequence::Copy, m_view);
    copy->setContext(Qt::WidgetWithChildrenShortcut);
    connect(copy, &QShortcut::activated, m_copyButton, &QPushButton::click);
    connect(m_copyButton, &QPushButton::clicked, this, [this] {
        QGuiApplication::clipboard()->setText(csv());
        StatusMessages::show(tr("Copied the case matrix as CSV"));
    });
}

void CaseMatrixPage::showRun(const std::shared_ptr<const RunAnalysis> &run, const QStringList &splits)
{
    m_run = run;
    if (!run) {
        m_detail->hide();
        m_matrix->setAnalysis(nullptr);
        return;
    }
    if (m_matrix->analysis() != run.get()) {
        m_matrix->setAnalysis(run);
        m_view->resizeColumnsToContents();
    }
    m_filter->setSplits(splits == QStringList{QStringLiteral("all")} ? QStringList() : splits);
}

void CaseMatrixPage::refreshColours()
{
    m_matrix->refreshColours();
}

QString CaseMatrixPage::csv() const
{
    return tableToCsv(*m_filter);
}

void CaseMatrixPage::openCell(const QModelIndex &index)
{
    const QModelIndex source = m_filter->mapToSource(index);
    // A click on the case's name, split or flips opens it too, on the first model's transcripts.
    const CaseColumn *column = m_matrix->matrixColumn(std::max<int>(source.column(), CaseMatrixModel::FirstCellColumn));
    if (!column || !m_run || !source.isValid())
        return;
    const QString caseId = m_matrix->index(source.row(), CaseMatrixModel::CaseNameColumn).data().toString();
    m_detail->showCase(m_run, column->model, caseId);
    m_detail->show();
    m_detail->raise();
}

} // namespace sf
