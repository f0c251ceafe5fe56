#include "RunLock.h"

#include "EvalLogging.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QHostInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace sf {

namespace {

const QString kLockFile = QStringLiteral(".writer.lock");

QString lockPath(const QString &runDir)
{
    return QDir(runDir).filePath(kLockFile);
}

// Open file description locks (Linux): held by the open file, not the process, so another open of the same file in
// this process (holder()) neither releases nor shares it, and the kernel drops it when the last descriptor closes.
struct flock wholeFile(short type)
{
    struct flock lock
    {
    };
    lock.l_type = type;
    lock.l_whence = SEEK_SET;
    lock.l_start = 0;
    lock.l_len = 0;
    return lock;
}

QByteArray readAll(int fd)
{
    QByteArray bytes;
    char buffer[1024];
    ::lseek(fd, 0, SEEK_SET);
    for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;)
        bytes.append(buffer, n);
    return bytes;
}

// What the holder wrote about itself, in words.
QString describeHolder(const QByteArray &record)
{
    const QJsonObject o = QJsonDocument::fromJson(record).object();
    if (o.isEmpty())
        return QStringLiteral("another process");
    return QStringLiteral("%1 (pid %2 on %3, since %4)")
        .arg(o.value(u"program").toString(QStringLiteral("a Skillforge process")))
        .arg(o.value(u"pid").toInteger())
        .arg(o.value(u"host").toString(), o.value(u"since").toString());
}

// "skillforge eval", "skillforge gui": the program and its command, to tell the user which window or terminal.
QString thisProgram()
{
    const QStringList arguments = QCoreApplication::arguments();
    QString program = QFileInfo(arguments.value(0, QStringLiteral("skillforge"))).fileName();
    if (arguments.size() > 1 && !arguments.at(1).startsWith(u'-'))
        program += u' ' + arguments.at(1);
    return program;
}

} // namespace

std::variant<std::shared_ptr<RunLock>, QString> RunLock::acquire(const QString &runDir)
{
    const QByteArray path = QFile::encodeName(lockPath(runDir));
    // O_CLOEXEC: a child (the local model server, a sandboxed command) must not inherit the lock and keep it
    // after this process ends.
    const int fd = ::open(path.constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return QStringLiteral("%1: cannot open the run's lock file: %2")
            .arg(lockPath(runDir), QString::fromLocal8Bit(std::strerror(errno)));
    struct flock whole = wholeFile(F_WRLCK);
    if (::fcntl(fd, F_OFD_SETLK, &whole) != 0) {
        const int error = errno;
        const QString who = describeHolder(readAll(fd));
        ::close(fd);
        if (error == EAGAIN || error == EACCES)
            return QStringLiteral("%1 is being written by %2; a run has one writer: wait for it to finish, or watch it "
                                  "grow in the Runs view")
                .arg(QDir::toNativeSeparators(runDir), who);
        return QStringLiteral("%1: cannot lock the run: %2")
            .arg(lockPath(runDir), QString::fromLocal8Bit(std::strerror(error)));
    }
    const QJsonObject record{{QStringLiteral("program"), thisProgram()},
                             {QStringLiteral("pid"), qint64(::getpid())},
                             {QStringLiteral("host"), QHostInfo::localHostName()},
                             {QStringLiteral("since"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)}};
    const QByteArray bytes = QJsonDocument(record).toJson(QJsonDocument::Compact) + '\n';
    // Only the holder writes the record. Without it the lock still holds; a refusal then names "another process".
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, bytes.constData(), size_t(bytes.size()), 0) != bytes.size())
        qCWarning(lcEval).noquote() << lockPath(runDir) << ": cannot record who holds the lock:" << std::strerror(errno);
    return std::shared_ptr<RunLock>(new RunLock(fd));
}

std::optional<QString> RunLock::holder(const QString &runDir)
{
    const QByteArray path = QFile::encodeName(lockPath(runDir));
    const int fd = ::open(path.constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt; // never written: no one holds it
    // Asks without taking the lock, so looking never gets in a writer's way.
    struct flock whole = wholeFile(F_WRLCK);
    std::optional<QString> who;
    if (::fcntl(fd, F_OFD_GETLK, &whole) == 0 && whole.l_type != F_UNLCK)
        who = describeHolder(readAll(fd));
    ::close(fd);
    return who;
}

RunLock::~RunLock()
{
    ::close(m_fd); // releases the lock
}

} // namespace sf
