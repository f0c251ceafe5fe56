#include "StatementPassRate.h"

#include <QJsonObject>
#include <cmath>

namespace sf {

namespace {

QString percentText(double rate)
{
    return QString::number(rate * 100, 'f', 1) + u'%';
}

std::optional<StatementPassRate> rateOf(const RunAnalysis &run, const ArmSummary &arm)
{
    StatementPassRate rate;
    rate.model = arm.model;
    rate.arm = arm.arm;
    rate.split = arm.split;
    bool graded = false;
    double rateSum = 0;
    for (const ItemResult &r : run.results) {
        if (r.key.model != arm.model || r.key.arm != arm.arm ||
            (arm.split != QLatin1String("all") && r.split != arm.split) || !isStatementGraded(r))
            continue;
        graded = true;
        if (r.isError())
            continue; // as Skillforge's pass rate: an item that could not be judged is neither a pass nor a fail
        int passed = 0;
        for (const VerifierOutcome &v : r.verifiers)
            passed += v.passed ? 1 : 0;
        const auto total = int(r.verifiers.size());
        ++rate.items;
        rate.itemsPassed += passed == total ? 1 : 0;
        rate.statements += total;
        rate.statementsPassed += passed;
        rateSum += double(passed) / total;
    }
    if (!graded)
        return std::nullopt;
    rate.statementRate = rate.items ? rateSum / rate.items : 0.0;
    // benchmark.json summarizes every run of a configuration, which is the split "all" here.
    const QJsonObject benchmark = run.manifest.parameters.value(kSkillCreatorBenchmarkKey).toObject();
    const QJsonValue reported = benchmark.value(QStringLiteral("pass_rate")).toObject().value(arm.arm);
    if (arm.split == QLatin1String("all") && reported.isDouble()) {
        rate.benchmarkRate = reported.toDouble();
        rate.benchmarkFile = benchmark.value(QStringLiteral("file")).toString();
    }
    return rate;
}

} // namespace

bool isStatementGraded(const ItemResult &result)
{
    return result.provider == kSkillCreatorProvider && !result.verifiers.isEmpty();
}

bool StatementPassRate::agreesWithBenchmark() const
{
    return !benchmarkRate || std::abs(*benchmarkRate - statementRate) <= 0.005 + 1e-9;
}

QList<StatementPassRate> statementPassRates(const RunAnalysis &run, const QString &split)
{
    QList<StatementPassRate> rates;
    for (const ArmSummary &arm : run.summary.arms) {
        if (!split.isEmpty() && arm.split != split)
            continue;
        if (std::optional<StatementPassRate> rate = rateOf(run, arm))
            rates.append(std::move(*rate));
    }
    return rates;
}

QString statementPassRateExplanation()
{
    return QStringLiteral(
        "Skillforge's case pass rate counts an item as passed only when every statement (expectation) of its "
        "grading passed; skill-creator's statement pass rate is each item's passed statements over its statements, "
        "averaged over the items, as its aggregate_benchmark.py reports in benchmark.json. An item that meets some "
        "statements counts toward the second and not the first.");
}

QString benchmarkMismatch(const StatementPassRate &rate)
{
    if (rate.agreesWithBenchmark())
        return {};
    return QStringLiteral("benchmark.json%1 reports %2 for %3 · %4; its statements give %5 here (benchmark.json may "
                          "be older than the gradings, or summarize runs that were not imported)")
        .arg(rate.benchmarkFile.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(rate.benchmarkFile),
             percentText(*rate.benchmarkRate), rate.model, armLabel(rate.arm), percentText(rate.statementRate));
}

} // namespace sf
