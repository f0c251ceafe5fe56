#include "LiftAcrossRuns.h"

#include <algorithm>

namespace sf {

LiftAcrossRuns liftAcrossRuns(QList<const RunAnalysis *> runs, const VerdictThresholds &thresholds)
{
    runs.removeAll(nullptr);
    std::stable_sort(runs.begin(), runs.end(), [](const RunAnalysis *a, const RunAnalysis *b) {
        return a->manifest.startedAt < b->manifest.startedAt;
    });
    LiftAcrossRuns across;
    across.runs = runs;
    QList<QList<Verdict>> verdicts;
    for (const RunAnalysis *run : runs) {
        verdicts.append(decideVerdicts(run->summary, thresholds));
        for (const Verdict &v : verdicts.last()) {
            if (!across.models.contains(v.model))
                across.models.append(v.model);
        }
    }
    for (const QString &model : across.models) {
        QList<std::optional<Verdict>> row;
        for (const QList<Verdict> &runVerdicts : verdicts) {
            const auto it = std::find_if(runVerdicts.begin(), runVerdicts.end(),
                                         [&](const Verdict &v) { return v.model == model; });
            row.append(it == runVerdicts.end() ? std::nullopt : std::optional<Verdict>(*it));
        }
        across.cells.append(row);
    }
    return across;
}

} // namespace sf
