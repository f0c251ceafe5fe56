#pragma once

#include "cluster/SlurmJobRunner.h"

#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>

namespace sf::test {

/// The cluster the ctest fixture started (tests/cluster/slurm-local.sh): SLURM_CONF names its configuration.
inline QString slurmConf()
{
    return QProcessEnvironment::systemEnvironment().value(QStringLiteral("SLURM_CONF"));
}

/// Why there is no cluster to test against, or empty when the fixture started one.
inline QString missingSlurmCluster()
{
    const QString conf = slurmConf();
    if (!conf.isEmpty() && QFileInfo::exists(conf))
        return {};
    return QStringLiteral("no Slurm cluster (SLURM_CONF '%1' does not exist: the cluster_slurm_start fixture did not "
                          "start one; scripts/setup installs slurmctld, slurmd and munge)")
        .arg(conf);
}

/// Options for the test cluster: results in @p shared, the skillforge under test on the node, fast polling.
inline SlurmOptions testSlurmOptions(const QString &shared)
{
    SlurmOptions options;
    options.slurmConf = slurmConf();
    options.sharedDir = shared;
    options.program = QStringLiteral(SKILLFORGE_EXECUTABLE);
    options.pollMs = 250;
    return options;
}

/// Runs a Slurm client tool against the test cluster; its stdout.
inline QString slurmTool(const QString &program, const QStringList &arguments)
{
    QProcess process;
    process.start(program, arguments);
    process.waitForFinished(30000);
    return QString::fromUtf8(process.readAllStandardOutput()) + QString::fromUtf8(process.readAllStandardError());
}

} // namespace sf::test
