#include "SkippedChecks.h"
#include "common/EmptyState.h"

#include <QFontMetrics>
#include <QLabel>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

/// The empty states' text is shown whole at any width a view gives it (it was cut off mid-sentence).
class TestEmptyState : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void text_isShownWhole_data()
    {
        QTest::addColumn<int>("width");
        QTest::newRow("a narrow pane") << 260;
        QTest::newRow("a main view") << 1100;
    }

    void text_isShownWhole()
    {
        QFETCH(int, width);
        const QString explanation = u"The comparison shows each student model with and without the skill: pass rate, "
                                    u"tokens, cost and latency. Run an evaluation from the Runs view to fill it."_s;
        EmptyState state;
        state.setText(u"Nothing to compare yet"_s, explanation);
        state.resize(width, 700);
        state.show();
        QVERIFY(QTest::qWaitForWindowExposed(&state));
        for (QLabel *label : state.findChildren<QLabel *>()) {
            QVERIFY(label->width() <= width);
            QVERIFY(label->x() >= 0 && label->geometry().right() < width);
            // The height the wrapped text needs at the label's width is the height it has.
            const QRect needed = QFontMetrics(label->font())
                                     .boundingRect(QRect(0, 0, label->width(), 10000), Qt::TextWordWrap | Qt::AlignCenter,
                                                   label->text());
            QVERIFY2(label->height() >= needed.height(),
                     qPrintable(u"%1: %2 px tall, needs %3"_s.arg(label->text().left(20)).arg(label->height()).arg(needed.height())));
        }
        QCOMPARE(state.explanation(), explanation);
    }
};

SF_TEST_MAIN(TestEmptyState)
#include "test_empty_state.moc"
