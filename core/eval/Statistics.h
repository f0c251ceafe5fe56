#pragma once

#include <QList>
#include <QtGlobal>

namespace sf::stats {

/// A two-sided 95% interval.
struct Interval
{
    double low = 0;
    double high = 0;
};

/// k successes out of n with the Wilson score interval, which stays inside [0, 1] and behaves at k = 0 or
/// k = n where the normal approximation does not.
struct Proportion
{
    int successes = 0;
    int trials = 0;
    double rate = 0; ///< 0 when there are no trials
    Interval ci;     ///< [0, 1] when there are no trials
};
Proportion wilson(int successes, int trials);

/// Paired outcomes of two arms on the same items. `onlySecond` counts pairs where only the second arm passed
/// (for baseline vs with_skill: the skill turned a fail into a pass).
struct PairedTable
{
    int bothPass = 0;
    int bothFail = 0;
    int onlyFirst = 0;
    int onlySecond = 0;

    int pairs() const { return bothPass + bothFail + onlyFirst + onlySecond; }
};

/// The 95% interval of the paired difference of proportions (second arm's pass rate minus the first's) by
/// Newcombe's hybrid score method (method 10 of Newcombe 1998): Wilson intervals of both marginals joined through
/// the phi correlation of the pairs. It stays inside [-1, 1] and behaves with few or no discordant pairs, where
/// the Wald interval does not. [-1, 1] when there are no pairs. Counts may be fractional (a projected table).
Interval pairedDifferenceCi(double bothPass, double bothFail, double onlyFirst, double onlySecond);
Interval pairedDifferenceCi(const PairedTable &table);

/// Two-sided exact McNemar p-value: the binomial test of the discordant pairs against p = 1/2. 1 when no
/// pair is discordant.
double mcnemarExactP(int onlyFirst, int onlySecond);

/// Mean and median of a sample, each with a percentile bootstrap interval (seeded, so a report is
/// reproducible).
struct Distribution
{
    int n = 0;
    double mean = 0;
    double median = 0;
    Interval meanCi;
    Interval medianCi;
};
Distribution describe(QList<double> values, quint64 seed = 20260101, int resamples = 2000);

/// The indices a bootstrap resample draws: xoshiro256** seeded through splitmix64 (both specified exactly,
/// so a seed gives the same intervals on every platform), two 32-bit draws per output, each scaled to
/// [0, n) by a multiplication. A large run's statistics draw hundreds of millions of them.
class ResampleIndices
{
public:
    explicit ResampleIndices(quint64 seed);
    /// An index in [0, n); n must be below 2^32.
    qsizetype next(qsizetype n)
    {
        if (!m_spareLeft) {
            m_spare = nextRaw();
            m_spareLeft = true;
            return qsizetype((quint64(quint32(m_spare)) * quint64(n)) >> 32);
        }
        m_spareLeft = false;
        return qsizetype(((m_spare >> 32) * quint64(n)) >> 32);
    }

private:
    quint64 nextRaw();
    quint64 m_state[4];
    quint64 m_spare = 0;
    bool m_spareLeft = false;
};

/// The median of @p values (the mean of the two middle values when n is even); 0 when empty.
double median(QList<double> values);
/// The @p q quantile (0..1) of sorted values, linearly interpolated between order statistics (R type 7).
double quantileSorted(const QList<double> &sorted, double q);

} // namespace sf::stats
