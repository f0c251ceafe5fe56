// A large Claude Code file is parsed on two threads (TraceImportOptions::twoThreadsFromBytes). These tests split
// real-shaped sessions after every one of their lines and check that the trace is exactly what one thread reads:
// steps, turns, usage counted once per response, lines, skipped lines, titles, subagents, stream-json's cost.

#include "SkippedChecks.h"
#include "trace/TraceImport.h"

#include <QDir>
#include <QFile>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

QString fixture(const QString &relative)
{
    return QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/trace/") + relative;
}

QString usageText(const std::optional<TokenUsage> &usage)
{
    if (!usage)
        return u"-"_s;
    return QStringLiteral("%1/%2/%3/%4/%5/%6")
        .arg(usage->uncachedInput)
        .arg(usage->cacheRead)
        .arg(usage->cacheWrite5m)
        .arg(usage->cacheWrite1h)
        .arg(usage->output)
        .arg(usage->reasoning);
}

/// Every field of a trace, one line per thread, turn, step and skipped line: two readings are the same
/// trace when their dumps are equal.
QStringList dump(const Trace &trace)
{
    QStringList lines{u"title " + trace.title, u"format " + trace.format,
                      QStringLiteral("skipped %1").arg(trace.skippedCount),
                      u"cost " + (trace.reportedCostUsd ? QString::number(*trace.reportedCostUsd) : u"-"_s)};
    for (const SkippedRecord &skipped : trace.skipped)
        lines << QStringLiteral("skip %1 %2").arg(skipped.line).arg(skipped.reason);
    for (const TraceThread &thread : trace.threads) {
        lines << QStringLiteral("thread %1 '%2' parent %3 step %4")
                     .arg(thread.id, thread.title)
                     .arg(thread.parentThread)
                     .arg(thread.parentStep);
        for (const TraceTurn &turn : thread.turns)
            lines << QStringLiteral("turn %1 %2 %3 %4 %5 usage %6 lines %7-%8 steps %9+%10")
                         .arg(turn.role, turn.model, turn.timestamp.toString(), turn.messageId.toString(),
                              turn.attributionSkill, usageText(turn.usage))
                         .arg(turn.firstLine)
                         .arg(turn.lastLine)
                         .arg(turn.firstStep)
                         .arg(turn.stepCount);
        for (const TraceStep &step : thread.steps)
            lines << QStringLiteral("step %1 %2 turn %3 paired %4 child %5 line %6 [%7] [%8] [%9] [%10]")
                         .arg(int(step.kind))
                         .arg(step.isError)
                         .arg(step.turn)
                         .arg(step.paired)
                         .arg(step.childThread)
                         .arg(step.line)
                         .arg(step.text.toString(), step.toolId.toString(), step.toolName.toString(),
                              step.input.toString());
    }
    return lines;
}

Result<Trace> read(const QString &path, bool twoThreads)
{
    TraceImportOptions options;
    options.twoThreadsFromBytes = twoThreads ? 0 : -1;
    return importTrace(path, options);
}

QList<QByteArray> linesOf(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    QList<QByteArray> lines = file.readAll().split('\n');
    if (!lines.isEmpty() && lines.back().isEmpty())
        lines.removeLast();
    return lines;
}

/// @p lines with blank lines after the first @p cut of them, enough that the two-thread reading's second part
/// starts among the blanks, right after line @p cut. Blank lines are passed over by both readings.
QByteArray splitAfter(const QList<QByteArray> &lines, int cut)
{
    QByteArray before, after;
    for (int i = 0; i < int(lines.size()); ++i)
        (i < cut ? before : after) += lines[i] + '\n';
    // With 4(A + B) bytes of blanks between A bytes before and B after, any share of the file from 1/5 to 4/5
    // lands among the blanks.
    const qsizetype blankLines = (before.size() + after.size()) + 250;
    QByteArray blanks;
    for (qsizetype i = 0; i < blankLines; ++i)
        blanks += "   \n";
    return before + blanks + after;
}

} // namespace

class TestTraceImportTwoThreads : public QObject
{
    Q_OBJECT

private:
    /// Writes @p source split after each of its lines (as @p name in @p dir, where its subagents folder may
    /// be) and compares the two-thread reading with the one-thread reading of the same file.
    void checkEverySplit(const QString &source, const QString &dir, const QString &name)
    {
        const QList<QByteArray> lines = linesOf(source);
        QVERIFY(lines.size() >= 2);
        const QString path = QDir(dir).filePath(name);
        for (int cut = 1; cut < int(lines.size()); ++cut) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write(splitAfter(lines, cut));
            file.close();
            const Result<Trace> one = read(path, false);
            QVERIFY2(one, qPrintable(one.error));
            // The debug line proves that this reading did go through two threads; QTest fails without it.
            QTest::ignoreMessage(QtDebugMsg, QRegularExpression(u"read on two threads"_s));
            const Result<Trace> two = read(path, true);
            QVERIFY2(two, qPrintable(two.error));
            QVERIFY(one.value->stepCount() > 0);
            const QStringList expected = dump(*one.value), actual = dump(*two.value);
            for (qsizetype i = 0; i < std::min(expected.size(), actual.size()); ++i)
                QVERIFY2(expected[i] == actual[i],
                         qPrintable(QStringLiteral("split after line %1, line %2 of the "
                                                   "dump:\n  one thread:  %3\n  two threads: %4")
                                        .arg(cut)
                                        .arg(i + 1)
                                        .arg(expected[i], actual[i])));
            QCOMPARE(actual.size(), expected.size());
        }
    }

private Q_SLOTS:
    void initTestCase() { QLoggingCategory::setFilterRules(u"skillforge.trace.debug=true"_s); }

    void claudeCodeSession_withSubagentsAndBadLines_sameAtEverySplit()
    {
        // The nasty session: bad JSON, bookkeeping records, a title, sidechains, a subagent folder.
        QTemporaryDir dir;
        const QString subagents = dir.filePath(u"nasty-session/subagents"_s);
        QVERIFY(QDir().mkpath(subagents));
        for (const QString &file : QDir(fixture(u"claude-code/nasty-session/subagents"_s)).entryList(QDir::Files))
            QVERIFY(
                QFile::copy(fixture(u"claude-code/nasty-session/subagents/"_s) + file, QDir(subagents).filePath(file)));
        checkEverySplit(fixture(u"claude-code/nasty-session.jsonl"_s), dir.path(), u"nasty-session.jsonl"_s);
    }

    void claudeCodeStrippedRecords_sameAtEverySplit()
    {
        QTemporaryDir dir;
        checkEverySplit(fixture(u"claude-code/stripped.jsonl"_s), dir.path(), u"stripped.jsonl"_s);
    }

    void streamJson_costAndSubagentThread_sameAtEverySplit()
    {
        QTemporaryDir dir;
        checkEverySplit(fixture(u"claude-stream/run.jsonl"_s), dir.path(), u"run.jsonl"_s);
    }

    void responseWrittenAcrossTheSplit_usageCountedOnce_titlesByRank()
    {
        // One response written as three lines (thinking, text, tool call) with its usage on each, a titled
        // session whose later, lower-ranked title must not win, and a line that is not JSON in each part.
        QTemporaryDir dir;
        const QString source = dir.filePath(u"source.jsonl"_s);
        QFile file(source);
        QVERIFY(file.open(QIODevice::WriteOnly));
        auto assistant = [&](const QString &uuid, const QString &parent, const QString &block, int output) {
            file.write(QStringLiteral("{\"type\":\"assistant\",\"uuid\":\"%1\",\"parentUuid\":\"%2\",\"requestId\":"
                                      "\"req_1\",\"timestamp\":\"2026-11-02T10:00:0%4Z\",\"message\":{\"id\":\"msg_1\","
                                      "\"role\":\"assistant\",\"model\":\"claude-opus-4-5\",\"content\":[%3],"
                                      "\"usage\":{\"input_tokens\":5,\"cache_read_input_tokens\":900,"
                                      "\"output_tokens\":%4}}}\n")
                           .arg(uuid, parent, block)
                           .arg(output)
                           .toUtf8());
        };
        file.write("{\"type\":\"user\",\"uuid\":\"u1\",\"parentUuid\":null,\"message\":{\"role\":\"user\","
                   "\"content\":\"Write an RMSNorm kernel\"}}\n");
        file.write("{\"type\":\"custom-title\",\"customTitle\":\"Fast RMSNorm\"}\n");
        file.write("{not json\n");
        assistant(u"a1"_s, u"u1"_s, u"{\"type\":\"thinking\",\"thinking\":\"rows of 4096\",\"signature\":\"s\"}"_s, 3);
        assistant(u"a2"_s, u"a1"_s, u"{\"type\":\"text\",\"text\":\"Writing it.\"}"_s, 7);
        assistant(u"a3"_s, u"a2"_s,
                  u"{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"Write\",\"input\":{\"path\":\"k.cu\"}}"_s, 9);
        file.write("{\"type\":\"user\",\"uuid\":\"u2\",\"parentUuid\":\"a3\",\"message\":{\"role\":\"user\","
                   "\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t1\",\"content\":\"written\"}]}}\n");
        file.write("[1,2]\n");
        file.write("{\"type\":\"summary\",\"summary\":\"a lower-ranked title\"}\n");
        file.close();
        checkEverySplit(source, dir.path(), u"session.jsonl"_s);

        const Result<Trace> two = read(dir.filePath(u"session.jsonl"_s), true);
        QVERIFY2(two, qPrintable(two.error));
        QCOMPARE(two.value->title, u"Fast RMSNorm"_s);
        QCOMPARE(two.value->skippedCount, 2);
        QCOMPARE(two.value->totalUsage().output, 9);
        QCOMPARE(two.value->totalUsage().cacheRead, 900);
    }

    void parentWrittenLateInTheSecondPart_readAgainInParentOrder()
    {
        // The second part holds a record that an earlier one named as its parent: the trace is read again,
        // whole and ordered, exactly as one thread does.
        QTemporaryDir dir;
        const QString source = dir.filePath(u"source.jsonl"_s);
        QFile file(source);
        QVERIFY(file.open(QIODevice::WriteOnly));
        for (int i = 0; i < 40; ++i)
            file.write(QStringLiteral("{\"type\":\"user\",\"uuid\":\"u%1\",\"parentUuid\":%2,\"message\":{\"role\":"
                                      "\"user\",\"content\":\"prompt %1\"}}\n")
                           .arg(i)
                           .arg(i == 0    ? u"null"_s
                                : i == 38 ? u"\"late\""_s
                                          : QStringLiteral("\"u%1\"").arg(i - 1))
                           .toUtf8());
        file.write("{\"type\":\"user\",\"uuid\":\"late\",\"parentUuid\":\"u37\",\"message\":{\"role\":\"user\","
                   "\"content\":\"written late\"}}\n");
        file.close();
        checkEverySplit(source, dir.path(), u"session.jsonl"_s);
        const Result<Trace> two = read(dir.filePath(u"session.jsonl"_s), true);
        QVERIFY2(two, qPrintable(two.error));
        QCOMPARE(two.value->threads[0].steps[38].text.toString(), u"written late"_s);
    }

    void cancelWhileTheSecondPartIsRead_stopsWithTheCancelMessage()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"long.jsonl"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        for (int i = 0; i < 40000; ++i)
            file.write(QStringLiteral("{\"type\":\"user\",\"uuid\":\"u%1\",\"message\":{\"role\":\"user\",\"content\":"
                                      "\"prompt %1\"}}\n")
                           .arg(i)
                           .toUtf8());
        file.close();
        TraceImportOptions options;
        options.twoThreadsFromBytes = 0;
        options.progress = [](qint64 done, qint64 total) { return done < total / 4; };
        QTest::ignoreMessage(QtDebugMsg, QRegularExpression(u"read on two threads"_s));
        const Result<Trace> result = importTrace(path, options);
        QVERIFY(!result);
        QCOMPARE(result.error, traceImportCancelledMessage());
    }
};

SF_TEST_GUILESS_MAIN(TestTraceImportTwoThreads)
#include "test_trace_import_two_threads.moc"
