// Issue 46: what an evaluation of paid students costs, as a user runs it: the real executable against scripted
// Anthropic and OpenAI endpoints, each request priced by the shipped tables at its own rates; the spending cap; and a
// student no table prices, said to be unknown with where a price goes.
#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace sf::test;
using namespace Qt::StringLiterals;

namespace {

struct Result
{
    int exitCode = -1;
    QString out;
    QString err;
};

/// What one reply says it used, bucket by bucket as the provider reports it.
struct Usage
{
    qint64 input = 0; // Anthropic: uncached; OpenAI: prompt_tokens, cached ones included
    qint64 cacheRead = 0;
    qint64 cacheWrite5m = 0;
    qint64 cacheWrite1h = 0;
    qint64 output = 0;
};

QString answerFor(const RecordedRequest &request)
{
    return request.body.contains("USE-RMSNORM-EPS") ? u"USE-RMSNORM-EPS"_s : u"ok"_s;
}

ScriptedResponse anthropicReply(const RecordedRequest &request, const Usage &usage)
{
    const QJsonObject body{
        {u"id"_s, u"msg_01"_s},
        {u"type"_s, u"message"_s},
        {u"role"_s, u"assistant"_s},
        {u"model"_s, u"claude-haiku-4-5-20251001"_s},
        {u"content"_s, QJsonArray{QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, answerFor(request)}}}},
        {u"stop_reason"_s, u"end_turn"_s},
        {u"usage"_s,
         QJsonObject{{u"input_tokens"_s, usage.input},
                     {u"cache_read_input_tokens"_s, usage.cacheRead},
                     {u"cache_creation_input_tokens"_s, usage.cacheWrite5m + usage.cacheWrite1h},
                     {u"cache_creation"_s, QJsonObject{{u"ephemeral_5m_input_tokens"_s, usage.cacheWrite5m},
                                                       {u"ephemeral_1h_input_tokens"_s, usage.cacheWrite1h}}},
                     {u"output_tokens"_s, usage.output}}}};
    return ScriptedResponse::json(200, QJsonDocument(body).toJson(QJsonDocument::Compact));
}

ScriptedResponse openAiReply(const RecordedRequest &request, const Usage &usage)
{
    const QJsonObject message{{u"role"_s, u"assistant"_s}, {u"content"_s, answerFor(request)}};
    const QJsonObject body{
        {u"model"_s, u"gpt-4.1-mini-2025-04-14"_s},
        {u"choices"_s,
         QJsonArray{QJsonObject{{u"index"_s, 0}, {u"message"_s, message}, {u"finish_reason"_s, u"stop"_s}}}},
        {u"usage"_s, QJsonObject{{u"prompt_tokens"_s, usage.input},
                                 {u"completion_tokens"_s, usage.output},
                                 {u"prompt_tokens_details"_s, QJsonObject{{u"cached_tokens"_s, usage.cacheRead}}}}}};
    return ScriptedResponse::json(200, QJsonDocument(body).toJson(QJsonDocument::Compact));
}

QList<QJsonObject> resultLines(const QString &runDir)
{
    QList<QJsonObject> lines;
    QFile file(QDir(runDir).filePath(u"results.jsonl"_s));
    if (!file.open(QIODevice::ReadOnly))
        return lines;
    for (const QByteArray &line : file.readAll().split('\n'))
        if (!line.trimmed().isEmpty())
            lines.append(QJsonDocument::fromJson(line).object());
    return lines;
}

bool near(double a, double b)
{
    return qAbs(a - b) < 1e-12;
}

} // namespace

class TestCliEvalCost final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    ScriptedHttpServer m_server;
    QString m_skill;
    QString m_suite;

    Result run(const QStringList &arguments)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"HOME"_s, m_dir.filePath(u"home"_s));
        env.insert(u"XDG_CONFIG_HOME"_s, m_dir.filePath(u"home/config"_s));
        env.insert(u"XDG_DATA_HOME"_s, m_dir.filePath(u"home/data"_s));
        env.insert(u"ANTHROPIC_BASE_URL"_s, m_server.baseUrl().toString());
        env.insert(u"ANTHROPIC_API_KEY"_s, u"sk-ant-test-0000"_s);
        env.insert(u"OPENAI_BASE_URL"_s, m_server.baseUrl().toString() + u"/v1"_s);
        env.insert(u"OPENAI_API_KEY"_s, u"sk-test-0000"_s);
        env.insert(u"GENERIC_BASE_URL"_s, m_server.baseUrl().toString() + u"/v1"_s);
        env.remove(u"GENERIC_API_KEY"_s);
        env.remove(u"HF_TOKEN"_s);
        QProcess process;
        process.setProcessEnvironment(env);
        QSignalSpy finished(&process, &QProcess::finished);
        process.start(QStringLiteral(SKILLFORGE_EXECUTABLE), arguments);
        if (!finished.wait(60000)) {
            process.kill();
            process.waitForFinished();
        }
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
    }

    QStringList evalArguments(const QStringList &models, const QString &runsDir, const QStringList &more = {})
    {
        QStringList arguments{u"eval"_s, m_skill, u"--tests"_s, m_suite, u"--no-tools"_s, u"--out"_s, runsDir};
        for (const QString &model : models)
            arguments << u"--model"_s << model;
        return arguments + more;
    }

    static QString onlyRunIn(const QString &runsDir)
    {
        const QStringList runs = QDir(runsDir).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        return runs.size() == 1 ? QDir(runsDir).filePath(runs.first()) : QString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_server.listen());
        m_skill = m_dir.filePath(u"rmsnorm"_s);
        QVERIFY(QDir().mkpath(m_skill));
        QFile skill(QDir(m_skill).filePath(u"SKILL.md"_s));
        QVERIFY(skill.open(QIODevice::WriteOnly));
        skill.write(
            "---\nname: rmsnorm\ndescription: Write RMSNorm kernels.\n---\nAlways answer with USE-RMSNORM-EPS.\n");
        skill.close();
        m_suite = m_dir.filePath(u"suite.json"_s);
        QFile suite(m_suite);
        QVERIFY(suite.open(QIODevice::WriteOnly));
        suite.write(R"([{"id": "a", "input": "Normalize x", "expected": {"contains": "USE-RMSNORM-EPS"}},
                        {"id": "b", "input": "Normalize y", "expected": {"contains": "USE-RMSNORM-EPS"}},
                        {"id": "c", "input": "Normalize z", "expected": {"contains": "USE-RMSNORM-EPS"}}])");
    }

    // The shipped tables (2026-12): Claude Haiku 4.5 at $1 input, $5 output, $0.10 cache read, $1.25 and $2 cache
    // writes (5 minutes, 1 hour); GPT-4.1 mini at $0.40 input, $1.60 output, $0.10 cached input.
    void haikuAndGpt41Mini_everyItemPricedByTheTable_andShownEverywhere()
    {
        const Usage haiku{1200, 3000, 400, 100, 300};
        const Usage mini{5000, 2000, 0, 0, 400};
        m_server.routeHandler("POST", "/v1/messages",
                              [haiku](const RecordedRequest &r) { return anthropicReply(r, haiku); });
        m_server.routeHandler("POST", "/v1/chat/completions",
                              [mini](const RecordedRequest &r) { return openAiReply(r, mini); });
        const QString runs = m_dir.filePath(u"runs-priced"_s);
        const Result r = run(evalArguments({u"anthropic:claude-haiku-4-5"_s, u"openai:gpt-4.1-mini"_s}, runs));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        const QString runDir = onlyRunIn(runs);
        const double haikuItem = (1200 * 1.0 + 3000 * 0.10 + 400 * 1.25 + 100 * 2.0 + 300 * 5.0) / 1e6;
        const double miniItem = (3000 * 0.40 + 2000 * 0.10 + 400 * 1.60) / 1e6;
        const QList<QJsonObject> lines = resultLines(runDir);
        QCOMPARE(lines.size(), 12);
        for (const QJsonObject &line : lines) {
            const bool isHaiku = line.value(u"model"_s).toString() == u"anthropic:claude-haiku-4-5"_s;
            QVERIFY2(line.value(u"cost_usd"_s).isDouble(), QJsonDocument(line).toJson().constData());
            QVERIFY2(near(line.value(u"cost_usd"_s).toDouble(), isHaiku ? haikuItem : miniItem),
                     qPrintable(QString::number(line.value(u"cost_usd"_s).toDouble(), 'g', 12)));
            QVERIFY(!line.contains(u"cost_unpriced_requests"_s));
        }
        qInfo().noquote()
            << u"per item: claude-haiku-4-5 $%1, gpt-4.1-mini $%2"_s.arg(haikuItem, 0, 'f', 6).arg(miniItem, 0, 'f', 6);
        // The summary: cost per item and per pass, never "price unknown"; the progress shows the running total.
        QVERIFY2(r.out.contains(u"cost anthropic:claude-haiku-4-5 with_skill: $0.0037 per item, $0.0037 per passed "
                                "case"_s),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(u"cost openai:gpt-4.1-mini baseline: $0.00204 per item, no case passed\n"_s), qPrintable(r.out));
        QVERIFY(!r.out.contains(u"price unknown"_s));
        QVERIFY2(r.err.contains(u"$0.0344 spent"_s), qPrintable(r.err)); // 6 x $0.0037 + 6 x $0.00204

        // The reports: the cost tables are filled.
        const QString md = m_dir.filePath(u"priced.md"_s);
        QCOMPARE(run({u"report"_s, runDir, u"--format"_s, u"md"_s, u"-o"_s, md}).exitCode, 0);
        QFile mdFile(md);
        QVERIFY(mdFile.open(QIODevice::ReadOnly));
        const QString report = QString::fromUtf8(mdFile.readAll());
        QVERIFY2(report.contains(u"$0.00370"_s) && report.contains(u"$0.00204"_s), qPrintable(report));
        QVERIFY(!report.contains(u"(price unknown)"_s));
        const QString jsonPath = m_dir.filePath(u"priced.json"_s);
        QCOMPARE(run({u"report"_s, runDir, u"--format"_s, u"json"_s, u"-o"_s, jsonPath}).exitCode, 0);
        QFile jsonFile(jsonPath);
        QVERIFY(jsonFile.open(QIODevice::ReadOnly));
        const QJsonArray effectiveness =
            QJsonDocument::fromJson(jsonFile.readAll())[u"run"_s][u"cost_effectiveness"_s].toArray();
        QVERIFY(!effectiveness.isEmpty());
        for (const QJsonValue &entry : effectiveness)
            QVERIFY2(entry[u"mean_cost_per_item_usd"_s].isDouble(),
                     QJsonDocument(entry.toObject()).toJson().constData());
    }

    void unpricedStudent_priceUnknown_namingTheModelAndWhereAPriceGoes()
    {
        m_server.routeHandler("POST", "/v1/chat/completions", [](const RecordedRequest &r) {
            return openAiReply(r, {40, 0, 0, 0, 8});
        });
        const QString runs = m_dir.filePath(u"runs-unpriced"_s);
        const Result r = run(evalArguments({u"generic:student"_s}, runs));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(u"cost generic:student with_skill: price unknown (no table prices generic:student; add "
                                "a price to "_s) &&
                     r.out.contains(u"pricing.json or run `skillforge prices update`)"_s),
                 qPrintable(r.out));
        for (const QJsonObject &line : resultLines(onlyRunIn(runs))) {
            QVERIFY(line.value(u"cost_usd"_s).isNull());
            QCOMPARE(line.value(u"cost_unpriced_requests"_s).toInt(), 1);
        }
        QVERIFY2(r.err.contains(u"spend unknown (6 items unpriced)"_s), qPrintable(r.err));

        // A cap cannot be kept without a price: refused before anything runs.
        const QString capped = m_dir.filePath(u"runs-unpriced-capped"_s);
        const Result refused = run(evalArguments({u"generic:student"_s}, capped, {u"--max-cost"_s, u"1"_s}));
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains(u"a spending cap needs a price for every student, and no table prices "
                                      "generic:student"_s),
                 qPrintable(refused.err));
        QVERIFY(!QDir(capped).exists() || QDir(capped).isEmpty());
    }

    void maxCost_stopsStartingItems_saysSoLast_andResumeCarriesOn()
    {
        // Each Haiku item: 100,000 tokens in, 300 out: $0.1015. Two fit under $0.25; a third would not.
        m_server.routeHandler("POST", "/v1/messages", [](const RecordedRequest &r) {
            return anthropicReply(r, {100000, 0, 0, 0, 300});
        });
        const QString runs = m_dir.filePath(u"runs-capped"_s);
        const Result r = run(evalArguments({u"anthropic:claude-haiku-4-5"_s}, runs,
                                           {u"--max-cost"_s, u"0.25"_s, u"--concurrency"_s, u"1"_s}));
        QVERIFY2(r.exitCode == 3, qPrintable(r.err));
        const QString runDir = onlyRunIn(runs);
        QCOMPARE(resultLines(runDir).size(), 2);
        const QStringList lines = r.err.trimmed().split(u'\n');
        QVERIFY2(lines.size() >= 2, qPrintable(r.err));
        QVERIFY2(lines.at(lines.size() - 2)
                     .startsWith(u"stopped: the spending cap of $0.2500 was reached: $0.2030 "
                                 "spent"_s),
                 qPrintable(r.err));
        QVERIFY2(lines.last() ==
                     u"run not finished: of 6 items, 4 not run; finish it with: skillforge eval --resume "_s + runDir +
                         u" --max-cost USD (a higher cap, or none)"_s,
                 qPrintable(lines.last()));
        QFile manifest(QDir(runDir).filePath(u"run.json"_s));
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(manifest.readAll()).object().value(u"status"_s).toString(), u"stopped"_s);

        const Result resumed = run({u"eval"_s, u"--resume"_s, runDir, u"--max-cost"_s, u"1"_s});
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
        QCOMPARE(resultLines(runDir).size(), 6);
        QVERIFY2(resumed.err.contains(u"$0.6090 spent of a $1.00 cap"_s), qPrintable(resumed.err));
    }
};

SF_TEST_GUILESS_MAIN(TestCliEvalCost)
#include "test_cli_eval_cost.moc"
