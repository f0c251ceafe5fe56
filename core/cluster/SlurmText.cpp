#include "SlurmText.h"

#include <QRegularExpression>
#include <QStringList>

namespace sf::slurm {

QList<TaskState> parseSqueue(const QString &text)
{
    QList<TaskState> states;
    for (const QString &line : text.split(u'\n', Qt::SkipEmptyParts)) {
        const QStringList parts = line.trimmed().split(u'|');
        if (parts.size() < 2 || parts[0].isEmpty())
            continue;
        states.append({parts[0], parts[1], parts.value(2)});
    }
    return states;
}

QString parseSbatchJobId(const QString &text)
{
    const QString first = text.trimmed().section(u'\n', 0, 0).section(u';', 0, 0).trimmed();
    static const QRegularExpression digits(QStringLiteral("^[0-9]+$"));
    return digits.match(first).hasMatch() ? first : QString();
}

bool isFinalState(const QString &state)
{
    static const QStringList running = {
        QStringLiteral("PENDING"),      QStringLiteral("RUNNING"),     QStringLiteral("CONFIGURING"),
        QStringLiteral("COMPLETING"),   QStringLiteral("SUSPENDED"),   QStringLiteral("REQUEUED"),
        QStringLiteral("REQUEUE_HOLD"), QStringLiteral("REQUEUE_FED"), QStringLiteral("RESIZING"),
        QStringLiteral("SIGNALING"),    QStringLiteral("STAGE_OUT"),   QStringLiteral("STOPPED"),
        QStringLiteral("RESV_DEL_HOLD")};
    // sacct can append "by UID" (CANCELLED by 0): the first word is the state.
    return !state.isEmpty() && !running.contains(state.section(u' ', 0, 0));
}

bool pendsForever(const QString &reason)
{
    static const QStringList never = {QStringLiteral("BadConstraints"),          QStringLiteral("PartitionConfig"),
                                      QStringLiteral("PartitionNodeLimit"),      QStringLiteral("PartitionTimeLimit"),
                                      QStringLiteral("InvalidAccount"),          QStringLiteral("InvalidQOS"),
                                      QStringLiteral("AccountNotAllowed"),       QStringLiteral("QOSNotAllowed"),
                                      QStringLiteral("DependencyNeverSatisfied")};
    return never.contains(reason.section(u',', 0, 0).trimmed());
}

QString stateWord(const QString &state)
{
    const QString s = state.section(u' ', 0, 0);
    if (s == QLatin1String("PENDING") || s == QLatin1String("REQUEUED") || s == QLatin1String("CONFIGURING"))
        return QStringLiteral("pending");
    if (s == QLatin1String("COMPLETED"))
        return QStringLiteral("done");
    if (s == QLatin1String("TIMEOUT") || s == QLatin1String("DEADLINE"))
        return QStringLiteral("timeout");
    if (s == QLatin1String("CANCELLED"))
        return QStringLiteral("cancelled");
    if (isFinalState(s))
        return QStringLiteral("failed");
    return QStringLiteral("running");
}

QString refusalMessage(const QString &stderrText)
{
    const QString text = stderrText.trimmed();
    struct Known
    {
        const char *says;
        const char *means;
    };
    static const Known known[] = {
        {"Invalid partition name", "no such partition on this cluster (choose one that `sinfo` lists)"},
        {"Requested node configuration is not available",
         "no node in the partition has what was asked (a GPU asked of a partition without GPUs, too many CPUs or "
         "too much memory)"},
        {"Invalid generic resource (gres) specification",
         "the cluster has no such generic resource (GPUs not configured: GresTypes)"},
        {"More processors requested than permitted", "more CPUs asked than the partition permits"},
        {"Memory specification can not be satisfied", "more memory asked than a node has"},
        {"Invalid account", "no such account, or you are not in it"},
        {"Invalid qos specification", "no such QOS"},
        {"Requested time limit is invalid", "the time limit is beyond the partition's maximum"},
        {"Invalid time limit specification", "the time limit is not a Slurm time (minutes, or [D-]HH:MM:SS)"},
        {"Could not establish a configuration source", "no Slurm configuration: set SLURM_CONF"},
        {"Unable to contact slurm controller", "the Slurm controller does not answer"},
    };
    QString last = text.section(u'\n', -1).trimmed();
    last.remove(QRegularExpression(QStringLiteral("^(sbatch|srun): error: ")));
    for (const Known &k : known) {
        if (text.contains(QLatin1String(k.says)))
            return QStringLiteral("Slurm refused the job: %1 (sbatch: %2)").arg(QLatin1String(k.means), last);
    }
    return QStringLiteral("Slurm refused the job: %1")
        .arg(last.isEmpty() ? QStringLiteral("(sbatch said nothing)") : last);
}

QString shellQuote(const QString &text)
{
    QString quoted = text;
    quoted.replace(u'\'', QStringLiteral("'\\''"));
    return u'\'' + quoted + u'\'';
}

} // namespace sf::slurm
