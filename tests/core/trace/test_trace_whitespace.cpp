#include "SkippedChecks.h"
#include "trace/TraceImport.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

const QString FixtureRoot = QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/trace");

/// Copies @p from into @p to, folders included: a fixture's neighbours (a subagent's file, a run's history) go along.
bool copyTree(const QString &from, const QString &to)
{
    QDirIterator it(from, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString source = it.next();
        const QString target = to + u'/' + QDir(from).relativeFilePath(source);
        if (!QDir().mkpath(QFileInfo(target).path()) || !QFile::copy(source, target))
            return false;
    }
    return true;
}

bool writeFile(const QString &path, const QByteArray &data)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(data) == data.size();
}

/// What a reader sees of a trace: its format and counts, and every token bucket.
QString summary(const Result<Trace> &result, const QString &path)
{
    if (!result)
        return u"error: "_s + QString(result.error).replace(path, u"FILE"_s);
    const Trace &trace = *result.value;
    const TokenUsage u = trace.totalUsage();
    return u"%1 threads=%2 turns=%3 steps=%4 uncached=%5 read=%6 write5m=%7 write1h=%8 output=%9 reasoning=%10 "
           "notes=%11 skipped=%12"_s.arg(trace.format)
               .arg(trace.threads.size())
               .arg(trace.turnCount())
               .arg(trace.stepCount())
               .arg(u.uncachedInput)
               .arg(u.cacheRead)
               .arg(u.cacheWrite5m)
               .arg(u.cacheWrite1h)
               .arg(u.output)
               .arg(u.reasoning)
               .arg(trace.notes.size())
               .arg(trace.skippedCount);
}

} // namespace

/// Format detection and reading do not depend on how a JSON document is laid out: every JSON fixture, written on
/// one line (json.dump without indent) and indented, detects and reads as the fixture itself does.
class TestTraceWhitespace : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void everyJsonFixture_minifiedAndIndented_readTheSame_data()
    {
        QTest::addColumn<QString>("relative");
        QDirIterator it(FixtureRoot, {u"*.json"_s}, QDir::Files, QDirIterator::Subdirectories);
        int rows = 0;
        QStringList notJson;
        while (it.hasNext()) {
            const QString path = it.next();
            const QString relative = QDir(FixtureRoot).relativeFilePath(path);
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            // A fixture of a broken file has no layout to change; the readers' errors are tested elsewhere.
            if (QJsonDocument::fromJson(file.readAll()).isNull()) {
                notJson.append(relative);
                continue;
            }
            QTest::newRow(qPrintable(relative)) << relative;
            ++rows;
        }
        QVERIFY(rows >= 15);
        QCOMPARE(notJson, QStringList{u"nasty/broken.json"_s});
    }

    void everyJsonFixture_minifiedAndIndented_readTheSame()
    {
        QFETCH(QString, relative);
        QFile original(FixtureRoot + u'/' + relative);
        QVERIFY(original.open(QIODevice::ReadOnly));
        const QJsonDocument document = QJsonDocument::fromJson(original.readAll());
        QVERIFY(!document.isNull());
        const QString asWritten = summary(importTrace(original.fileName()), original.fileName());
        QString seen[2];
        const QJsonDocument::JsonFormat layouts[2] = {QJsonDocument::Compact, QJsonDocument::Indented};
        for (int i = 0; i < 2; ++i) {
            QTemporaryDir dir;
            QVERIFY(copyTree(FixtureRoot, dir.path()));
            const QString path = dir.filePath(relative);
            QVERIFY(writeFile(path, document.toJson(layouts[i])));
            seen[i] = summary(importTrace(path), path);
        }
        // Both layouts read as the file as its author wrote it, to the token, error for error.
        QCOMPARE(seen[0], asWritten);
        QCOMPARE(seen[1], asWritten);
        QVERIFY2(!seen[0].startsWith(u"error: FILE: read as"_s), qPrintable(seen[0]));
    }

    void importAtif_minified_readsAsIndented()
    {
        // Harbor's trajectory as json.dump writes it without indent: one line, with session_id at the top, as
        // stream-json records have.
        const QString oneLine = FixtureRoot + u"/atif/harbor-claude-code-one-line.json"_s;
        const QString indented = FixtureRoot + u"/atif/harbor-claude-code-writes-apart.json"_s;
        QCOMPARE(detectTraceFormat(oneLine), u"atif"_s);
        QCOMPARE(summary(importTrace(oneLine), oneLine), summary(importTrace(indented), indented));
    }
};

SF_TEST_GUILESS_MAIN(TestTraceWhitespace)
#include "test_trace_whitespace.moc"
