#pragma once

#include "eval/Contamination.h"
#include "eval/RunAnalysis.h"

#include <QTableWidget>

namespace sf {

/// Compare's "Suite health" tab: the shown run's suite diagnostics (core's suiteHealthFindings: checks that measure
/// nothing, cases where the skill hurts, repeats that disagree, outliers), then its contamination check (core's
/// checkContamination) and any skill text found in a baseline.
class SuiteHealthTable final : public QTableWidget
{
    Q_OBJECT

public:
    explicit SuiteHealthTable(QWidget *parent = nullptr);

    /// Lists the findings on @p run and, when read, its @p contamination check; returns how many rows it shows.
    qsizetype showRun(const RunAnalysis &run, const ContaminationReport *contamination);
};

} // namespace sf
