#pragma once

#include "EvalResult.h"
#include "RunSummary.h"

#include <QHash>
#include <QList>
#include <QString>
#include <optional>

namespace sf {

/// One model and arm: a column of the case matrix.
struct CaseColumn
{
    QString model;
    QString arm;

    friend bool operator==(const CaseColumn &, const CaseColumn &) = default;
};

/// A case under one model and arm, over its repeats.
struct CaseCell
{
    int passed = 0;
    int judged = 0; ///< repeats that ended without an error
    int errors = 0;
    QList<int> items; ///< indices into the results the matrix was built from, by repeat

    /// passed / judged; nullopt when no repeat was judged (all errors, or none ran).
    std::optional<double> passRate() const;
};

/// One case across every column, with what the statistics say about it.
struct CaseRow
{
    QString caseId;
    QString split; ///< "train" or "heldout"
    QList<CaseCell> cells; ///< one per column of the matrix
    int flipsToPass = 0;   ///< paired repeats, over all models, that failed without the skill and passed with it
    int flipsToFail = 0;
    bool hasFailure = false; ///< some judged repeat failed
    bool hasError = false;

    bool flipped() const { return flipsToPass + flipsToFail > 0; }
};

/// Cases by model and arm: the grid the Compare view and the reports show. Flips are taken from the run's
/// summary (RunSummary's comparisons over "all"), never recomputed, so every view agrees with the statistics.
struct CaseMatrix
{
    QList<CaseColumn> columns; ///< models in the order they first appear, baseline before with_skill
    QList<CaseRow> rows;       ///< cases in the order they first appear

    /// The column of @p model and @p arm, or -1.
    int columnOf(const QString &model, const QString &arm) const;
    /// The row of @p caseId, or -1.
    int rowOf(const QString &caseId) const;
};

CaseMatrix buildCaseMatrix(const QList<ItemResult> &results, const RunSummary &summary);

/// How one case under one model and arm changed from one run to another.
struct CaseChange
{
    QString caseId;
    QString model;
    QString arm;
    std::optional<double> before; ///< pass rate in the first run; nullopt when absent or never judged there
    std::optional<double> after;

    /// after - before, 0 when either side is missing.
    double delta() const;
};

/// The cells whose pass rate differs between two runs' matrices (a cell only one run has counts as a change),
/// matched on case id, model and arm; largest absolute change first (ties keep case and column order), then the
/// cells only one run has.
QList<CaseChange> diffCaseMatrices(const CaseMatrix &before, const CaseMatrix &after);

} // namespace sf
