#include "compare/TwoPassRatesPanel.h"

#include "compare/TwoPassRatesModel.h"
#include "eval/StatementPassRate.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace sf {

TwoPassRatesPanel::TwoPassRatesPanel(QWidget *parent)
    : QWidget(parent)
    , m_caption(new QLabel(this))
    , m_model(new TwoPassRatesModel(this))
    , m_view(new QTableView(this))
{
    m_caption->setWordWrap(true);
    m_caption->setText(tr("Graded statement by statement, as skill-creator grades: Skillforge passes an item only when "
                          "every statement passed, skill-creator averages the share of statements passed, so the same "
                          "items give two pass rates."));
    m_caption->setToolTip(statementPassRateExplanation());
    m_view->setModel(m_model);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_caption);
    layout->addWidget(m_view);
    setVisible(false);
}

void TwoPassRatesPanel::setRuns(const QList<const RunAnalysis *> &runs, const QStringList &splits,
                                const QStringList &names)
{
    QList<TwoPassRatesModel::RunRates> rates;
    for (qsizetype r = 0; r < runs.size(); ++r) {
        const RunAnalysis *run = runs[r];
        TwoPassRatesModel::RunRates runRates{names.value(r, run->label()), {}};
        for (const QString &split : splits)
            runRates.rates.append(statementPassRates(*run, split));
        if (!runRates.rates.isEmpty())
            rates.append(std::move(runRates));
    }
    const bool severalRuns = runs.size() > 1;
    m_model->setRuns(std::move(rates));
    m_view->setColumnHidden(TwoPassRatesModel::RunColumn, !severalRuns);
    m_view->setColumnHidden(TwoPassRatesModel::SplitColumn, splits.size() < 2);
    m_view->setColumnHidden(TwoPassRatesModel::BenchmarkColumn, !m_model->hasBenchmark());
    setVisible(m_model->rowCount() > 0);
}

} // namespace sf
