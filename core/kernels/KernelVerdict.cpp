#include "kernels/KernelVerdict.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

double number(const QJsonValue &v)
{
    // The runner writes non-finite numbers as strings ("inf", "nan").
    if (v.isString())
        return v.toString().toDouble();
    return v.toDouble();
}

QStringList strings(const QJsonValue &v)
{
    QStringList list;
    for (const QJsonValue &item : v.toArray())
        list << item.toString();
    return list;
}

QString statusName(KernelVerdict::Status s)
{
    switch (s) {
    case KernelVerdict::Status::Passed: return u"passed"_s;
    case KernelVerdict::Status::Failed: return u"failed"_s;
    case KernelVerdict::Status::NotRun: return u"not_run"_s;
    }
    return u"failed"_s;
}

} // namespace

QString KernelVerdict::statusText() const
{
    switch (status) {
    case Status::Passed: return QStringLiteral("passed");
    case Status::Failed: return QStringLiteral("failed");
    case Status::NotRun: return QStringLiteral("compiled, not run");
    }
    return {};
}

void KernelVerdict::setRunnerReport(const QJsonObject &body)
{
    runner = body;
    device = body.value(u"device").toObject();
    flags = strings(body.value(u"flags"));
    notes = strings(body.value(u"notes"));
    correctness.clear();
    for (const QJsonValue &v : body.value(u"correctness").toArray()) {
        const QJsonObject o = v.toObject();
        KernelCorrectnessRow row;
        row.shape = o.value(u"shape").toString();
        row.seed = o.value(u"seed").toInt();
        row.passed = o.value(u"passed").toBool();
        row.elements = o.value(u"elements").toInteger();
        row.mismatches = o.value(u"mismatches").toInteger();
        row.maxAbsError = number(o.value(u"max_abs_error"));
        row.maxRelError = number(o.value(u"max_rel_error"));
        row.relL2Error = number(o.value(u"rel_l2_error"));
        row.failure = o.value(u"failure").toString();
        correctness << row;
    }
    timing.clear();
    for (const QJsonValue &v : body.value(u"timing").toArray()) {
        const QJsonObject o = v.toObject();
        const QJsonObject cand = o.value(u"candidate").toObject();
        KernelTimingRow row;
        row.shape = o.value(u"shape").toString();
        row.dims = o.value(u"dims").toString();
        row.candidateMedianUs = number(cand.value(u"median_us"));
        row.candidateLowUs = number(cand.value(u"low_us"));
        row.candidateHighUs = number(cand.value(u"high_us"));
        row.candidateRelStdError = number(cand.value(u"rel_std_error"));
        row.candidateSamples = cand.value(u"samples").toInt();
        row.baselineMedianUs = number(o.value(u"baseline").toObject().value(u"median_us"));
        row.speedup = number(o.value(u"speedup"));
        row.bandwidthGbs = number(o.value(u"bandwidth_gbs"));
        row.tflops = number(o.value(u"tflops"));
        row.speedOfLightUs = number(o.value(u"speed_of_light_us"));
        row.fractionOfSpeedOfLight = number(o.value(u"fraction_of_sol"));
        row.fractionOfPeakBandwidth = number(o.value(u"fraction_of_peak_bandwidth"));
        row.fractionOfPeakCompute = number(o.value(u"fraction_of_peak_compute"));
        row.checkedTimedCalls = o.value(u"checked_timed_calls").toInt();
        row.flags = strings(o.value(u"flags"));
        timing << row;
    }
}

QString KernelVerdict::evidence() const
{
    QStringList lines;
    lines << QStringLiteral("kernel %1 (%2): %3: %4").arg(taskId, dtype, statusText(), reason);
    if (!build.nvccVersion.isEmpty() || !build.error.isEmpty()) {
        QString b = QStringLiteral("build: %1 for %2%3 in %4 ms")
                        .arg(build.ok ? QStringLiteral("ok") : QStringLiteral("failed"), build.arch,
                             build.fromCache ? QStringLiteral(" (cached)") : QString())
                        .arg(build.buildMs);
        lines << b;
        for (const KernelResources &k : build.resources) {
            lines << QStringLiteral("  %1: %2 registers, %3 B shared, %4 B stack, spills %5/%6 B")
                         .arg(k.function)
                         .arg(k.registers)
                         .arg(k.sharedBytes)
                         .arg(k.stackBytes)
                         .arg(k.spillStoreBytes)
                         .arg(k.spillLoadBytes);
        }
        for (const CompilerDiagnostic &d : build.diagnostics) {
            if (d.severity == u"error")
                lines << QStringLiteral("  %1:%2: %3%4").arg(d.file).arg(d.line).arg(d.message,
                                                             d.sourceLine.isEmpty() ? QString() : u"\n    "_s + d.sourceLine.trimmed());
        }
        for (const SymbolRejection &r : build.rejectedSymbols)
            lines << QStringLiteral("  rejected import %1: %2").arg(r.symbol, r.reason);
    }
    if (!device.isEmpty())
        lines << QStringLiteral("device: %1 (compute %2, driver %3)")
                     .arg(device.value(u"name").toString(), device.value(u"capability").toString(),
                          device.value(u"driver").toString());
    if (!correctness.isEmpty()) {
        qsizetype passedCases = 0;
        for (const KernelCorrectnessRow &row : correctness)
            passedCases += row.passed ? 1 : 0;
        lines << QStringLiteral("correctness: %1 of %2 shape/seed cases passed").arg(passedCases).arg(correctness.size());
    }
    for (const KernelTimingRow &t : timing) {
        QString line = QStringLiteral("  %1 [%2]: %3 us (%4-%5), baseline %6 us, speedup %7x, %8 GB/s, %9% of speed-of-light")
                           .arg(t.shape, t.dims)
                           .arg(t.candidateMedianUs, 0, 'f', 2)
                           .arg(t.candidateLowUs, 0, 'f', 2)
                           .arg(t.candidateHighUs, 0, 'f', 2)
                           .arg(t.baselineMedianUs, 0, 'f', 2)
                           .arg(t.speedup, 0, 'f', 2)
                           .arg(t.bandwidthGbs, 0, 'f', 0)
                           .arg(t.fractionOfSpeedOfLight * 100, 0, 'f', 0);
        if (t.fractionOfPeakBandwidth > 0 || t.fractionOfPeakCompute > 0)
            line += QStringLiteral(", %1% of peak bandwidth, %2% of peak FP32")
                        .arg(t.fractionOfPeakBandwidth * 100, 0, 'f', 0)
                        .arg(t.fractionOfPeakCompute * 100, 0, 'f', 1);
        if (t.checkedTimedCalls > 0)
            line += QStringLiteral(", %1 timed calls checked").arg(t.checkedTimedCalls);
        lines << line;
    }
    for (const QString &f : flags)
        lines << QStringLiteral("flag: ") + f;
    for (const QString &n : notes)
        lines << QStringLiteral("note: ") + n;
    return lines.join(u'\n');
}

QJsonObject KernelVerdict::toJson() const
{
    return QJsonObject{{u"status"_s, statusName(status)},
                       {u"passed"_s, passed()},
                       {u"reason"_s, reason},
                       {u"task"_s, taskId},
                       {u"dtype"_s, dtype},
                       {u"candidate"_s, candidateName},
                       {u"source"_s, source},
                       {u"build"_s, build.toJson()},
                       {u"runner"_s, runner}};
}

KernelVerdict KernelVerdict::fromJson(const QJsonObject &json)
{
    KernelVerdict v;
    const QString status = json.value(u"status").toString();
    v.status = status == u"passed" ? Status::Passed : status == u"not_run" ? Status::NotRun : Status::Failed;
    v.reason = json.value(u"reason").toString();
    v.taskId = json.value(u"task").toString();
    v.dtype = json.value(u"dtype").toString();
    v.candidateName = json.value(u"candidate").toString();
    v.source = json.value(u"source").toString();
    v.build = KernelBuildResult::fromJson(json.value(u"build").toObject());
    v.setRunnerReport(json.value(u"runner").toObject());
    return v;
}

} // namespace sf
