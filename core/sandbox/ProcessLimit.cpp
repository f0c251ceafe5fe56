#include "ProcessLimit.h"

#include <QAtomicInt>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QThread>
#include <csignal>
#include <fcntl.h>
#include <unistd.h>

namespace sf {

namespace {

// Our own place in the v1 pids hierarchy, from /proc/self/cgroup ("8:pids:/some/path").
QString ownPidsCgroupDirectory()
{
    QFile cgroups(QStringLiteral("/proc/self/cgroup"));
    if (!cgroups.open(QIODevice::ReadOnly)) {
        return {};
    }
    const QList<QByteArray> lines = cgroups.readAll().split('\n');
    for (const QByteArray &line : lines) {
        const QList<QByteArray> fields = line.split(':');
        if (fields.size() == 3 && fields.at(1).split(',').contains("pids")) {
            const QString directory = QStringLiteral("/sys/fs/cgroup/pids") + QString::fromUtf8(fields.at(2));
            return QFileInfo(directory + QStringLiteral("/pids.max")).exists() || QDir(directory).exists()
                       ? QDir::cleanPath(directory)
                       : QString();
        }
    }
    return {};
}

bool writeFile(const QString &path, const QByteArray &data)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(data) == data.size();
}

} // namespace

PidsCgroup::PidsCgroup(QString directory)
    : m_directory(std::move(directory))
    , m_procsFile(QFile::encodeName(m_directory + QStringLiteral("/cgroup.procs")))
{
}

std::unique_ptr<PidsCgroup> PidsCgroup::create(int maxProcesses)
{
    static QAtomicInt counter;
    const QString parent = ownPidsCgroupDirectory();
    if (parent.isEmpty()) {
        return nullptr;
    }
    const QString name = QStringLiteral("skillforge-sandbox-%1-%2")
                             .arg(QCoreApplication::applicationPid())
                             .arg(counter.fetchAndAddRelaxed(1));
    QDir parentDir(parent);
    if (!parentDir.mkdir(name)) {
        return nullptr;
    }
    std::unique_ptr<PidsCgroup> cgroup(new PidsCgroup(parentDir.filePath(name)));
    if (!writeFile(cgroup->m_directory + QStringLiteral("/pids.max"), QByteArray::number(maxProcesses))) {
        return nullptr; // the destructor removes the folder
    }
    return cgroup;
}

bool PidsCgroup::isAvailable()
{
    static const bool available = create(1) != nullptr;
    return available;
}

bool PidsCgroup::limitWasHit() const
{
    // pids.events reads "max N": N forks refused at pids.max so far.
    QFile events(m_directory + QStringLiteral("/pids.events"));
    if (!events.open(QIODevice::ReadOnly)) {
        return false;
    }
    const QList<QByteArray> fields = events.readAll().simplified().split(' ');
    return fields.size() == 2 && fields.at(0) == "max" && fields.at(1).toLongLong() > 0;
}

void PidsCgroup::killAll() const
{
    QFile procs(QFile::decodeName(m_procsFile));
    if (!procs.open(QIODevice::ReadOnly)) {
        return;
    }
    const QList<QByteArray> pids = procs.readAll().split('\n');
    for (const QByteArray &pid : pids) {
        if (const pid_t value = pid_t(pid.toLongLong()); value > 0) {
            ::kill(value, SIGKILL);
        }
    }
}

PidsCgroup::~PidsCgroup()
{
    // A process bubblewrap left behind (one killed while still setting up its namespaces can linger)
    // must not outlive the sandbox. The kernel removes a cgroup only once its last process is
    // reaped, which happens just after the kill; wait briefly for that.
    for (int attempt = 0; attempt < 50; ++attempt) {
        killAll();
        if (::rmdir(QFile::encodeName(m_directory).constData()) == 0 || errno == ENOENT) {
            return;
        }
        QThread::msleep(20);
    }
}

quint64 processRlimitAllowing(int maxProcesses)
{
    const uid_t uid = ::getuid();
    if (uid == 0 || maxProcesses <= 0) {
        return 0;
    }
    // Count this user's processes now; the limit applies to all of them together.
    int mine = 0;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        QFile status(QStringLiteral("/proc/%1/status").arg(entry));
        if (!status.open(QIODevice::ReadOnly)) {
            continue;
        }
        const QList<QByteArray> lines = status.readAll().split('\n');
        for (const QByteArray &line : lines) {
            if (line.startsWith("Uid:")) {
                const QList<QByteArray> ids = line.mid(4).simplified().split(' ');
                if (!ids.isEmpty() && ids.first().toUInt() == uid) {
                    ++mine;
                }
                break;
            }
        }
    }
    return quint64(mine + maxProcesses);
}

void joinCgroupInChild(const char *procsFile)
{
    char digits[24];
    int length = 0;
    for (pid_t pid = ::getpid(); pid > 0 && length < int(sizeof digits); pid /= 10) {
        digits[length++] = char('0' + pid % 10);
    }
    char text[24];
    for (int i = 0; i < length; ++i) {
        text[i] = digits[length - 1 - i];
    }
    const int fd = ::open(procsFile, O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
        [[maybe_unused]] const ssize_t written = ::write(fd, text, size_t(length));
        ::close(fd);
    }
}

} // namespace sf
