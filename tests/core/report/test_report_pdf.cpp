// The PDF report read back with poppler's tools: pages, real text with the skill, the models and the figures,
// and no secret. Skipped (77) where pdftotext/pdfinfo (Debian poppler-utils) are missing.
#include "ReportTestRuns.h"
#include "report/Report.h"

#include <QGuiApplication>
#include <QRegularExpression>
#include <QTemporaryDir>

using namespace sf;
using namespace sf::test;

namespace {

int pageCount(const QString &pdf)
{
    const QByteArray info = runTool(QStringLiteral("pdfinfo"), {pdf});
    const QRegularExpression pages(QStringLiteral("^Pages:\\s+(\\d+)"), QRegularExpression::MultilineOption);
    return pages.match(QString::fromUtf8(info)).captured(1).toInt();
}

QString textOf(const QString &pdf)
{
    // NFKC folds the typographic ligatures ("ﬀ", "ﬁ") the PDF's font draws back into their letters.
    return QString::fromUtf8(
               runTool(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), pdf, QStringLiteral("-")}))
        .normalized(QString::NormalizationForm_KC);
}

} // namespace

class TestReportPdf final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void pdf_isPaged_withTheSkillModelsAndFiguresAsText()
    {
        QTemporaryDir dir;
        const RunAnalysis run = loadRun(fixtureRun(QStringLiteral("v1")));
        const QString path = dir.filePath(QStringLiteral("r.pdf"));
        QCOMPARE(ReportWriter(run).write(ReportFormat::Pdf, path), QString());
        // Summary, charts, statistics and cases each start a page: at least four.
        QVERIFY2(pageCount(path) >= 4, qPrintable(QString::number(pageCount(path))));
        const QString text = textOf(path);
        QVERIFY(text.contains(QStringLiteral("Skill report: diffusers-cuda-rmsnorm")));
        QVERIFY(text.contains(QStringLiteral("anthropic:claude-haiku-4-5")));
        QVERIFY(text.contains(QStringLiteral("local:gemma-3-270m")));
        QVERIFY(text.contains(QStringLiteral("a1b2c3d4"))); // the skill's hash
        const ArmSummary *withSkill = run.summary.arm(QStringLiteral("anthropic:claude-haiku-4-5"), kWithSkillArm);
        QVERIFY(withSkill);
        const QString rate = QString::number(withSkill->passRate.rate * 100, 'f', 1) + u'%';
        QVERIFY2(text.contains(rate), qPrintable(rate));
        QVERIFY(text.contains(QStringLiteral("Case matrix")));
    }

    void pdf_withCompare_namesBothRuns()
    {
        QTemporaryDir dir;
        const RunAnalysis v1 = loadRun(fixtureRun(QStringLiteral("v1"))),
                          v2 = loadRun(fixtureRun(QStringLiteral("v2")));
        const QString path = dir.filePath(QStringLiteral("r.pdf"));
        QCOMPARE(ReportWriter(v2, &v1).write(ReportFormat::Pdf, path), QString());
        const QString text = textOf(path);
        QVERIFY(text.contains(QStringLiteral("What changed per case")));
        QVERIFY(text.contains(QStringLiteral("e5f6a7b8")) && text.contains(QStringLiteral("a1b2c3d4")));
    }

    void pdf_containsNoPlantedSecret()
    {
        QTemporaryDir dir;
        const QString runDir = dir.filePath(QStringLiteral("run"));
        QVERIFY(plantSecrets(runDir));
        const QString path = dir.filePath(QStringLiteral("r.pdf"));
        QCOMPARE(ReportWriter(loadRun(runDir)).write(ReportFormat::Pdf, path), QString());
        const QString text = textOf(path);
        QVERIFY(!text.isEmpty());
        QVERIFY(text.contains(QStringLiteral("Bearer"))); // the evidence is there, its key is not
        QVERIFY(!text.contains(kPlantedKey.left(20)));
        QVERIFY(!text.contains(kPlantedToken.left(16)));
    }
};

int main(int argc, char **argv)
{
    QGuiApplication app(argc, argv);
    if (QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty() ||
        QStandardPaths::findExecutable(QStringLiteral("pdfinfo")).isEmpty()) {
        std::fprintf(stderr, "SKIP: pdftotext/pdfinfo are not installed (Debian: apt-get install poppler-utils); the "
                             "PDF report was not read back\n");
        return 77;
    }
    TestReportPdf test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_report_pdf.moc"
