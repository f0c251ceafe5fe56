#include "ProcessTree.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QList>
#include <csignal>

namespace sf {

namespace {

// The parent pid is the fourth field of /proc/PID/stat; the second (the command name, in
// parentheses) may itself contain spaces and parentheses, so parse from the last ')'.
qint64 parentOf(const QString &pid)
{
    QFile stat(QStringLiteral("/proc/") + pid + QStringLiteral("/stat"));
    if (!stat.open(QIODevice::ReadOnly)) {
        return -1; // the process ended while we looked
    }
    const QByteArray line = stat.read(1024);
    const qsizetype close = line.lastIndexOf(')');
    if (close < 0) {
        return -1;
    }
    const QList<QByteArray> fields = line.mid(close + 2).split(' ');
    return fields.size() > 1 ? fields.at(1).toLongLong() : -1;
}

// Every process's children, from one pass over /proc.
QHash<qint64, QList<qint64>> childrenByParent()
{
    const QDir proc(QStringLiteral("/proc"));
    QHash<qint64, QList<qint64>> children;
    const QStringList entries = proc.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool isPid = false;
        const qint64 pid = entry.toLongLong(&isPid);
        if (isPid) {
            children[parentOf(entry)].append(pid);
        }
    }
    return children;
}

QList<qint64> descendantsOf(qint64 root)
{
    const QHash<qint64, QList<qint64>> children = childrenByParent();
    QList<qint64> found;
    QList<qint64> pending = children.value(root);
    while (!pending.isEmpty()) {
        const qint64 pid = pending.takeLast();
        found.append(pid);
        pending.append(children.value(pid));
    }
    return found;
}

} // namespace

int countDescendantProcesses(qint64 root)
{
    if (!QDir(QStringLiteral("/proc")).exists()) {
        return -1;
    }
    return int(descendantsOf(root).size());
}

void killProcessTree(qint64 root)
{
    const QList<qint64> descendants = descendantsOf(root);
    for (const qint64 pid : descendants) {
        ::kill(pid_t(pid), SIGKILL);
    }
}

} // namespace sf
