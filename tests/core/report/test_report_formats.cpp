#include "ReportTestRuns.h"
#include "SkippedChecks.h"
#include "common/Secrets.h"
#include "eval/Contamination.h"
#include "eval/CostEffectiveness.h"
#include "eval/RunExport.h"
#include "eval/RunStore.h"
#include "eval/SuiteHealth.h"
#include "report/Report.h"
#include "report/ReportCharts.h"

#include <QDir>
#include <QGuiApplication>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <functional>

using namespace sf;
using namespace sf::test;

namespace {

const QString kHaiku = QStringLiteral("anthropic:claude-haiku-4-5");
const QString kGemma = QStringLiteral("local:gemma-3-270m");

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks.
QList<QStringList> parseCsv(const QString &text)
{
    QList<QStringList> records;
    QStringList record;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == u'"' && i + 1 < text.size() && text[i + 1] == u'"') {
                field += u'"';
                ++i;
            } else if (c == u'"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == u'"') {
            quoted = true;
        } else if (c == u',') {
            record.append(field);
            field.clear();
        } else if (c == u'\r' && i + 1 < text.size() && text[i + 1] == u'\n') {
            record.append(field);
            records.append(record);
            record.clear();
            field.clear();
            ++i;
        } else {
            field += c;
        }
    }
    return records;
}

struct JUnitCounts
{
    int tests = 0, failures = 0, errors = 0;                   // from the root's attributes
    int testcases = 0, failureElements = 0, errorElements = 0; // counted
    bool structureValid = true;
};

JUnitCounts readJUnit(const QByteArray &xml)
{
    JUnitCounts counts;
    QXmlStreamReader reader(xml);
    QStringList path;
    while (!reader.atEnd()) {
        reader.readNext();
        if (reader.isStartElement()) {
            const QString name = reader.name().toString();
            const QString parent = path.value(path.size() - 1);
            if (name == u"testsuites") {
                counts.structureValid &= path.isEmpty();
                counts.tests = reader.attributes().value(QStringLiteral("tests")).toInt();
                counts.failures = reader.attributes().value(QStringLiteral("failures")).toInt();
                counts.errors = reader.attributes().value(QStringLiteral("errors")).toInt();
            } else if (name == u"testsuite") {
                counts.structureValid &= parent == u"testsuites";
            } else if (name == u"testcase") {
                counts.structureValid &= parent == u"testsuite";
                counts.structureValid &= !reader.attributes().value(QStringLiteral("name")).isEmpty() &&
                                         !reader.attributes().value(QStringLiteral("classname")).isEmpty();
                ++counts.testcases;
            } else if (name == u"failure" || name == u"error") {
                counts.structureValid &= parent == u"testcase";
                ++(name == u"failure" ? counts.failureElements : counts.errorElements);
            }
            path.append(name);
        } else if (reader.isEndElement()) {
            path.removeLast();
        }
    }
    counts.structureValid &= !reader.hasError();
    return counts;
}

QString write(const RunAnalysis &run, ReportFormat format, const QString &path, const RunAnalysis *compare = nullptr,
              ReportOptions options = {})
{
    return ReportWriter(run, compare, options).write(format, path);
}

/// Copies the v1 fixture run to @p runDir and lets @p edit change its result lines; how many it changed (edit returns
/// true for those), or -1 when the run could not be copied or written back.
int copyRunEditingResults(const QString &runDir, const std::function<bool(QJsonObject &)> &edit)
{
    if (!copyTree(fixtureRun(QStringLiteral("v1")), runDir))
        return -1;
    QFile results(runDir + QStringLiteral("/results.jsonl"));
    if (!results.open(QIODevice::ReadOnly))
        return -1;
    QList<QByteArray> lines = results.readAll().split('\n');
    results.close();
    int edited = 0;
    for (QByteArray &line : lines) {
        QJsonObject o = QJsonDocument::fromJson(line).object();
        if (o.isEmpty() || !edit(o))
            continue;
        line = QJsonDocument(o).toJson(QJsonDocument::Compact);
        ++edited;
    }
    if (!results.open(QIODevice::WriteOnly | QIODevice::Truncate) || results.write(lines.join('\n')) < 0)
        return -1;
    return edited;
}

} // namespace

/// Every report format from the fixture runs: what each must contain, that the figures are the statistics' own,
/// and that a secret in the run data reaches none of them.
class TestReportFormats final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void formatNames_roundTrip()
    {
        for (const QString &name : reportFormatNames())
            QCOMPARE(reportFormatName(*reportFormatFromName(name)), name);
        QCOMPARE(reportExtension(ReportFormat::JUnit), QStringLiteral("xml"));
        QVERIFY(!reportFormatFromName(QStringLiteral("docx")));
    }

    void csv_hasOneRowPerItem_withRfc4180Quoting()
    {
        QTemporaryDir dir;
        const RunAnalysis run = loadRun(fixtureRun(QStringLiteral("v1")));
        const QString path = dir.filePath(QStringLiteral("r.csv"));
        QCOMPARE(write(run, ReportFormat::Csv, path), QString());
        const QString text = QString::fromUtf8(readFile(path));
        QCOMPARE(text.count(QStringLiteral("\r\n")), 41); // header + 40 items, CRLF as RFC 4180 says
        const QList<QStringList> records = parseCsv(text);
        QCOMPARE(records.size(), 41);
        const QStringList header = records.first();
        for (const QStringList &record : records)
            QCOMPARE(record.size(), header.size());
        const int evidence = int(header.indexOf(QStringLiteral("failed_verifiers")));
        const int outcome = int(header.indexOf(QStringLiteral("outcome")));
        QVERIFY(evidence >= 0 && outcome >= 0);
        // The first item failed with evidence holding quotes, a colon and a backslash: quoted, quotes doubled.
        QCOMPARE(records[1][evidence],
                 QStringLiteral(
                     "contains: \"__global__\" not in the answer; launch bounds: no match for __global__\\s+void"));
        QVERIFY(text.contains(QStringLiteral("\"contains: \"\"__global__\"\" not in the answer")));
        int errors = 0;
        for (const QStringList &record : records.mid(1))
            errors += record[outcome] == u"error" ? 1 : 0;
        QCOMPARE(errors, 1);
    }

    void csv_withCompare_listsBothRunsItems()
    {
        QTemporaryDir dir;
        const RunAnalysis v1 = loadRun(fixtureRun(QStringLiteral("v1"))),
                          v2 = loadRun(fixtureRun(QStringLiteral("v2")));
        const QString path = dir.filePath(QStringLiteral("r.csv"));
        QCOMPARE(write(v2, ReportFormat::Csv, path, &v1), QString());
        QCOMPARE(parseCsv(QString::fromUtf8(readFile(path))).size(), 81);
    }

    void json_keyFigures_equalTheRunSummary()
    {
        QTemporaryDir dir;
        const RunAnalysis run = loadRun(fixtureRun(QStringLiteral("v1")));
        const QString path = dir.filePath(QStringLiteral("r.json"));
        QCOMPARE(write(run, ReportFormat::Json, path), QString());
        const QJsonObject root = QJsonDocument::fromJson(readFile(path)).object();
        const QJsonObject report = root.value(u"run").toObject();
        QCOMPARE(report.value(u"manifest").toObject().value(u"skill").toObject().value(u"name").toString(),
                 run.manifest.skillName);
        QCOMPARE(report.value(u"results").toArray().size(), 40);
        QCOMPARE(report.value(u"matrix").toObject().value(u"rows").toArray().size(), 5);
        const QJsonArray arms = report.value(u"summary").toObject().value(u"arms").toArray();
        QCOMPARE(arms.size(), run.summary.arms.size());
        for (qsizetype i = 0; i < arms.size(); ++i) {
            const ArmSummary &a = run.summary.arms[i];
            const QJsonObject o = arms[i].toObject();
            QCOMPARE(o.value(u"model").toString(), a.model);
            QCOMPARE(o.value(u"split").toString(), a.split);
            const QJsonObject passRate = o.value(u"pass_rate").toObject();
            QCOMPARE(passRate.value(u"rate").toDouble(), a.passRate.rate);
            QCOMPARE(o.value(u"tokens").toObject().value(u"mean").toDouble(), a.tokens.mean);
        }
        const QJsonArray comparisons = report.value(u"summary").toObject().value(u"comparisons").toArray();
        QCOMPARE(comparisons.size(), run.summary.comparisons.size());
        QCOMPARE(comparisons[0].toObject().value(u"lift").toDouble(), run.summary.comparisons[0].lift);
        QCOMPARE(comparisons[0].toObject().value(u"mcnemar_p").toDouble(), run.summary.comparisons[0].pValue);
        QVERIFY(!root.contains(u"compare"));
    }

    void json_withCompare_holdsBothRunsAndTheChangedCells()
    {
        QTemporaryDir dir;
        const RunAnalysis v1 = loadRun(fixtureRun(QStringLiteral("v1"))),
                          v2 = loadRun(fixtureRun(QStringLiteral("v2")));
        const QString path = dir.filePath(QStringLiteral("r.json"));
        QCOMPARE(write(v2, ReportFormat::Json, path, &v1), QString());
        const QJsonObject root = QJsonDocument::fromJson(readFile(path)).object();
        QCOMPARE(root.value(u"compare").toObject().value(u"manifest").toObject().value(u"run_id").toString(),
                 v1.manifest.runId);
        const QJsonObject changes = root.value(u"changes").toObject();
        QCOMPARE(changes.value(u"before_run").toString(), v1.manifest.runId); // the earlier run is "before"
        QCOMPARE(changes.value(u"cells").toArray().size(), diffCaseMatrices(v1.matrix, v2.matrix).size());
    }

    void junit_validates_andItsCountsMatchTheFixture()
    {
        QTemporaryDir dir;
        const RunAnalysis run = loadRun(fixtureRun(QStringLiteral("v1")));
        const QString path = dir.filePath(QStringLiteral("r.xml"));
        QCOMPARE(write(run, ReportFormat::JUnit, path), QString());
        const JUnitCounts counts = readJUnit(readFile(path));
        QVERIFY(counts.structureValid);
        // 5 cases x 2 models x 2 arms; 14 cells with a failed repeat (read off make_fixture_runs.py); the one
        // error sits in a cell whose other repeat failed, so it reports as that failure.
        QCOMPARE(counts.tests, 20);
        QCOMPARE(counts.testcases, 20);
        QCOMPARE(counts.failures, 14);
        QCOMPARE(counts.failureElements, 14);
        QCOMPARE(counts.errors, 0);
        QCOMPARE(counts.errorElements, 0);
    }

    void junit_cellWhoseRepeatsAllEndedInErrors_isAnError()
    {
        QTemporaryDir dir;
        const QString runDir = dir.filePath(QStringLiteral("run"));
        // Turn the failed first repeat of the cell that holds the fixture's error into an error as well.
        const int edited = copyRunEditingResults(runDir, [](QJsonObject &o) {
            if (o.value(u"model").toString() != kHaiku || o.value(u"arm").toString() != u"baseline" ||
                o.value(u"case").toString() != u"layernorm-fused" || o.value(u"repeat").toInt() != 1)
                return false;
            o.insert(QStringLiteral("error"), QStringLiteral("HTTP 500 from api.anthropic.com"));
            o.insert(QStringLiteral("stop_reason"), QStringLiteral("error"));
            return true;
        });
        QCOMPARE(edited, 1);
        const RunAnalysis run = loadRun(runDir);
        const QString path = dir.filePath(QStringLiteral("r.xml"));
        QCOMPARE(write(run, ReportFormat::JUnit, path), QString());
        const QByteArray xml = readFile(path);
        const JUnitCounts counts = readJUnit(xml);
        QVERIFY(counts.structureValid);
        QCOMPARE(counts.failures, 13);
        QCOMPARE(counts.errors, 1);
        QCOMPARE(counts.errorElements, 1);
        QVERIFY(xml.contains("HTTP 500 from api.anthropic.com"));
    }

    void junit_controlCharactersInEvidenceAndErrors_areLeftOut_soTheXmlReads()
    {
        // A command's output holds colour codes (ESC) and stray bytes (SOH): XML 1.0 allows neither, so a CI
        // system's parser would refuse the whole file.
        QTemporaryDir dir;
        const QString runDir = dir.filePath(QStringLiteral("run"));
        const int planted = copyRunEditingResults(runDir, [](QJsonObject &o) {
            if (o.value(u"model").toString() != kHaiku || o.value(u"arm").toString() != u"baseline")
                return false;
            const QString caseId = o.value(u"case").toString();
            if (caseId == u"rmsnorm-basic" && o.value(u"repeat").toInt() == 1) {
                // A failed verifier's evidence: written as the failure's text.
                QJsonArray verifiers = o.value(u"verifiers").toArray();
                QJsonObject first = verifiers.at(0).toObject();
                first.insert(QStringLiteral("evidence"), QStringLiteral("\x1b[31mno kernel\x1b[0m in\x01 the answer"));
                verifiers.replace(0, first);
                o.insert(QStringLiteral("verifiers"), verifiers);
                return true;
            }
            if (caseId == u"layernorm-fused") {
                // Both repeats errors: the first becomes the error element's message attribute as well.
                o.insert(QStringLiteral("error"), QStringLiteral("HTTP 500\x01 from \x1b[1mapi.anthropic.com\x1b[0m"));
                o.insert(QStringLiteral("passed"), false);
                o.insert(QStringLiteral("stop_reason"), QStringLiteral("error"));
                return true;
            }
            return false;
        });
        QCOMPARE(planted, 3);

        const RunAnalysis run = loadRun(runDir);
        const QString path = dir.filePath(QStringLiteral("r.xml"));
        QCOMPARE(write(run, ReportFormat::JUnit, path), QString());
        const QByteArray xml = readFile(path);

        QXmlStreamReader reader(xml);
        QString failureText, errorMessage, errorText;
        while (!reader.atEnd()) {
            if (reader.readNext() != QXmlStreamReader::StartElement)
                continue;
            if (reader.name() == u"failure") {
                failureText += reader.readElementText();
            } else if (reader.name() == u"error") {
                errorMessage = reader.attributes().value(QStringLiteral("message")).toString();
                errorText = reader.readElementText();
            }
        }
        QVERIFY2(!reader.hasError(), qPrintable(reader.errorString()));
        QVERIFY(readJUnit(xml).structureValid);
        QCOMPARE(readJUnit(xml).errors, 1);

        // The text around the control characters is kept; the characters themselves are gone.
        QVERIFY2(failureText.contains(u"[31mno kernel[0m in the answer"), qPrintable(failureText));
        QCOMPARE(errorMessage, QStringLiteral("HTTP 500 from [1mapi.anthropic.com[0m"));
        QVERIFY2(errorText.contains(u"error: HTTP 500 from [1mapi.anthropic.com[0m"), qPrintable(errorText));
        QVERIFY(!xml.contains('\x01') && !xml.contains('\x1b'));
        QVERIFY(!xml.contains("&#x1;") && !xml.contains("&#x1b;") && !xml.contains("&#1;") && !xml.contains("&#27;"));
    }

    void junit_refusesASecondRun()
    {
        QTemporaryDir dir;
        const RunAnalysis v1 = loadRun(fixtureRun(QStringLiteral("v1"))),
                          v2 = loadRun(fixtureRun(QStringLiteral("v2")));
        QVERIFY(!write(v2, ReportFormat::JUnit, dir.filePath(QStringLiteral("r.xml")), &v1).isEmpty());
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("r.xml"))));
    }

    void verdicts_andTheirThresholds_appearInEveryFormat()
    {
        QTemporaryDir dir;
        const RunAnalysis run = loadRun(fixtureRun(QStringLiteral("v1")));
        ReportOptions options;
        options.verdicts = {0.05, 4};
        const QList<Verdict> verdicts = decideVerdicts(run.summary, options.verdicts);
        QCOMPARE(verdicts.size(), 2);
        for (const ReportFormat format : {ReportFormat::Html, ReportFormat::Markdown, ReportFormat::Pdf,
                                          ReportFormat::Csv, ReportFormat::Json, ReportFormat::JUnit}) {
            const QString path = dir.filePath(QStringLiteral("report.") + reportExtension(format));
            QCOMPARE(write(run, format, path, nullptr, options), QString());
            QString text = QString::fromUtf8(readFile(path));
            if (format == ReportFormat::Pdf) {
                const QByteArray pdfText = runTool(QStringLiteral("pdftotext"), {path, QStringLiteral("-")});
                if (pdfText.isNull())
                    continue; // poppler-utils missing: test_report_pdf says so
                text = QString::fromUtf8(pdfText).simplified();
            }
            const QString name = reportFormatName(format);
            for (const Verdict &v : verdicts) {
                if (format == ReportFormat::Csv) {
                    QVERIFY2(text.contains(u',' + v.code() + u','), qPrintable(name));
                } else if (format == ReportFormat::Json) {
                    QVERIFY2(text.contains(QStringLiteral("\"verdict\":\"%1\"").arg(v.code())), qPrintable(name));
                } else if (format == ReportFormat::JUnit) {
                    QVERIFY2(text.contains(QStringLiteral("name=\"verdict\" value=\"%1\"").arg(v.code())),
                             qPrintable(name));
                } else {
                    // The tables say the verdict in words, with why.
                    QString reason = v.reason();
                    if (format == ReportFormat::Html)
                        reason = reason.toHtmlEscaped();
                    QVERIFY2(text.contains(format == ReportFormat::Pdf ? reason.left(30) : reason),
                             qPrintable(name + u' ' + v.reason()));
                }
            }
            // The thresholds are never hidden.
            if (format == ReportFormat::Json)
                QVERIFY2(text.contains(QStringLiteral("\"min_pairs\":4")), qPrintable(name));
            else if (format != ReportFormat::Csv)
                QVERIFY2(text.contains(QStringLiteral("under 4 paired cases")), qPrintable(name));
        }
    }

    void costEffectiveness_appearsInEveryFormat_withTheCostChart()
    {
        QTemporaryDir dir;
        const RunAnalysis run = loadRun(fixtureRun(QStringLiteral("v1")));
        const QList<ArmCostEffectiveness> costs = costEffectiveness(run.summary);
        QCOMPARE(costs.size(), 4);
        for (const ArmCostEffectiveness &e : costs) // the fixture is priced; its local model is free
            QVERIFY2(e.costPerPass && (e.passesPerDollar || *e.totalCost == 0), qPrintable(e.model + u' ' + e.arm));
        for (const ReportFormat format : {ReportFormat::Html, ReportFormat::Markdown, ReportFormat::Pdf,
                                          ReportFormat::Csv, ReportFormat::Json, ReportFormat::JUnit}) {
            const QString path = dir.filePath(QStringLiteral("report.") + reportExtension(format));
            QCOMPARE(write(run, format, path), QString());
            QString text = QString::fromUtf8(readFile(path));
            if (format == ReportFormat::Pdf) {
                const QByteArray pdfText = runTool(QStringLiteral("pdftotext"), {path, QStringLiteral("-")});
                if (pdfText.isNull())
                    continue;
                text = QString::fromUtf8(pdfText);
            }
            const QString name = reportFormatName(format);
            for (const ArmCostEffectiveness &e : costs) {
                // Tables show dollars and passes per dollar as the cost table does; data formats the exact number.
                const bool table =
                    format == ReportFormat::Html || format == ReportFormat::Markdown || format == ReportFormat::Pdf;
                const QString perPass =
                    table ? QStringLiteral("$") + QString::number(*e.costPerPass, 'f', *e.costPerPass < 0.01 ? 5 : 3)
                          : QString::number(*e.costPerPass, 'g', 10);
                const QString perDollar = !e.passesPerDollar ? (table ? QStringLiteral("free") : QString())
                                          : table            ? QString::number(*e.passesPerDollar, 'f', 1)
                                                             : QString::number(*e.passesPerDollar, 'g', 10);
                if (format == ReportFormat::Json) {
                    QVERIFY2(text.contains(QStringLiteral("\"cost_per_pass_usd\":")), qPrintable(name));
                    continue; // JSON numbers are Qt's shortest form; the keys and json_keyFigures pin them
                }
                QVERIFY2(text.contains(perPass), qPrintable(name + u' ' + perPass));
                QVERIFY2(text.contains(perDollar), qPrintable(name + u' ' + perDollar));
            }
            if (format == ReportFormat::Html)
                QVERIFY(text.contains(QStringLiteral("Pass rate against cost")));
        }
        // The JSON report's figures are core's.
        const QString jsonPath = dir.filePath(QStringLiteral("report.json"));
        const QJsonObject json = QJsonDocument::fromJson(readFile(jsonPath)).object();
        const QJsonArray list =
            json.value(QStringLiteral("run")).toObject().value(QStringLiteral("cost_effectiveness")).toArray();
        QVERIFY(!list.isEmpty());
        const QJsonObject first = list.first().toObject();
        const ArmCostEffectiveness *e = findCostEffectiveness(costs, first.value(QStringLiteral("model")).toString(),
                                                              first.value(QStringLiteral("arm")).toString());
        QVERIFY(e);
        QCOMPARE(first.value(QStringLiteral("cost_per_pass_usd")).toDouble(), *e->costPerPass);
    }

    void noPriceForAnyModel_isSaidOnce_withoutCostChartsColumnsOrTables()
    {
        // The fixture run as if no table priced its models: every item's request unpriced as it ran (a null cost alone
        // is a run from before requests were priced, which is priced when opened).
        QTemporaryDir dir;
        const QString runDir = dir.filePath(QStringLiteral("run"));
        QVERIFY(copyTree(fixtureRun(QStringLiteral("v1")), runDir));
        QFile results(runDir + QStringLiteral("/results.jsonl"));
        QVERIFY(results.open(QIODevice::ReadOnly));
        QString lines = QString::fromUtf8(results.readAll());
        results.close();
        lines.replace(QRegularExpression(QStringLiteral("\"cost_usd\":[0-9.eE+-]+")),
                      QStringLiteral("\"cost_usd\":null,\"cost_unpriced_requests\":1"));
        QVERIFY(results.open(QIODevice::WriteOnly | QIODevice::Truncate));
        results.write(lines.toUtf8());
        results.close();
        const RunAnalysis run = loadRun(runDir);
        const QString note =
            QStringLiteral("Cost: %1 (in the app: Tools → Update Prices…).").arg(priceUnknownHint({kHaiku, kGemma}));
        for (const ReportFormat format : {ReportFormat::Html, ReportFormat::Markdown, ReportFormat::Pdf}) {
            const QString name = reportFormatName(format);
            const QString path = dir.filePath(QStringLiteral("report.") + reportExtension(format));
            QCOMPARE(write(run, format, path), QString());
            QString text = QString::fromUtf8(readFile(path));
            if (format == ReportFormat::Pdf) {
                const QByteArray pdfText = runTool(QStringLiteral("pdftotext"), {path, QStringLiteral("-")});
                if (pdfText.isNull())
                    continue;
                text = QString::fromUtf8(pdfText).normalized(QString::NormalizationForm_KC).simplified();
            }
            // pdftotext's text is folded (NFKC: "…" reads "..."), and so is the sentence looked for in it; its lines
            // may break inside the price file's path, so there both are compared without white space.
            QString said = note;
            QString searched = text;
            if (format == ReportFormat::Pdf) {
                const QRegularExpression space(QStringLiteral("\\s+"));
                said = note.normalized(QString::NormalizationForm_KC).remove(space);
                searched.remove(space);
            }
            QVERIFY2(searched.count(said) == 1,
                     qPrintable(name + QStringLiteral(": ") + text.mid(text.indexOf(QStringLiteral("Cost: ")), 300)));
            for (const QString &gone : {QStringLiteral("(price unknown)"), QStringLiteral("Pass rate against cost"),
                                        QStringLiteral("Cost by model"), QStringLiteral("Cost mean"),
                                        QStringLiteral("Cost-effectiveness"), QStringLiteral("Passes per $1")})
                QVERIFY2(!text.contains(gone), qPrintable(name + QStringLiteral(": ") + gone));
            QVERIFY2(text.contains(QStringLiteral("Tokens and latency per item, all cases")), qPrintable(name));
            QVERIFY2(text.contains(QStringLiteral("Pass rate against tokens")), qPrintable(name));
        }
        // The HTML's metric switch offers the three metrics it has, and its items no cost line each.
        const QString html = QString::fromUtf8(readFile(dir.filePath(QStringLiteral("report.html"))));
        QCOMPARE(html.count(QStringLiteral("name=\"metric\"")), 3);
        QVERIFY(!html.contains(QStringLiteral("<dt>Cost</dt>")));
        // Markdown writes no cost chart beside itself.
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("report-cost.png"))));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("report-pass-rate-vs-cost.png"))));
    }

    void suiteHealth_isListedInTheTextFormats_andTheJson()
    {
        QTemporaryDir dir;
        const RunAnalysis run = loadRun(fixtureRun(QStringLiteral("v1")));
        const SuiteHealth health = diagnoseSuite(run);
        const QList<SuiteHealthFinding> findings = suiteHealthFindings(health);
        QVERIFY(!findings.isEmpty()); // the fixture has cases whose repeats disagree
        for (const ReportFormat format : {ReportFormat::Html, ReportFormat::Markdown, ReportFormat::Json}) {
            const QString path = dir.filePath(QStringLiteral("health.") + reportExtension(format));
            QCOMPARE(write(run, format, path), QString());
            const QString text = QString::fromUtf8(readFile(path));
            if (format == ReportFormat::Json) {
                const QJsonObject json = QJsonDocument::fromJson(text.toUtf8())
                                             .object()
                                             .value(QStringLiteral("run"))
                                             .toObject()
                                             .value(QStringLiteral("suite_health"))
                                             .toObject();
                QCOMPARE(json.value(QStringLiteral("high_variance_cases")).toArray().size(),
                         health.highVariance.size());
                QCOMPARE(json.value(QStringLiteral("checks_always_pass")).toArray().size(), health.alwaysPass.size());
                continue;
            }
            QVERIFY(text.contains(QStringLiteral("Suite health")));
            for (const SuiteHealthFinding &f : findings) {
                const QString detail = format == ReportFormat::Html ? f.detail.toHtmlEscaped() : f.detail;
                QVERIFY2(text.contains(detail), qPrintable(reportFormatName(format) + u' ' + f.detail));
            }
        }
    }

    void contaminationCheck_isInTheTextFormats_andTheJson()
    {
        QTemporaryDir dir;
        const RunAnalysis run = loadRun(fixtureRun(QStringLiteral("v1")));
        const ContaminationReport report = checkContamination(run);
        QCOMPARE(report.transcriptsRead, run.results.size());
        for (const ReportFormat format : {ReportFormat::Html, ReportFormat::Markdown, ReportFormat::Json}) {
            const QString path = dir.filePath(QStringLiteral("contamination.") + reportExtension(format));
            QCOMPARE(write(run, format, path), QString());
            const QString text = QString::fromUtf8(readFile(path));
            QVERIFY2(text.contains(report.arms[0].fixedHash), qPrintable(reportFormatName(format)));
            QVERIFY2(text.contains(report.arms[1].fixedHash), qPrintable(reportFormatName(format)));
            if (format == ReportFormat::Json)
                QVERIFY(text.contains(QStringLiteral("\"prompts_identical_but_for_the_skill\":")));
            else
                QVERIFY(text.contains(QStringLiteral("Contamination check")));
        }
    }

    void markdown_linksChartImagesWrittenBesideIt()
    {
        QTemporaryDir dir;
        const RunAnalysis run = loadRun(fixtureRun(QStringLiteral("v1")));
        const QString path = dir.filePath(QStringLiteral("report.md"));
        const ReportWriter writer(run);
        QCOMPARE(writer.write(ReportFormat::Markdown, path), QString());
        const QString md = QString::fromUtf8(readFile(path));
        QVERIFY(md.startsWith(QStringLiteral("# Skill report: diffusers-cuda-rmsnorm")));
        QVERIFY(md.contains(QStringLiteral("| anthropic:claude-haiku-4-5 | with skill | 10 | 0 | 9 of 10 | 90.0% |")));
        const QStringList files = writer.outputFiles(ReportFormat::Markdown, path);
        QCOMPARE(files.size(), 8);
        for (const QString &png : files.mid(1)) {
            QVERIFY2(md.contains(QStringLiteral("](%1)").arg(QFileInfo(png).fileName())), qPrintable(png));
            const QImage image(png);
            QVERIFY2(!image.isNull(), qPrintable(png));
            QSet<QRgb> colours;
            for (int y = 0; y < image.height(); y += 4) {
                for (int x = 0; x < image.width(); x += 4)
                    colours.insert(image.pixel(x, y));
            }
            QVERIFY2(colours.size() > 8, qPrintable(png)); // drawn, not blank
        }
    }

    void repeatsPerCase_saysWhatRan_andWhatTheRunAskedFor()
    {
        QTemporaryDir dir;
        const QString runDir = dir.filePath(QStringLiteral("run"));
        QVERIFY(copyTree(fixtureRun(QStringLiteral("v1")), runDir));
        const auto markdownOf = [&] {
            const RunAnalysis run = loadRun(runDir);
            const QString path = dir.filePath(QStringLiteral("report.md"));
            QFile::remove(path);
            return write(run, ReportFormat::Markdown, path).isEmpty() ? QString::fromUtf8(readFile(path)) : QString();
        };
        // Every case ran the 2 repeats the run asked for.
        QVERIFY2(markdownOf().contains(QStringLiteral("| Repeats per case | 2 |")), qPrintable(markdownOf()));

        // The run asked for 1, the cases' own repeats (2) won: say both.
        QJsonObject manifest = QJsonDocument::fromJson(readFile(runDir + QStringLiteral("/run.json"))).object();
        QJsonObject parameters = manifest.value(u"parameters").toObject();
        parameters.insert(QStringLiteral("runs"), 1);
        manifest.insert(QStringLiteral("parameters"), parameters);
        QFile::remove(runDir + QStringLiteral("/run.json"));
        QFile file(runDir + QStringLiteral("/run.json"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(manifest).toJson());
        file.close();
        QString md = markdownOf();
        QVERIFY2(
            md.contains(QStringLiteral("| Repeats per case | 2 (the run asked for 1; a case's own repeats win) |")),
            qPrintable(md));

        // One case ran once: the counts per case.
        QFile results(runDir + QStringLiteral("/results.jsonl"));
        QVERIFY(results.open(QIODevice::ReadOnly));
        QList<QByteArray> kept;
        for (const QByteArray &line : results.readAll().split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (!(o.value(u"case").toString() == u"layernorm-fused" && o.value(u"repeat").toInt() == 2))
                kept.append(line);
        }
        results.close();
        QVERIFY(results.open(QIODevice::WriteOnly | QIODevice::Truncate));
        results.write(kept.join('\n'));
        results.close();
        md = markdownOf();
        QVERIFY2(md.contains(QStringLiteral("| Repeats per case | 1 for 1 case, 2 for 4 cases (the run asked for 1; a "
                                            "case's own repeats win) |")),
                 qPrintable(md));
    }

    void charts_showTheSummaryFigures_neverOwnOnes()
    {
        const RunAnalysis run = loadRun(fixtureRun(QStringLiteral("v1")));
        const QString svg =
            charts::armBars({&run}, ChartMetric::PassRate, QStringLiteral("all"), ChartTarget::Standalone);
        for (const ArmSummary &a : run.summary.arms) {
            if (a.split != u"all")
                continue;
            const QString tooltip = QStringLiteral("%1, %2: %3% (95% interval %4% to %5%)")
                                        .arg(a.model, armLabel(a.arm), QString::number(a.passRate.rate * 100, 'f', 1),
                                             QString::number(a.passRate.ci.low * 100, 'f', 1),
                                             QString::number(a.passRate.ci.high * 100, 'f', 1));
            QVERIFY2(svg.contains(tooltip.toHtmlEscaped()), qPrintable(tooltip));
        }
        const QString lift = charts::liftPerModel({&run}, QStringLiteral("all"), ChartTarget::Standalone);
        const ArmComparison *c = run.summary.comparison(kGemma);
        QVERIFY(c);
        QVERIFY(lift.contains(QStringLiteral("+%1 pp, p = %2")
                                  .arg(QString::number(c->lift * 100, 'f', 1), QString::number(c->pValue, 'g', 3))));
        QVERIFY(!charts::svgToPng(lift).isEmpty());

        // The lift axis has round, evenly spaced ticks that read exactly (not "-8 -5 -3 0 +3" from 2.5 steps), for
        // small lifts too (a ±10 axis).
        RunAnalysis small = run;
        for (ArmComparison &comparison : small.summary.comparisons)
            comparison.lift = 0.04;
        const QString smallLift = charts::liftPerModel({&small}, QStringLiteral("all"), ChartTarget::Standalone);
        QList<double> ticks;
        const QRegularExpression tick(QStringLiteral(">([+-]?\\d+(?:\\.\\d+)?)</text>"));
        for (auto it = tick.globalMatch(smallLift); it.hasNext();)
            ticks.append(it.next().captured(1).toDouble());
        QVERIFY2(ticks.size() >= 3, qPrintable(smallLift.left(400)));
        const double step = ticks[1] - ticks[0];
        for (qsizetype i = 0; i < ticks.size(); ++i) {
            QCOMPARE(ticks[i], ticks[0] + i * step);
            QVERIFY2(std::fmod(std::abs(ticks[i]), 5.0) == 0.0, qPrintable(QString::number(ticks[i])));
        }
        QVERIFY(ticks.contains(0.0));
    }

    void html_isSelfContained_withTablesMatrixAndItemDetails()
    {
        QTemporaryDir dir;
        const RunAnalysis run = loadRun(fixtureRun(QStringLiteral("v1")));
        const QString path = dir.filePath(QStringLiteral("r.html"));
        QCOMPARE(write(run, ReportFormat::Html, path), QString());
        const QString html = QString::fromUtf8(readFile(path));
        QVERIFY(html.startsWith(QStringLiteral("<!DOCTYPE html>")));
        QVERIFY(!html.contains(QStringLiteral("<script")));
        QVERIFY(!html.contains(QStringLiteral("http://")) ||
                html.count(QStringLiteral("http://")) == html.count(QStringLiteral("http://www.w3.org/2000/svg")));
        QVERIFY(!html.contains(QStringLiteral("https://")));
        QVERIFY(html.contains(QStringLiteral("prefers-color-scheme:dark")));
        QCOMPARE(html.count(QStringLiteral("<svg ")), 7);
        for (const QString &fact : {run.manifest.skillName, run.manifest.skillHash, run.manifest.suiteHash,
                                    QStringLiteral("claude-haiku-4-5-20251001"), QStringLiteral("held-out cases")})
            QVERIFY2(html.contains(fact), qPrintable(fact));
        QCOMPARE(html.count(QStringLiteral("<span class=\"badge")), 40);
        // Flipped cases lead the matrix.
        const int firstFlipped = run.matrix.rowOf(QStringLiteral("rmsnorm-basic"));
        QVERIFY(firstFlipped >= 0);
        const qsizetype matrix = html.indexOf(QStringLiteral("class=\"matrix\""));
        QVERIFY(matrix > 0);
        int flippedFirst = -1;
        for (const CaseRow &row : run.matrix.rows) {
            if (row.flipped()) {
                flippedFirst = int(html.indexOf(QStringLiteral("<tr><td>%1</td>").arg(row.caseId), matrix));
                break;
            }
        }
        for (const CaseRow &row : run.matrix.rows) {
            if (!row.flipped())
                QVERIFY(html.indexOf(QStringLiteral("<tr><td>%1</td>").arg(row.caseId), matrix) > flippedFirst);
        }
    }

    void htmlAndMarkdown_factsSayWhereEachModelsPriceCameFrom()
    {
        QTemporaryDir dir;
        const RunAnalysis run = loadRun(fixtureRun(QStringLiteral("v1")));
        // Which table priced each model on the run's first day, named in one line.
        const QString prices = runPricesText(run.manifest);
        QVERIFY2(prices.startsWith(QStringLiteral("in force on 2026-11-21: ")), qPrintable(prices));
        QVERIFY2(prices.contains(QStringLiteral("anthropic:claude-haiku-4-5 from genai-prices: anthropic/")),
                 qPrintable(prices));
        QVERIFY2(prices.contains(QStringLiteral("local:gemma-3-270m from Skillforge's table: local:*")),
                 qPrintable(prices));

        const QString htmlPath = dir.filePath(QStringLiteral("r.html"));
        QCOMPARE(write(run, ReportFormat::Html, htmlPath), QString());
        const QString html = QString::fromUtf8(readFile(htmlPath));
        const QString htmlFact = QStringLiteral("<tr><th>Prices</th><td>%1</td>").arg(prices.toHtmlEscaped());
        QVERIFY2(html.contains(htmlFact), qPrintable(htmlFact));

        const QString mdPath = dir.filePath(QStringLiteral("r.md"));
        QCOMPARE(write(run, ReportFormat::Markdown, mdPath), QString());
        const QString md = QString::fromUtf8(readFile(mdPath));
        const QString mdFact = QStringLiteral("| Prices | %1 |\n").arg(prices);
        QVERIFY2(md.contains(mdFact), qPrintable(mdFact));
    }

    void importedUpskillRun_reportSaysItWasImported_andFromWhere()
    {
        QTemporaryDir dir;
        const QString batch =
            QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/runs/upskill-0.2.1-runs/2026_12_01_10_15");
        auto imported = importUpskillBatch(batch, dir.filePath(QStringLiteral("runs")));
        if (const QString *error = std::get_if<QString>(&imported))
            QFAIL(qPrintable(*error));
        const RunAnalysis run = loadRun(std::get<RunStore>(imported).dir());
        const QString madeWith = QStringLiteral("upskill, imported from %1").arg(QFileInfo(batch).absoluteFilePath());

        const QString htmlPath = dir.filePath(QStringLiteral("r.html"));
        QCOMPARE(write(run, ReportFormat::Html, htmlPath), QString());
        const QString html = QString::fromUtf8(readFile(htmlPath));
        const QString htmlFact = QStringLiteral("<tr><th>Run made with</th><td>%1</td>").arg(madeWith.toHtmlEscaped());
        QVERIFY2(html.contains(htmlFact), qPrintable(htmlFact));
        QVERIFY(!html.contains(QStringLiteral("<tr><th>Run made with</th><td>Skillforge")));

        const QString mdPath = dir.filePath(QStringLiteral("r.md"));
        QCOMPARE(write(run, ReportFormat::Markdown, mdPath), QString());
        const QString md = QString::fromUtf8(readFile(mdPath));
        const QString mdFact = QStringLiteral("| Run made with | %1 |\n").arg(madeWith);
        QVERIFY2(md.contains(mdFact), qPrintable(mdFact));
    }

    void html_detailsCap_isStatedInTheReport()
    {
        QTemporaryDir dir;
        const RunAnalysis run = loadRun(fixtureRun(QStringLiteral("v1")));
        const QString path = dir.filePath(QStringLiteral("r.html"));
        ReportOptions options;
        options.maxItemDetails = 5;
        QCOMPARE(write(run, ReportFormat::Html, path, nullptr, options), QString());
        const QString html = QString::fromUtf8(readFile(path));
        QCOMPARE(html.count(QStringLiteral("<span class=\"badge")), 5);
        QVERIFY(html.contains(QStringLiteral("Details of 5 of 40 items")));
    }

    void html_withCompare_drawsBothRunsAndListsChanges()
    {
        QTemporaryDir dir;
        const RunAnalysis v1 = loadRun(fixtureRun(QStringLiteral("v1"))),
                          v2 = loadRun(fixtureRun(QStringLiteral("v2")));
        const QString path = dir.filePath(QStringLiteral("r.html"));
        QCOMPARE(write(v2, ReportFormat::Html, path, &v1), QString());
        const QString html = QString::fromUtf8(readFile(path));
        QVERIFY(html.contains(v1.label().toHtmlEscaped()) && html.contains(v2.label().toHtmlEscaped()));
        QVERIFY(html.contains(QStringLiteral("v1 · without skill")) &&
                html.contains(QStringLiteral("v2 · with skill")));
        QVERIFY(html.contains(QStringLiteral("What changed per case")));
        const QString changed = QStringLiteral("%1 cells changed").arg(diffCaseMatrices(v1.matrix, v2.matrix).size());
        QVERIFY2(html.contains(changed), qPrintable(changed));
    }

    void secrets_plantedInTheRun_appearInNoTextFormat()
    {
        QTemporaryDir dir;
        const QString runDir = dir.filePath(QStringLiteral("run"));
        QVERIFY(plantSecrets(runDir));
        const RunAnalysis run = loadRun(runDir);
        const ReportWriter writer(run);
        for (ReportFormat format :
             {ReportFormat::Html, ReportFormat::Markdown, ReportFormat::Csv, ReportFormat::Json, ReportFormat::JUnit}) {
            const QString path = dir.filePath(QStringLiteral("report.") + reportExtension(format));
            QCOMPARE(writer.write(format, path), QString());
            const QByteArray bytes = readFile(path);
            QVERIFY(!bytes.isEmpty());
            QVERIFY2(!bytes.contains(kPlantedKey.toUtf8()), qPrintable(reportFormatName(format)));
            QVERIFY2(!bytes.contains(kPlantedToken.toUtf8()), qPrintable(reportFormatName(format)));
            QVERIFY2(!bytes.contains(kPlantedKey.left(24).toUtf8()), qPrintable(reportFormatName(format)));
        }
        // The planted items are still there, redacted: the report did not just drop them.
        const QString html = QString::fromUtf8(readFile(dir.filePath(QStringLiteral("report.html"))));
        QVERIFY(html.contains(QStringLiteral("My key is sk-…")));
        QVERIFY(html.contains(QStringLiteral("&lt;script&gt;alert(1)&lt;/script&gt;")));
        QVERIFY(!html.contains(QStringLiteral("<script")));
        const QString csv = QString::fromUtf8(readFile(dir.filePath(QStringLiteral("report.csv"))));
        QVERIFY(csv.contains(QStringLiteral("Bearer sk-…")));
    }

    void scrubSecrets_redactsKeyShapes_andLeavesOrdinaryText()
    {
        QCOMPARE(scrubSecrets(QStringLiteral("use sk-proj-abcdefghijklmnopqrstuvwx now")),
                 QStringLiteral("use sk-…uvwx now"));
        QCOMPARE(scrubSecrets(QStringLiteral("Authorization: Bearer abcdefghijklmnop1234")),
                 QStringLiteral("Authorization: Bearer …1234"));
        QCOMPARE(scrubSecrets(QStringLiteral("api_key=\"0123456789abcdefXYZW\"")), QStringLiteral("api_key=\"…XYZW\""));
        QCOMPARE(scrubSecrets(QStringLiteral("AKIAIOSFODNN7EXAMPLE")), QStringLiteral("…MPLE"));
        const QString ordinary = QStringLiteral("mask-image: none; tokens: 1200; the key idea; max_tokens=512; "
                                                "__global__ void k(); task-specific");
        QCOMPARE(scrubSecrets(ordinary), ordinary);
    }

    void write_toAFolderThatCannotBeCreated_namesTheFile()
    {
        QTemporaryDir dir;
        QFile blocker(dir.filePath(QStringLiteral("file")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        const RunAnalysis run = loadRun(fixtureRun(QStringLiteral("v1")));
        const QString path = dir.filePath(QStringLiteral("file/sub/r.html"));
        const QString error = write(run, ReportFormat::Html, path);
        QVERIFY2(error.contains(path), qPrintable(error));
    }
};

SF_TEST_MAIN(TestReportFormats)
#include "test_report_formats.moc"
