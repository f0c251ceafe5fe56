#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"

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

QByteArray shippedTable()
{
    QFile file(QStringLiteral(SKILLFORGE_SOURCE_DIR) + u"/resources/pricing/genai-prices.json"_s);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// `prices show --json`'s input price per million tokens.
double inputPrice(const QString &json)
{
    return QJsonDocument::fromJson(json.toUtf8())
        .object()
        .value("price"_L1)
        .toObject()
        .value("usdPerMillionTokens"_L1)
        .toObject()
        .value("input"_L1)
        .toDouble();
}

} // namespace

/// `skillforge prices show|update` as a user runs them: the real executable, a scripted server for the download.
class TestCliPrices final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_home;

    // Runs without blocking the event loop, so the scripted server in this process can answer the download.
    Result run(const QStringList &arguments)
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"HOME"_s, m_home.path());
        env.insert(u"XDG_CONFIG_HOME"_s, m_home.filePath(u"config"_s));
        env.insert(u"XDG_DATA_HOME"_s, m_home.filePath(u"data"_s));
        process.setProcessEnvironment(env);
        QSignalSpy finished(&process, &QProcess::finished);
        process.start(QStringLiteral(SKILLFORGE_EXECUTABLE), arguments);
        if (!finished.wait(60000))
            process.kill();
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
    }

private Q_SLOTS:
    void show_printsThePriceInForceOnTheDay_andWhereItCameFrom()
    {
        Result r = run({u"prices"_s, u"show"_s, u"anthropic:claude-sonnet-5-5"_s, u"--at"_s, u"2026-10-01"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("$2 input, $10 output, $0.20 cache read"_L1), qPrintable(r.out));
        QVERIFY2(r.out.contains("in force since 2026-09-28, until 2026-10-06"_L1), qPrintable(r.out));
        QVERIFY2(r.out.contains("from Skillforge's table: anthropic:claude-sonnet-5-5*"_L1), qPrintable(r.out));
        QVERIFY2(r.out.contains("maintained table: genai-prices 0.2.5, shipped with Skillforge"_L1), qPrintable(r.out));

        r = run({u"prices"_s, u"show"_s, u"anthropic:claude-opus-4-6"_s, u"--at"_s, u"2026-03-01"_s, u"--json"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject price = QJsonDocument::fromJson(r.out.toUtf8()).object().value("price"_L1).toObject();
        QCOMPARE(price.value("usdPerMillionTokens"_L1).toObject().value("input"_L1).toDouble(), 5.0);
        const QJsonObject tier = price.value("tiers"_L1).toArray().first().toObject();
        QCOMPARE(tier.value("aboveInputTokens"_L1).toInteger(), 200000);
        QCOMPARE(tier.value("usdPerMillionTokens"_L1).toObject().value("output"_L1).toDouble(), 37.5);
        QCOMPARE(tier.value("usdPerMillionTokens"_L1).toObject().value("cacheWrite1h"_L1).toDouble(), 20.0);
        QCOMPARE(price.value("origin"_L1).toString().left(41), u"genai-prices: anthropic/claude-opus-4-6 ("_s);

        r = run({u"prices"_s, u"show"_s, u"openai:gpt-imaginary-7"_s});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("price unknown"_L1) && r.out.contains("never $0"_L1), qPrintable(r.out));

        r = run({u"prices"_s, u"show"_s, u"openai:gpt-5.5"_s, u"--at"_s, u"last tuesday"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--at"_L1), qPrintable(r.err));
    }

    void update_fromAUrl_keepsTheOldTableWhenTheNewOneDoesNotRead()
    {
        QByteArray newer = shippedTable();
        QVERIFY(!newer.isEmpty());
        // One change a user would see: OpenAI's GPT-5.5 (other providers resell it under the same id) at $6 input.
        const qsizetype model = newer.indexOf(R"("id":"gpt-5.5",)", newer.indexOf(R"({"id":"openai",)"));
        QVERIFY(model > 0);
        const qsizetype input = newer.indexOf(R"("input_mtok":{"base":5,)", model);
        QVERIFY(input > 0);
        newer.replace(input, qsizetype(strlen(R"("input_mtok":{"base":5,)")), R"("input_mtok":{"base":6,)");

        ScriptedHttpServer server;
        QVERIFY(server.listen());
        server.route("GET", "/prices/data.json", ScriptedResponse::json(200, newer));
        server.route("GET", "/prices/cut.json", ScriptedResponse::json(200, newer.left(newer.size() / 2)));
        server.route("GET", "/prices/gone.json", ScriptedResponse::json(404, "{}"));
        const QString base = server.baseUrl().toString();

        Result r = run({u"prices"_s, u"update"_s, base + u"/prices/cut.json"_s});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("not valid JSON"_L1) && r.err.contains("the prices in use are kept"_L1),
                 qPrintable(r.err));
        r = run({u"prices"_s, u"update"_s, base + u"/prices/gone.json"_s});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("HTTP 404"_L1), qPrintable(r.err));
        r = run({u"prices"_s, u"show"_s, u"openai:gpt-5.5"_s, u"--json"_s});
        QCOMPARE(inputPrice(r.out), 5.0);

        r = run({u"prices"_s, u"update"_s, base + u"/prices/data.json"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.startsWith("prices updated from "_L1 + base), qPrintable(r.out));
        r = run({u"prices"_s, u"show"_s, u"openai:gpt-5.5"_s, u"--json"_s});
        QCOMPARE(inputPrice(r.out), 6.0);
        const QJsonObject shown = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY2(shown.value("maintainedTable"_L1).toObject().value("origin"_L1).toString().contains(base),
                 qPrintable(r.out));

        // A file that is not there: the updated table stays.
        r = run({u"prices"_s, u"update"_s, m_home.filePath(u"missing.json"_s)});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("missing.json: cannot be read"_L1), qPrintable(r.err));
        r = run({u"prices"_s, u"show"_s, u"openai:gpt-5.5"_s, u"--json"_s});
        QCOMPARE(inputPrice(r.out), 6.0);
    }
};

SF_TEST_GUILESS_MAIN(TestCliPrices)
#include "test_cli_prices.moc"
