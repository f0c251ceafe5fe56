#include "CaseMatrix.h"

#include <algorithm>
#include <cmath>

namespace sf {

std::optional<double> CaseCell::passRate() const
{
    if (judged == 0)
        return std::nullopt;
    return double(passed) / judged;
}

int CaseMatrix::columnOf(const QString &model, const QString &arm) const
{
    for (qsizetype i = 0; i < columns.size(); ++i) {
        if (columns[i].model == model && columns[i].arm == arm)
            return int(i);
    }
    return -1;
}

int CaseMatrix::rowOf(const QString &caseId) const
{
    for (qsizetype i = 0; i < rows.size(); ++i) {
        if (rows[i].caseId == caseId)
            return int(i);
    }
    return -1;
}

namespace {

/// "case#repeat" -> case; a case id may itself contain '#', so cut at the last one.
QString caseOfPair(const QString &pair)
{
    return pair.left(pair.lastIndexOf(u'#'));
}

} // namespace

CaseMatrix buildCaseMatrix(const QList<ItemResult> &results, const RunSummary &summary)
{
    CaseMatrix matrix;
    QStringList models;
    for (const ItemResult &r : results) {
        if (!models.contains(r.key.model))
            models.append(r.key.model);
    }
    // Baseline before with_skill for each model, so the two arms of a model stand side by side; an arm name
    // neither of those (an imported run's) follows them.
    for (const QString &model : models) {
        QStringList arms{kBaselineArm, kWithSkillArm};
        for (const ItemResult &r : results) {
            if (r.key.model == model && !arms.contains(r.key.arm))
                arms.append(r.key.arm);
        }
        for (const QString &arm : arms) {
            const bool present = std::any_of(results.begin(), results.end(), [&](const ItemResult &r) {
                return r.key.model == model && r.key.arm == arm;
            });
            if (present)
                matrix.columns.append({model, arm});
        }
    }

    QHash<QString, int> rowByCase;
    QHash<QString, int> columnByKey;
    for (qsizetype c = 0; c < matrix.columns.size(); ++c)
        columnByKey.insert(matrix.columns[c].model + u'|' + matrix.columns[c].arm, int(c));
    for (qsizetype i = 0; i < results.size(); ++i) {
        const ItemResult &r = results[i];
        auto row = rowByCase.constFind(r.key.caseId);
        if (row == rowByCase.cend()) {
            CaseRow fresh;
            fresh.caseId = r.key.caseId;
            fresh.split = r.split;
            fresh.cells.resize(matrix.columns.size());
            matrix.rows.append(fresh);
            row = rowByCase.insert(r.key.caseId, int(matrix.rows.size() - 1));
        }
        CaseRow &caseRow = matrix.rows[*row];
        CaseCell &cell = caseRow.cells[columnByKey.value(r.key.model + u'|' + r.key.arm)];
        cell.items.append(int(i));
        if (r.isError()) {
            ++cell.errors;
            caseRow.hasError = true;
        } else {
            ++cell.judged;
            cell.passed += r.passed ? 1 : 0;
            caseRow.hasFailure = caseRow.hasFailure || !r.passed;
        }
    }
    for (CaseRow &row : matrix.rows) {
        for (CaseCell &cell : row.cells) {
            std::sort(cell.items.begin(), cell.items.end(),
                      [&](int a, int b) { return results[a].key.repeat < results[b].key.repeat; });
        }
    }

    for (const ArmComparison &comparison : summary.comparisons) {
        if (comparison.split != QLatin1String("all"))
            continue;
        for (const QString &pair : comparison.flippedToPass) {
            if (const int row = rowByCase.value(caseOfPair(pair), -1); row >= 0)
                ++matrix.rows[row].flipsToPass;
        }
        for (const QString &pair : comparison.flippedToFail) {
            if (const int row = rowByCase.value(caseOfPair(pair), -1); row >= 0)
                ++matrix.rows[row].flipsToFail;
        }
    }
    return matrix;
}

double CaseChange::delta() const
{
    return before && after ? *after - *before : 0;
}

QList<CaseChange> diffCaseMatrices(const CaseMatrix &before, const CaseMatrix &after)
{
    QList<CaseChange> changes;
    auto rateIn = [](const CaseMatrix &matrix, const QString &caseId, const CaseColumn &column) {
        const int row = matrix.rowOf(caseId);
        const int col = matrix.columnOf(column.model, column.arm);
        if (row < 0 || col < 0)
            return std::optional<double>();
        return matrix.rows[row].cells[col].passRate();
    };
    QList<CaseColumn> columns = before.columns;
    for (const CaseColumn &column : after.columns) {
        if (!columns.contains(column))
            columns.append(column);
    }
    QStringList cases;
    for (const CaseMatrix *matrix : {&before, &after}) {
        for (const CaseRow &row : matrix->rows) {
            if (!cases.contains(row.caseId))
                cases.append(row.caseId);
        }
    }
    for (const QString &caseId : cases) {
        for (const CaseColumn &column : columns) {
            CaseChange change{caseId, column.model, column.arm, rateIn(before, caseId, column),
                              rateIn(after, caseId, column)};
            if (!change.before && !change.after)
                continue;
            if (change.before && change.after && std::abs(*change.after - *change.before) < 1e-12)
                continue;
            changes.append(change);
        }
    }
    // One-sided changes (a cell only one run has) sort after every measured change.
    auto magnitude = [](const CaseChange &c) { return c.before && c.after ? std::abs(c.delta()) : -1.0; };
    std::stable_sort(changes.begin(), changes.end(),
                     [&](const CaseChange &a, const CaseChange &b) { return magnitude(a) > magnitude(b); });
    return changes;
}

} // namespace sf
