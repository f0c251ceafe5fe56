#include "SkippedChecks.h"
#include "common/AtomicFile.h"
#include "common/LoadError.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <sys/resource.h>

using namespace sf;

class TestLoadError : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void toString_withLineAndColumn_namesAllThree()
    {
        const LoadError error{QStringLiteral("a.json"), 3, 7, QStringLiteral("bad value")};
        QCOMPARE(error.toString(), QStringLiteral("a.json:3:7: bad value"));
    }

    void toString_withoutLine_namesFileOnly()
    {
        const LoadError error{QStringLiteral("a.json"), 0, 0, QStringLiteral("cannot read")};
        QCOMPARE(error.toString(), QStringLiteral("a.json: cannot read"));
    }

    void lineAndColumnAt_offsetAfterNewlines_countsFromOne()
    {
        int line = 0, column = 0;
        lineAndColumnAt(QByteArrayLiteral("ab\ncd\nef"), 7, &line, &column);
        QCOMPARE(line, 3);
        QCOMPARE(column, 2);
        lineAndColumnAt(QByteArrayLiteral("ab"), 0, &line, &column);
        QCOMPARE(line, 1);
        QCOMPARE(column, 1);
    }

    void writeFileAtomically_createsParentsAndReplacesWhole()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("deep/er/file.txt"));
        QVERIFY(writeFileAtomically(path, "first version, longer").isEmpty());
        QVERIFY(writeFileAtomically(path, "second").isEmpty());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArrayLiteral("second"));
    }

    void writeFileAtomically_failedWrite_reportsFileAndKeepsOld()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("keep.txt"));
        QVERIFY(writeFileAtomically(path, "original").isEmpty());
        // A file size limit makes the write fail halfway for any user, root included (folder permissions
        // do not stop root). Without the signal the failing write() returns EFBIG instead of ending us.
        std::signal(SIGXFSZ, SIG_IGN);
        rlimit saved{};
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &saved), 0);
        rlimit small = saved;
        small.rlim_cur = 16;
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
        const QString error = writeFileAtomically(path, QByteArray(4096, 'x'));
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &saved), 0);
        QVERIFY2(error.contains(path), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArrayLiteral("original"));
        // Nothing half-written is left beside it.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("keep.txt")});
    }
};

SF_TEST_GUILESS_MAIN(TestLoadError)
#include "test_load_error.moc"
