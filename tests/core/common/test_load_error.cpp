#include "common/AtomicFile.h"
#include "common/LoadError.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

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

    void writeFileAtomically_unwritableFolder_reportsFileAndKeepsOld()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("keep.txt"));
        QVERIFY(writeFileAtomically(path, "original").isEmpty());
        QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::ExeOwner);
        const QString error = writeFileAtomically(path, "replacement");
        QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        if (error.isEmpty())
            QSKIP("running as root: folder permissions do not stop writes here");
        QVERIFY(error.contains(path));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArrayLiteral("original"));
    }
};

QTEST_GUILESS_MAIN(TestLoadError)
#include "test_load_error.moc"
