// The PDF report read back with poppler's tools: pages, real text with the skill, the models and the figures,
// charts drawn as vectors at their own shape, tables across the page, headings with what they head, and no secret.
// Skipped (77) where pdftotext/pdfinfo/pdfimages (Debian poppler-utils) are missing.
#include "ReportTestRuns.h"
#include "SkippedChecks.h"
#include "report/PdfPages_p.h"
#include "report/Report.h"
#include "report/SvgWriter_p.h"

#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QRectF>
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

/// A word pdftotext found, where it stands on its page (in points).
struct Word
{
    QString text;
    QRectF box;
};

/// The words of page @p page (from 1), as pdftotext -bbox places them.
QList<Word> wordsOf(const QString &pdf, int page)
{
    const QString html = QString::fromUtf8(
        runTool(QStringLiteral("pdftotext"), {QStringLiteral("-bbox"), QStringLiteral("-f"), QString::number(page),
                                              QStringLiteral("-l"), QString::number(page), pdf, QStringLiteral("-")}));
    static const QRegularExpression word(QStringLiteral(
        "<word xMin=\"([0-9.]+)\" yMin=\"([0-9.]+)\" xMax=\"([0-9.]+)\" yMax=\"([0-9.]+)\">([^<]*)</word>"));
    QList<Word> words;
    for (const QRegularExpressionMatch &m : word.globalMatch(html))
        words.append({m.captured(5).normalized(QString::NormalizationForm_KC),
                      QRectF(QPointF(m.captured(1).toDouble(), m.captured(2).toDouble()),
                             QPointF(m.captured(3).toDouble(), m.captured(4).toDouble()))});
    return words;
}

/// Page @p page's lines as pdftotext -layout sets them, blank lines left out.
QStringList linesOf(const QString &pdf, int page)
{
    const QString text = QString::fromUtf8(
        runTool(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), QStringLiteral("-f"), QString::number(page),
                                              QStringLiteral("-l"), QString::number(page), pdf, QStringLiteral("-")}));
    QStringList lines;
    for (const QString &line : text.normalized(QString::NormalizationForm_KC).split(u'\n')) {
        if (!line.trimmed().isEmpty())
            lines.append(line.trimmed());
    }
    return lines;
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

    void pdf_chartsAreVectorsWithRealText_atTheirOwnAspectRatio()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("r.pdf"));
        QCOMPARE(ReportWriter(loadRun(fixtureRun(QStringLiteral("v1")))).write(ReportFormat::Pdf, path), QString());
        // No picture of a chart: the charts' words are text, spaced as written (an axis title, rotated, too).
        const QStringList images =
            QString::fromUtf8(runTool(QStringLiteral("pdfimages"), {QStringLiteral("-list"), path}))
                .split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(images.size(), 2); // pdfimages' two header lines, no image
        const QString text = QString::fromUtf8(runTool(QStringLiteral("pdftotext"), {path, QStringLiteral("-")}));
        for (const QString &words :
             {QStringLiteral("Pass rate by model, without and with the skill"), QStringLiteral("Pass rate (%)"),
              QStringLiteral("Mean tokens per item"), QStringLiteral("Pass rate against tokens")})
            QVERIFY2(text.contains(words), qPrintable(words));
        // The pass rate chart is drawn 760 by 380: its words span a box about twice as wide as high, not a portrait.
        int page = 1;
        QList<Word> words;
        for (; page <= pageCount(path); ++page) {
            words = wordsOf(path, page);
            if (std::any_of(words.begin(), words.end(), [](const Word &w) { return w.text == u"(%)"; }))
                break;
        }
        QVERIFY(page <= pageCount(path));
        const auto title = std::find_if(words.begin(), words.end(), [](const Word &w) { return w.text == u"Pass"; });
        const auto whiskers =
            std::find_if(words.begin(), words.end(), [](const Word &w) { return w.text == u"Whiskers:"; });
        QVERIFY(title != words.end() && whiskers != words.end());
        QRectF chart;
        for (const Word &w : words) {
            if (w.box.top() >= title->box.top() && w.box.bottom() <= whiskers->box.bottom() + 20)
                chart |= w.box;
        }
        const double ratio = chart.width() / chart.height();
        QVERIFY2(ratio > 1.7 && ratio < 2.3, qPrintable(QString::number(ratio)));
        // Across the text width: A4 less 15 mm each side is 510 points.
        QVERIFY2(chart.width() > 0.85 * 510, qPrintable(QString::number(chart.width())));
    }

    void pdf_tablesSpanTheTextWidth_namesUnbroken_titlesWithTheirTables()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("r.pdf"));
        QCOMPARE(ReportWriter(loadRun(fixtureRun(QStringLiteral("v1")))).write(ReportFormat::Pdf, path), QString());
        const int pages = pageCount(path);
        // The first page's tables reach from margin to margin (510 points), not 60% of it.
        QRectF first;
        for (const Word &w : wordsOf(path, 1))
            first |= w.box;
        QVERIFY2(first.width() > 0.9 * 510, qPrintable(QString::number(first.width())));
        // A model's name breaks, if at all, where it may: after a hyphen, never inside "anthropic:clau|de".
        const QStringList models{QStringLiteral("anthropic:claude-haiku-4-5"), QStringLiteral("local:gemma-3-270m")};
        int seen = 0;
        for (int page = 1; page <= pages; ++page) {
            for (const Word &w : wordsOf(path, page)) {
                static const QRegularExpression trailing(QStringLiteral("[,·]+$"));
                const QString word = QString(w.text).remove(trailing);
                for (const QString &model : models) {
                    if (!word.startsWith(model.left(model.indexOf(u':') + 2)))
                        continue;
                    ++seen;
                    QVERIFY2(word == model || (model.startsWith(word) && word.endsWith(u'-')),
                             qPrintable(QStringLiteral("page %1: %2").arg(page).arg(word)));
                }
            }
        }
        QVERIFY(seen > 10);
        // No page ends with a heading whose table or chart starts on the next.
        static const QRegularExpression heading(QStringLiteral(
            "^(What was measured|Contamination check|Charts|Statistics|Verdicts|Pass rate, |Lift from the skill, |"
            "Tokens, cost and latency|Cost-effectiveness, |Suite health|Cases|Case matrix|Failures and errors)"));
        for (int page = 1; page <= pages; ++page) {
            QStringList lines = linesOf(path, page);
            if (!lines.isEmpty() && lines.last() == QString::number(page))
                lines.removeLast(); // the page number
            QVERIFY2(
                !lines.isEmpty() && !heading.match(lines.last()).hasMatch(),
                qPrintable(QStringLiteral("page %1 ends with \"%2\"").arg(page).arg(lines.value(lines.size() - 1))));
        }
    }

    // The PDF's charts are painted from SvgWriter's SVG by hand: a number that does not read is a writer bug, and is
    // said, not drawn as a silent 0.
    void svgPainter_numberThatDoesNotRead_isReportedNotDrawnAsZero()
    {
        const QString chart = QStringLiteral("<svg width=\"100\" height=\"50\" font-family=\"DejaVu Sans\">"
                                             "<rect x=\"1\" y=\"2\" width=\"30\" height=\"20\" fill=\"#336699\"/>"
                                             "<line x1=\"0\" y1=\"0\" x2=\"%1\" y2=\"40\" stroke=\"#222222\" "
                                             "stroke-dasharray=\"2 2\"/>"
                                             "<text x=\"50\" y=\"45\" font-size=\"10\" text-anchor=\"middle\" "
                                             "transform=\"rotate(-90 50 45)\">Pass rate</text></svg>");
        QImage image(200, 100, QImage::Format_ARGB32);
        QPainter painter(&image);
        QCOMPARE(report::svgSize(chart.arg(QStringLiteral("90"))), QSizeF(100, 50));
        QVERIFY(report::paintSvg(chart.arg(QStringLiteral("90")), painter, QRectF(0, 0, 200, 100)));
        QVERIFY(!report::paintSvg(chart.arg(QStringLiteral("9O")), painter, QRectF(0, 0, 200, 100)));
        QVERIFY(report::svgSize(QStringLiteral("<svg width=\"1OO\" height=\"50\"/>")).isEmpty());
    }

    void pdfPages_chartThatDoesNotReadWhole_isRefusedNotPrinted()
    {
        // What PdfReport turns into "a chart could not be drawn as written": print() says a chart did not read.
        const QString chart = QStringLiteral("<svg width=\"100\" height=\"50\" font-family=\"DejaVu Sans\">"
                                             "<rect x=\"1\" y=\"2\" width=\"%1\" height=\"20\" fill=\"#336699\"/>"
                                             "</svg>");
        for (const auto &[width, printed] : {std::pair{QStringLiteral("30"), true}, {QStringLiteral("3O"), false}}) {
            QTemporaryDir dir;
            QPdfWriter writer(dir.filePath(QStringLiteral("chart.pdf")));
            report::PdfPages pages(writer, QFont(QStringLiteral("DejaVu Sans"), 10));
            const QString paragraph = pages.chart(chart.arg(width));
            QVERIFY(!paragraph.isEmpty()); // its size reads; one of its numbers does not
            pages.setHtml(QStringLiteral("<html><body><p>Before the chart.</p>%1</body></html>").arg(paragraph));
            QCOMPARE(pages.print(), printed);
        }
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
        QStandardPaths::findExecutable(QStringLiteral("pdfinfo")).isEmpty() ||
        QStandardPaths::findExecutable(QStringLiteral("pdfimages")).isEmpty()) {
        return sf::test::skipAll(
            QStringLiteral("pdftotext/pdfinfo/pdfimages are not installed (Debian: apt-get install "
                           "poppler-utils); the PDF report was not read back"));
    }
    TestReportPdf test;
    return sf::test::execCountingSkips(&test, argc, argv);
}

#include "test_report_pdf.moc"
