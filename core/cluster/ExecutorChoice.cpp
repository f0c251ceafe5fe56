#include "ExecutorChoice.h"

#include <QDir>
#include <QJsonArray>
#include <QProcessEnvironment>
#include <QStandardPaths>

namespace sf {

namespace {
const QString kLocal = QStringLiteral("local");
const QString kSlurm = QStringLiteral("slurm");
} // namespace

QString ExecutorChoice::name() const
{
    return isSlurm() ? kSlurm : kLocal;
}

QString ExecutorChoice::describe() const
{
    return isSlurm() ? QStringLiteral("Slurm (%1)").arg(slurmOptionsText()) : QStringLiteral("this machine");
}

QString ExecutorChoice::slurmOptionsText() const
{
    QStringList options;
    for (const auto &[word, value] : {std::pair{"partition", slurm.partition},
                                      {"gres", slurm.gres},
                                      {"account", slurm.account},
                                      {"time", slurm.time}}) {
        if (!value.isEmpty())
            options << QStringLiteral("%1 %2").arg(QLatin1String(word), value);
    }
    if (!slurm.sbatchArgs.isEmpty())
        options << slurm.sbatchArgs.join(u' ');
    return options.isEmpty() ? QStringLiteral("the cluster's defaults") : options.join(QStringLiteral(", "));
}

QJsonObject ExecutorChoice::toJson() const
{
    if (!isSlurm())
        return {{QStringLiteral("name"), kLocal}};
    return {{QStringLiteral("name"), kSlurm},
            {QStringLiteral("partition"), slurm.partition},
            {QStringLiteral("gres"), slurm.gres},
            {QStringLiteral("account"), slurm.account},
            {QStringLiteral("time"), slurm.time},
            {QStringLiteral("slurm_conf"), slurm.slurmConf},
            {QStringLiteral("shared_dir"), slurm.sharedDir},
            {QStringLiteral("sbatch_options"), QJsonArray::fromStringList(slurm.sbatchArgs)}};
}

ExecutorChoice ExecutorChoice::fromJson(const QJsonObject &json)
{
    if (json.value(QStringLiteral("name")).toString() != kSlurm)
        return local();
    SlurmProfile profile;
    profile.partition = json.value(QStringLiteral("partition")).toString();
    profile.gres = json.value(QStringLiteral("gres")).toString();
    profile.account = json.value(QStringLiteral("account")).toString();
    profile.time = json.value(QStringLiteral("time")).toString();
    profile.slurmConf = json.value(QStringLiteral("slurm_conf")).toString();
    profile.sharedDir = json.value(QStringLiteral("shared_dir")).toString();
    for (const QJsonValue &option : json.value(QStringLiteral("sbatch_options")).toArray())
        profile.sbatchArgs << option.toString();
    return onSlurm(profile);
}

QString whySlurmUnavailable()
{
    if (QStandardPaths::findExecutable(QStringLiteral("sbatch")).isEmpty())
        return QStringLiteral("sbatch is not on PATH: Slurm's client tools are not installed on this machine (or "
                              "PATH does not reach them)");
    return {};
}

SlurmProfile resolveSlurmProfile(const SlurmProfile &profile)
{
    SlurmProfile resolved = profile;
    if (resolved.slurmConf.isEmpty())
        resolved.slurmConf = QProcessEnvironment::systemEnvironment().value(QStringLiteral("SLURM_CONF"));
    if (!resolved.slurmConf.isEmpty())
        resolved.slurmConf = QDir(resolved.slurmConf).absolutePath();
    if (!resolved.sharedDir.isEmpty())
        resolved.sharedDir = QDir(resolved.sharedDir).absolutePath();
    return resolved;
}

SlurmOptions slurmOptionsFor(const SlurmProfile &profile, const SlurmTuning &tuning)
{
    const SlurmProfile resolved = resolveSlurmProfile(profile);
    SlurmOptions options;
    options.partition = resolved.partition;
    options.gres = resolved.gres;
    options.account = resolved.account;
    options.time = resolved.time;
    options.extraArgs = resolved.sbatchArgs;
    options.slurmConf = resolved.slurmConf;
    options.sharedDir = resolved.sharedDir; // empty: the runner's default under the cache folder
    options.program = tuning.program;
    if (tuning.pollMs > 0)
        options.pollMs = tuning.pollMs;
    return options;
}

std::variant<std::shared_ptr<JobRunner>, QString> makeJobRunner(const ExecutorChoice &choice, bool gpu,
                                                                const SlurmTuning &tuning)
{
    if (!choice.isSlurm())
        return std::shared_ptr<JobRunner>();
    auto runner = std::make_shared<SlurmJobRunner>(slurmOptionsFor(choice.slurm, tuning));
    if (const QString why = runner->check(gpu); !why.isEmpty())
        return why;
    return std::shared_ptr<JobRunner>(runner);
}

QString checkSlurmProfile(const SlurmProfile &profile, const SlurmTuning &tuning)
{
    const auto runner = makeJobRunner(ExecutorChoice::onSlurm(profile), !profile.gres.isEmpty(), tuning);
    const QString *why = std::get_if<QString>(&runner);
    return why ? *why : QString();
}

} // namespace sf
