#pragma once

#include <QCoreApplication>
#include <QString>

namespace sf {

struct Trace;
struct TraceStats;
struct TraceCost;

/// The Trace view's header for a trace, as rich text.
class TraceSummary final
{
    Q_DECLARE_TR_FUNCTIONS(sf::TraceSummary)

public:
    /// @p trace's title (@p stats: TraceStats::of(trace)) and format, the counts of threads, turns, steps and tool
    /// calls, the token buckets, its cost by the pricing table and as logged, the records skipped and the notes.
    static QString html(const Trace &trace, const TraceStats &stats, const TraceCost &cost);
};

} // namespace sf
