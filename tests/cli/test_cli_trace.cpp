#include "SkippedChecks.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Result
{
    int exitCode = -1;
    QString out;
    QString err;
};

QString fixture(const QString &name)
{
    return QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/trace/") + name;
}
const QString kSample =
    QStringLiteral(SKILLFORGE_SOURCE_DIR "/resources/sample-project/traces/rmsnorm-flux-session.jsonl");

} // namespace

/// `skillforge trace stats|export` as a user runs them: the real executable on fixture traces.
class TestCliTrace : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_home;

    Result run(const QStringList &arguments)
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.filePath(QStringLiteral("config")));
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(SKILLFORGE_EXECUTABLE), arguments);
        if (!process.waitForFinished(60000))
            process.kill();
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
    }

private Q_SLOTS:
    void statsJson_sampleSession_countsEachResponseOnce()
    {
        const Result r = run({QStringLiteral("trace"), QStringLiteral("stats"), kSample, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject json = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(json.value(QStringLiteral("format")).toString(), QStringLiteral("claude-code"));
        QCOMPARE(json.value(QStringLiteral("threads")).toInt(), 1);
        const QJsonObject kinds = json.value(QStringLiteral("steps_by_kind")).toObject();
        QCOMPARE(kinds.value(QStringLiteral("tool_call")).toInt(), 26);
        QCOMPARE(kinds.value(QStringLiteral("thinking")).toInt(), 13);
        QCOMPARE(json.value(QStringLiteral("tool_calls")).toObject().value(QStringLiteral("Bash")).toInt(), 13);
        const QJsonObject tokens = json.value(QStringLiteral("tokens")).toObject();
        QCOMPARE(tokens.value(QStringLiteral("uncached_input")).toInteger(), 107);
        QCOMPARE(tokens.value(QStringLiteral("cache_read")).toInteger(), 718229);
        QCOMPARE(tokens.value(QStringLiteral("cache_write_5m")).toInteger(), 23257);
        QCOMPARE(tokens.value(QStringLiteral("cache_write_1h")).toInteger(), 16914);
        QCOMPARE(tokens.value(QStringLiteral("output")).toInteger(), 16679);
        QVERIFY(json.value(QStringLiteral("cost_usd")).isNull()); // the session logged none
        // By the pricing table: 25 responses of claude-opus-4-5 at $5 / $25 / $0.5 / $6.25 / $10 per million.
        QVERIFY(qAbs(json.value(QStringLiteral("priced_cost_usd")).toDouble() - 1.09112075) < 1e-9);
        QCOMPARE(json.value(QStringLiteral("priced_turns")).toInt(), 25);
        QCOMPARE(json.value(QStringLiteral("unpriced_turns")).toInt(), 0);
        QCOMPARE(json.value(QStringLiteral("skipped_count")).toInt(), 0);
    }

    void statsText_listsSkippedLinesWithReasons()
    {
        const Result r = run({QStringLiteral("trace"), QStringLiteral("stats"),
                              fixture(QStringLiteral("claude-code/nasty-session.jsonl"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("skipped:  4")), qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("line 17: not a JSON object")));
        QVERIFY(r.out.contains(QStringLiteral("threads:  2")));
        QVERIFY(r.out.contains(QStringLiteral("skills:   cuda-kernels")));
        QVERIFY2(r.out.contains(QStringLiteral("cost:     $0.00")), qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("logged:   no cost logged in the trace")));
    }

    void statsJson_streamJson_reportsLoggedCost()
    {
        const Result r = run({QStringLiteral("trace"), QStringLiteral("stats"),
                              fixture(QStringLiteral("claude-stream/run.jsonl")), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("cost_usd")).toDouble(), 0.0123);
    }

    void stats_atifWithCacheWritesApart_notesWhyTheInputExceedsFinalMetrics()
    {
        // Harbor's older Claude Code trajectories: final_metrics' 12347 prompt tokens are uncached + cache read, and
        // the 6540 cache-write tokens in metrics.extra come on top.
        const QString path = fixture(QStringLiteral("atif/harbor-claude-code-writes-apart.json"));
        const Result text = run({QStringLiteral("trace"), QStringLiteral("stats"), path});
        QVERIFY2(text.exitCode == 0, qPrintable(text.err));
        QVERIFY2(text.out.contains(QStringLiteral("note:     prompt_tokens here leave out the cache writes")),
                 qPrintable(text.out));
        const Result r = run({QStringLiteral("trace"), QStringLiteral("stats"), path, QStringLiteral("--json")});
        const QJsonObject json = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const QJsonObject tokens = json.value(QStringLiteral("tokens")).toObject();
        QCOMPARE(tokens.value(QStringLiteral("uncached_input")).toInteger() +
                     tokens.value(QStringLiteral("cache_read")).toInteger(),
                 12347);
        QCOMPARE(tokens.value(QStringLiteral("total_input")).toInteger(), 12347 + 6540);
        QCOMPARE(json.value(QStringLiteral("notes")).toArray().size(), 1);
    }

    void stats_explicitFormat_wrongOneExitsTwoNamingIt()
    {
        const Result r = run({QStringLiteral("trace"), QStringLiteral("stats"), kSample, QStringLiteral("--format"),
                              QStringLiteral("codex")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("codex")), qPrintable(r.err));
        const Result forced =
            run({QStringLiteral("trace"), QStringLiteral("stats"), fixture(QStringLiteral("inspect/log.eval")),
                 QStringLiteral("--format"), QStringLiteral("inspect-eval"), QStringLiteral("--json")});
        QCOMPARE(forced.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(forced.out.toUtf8()).object().value(QStringLiteral("threads")).toInt(), 2);
    }

    void stats_notATrace_exitsTwoWithFormatsTried()
    {
        const Result r =
            run({QStringLiteral("trace"), QStringLiteral("stats"), fixture(QStringLiteral("nasty/binary-garbage.dat"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("tried: claude-code")), qPrintable(r.err));
        QCOMPARE(run({QStringLiteral("trace"), QStringLiteral("stats")}).exitCode, 2);
    }

    void exportOpenAi_codexRollout_toolCallsAndToolMessages()
    {
        const Result r = run({QStringLiteral("trace"), QStringLiteral("export"),
                              fixture(QStringLiteral("codex/rollout-2026-02-01T12-00-00-0199.jsonl")),
                              QStringLiteral("--to"), QStringLiteral("openai")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonArray messages = QJsonDocument::fromJson(r.out.toUtf8()).array();
        QCOMPARE(messages.size(), 6);
        QCOMPARE(messages[0].toObject().value(QStringLiteral("role")).toString(), QStringLiteral("user"));
        const QJsonObject call = messages[1].toObject().value(QStringLiteral("tool_calls")).toArray()[0].toObject();
        QCOMPARE(call.value(QStringLiteral("id")).toString(), QStringLiteral("call_1"));
        QCOMPARE(call.value(QStringLiteral("function")).toObject().value(QStringLiteral("arguments")).toString(),
                 QStringLiteral("{\"command\":[\"pytest\"]}"));
        QCOMPARE(messages[2].toObject().value(QStringLiteral("role")).toString(), QStringLiteral("tool"));
        QCOMPARE(messages[2].toObject().value(QStringLiteral("content")).toString(), QStringLiteral("1 failed"));
        QCOMPARE(messages[5].toObject().value(QStringLiteral("content")).toString(), QStringLiteral("Fixed."));
    }

    void exportMarkdown_nastySession_fencesToolCallsAndNamesSubagents()
    {
        const Result r = run({QStringLiteral("trace"), QStringLiteral("export"),
                              fixture(QStringLiteral("claude-code/nasty-session.jsonl")), QStringLiteral("--to"),
                              QStringLiteral("markdown")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.out.startsWith(QStringLiteral("# Fix the build\n")));
        QVERIFY(
            r.out.contains(QStringLiteral("**Tool call `Bash`** (toolu_1)\n\n```json\n{\n    \"command\": \"make\"")));
        QVERIFY(r.out.contains(QStringLiteral("**Tool result `Bash` (error)**")));
        QVERIFY(r.out.contains(QStringLiteral("## Explore: Find config")));
        QVERIFY(r.out.contains(QStringLiteral("> *Thinking:* Check the log first.")));
    }

    void exportAtif_claudeCodeSessionWithASubagent_readsBackWithTheSameTokens()
    {
        const QString session = fixture(QStringLiteral("claude-code/nasty-session.jsonl"));
        const Result r = run({QStringLiteral("trace"), QStringLiteral("export"), session, QStringLiteral("--to"),
                              QStringLiteral("atif")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject atif = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(atif.value(QStringLiteral("schema_version")).toString(), QStringLiteral("ATIF-v1.4"));
        QVERIFY(!atif.value(QStringLiteral("steps")).toArray().isEmpty());
        const QString exported = m_home.filePath(QStringLiteral("nasty-session.atif.json"));
        QFile file(exported);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(r.out.toUtf8());
        file.close();

        // Read back, the trajectory is ATIF and counts the same tokens, threads and tool calls as the session.
        const Result before =
            run({QStringLiteral("trace"), QStringLiteral("stats"), session, QStringLiteral("--json")});
        const Result after =
            run({QStringLiteral("trace"), QStringLiteral("stats"), exported, QStringLiteral("--json")});
        QVERIFY2(before.exitCode == 0, qPrintable(before.err));
        QVERIFY2(after.exitCode == 0, qPrintable(after.err));
        const QJsonObject original = QJsonDocument::fromJson(before.out.toUtf8()).object();
        const QJsonObject again = QJsonDocument::fromJson(after.out.toUtf8()).object();
        QCOMPARE(again.value(QStringLiteral("format")).toString(), QStringLiteral("atif"));
        QCOMPARE(again.value(QStringLiteral("threads")).toInt(), original.value(QStringLiteral("threads")).toInt());
        QCOMPARE(again.value(QStringLiteral("threads")).toInt(), 2); // the subagent came along
        QCOMPARE(again.value(QStringLiteral("tool_calls")).toObject(),
                 original.value(QStringLiteral("tool_calls")).toObject());
        const QJsonObject tokens = original.value(QStringLiteral("tokens")).toObject();
        const QJsonObject tokensAgain = again.value(QStringLiteral("tokens")).toObject();
        QVERIFY(tokens.value(QStringLiteral("total_input")).toInteger() > 0);
        for (const QString &kind : {QStringLiteral("total_input"), QStringLiteral("uncached_input"),
                                    QStringLiteral("cache_read"), QStringLiteral("output")})
            QCOMPARE(tokensAgain.value(kind).toInteger(), tokens.value(kind).toInteger());
        // ATIF has one count of cache writes: the 5-minute and 1-hour ones arrive together.
        QCOMPARE(tokensAgain.value(QStringLiteral("cache_write_5m")).toInteger() +
                     tokensAgain.value(QStringLiteral("cache_write_1h")).toInteger(),
                 tokens.value(QStringLiteral("cache_write_5m")).toInteger() +
                     tokens.value(QStringLiteral("cache_write_1h")).toInteger());
    }

    void export_withoutTarget_exitsTwo()
    {
        const Result r = run({QStringLiteral("trace"), QStringLiteral("export"), kSample});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("--to")));
        const Result bad = run({QStringLiteral("trace"), QStringLiteral("export"), kSample, QStringLiteral("--to"),
                                QStringLiteral("pdf")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains(QStringLiteral("unknown target 'pdf'")));
    }
};

SF_TEST_GUILESS_MAIN(TestCliTrace)
#include "test_cli_trace.moc"
