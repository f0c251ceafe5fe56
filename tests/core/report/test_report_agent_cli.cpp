// Reports of a run made by a real agent CLI: the harness in the run's settings, how often each model loaded the
// skill beside its lift, silent bypasses marked, and the CLI's own figures in the data formats.
#include "AgentCliRun.h"
#include "SkippedChecks.h"
#include "report/Report.h"

#include <QGuiApplication>
#include <QJsonArray>
#include <QRegularExpression>
#include <QTemporaryDir>

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

/// "8 of 10 (80.0% [49.0–94.3])", computed here from the counts.
QString loadedText(int loaded, int items)
{
    const stats::Proportion p = stats::wilson(loaded, items);
    return QStringLiteral("%1 of %2 (%3% [%4–%5])")
        .arg(loaded)
        .arg(items)
        .arg(QString::number(p.rate * 100, 'f', 1), QString::number(p.ci.low * 100, 'f', 1),
             QString::number(p.ci.high * 100, 'f', 1));
}

} // namespace

class TestReportAgentCli final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::optional<RunAnalysis> m_run;

    QString write(ReportFormat format, const RunAnalysis &run)
    {
        const QString path =
            m_dir.filePath(QStringLiteral("report-%1.%2")
                               .arg(run.manifest.harness.isEmpty() ? u"loop" : u"cli", reportExtension(format)));
        const QString error = ReportWriter(run).write(format, path);
        return error.isEmpty() ? path : QString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        const QString runDir = m_dir.filePath(QStringLiteral("run"));
        QVERIFY(makeAgentCliRun(runDir));
        m_run = loadRun(runDir);
        // The fixture's activation, as core counts it: haiku 8 of 10, gemma 3 of 10.
        QCOMPARE(m_run->summary.arm(kHaiku, kWithSkillArm)->triggerRate->successes, 8);
        QCOMPARE(m_run->summary.arm(kGemma, kWithSkillArm)->triggerRate->successes, 3);
    }

    void tableFormats_nameTheHarness_itsVersionAndSource()
    {
        for (const ReportFormat format : {ReportFormat::Html, ReportFormat::Markdown}) {
            const QString text = QString::fromUtf8(readFile(write(format, *m_run)));
            QVERIFY2(text.contains(QStringLiteral("Student harness")), qPrintable(reportFormatName(format)));
            QVERIFY2(text.contains(QStringLiteral("Claude Code 2.1.332 (%1)").arg(kCliSource)),
                     qPrintable(reportFormatName(format)));
            // The CLI discovers the skill; the loop's "inline" says nothing about this run.
            QVERIFY2(text.contains(QStringLiteral(".claude/skills/")), qPrintable(reportFormatName(format)));
        }
        const QString loop =
            QString::fromUtf8(readFile(write(ReportFormat::Markdown, loadRun(fixtureRun(QStringLiteral("v1"))))));
        QVERIFY(loop.contains(QStringLiteral("| Student harness | Skillforge's loop |")));
        QVERIFY(loop.contains(QStringLiteral("| Skill delivery | inline |")));
    }

    void liftTable_showsActivationPerModel_andSilentBypasses()
    {
        const QString md = QString::fromUtf8(readFile(write(ReportFormat::Markdown, *m_run)));
        QVERIFY(md.contains(QStringLiteral("### Skill activation beside the lift, all cases")));
        QVERIFY(md.contains(QStringLiteral("| Model | Lift | Skill loaded (with skill) | Silent bypasses |")));
        // Beside each model's lift, on its row: loaded k of n with the interval, and the bypasses (n - k).
        const QRegularExpression haikuRow(
            QStringLiteral("^\\| %1 \\| [^|]* pp \\| %2 \\| 2 \\|$")
                .arg(QRegularExpression::escape(kHaiku), QRegularExpression::escape(loadedText(8, 10))),
            QRegularExpression::MultilineOption);
        QVERIFY2(haikuRow.match(md).hasMatch(), qPrintable(md));
        const QRegularExpression gemmaRow(
            QStringLiteral("^\\| %1 \\| [^|]* pp \\| %2 \\| 7 \\|$")
                .arg(QRegularExpression::escape(kGemma), QRegularExpression::escape(loadedText(3, 10))),
            QRegularExpression::MultilineOption);
        QVERIFY2(gemmaRow.match(md).hasMatch(), qPrintable(md));
        QVERIFY(md.contains(QStringLiteral("never loaded the skill: its outcome says nothing")));
        // The pass-rate table's column says what it counts.
        QVERIFY(md.contains(QStringLiteral("| Skill loaded (items) |")));
        QVERIFY(md.contains(QStringLiteral("| 8 of 10 (80.0%) |")));

        // A run of Skillforge's loop in inline mode recorded no activation: no such columns.
        const QString loop =
            QString::fromUtf8(readFile(write(ReportFormat::Markdown, loadRun(fixtureRun(QStringLiteral("v1"))))));
        QVERIFY(!loop.contains(QStringLiteral("Silent bypasses")));
        QVERIFY(!loop.contains(QStringLiteral("○")));
    }

    void silentBypasses_areMarkedInTheMatrix_andListed()
    {
        const QString md = QString::fromUtf8(readFile(write(ReportFormat::Markdown, *m_run)));
        // haiku's rmsnorm-bf16 and gemma's geglu-heldout never loaded it (○); gemma's rmsnorm-basic once of twice (◐).
        const auto matrixRow = [&](const QString &caseId) {
            const QRegularExpression row(QStringLiteral("^\\| %1 \\|.*$").arg(caseId),
                                         QRegularExpression::MultilineOption);
            QList<QString> rows;
            for (auto it = row.globalMatch(md); it.hasNext();)
                rows.append(it.next().captured(0));
            return rows.isEmpty() ? QString() : rows.last(); // the case matrix comes after the tables that name it
        };
        QVERIFY2(matrixRow(QStringLiteral("rmsnorm-bf16")).contains(QStringLiteral(" ○ |")),
                 qPrintable(matrixRow(QStringLiteral("rmsnorm-bf16"))));
        QVERIFY2(matrixRow(QStringLiteral("geglu-heldout")).contains(QStringLiteral(" ○ |")),
                 qPrintable(matrixRow(QStringLiteral("geglu-heldout"))));
        QVERIFY2(matrixRow(QStringLiteral("rmsnorm-basic")).contains(QStringLiteral(" ◐ |")),
                 qPrintable(matrixRow(QStringLiteral("rmsnorm-basic"))));
        QVERIFY(md.contains(QStringLiteral("### Silent bypasses")));
        QCOMPARE(md.count(QStringLiteral("| rmsnorm-bf16 | anthropic:claude-haiku-4-5 |")), 2);

        // HTML: each with-skill item that never loaded the skill carries the mark in its detail, and only those.
        const QString html = QString::fromUtf8(readFile(write(ReportFormat::Html, *m_run)));
        QCOMPARE(html.count(QStringLiteral("<span class=\"badge bypass\">SILENT BYPASS</span>")), 9);
        QVERIFY(html.contains(QStringLiteral("no — a silent bypass: the skill was never loaded")));
        QVERIFY(html.contains(QStringLiteral("<dt>Skill files read</dt><dd>SKILL.md, references/bf16.md</dd>")));
        QVERIFY(html.contains(QStringLiteral("yes, after model call 2")));
        QVERIFY(html.contains(QStringLiteral("<dt>CLI start-up</dt><dd>1.20 s to the first model request</dd>")));
        QVERIFY(html.contains(QStringLiteral("artifacts/anthropic_claude-haiku-4-5__baseline__rmsnorm-basic__r1/"
                                             "cli-home/session.jsonl")));
        // Its transcript is the CLI's: the prompt, and where its steps are.
        QVERIFY(html.contains(QStringLiteral("Write the kernel for case rmsnorm-basic.")));
        QVERIFY(html.contains(QStringLiteral("open it in Skillforge's Trace view")));
        QVERIFY(!html.contains(QStringLiteral("No transcript was stored for this item.")));
    }

    void csv_hasTheCliColumns()
    {
        const QString text = QString::fromUtf8(readFile(write(ReportFormat::Csv, *m_run)));
        const QStringList lines = text.split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 41);
        const QStringList header = lines.first().split(u',');
        const qsizetype files = header.indexOf(QStringLiteral("skill_files_read"));
        const qsizetype session = header.indexOf(QStringLiteral("harness_session"));
        const qsizetype startup = header.indexOf(QStringLiteral("cli_startup_ms"));
        const qsizetype arm = header.indexOf(QStringLiteral("arm"));
        const qsizetype caseColumn = header.indexOf(QStringLiteral("case"));
        QVERIFY(files >= 0 && session >= 0 && startup >= 0);
        // The fixture's answers hold no comma on these rows: a plain split reads them.
        const QStringList first = lines[1].split(u',');
        QCOMPARE(first.size(), header.size());
        QCOMPARE(first[arm], kBaselineArm);
        QCOMPARE(
            first[session],
            QStringLiteral("artifacts/anthropic_claude-haiku-4-5__baseline__rmsnorm-basic__r1/cli-home/session.jsonl"));
        QCOMPARE(first[startup], QStringLiteral("1200"));
        QCOMPARE(first[files], QString());
        const QStringList second = lines[2].split(u',');
        QCOMPARE(second[arm], kWithSkillArm);
        QCOMPARE(second[caseColumn], QStringLiteral("rmsnorm-basic"));
        QCOMPARE(second[files], QStringLiteral("SKILL.md;references/bf16.md"));

        // A run of the loop leaves them empty.
        const QString loop =
            QString::fromUtf8(readFile(write(ReportFormat::Csv, loadRun(fixtureRun(QStringLiteral("v1"))))));
        const QStringList loopLine = loop.split(QStringLiteral("\r\n"))[1].split(u',');
        QCOMPARE(loopLine[startup], QString());
        QCOMPARE(loopLine[session], QString());
    }

    void json_hasTheHarness_andEachItemsCliFields()
    {
        const QJsonObject report =
            QJsonDocument::fromJson(readFile(write(ReportFormat::Json, *m_run))).object().value(u"run").toObject();
        const QJsonObject harness = report.value(u"manifest").toObject().value(u"harness").toObject();
        QCOMPARE(harness.value(u"name").toString(), QStringLiteral("claude-code"));
        QCOMPARE(harness.value(u"version").toString(), kCliVersion);
        QCOMPARE(harness.value(u"source").toString(), kCliSource);
        const QJsonArray results = report.value(u"results").toArray();
        QCOMPARE(results.size(), 40);
        const QJsonObject withSkill = results[1].toObject();
        QCOMPARE(withSkill.value(u"skill_files_read").toArray(),
                 QJsonArray({QStringLiteral("SKILL.md"), QStringLiteral("references/bf16.md")}));
        QVERIFY(withSkill.value(u"harness_session").toString().endsWith(u"/cli-home/session.jsonl"));
        QCOMPARE(withSkill.value(u"cli_startup_ms").toInt(), 1210);
        QCOMPARE(report.value(u"contamination").toObject().value(u"cli_version").toString(), kCliVersion);
    }

    void junit_namesTheHarness()
    {
        const QString xml = QString::fromUtf8(readFile(write(ReportFormat::JUnit, *m_run)));
        QVERIFY(xml.contains(QStringLiteral("name=\"harness\" value=\"Claude Code 2.1.332 (%1)\"").arg(kCliSource)));
    }

    void pdf_namesTheHarness_andTheActivation()
    {
        const QString path = write(ReportFormat::Pdf, *m_run);
        QVERIFY(!path.isEmpty());
        if (QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty())
            QSKIP("pdftotext is not installed (Debian: poppler-utils): the PDF was written, not read back");
        const QString text =
            QString::fromUtf8(runTool(QStringLiteral("pdftotext"), {path, QStringLiteral("-")})).simplified();
        QVERIFY2(text.contains(QStringLiteral("Claude Code 2.1.332")), qPrintable(text.left(3000)));
        QVERIFY(text.contains(QStringLiteral("Silent bypasses")));
        QVERIFY(text.contains(QStringLiteral("(silent bypass)")));
        QVERIFY(text.contains(loadedText(8, 10).left(10)));
    }
};

int main(int argc, char **argv)
{
    QGuiApplication app(argc, argv); // PDF and Markdown draw their charts with fonts
    TestReportAgentCli test;
    return sf::test::execCountingSkips(&test, argc, argv);
}

#include "test_report_agent_cli.moc"
