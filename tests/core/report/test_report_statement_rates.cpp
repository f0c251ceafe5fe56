// Reports of an imported skill-creator workspace (issue 34): Skillforge's case pass rate and skill-creator's statement
// pass rate side by side, each named, with benchmark.json's own figure, in HTML, Markdown and PDF alike; runs without
// statements show no such table. The PDF check is skipped where pdftotext (poppler-utils) is missing.
#include "ReportTestRuns.h"
#include "SkippedChecks.h"
#include "eval/SkillCreatorWorkspace.h"
#include "report/Report.h"

#include <QGuiApplication>
#include <QTemporaryDir>

using namespace sf;
using namespace sf::test;

namespace {

const QString kTitle = QStringLiteral("Two pass rates: Skillforge's cases and skill-creator's statements, all cases");

QString readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

} // namespace

class TestReportStatementRates final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::optional<RunAnalysis> m_run;

    QString write(ReportFormat format, const RunAnalysis &run, const QString &name)
    {
        const QString path = m_dir.filePath(name + u'.' + reportExtension(format));
        const QString error = ReportWriter(run).write(format, path);
        return error.isEmpty() ? readText(path) : error;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        auto imported = importSkillCreatorWorkspace(
            QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/skill-creator/pdf-forms-workspace"),
            m_dir.filePath(QStringLiteral("runs")));
        QVERIFY(std::holds_alternative<RunStore>(imported));
        m_run = loadRun(std::get<RunStore>(imported).dir());
    }

    void markdown_namesBothRates_sideBySide_withBenchmarkJsonsFigure()
    {
        const QString md = write(ReportFormat::Markdown, *m_run, QStringLiteral("imported"));
        QVERIFY2(md.contains(QStringLiteral("### ") + kTitle), qPrintable(md));
        QVERIFY(md.contains(QStringLiteral("| Model | Arm | Case pass rate (Skillforge's) | Statements passed | "
                                           "Statement pass rate (skill-creator's) | benchmark.json says |")));
        // The baseline passes no item, yet meets 73.3% of its statements, as benchmark.json says (0.7333).
        QVERIFY2(md.contains(QStringLiteral("| skill-creator:claude-sonnet-4-5 | without skill | 0 of 6 items (0.0%) | "
                                            "28 of 38 | 73.3% | 73.3% (the same) |")),
                 qPrintable(md));
        QVERIFY(md.contains(QStringLiteral("| skill-creator:claude-sonnet-4-5 | with skill | 4 of 6 items (66.7%) | "
                                           "36 of 38 | 95.0% | 95.0% (the same) |")));
        // Why they differ, under the table.
        QVERIFY(md.contains(QStringLiteral("An item that meets some statements counts toward the second and not the "
                                           "first.")));
    }

    void html_namesBothRates()
    {
        const QString html = write(ReportFormat::Html, *m_run, QStringLiteral("imported"));
        QVERIFY(html.contains(kTitle));
        QVERIFY(html.contains(QStringLiteral("Case pass rate (Skillforge's)")));
        QVERIFY(html.contains(QStringLiteral("Statement pass rate (skill-creator's)")));
        QVERIFY(html.contains(QStringLiteral("0 of 6 items (0.0%)")));
        QVERIFY(html.contains(QStringLiteral("73.3% (the same)")));
    }

    void pdf_namesBothRates()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty())
            QSKIP("pdftotext is not installed (Debian: apt-get install poppler-utils)");
        const QString pdf = m_dir.filePath(QStringLiteral("imported.pdf"));
        QCOMPARE(ReportWriter(*m_run).write(ReportFormat::Pdf, pdf), QString());
        // The PDF wraps cells onto several lines: read it as one line of words.
        const QString text = QString::fromUtf8(runTool(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")}))
                                 .normalized(QString::NormalizationForm_KC)
                                 .simplified();
        QVERIFY2(text.contains(QStringLiteral("Two pass rates")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("Skillforge's")));
        QVERIFY(text.contains(QStringLiteral("skill-creator's")));
        QVERIFY(text.contains(QStringLiteral("28 of 38")));
        QVERIFY(text.contains(QStringLiteral("73.3%")));
    }

    void runWithoutStatements_hasNoSuchTable()
    {
        const RunAnalysis v1 = loadRun(fixtureRun(QStringLiteral("v1")));
        for (const ReportFormat format : {ReportFormat::Markdown, ReportFormat::Html}) {
            const QString text = write(format, v1, QStringLiteral("v1"));
            QVERIFY2(text.contains(QStringLiteral("Pass rate, all cases")), qPrintable(reportFormatName(format)));
            QVERIFY2(!text.contains(QStringLiteral("Statement pass rate")), qPrintable(reportFormatName(format)));
        }
    }
};

int main(int argc, char **argv)
{
    QGuiApplication app(argc, argv);
    TestReportStatementRates test;
    return sf::test::execCountingSkips(&test, argc, argv);
}

#include "test_report_statement_rates.moc"
