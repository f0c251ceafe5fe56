// A child started with endWithParent() goes when its parent dies, however the parent dies.
#include "SkippedChecks.h"
#include "common/ChildProcess.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <csignal>
#include <cstring>
#include <unistd.h>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

constexpr const char *ParentMode = "--start-a-sleeper-and-die";

/// The parent's part, run in a process of its own: start `sleep`, write its pid, and die at once, with no
/// chance to stop the child (as a crash or SIGKILL would leave it).
int runParent(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const bool endWith = std::strcmp(argv[3], "end-with-parent") == 0;
    QProcess sleeper;
    if (endWith)
        endWithParent(&sleeper);
    sleeper.start(u"sleep"_s, {u"60"_s});
    if (!sleeper.waitForStarted())
        return 2;
    QFile pidFile(QString::fromLocal8Bit(argv[2]));
    if (!pidFile.open(QIODevice::WriteOnly))
        return 3;
    pidFile.write(QByteArray::number(sleeper.processId()));
    pidFile.close();
    _exit(0);
}

/// Whether @p pid is a process that still runs (a zombie waiting for its new parent counts as gone).
bool isRunning(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')');
    return close > 0 && close + 2 < text.size() && text.at(close + 2) != 'Z';
}

} // namespace

class TestChildProcess final : public QObject
{
    Q_OBJECT

    /// Runs the parent part and returns the pid of the sleeper it left behind.
    static qint64 sleeperOfADeadParent(const char *mode)
    {
        QTemporaryDir dir;
        const QString pidPath = dir.filePath(u"pid"_s);
        QProcess parent;
        parent.start(QCoreApplication::applicationFilePath(),
                     {QString::fromLatin1(ParentMode), pidPath, QString::fromLatin1(mode)});
        if (!parent.waitForFinished(10000) || parent.exitCode() != 0)
            return -1;
        QFile pidFile(pidPath);
        return pidFile.open(QIODevice::ReadOnly) ? pidFile.readAll().toLongLong() : -1;
    }

    static bool goneWithin(qint64 pid, int ms)
    {
        QElapsedTimer clock;
        clock.start();
        while (isRunning(pid)) {
            if (clock.elapsed() > ms)
                return false;
            QThread::msleep(20);
        }
        return true;
    }

private Q_SLOTS:
    void child_endsWhenItsParentDies()
    {
        const qint64 pid = sleeperOfADeadParent("end-with-parent");
        QVERIFY(pid > 0);
        QVERIFY2(goneWithin(pid, 5000), "the sleeper outlived its parent");
    }

    void control_withoutIt_theChildOutlivesItsParent()
    {
        // Shows that the test above can fail: the same child, started plainly, is left running.
        const qint64 pid = sleeperOfADeadParent("plain");
        QVERIFY(pid > 0);
        QVERIFY(!goneWithin(pid, 500));
        ::kill(pid_t(pid), SIGKILL);
    }
};

int main(int argc, char **argv)
{
    if (argc == 4 && std::strcmp(argv[1], ParentMode) == 0)
        return runParent(argc, argv);
    QCoreApplication app(argc, argv);
    TestChildProcess test;
    return sf::test::execCountingSkips(&test, argc, argv);
}

#include "test_child_process.moc"
