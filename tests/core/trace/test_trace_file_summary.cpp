#include "trace/TraceFileSummary.h"

#include "common/AtomicFile.h"

#include <QTemporaryDir>
#include <QTest>

using namespace sf;

class TestTraceFileSummary : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void read_sampleTrace_countsRecordTypes()
    {
        const auto summary = TraceFileSummary::read(
            QStringLiteral(SKILLFORGE_SOURCE_DIR "/resources/sample-project/traces/rmsnorm-flux-session.jsonl"));
        QVERIFY(summary.error.isEmpty());
        QVERIFY(summary.isJsonLines);
        QCOMPARE(summary.invalidJsonLines, 0);
        QVERIFY(summary.lines > 40);
        QStringList types;
        for (const auto &entry : summary.recordTypes)
            types.append(entry.first);
        QVERIFY(types.contains(QStringLiteral("assistant")));
        QVERIFY(types.contains(QStringLiteral("user")));
        QCOMPARE(summary.preview.toUtf8().size(), summary.bytes);
        QVERIFY(!summary.previewTruncated);
    }

    void read_brokenLine_countsItAndNamesTheFirst()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("t.jsonl"));
        QVERIFY(writeFileAtomically(path, "{\"type\":\"user\"}\n{\"type\":\"assistant\"}\n{broken\n{\"type\":\"user\"}\n")
                    .isEmpty());
        const auto summary = TraceFileSummary::read(path);
        QVERIFY(summary.isJsonLines);
        QCOMPARE(summary.lines, 4);
        QCOMPARE(summary.invalidJsonLines, 1);
        QCOMPARE(summary.firstInvalidLine, 3);
        QCOMPARE(summary.recordTypes.first(), (QPair<QString, qint64>{QStringLiteral("user"), 2}));
    }

    void read_plainText_isNotJsonLines()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("notes.md"));
        QVERIFY(writeFileAtomically(path, "# Notes\nWe wrote a kernel.\n").isEmpty());
        const auto summary = TraceFileSummary::read(path);
        QVERIFY(!summary.isJsonLines);
        QCOMPARE(summary.invalidJsonLines, 0);
    }

    void read_binaryGarbage_neitherCrashesNorClaimsJson()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("garbage.jsonl"));
        QByteArray bytes;
        for (int i = 0; i < 100000; ++i)
            bytes.append(char((i * 7919) % 256));
        QVERIFY(writeFileAtomically(path, bytes).isEmpty());
        const auto summary = TraceFileSummary::read(path, 1024);
        QVERIFY(!summary.isJsonLines);
        QCOMPARE(summary.bytes, qint64(bytes.size()));
        QVERIFY(summary.previewTruncated);
    }

    void read_missingFile_reportsTheFile()
    {
        const auto summary = TraceFileSummary::read(QStringLiteral("/nonexistent/trace.jsonl"));
        QVERIFY(summary.error.contains(QStringLiteral("/nonexistent/trace.jsonl")));
    }
};

QTEST_GUILESS_MAIN(TestTraceFileSummary)
#include "test_trace_file_summary.moc"
