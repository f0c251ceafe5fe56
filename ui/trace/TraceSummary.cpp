#include "trace/TraceSummary.h"

#include "common/Plural.h"
#include "common/Theme.h"
#include "trace/Trace.h"
#include "trace/TraceCost.h"

#include <QFileInfo>
#include <QLocale>
#include <algorithm>

namespace sf {

using namespace Qt::StringLiterals;

QString TraceSummary::html(const Trace &trace, const TraceStats &stats, const TraceCost &cost)
{
    const QLocale locale;
    const TokenUsage &u = stats.usage;
    QString header = QStringLiteral("<b>%1</b> — %2")
                         .arg((trace.title.isEmpty() ? QFileInfo(trace.path).fileName() : trace.title).toHtmlEscaped(),
                              trace.format);
    header += plural(stats.threads, tr("<br>1 thread, %2 turns, %3 steps, %4 tool calls (%5 failed)"),
                     tr("<br>%n threads, %2 turns, %3 steps, %4 tool calls (%5 failed)"))
                  .arg(locale.toString(stats.turns), locale.toString(stats.steps),
                       locale.toString(stats.stepsByKind[int(StepKind::ToolCall)]), locale.toString(stats.toolErrors));
    header += tr("<br>Tokens: input %1 (uncached %2, cache read %3, cache write %4) · output %5 (reasoning %6)")
                  .arg(locale.toString(u.totalInput()), locale.toString(u.uncachedInput), locale.toString(u.cacheRead),
                       locale.toString(u.cacheWrite5m + u.cacheWrite1h), locale.toString(u.output),
                       locale.toString(u.reasoning));
    if (cost.hasCost())
        header += tr(" · cost %1 by the pricing table").arg(formatUsd(cost.totalUsd));
    if (cost.unpricedTurns > 0)
        header += plural(cost.unpricedTurns, tr(" (1 turn not priced: no price for %1)"),
                         tr(" (%n turns not priced: no price for %1)"))
                      .arg(cost.unpricedModels.join(u", "_s).toHtmlEscaped());
    if (trace.reportedCostUsd)
        header += tr(" · cost $%1 (logged by the source)").arg(*trace.reportedCostUsd, 0, 'f', 4);
    if (trace.skippedCount > 0) {
        QStringList reasons;
        for (size_t i = 0; i < std::min<size_t>(trace.skipped.size(), 20); ++i)
            reasons << (trace.skipped[i].line > 0
                            ? tr("line %1: %2").arg(trace.skipped[i].line).arg(trace.skipped[i].reason)
                            : trace.skipped[i].reason);
        header +=
            plural(trace.skippedCount, tr("<br><span style='color:%2'>1 record skipped</span>: %1"),
                   tr("<br><span style='color:%2'>%n records skipped</span>: %1"))
                .arg(reasons.join(u"; "_s).toHtmlEscaped(), Theme::statusTextOnWindow(Theme::Status::Fail).name());
    }
    // How the totals above relate to the file's own (e.g. an ATIF file's final_metrics), when they differ.
    for (const QString &note : std::as_const(trace.notes))
        header += tr("<br>Note: %1").arg(note.toHtmlEscaped());
    return header;
}

} // namespace sf
