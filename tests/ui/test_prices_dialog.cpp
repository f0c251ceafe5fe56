#include "SkippedChecks.h"
#include "llm/HttpEngine.h"
#include "settings/PricesDialog.h"
#include "usage/Pricing.h"

#include <QApplication>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

// With SKILLFORGE_SCREENSHOT_DIR set, the dialog as a user sees it, for the GUI walk.
void screenshot(QWidget &widget, const QString &name)
{
    if (const QByteArray dir = qgetenv("SKILLFORGE_SCREENSHOT_DIR"); !dir.isEmpty())
        QVERIFY(widget.grab().save(QString::fromUtf8(dir) + u'/' + name));
}

} // namespace

/// Tools → Update Prices…: what the user reads about the prices in use, a lookup, and an update from a file.
class TestPricesDialog final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        qputenv("HOME", QFile::encodeName(m_home.path())); // an update is kept under home: a private one
        QStandardPaths::setTestModeEnabled(true);
    }

    void showsTheTableInUse_andLooksUpAPriceOnADay()
    {
        HttpEngine engine;
        PricesDialog dialog(engine);
        QVERIFY2(dialog.tableText().contains("genai-prices 0.2.5, shipped with Skillforge"_L1),
                 qPrintable(dialog.tableText()));
        dialog.lookUp(u"anthropic:claude-sonnet-5-5"_s, QDate(2026, 10, 1));
        QVERIFY2(dialog.lookupText().contains("$0.20 cache read"_L1), qPrintable(dialog.lookupText()));
        dialog.lookUp(u"anthropic:claude-sonnet-5-5"_s, QDate(2026, 11, 1));
        QVERIFY2(dialog.lookupText().contains("$0.10 cache read"_L1) &&
                     dialog.lookupText().contains("genai-prices: anthropic/claude-sonnet-5-5"_L1),
                 qPrintable(dialog.lookupText()));
        screenshot(dialog, u"prices-dialog-lookup.png"_s);
        dialog.lookUp(u"openai:gpt-unknown"_s, QDate(2026, 11, 1));
        QVERIFY2(dialog.lookupText().startsWith("Price unknown"_L1), qPrintable(dialog.lookupText()));
    }

    void update_fromAFileThatDoesNotRead_keepsThePrices_thenAGoodOneIsTaken()
    {
        HttpEngine engine;
        PricesDialog dialog(engine);
        QSignalSpy finished(&dialog, &PricesDialog::updateFinished);
        const QString cut = m_home.filePath(u"cut.json"_s);
        QFile shipped(QStringLiteral(SKILLFORGE_SOURCE_DIR) + u"/resources/pricing/genai-prices.json"_s);
        QVERIFY(shipped.open(QIODevice::ReadOnly));
        const QByteArray table = shipped.readAll();
        QFile file(cut);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(table.left(1000));
        file.close();
        dialog.setSource(cut);
        dialog.startUpdate();
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(finished.first().first().toBool(), false);
        QVERIFY2(dialog.statusText().startsWith("Not updated: "_L1) && dialog.statusText().contains(cut) &&
                     dialog.statusText().contains("kept"_L1),
                 qPrintable(dialog.statusText()));
        screenshot(dialog, u"prices-dialog-refused.png"_s);

        const QString good = m_home.filePath(u"data.json"_s);
        QVERIFY(QFile::copy(shipped.fileName(), good));
        dialog.setSource(good);
        dialog.startUpdate();
        QTRY_COMPARE(finished.size(), 2);
        QCOMPARE(finished.last().first().toBool(), true);
        QVERIFY2(dialog.statusText().startsWith("Updated from "_L1), qPrintable(dialog.statusText()));
        QVERIFY2(dialog.tableText().contains("updated from "_L1 + good), qPrintable(dialog.tableText()));
        screenshot(dialog, u"prices-dialog-updated.png"_s);
    }

private:
    QTemporaryDir m_home;
};

SF_TEST_MAIN(TestPricesDialog)
#include "test_prices_dialog.moc"
