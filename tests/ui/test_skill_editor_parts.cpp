// The Skill view's building blocks on their own: the source editor, the debounced background task, the
// problems model, the recovery store and the side-by-side diff.
#include "SkippedChecks.h"
#include "skill/DebouncedTask.h"
#include "skill/DiffView.h"
#include "skill/ProblemsModel.h"
#include "skill/RecoveryStore.h"
#include "skill/SkillEditor.h"

#include <QAbstractItemModelTester>
#include <QSemaphore>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <atomic>

using namespace sf;

class TestSkillEditorParts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("skillforge-test-skill-parts"));
    }

    void editor_replaceText_changesOnlyTheMiddle_asOneUndoStep()
    {
        SkillEditor editor;
        editor.setPlainText(QStringLiteral("alpha\nbeta\ngamma\n"));
        QTextCursor cursor = editor.textCursor();
        cursor.setPosition(2);
        editor.setTextCursor(cursor);
        editor.replaceText(QStringLiteral("alpha\nBETA!\ngamma\n"));
        QCOMPARE(editor.toPlainText(), QStringLiteral("alpha\nBETA!\ngamma\n"));
        QCOMPARE(editor.textCursor().position(), 2); // before the change: untouched
        editor.undo();
        QCOMPARE(editor.toPlainText(), QStringLiteral("alpha\nbeta\ngamma\n"));
        QVERIFY(!editor.document()->isUndoAvailable());
        editor.replaceText(editor.toPlainText()); // no change, no undo step
        QVERIFY(!editor.document()->isUndoAvailable());
    }

    void editor_goTo_movesCursorToLineAndColumn_gutterFitsDigits()
    {
        SkillEditor editor;
        QStringList lines;
        for (int i = 1; i <= 1200; ++i)
            lines.append(QStringLiteral("line %1").arg(i));
        editor.setPlainText(lines.join(u'\n'));
        editor.resize(600, 300);
        editor.show();
        editor.goTo(900, 3);
        QCOMPARE(editor.cursorLine(), 900);
        QCOMPARE(editor.textCursor().positionInBlock(), 2);
        QVERIFY(editor.firstVisibleLine() > 850 && editor.firstVisibleLine() <= 900);
        QVERIFY(editor.gutterWidth() >= 4 * editor.fontMetrics().horizontalAdvance(u'9'));
    }

    void debouncedTask_coalescesRequests_oneRunInFlight_oneMoreAfter()
    {
        std::atomic<int> inFlight = 0;
        std::atomic<int> maxInFlight = 0;
        QSemaphore gate;
        int prepared = 0;
        int applied = 0;
        DebouncedTask task(5, [&]() -> DebouncedTask::Work {
            ++prepared;
            return [&]() -> DebouncedTask::Apply {
                const int now = ++inFlight;
                maxInFlight = std::max(maxInFlight.load(), now);
                gate.acquire();
                --inFlight;
                return [&] { ++applied; };
            };
        });
        QSignalSpy finished(&task, &DebouncedTask::finished);
        // A burst of requests within the interval: one run.
        for (int i = 0; i < 10; ++i)
            task.request();
        QTRY_VERIFY(task.isRunning());
        QCOMPARE(prepared, 1);
        // Requests while it runs: exactly one more run after it.
        task.request();
        task.runNow();
        task.runNow();
        gate.release();
        QTRY_COMPARE(finished.count(), 1);
        QTRY_COMPARE(prepared, 2);
        gate.release();
        QTRY_COMPARE(finished.count(), 2);
        QCOMPARE(applied, 2);
        QCOMPARE(maxInFlight.load(), 1);
        QVERIFY(!task.isBusy());

        // A cancelled run's result is dropped.
        task.runNow();
        QTRY_VERIFY(task.isRunning());
        task.cancel();
        gate.release();
        QTRY_VERIFY(!task.isRunning());
        QCOMPARE(applied, 2);
    }

    void problemsModel_passesTester_countsAndRoles()
    {
        ProblemsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        SkillProblem error;
        error.file = QStringLiteral("SKILL.md");
        error.line = 2;
        error.column = 7;
        error.code = QStringLiteral("name-mismatch");
        error.message = QStringLiteral("name differs from the folder");
        SkillProblem warning = error;
        warning.severity = SkillProblem::Severity::Warning;
        warning.line = 0;
        warning.code = QStringLiteral("description-no-trigger");
        model.setProblems({error, warning});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.errorCount(), 1);
        QCOMPARE(model.warningCount(), 1);
        QCOMPARE(model.index(0, ProblemsModel::LocationColumn).data().toString(), QStringLiteral("SKILL.md:2:7"));
        QCOMPARE(model.index(1, ProblemsModel::LocationColumn).data().toString(), QStringLiteral("SKILL.md"));
        QCOMPARE(model.index(0, ProblemsModel::MessageColumn).data().toString(), error.message);
        QCOMPARE(model.index(0, 0).data(ProblemsModel::LineRole).toInt(), 2);
        QCOMPARE(model.index(1, 0).data(ProblemsModel::ProblemCodeRole).toString(), warning.code);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setProblems({error, warning}); // the same: no reset, the selection stays
        QCOMPARE(reset.count(), 0);
        model.setProblems({});
        QCOMPARE(model.rowCount(), 0);
    }

    void recoveryStore_roundTrip_perFile()
    {
        QTemporaryDir dir;
        RecoveryStore store(dir.filePath(QStringLiteral("recovery")));
        const QString a = dir.filePath(QStringLiteral("skill/SKILL.md"));
        const QString b = dir.filePath(QStringLiteral("other/SKILL.md"));
        QVERIFY(!store.load(a));
        QCOMPARE(store.save(a, QStringLiteral("unsaved ✓ text")), QString());
        QVERIFY(store.recoveryFileFor(a) != store.recoveryFileFor(b));
        const auto entry = store.load(a);
        QVERIFY(entry);
        QCOMPARE(entry->text, QStringLiteral("unsaved ✓ text"));
        QCOMPARE(entry->path, a);
        QVERIFY(qAbs(entry->savedAt.secsTo(QDateTime::currentDateTimeUtc())) < 60);
        QVERIFY(!store.load(b));
        store.remove(a);
        QVERIFY(!store.load(a));
        QVERIFY(RecoveryStore::defaultDir().contains(QStringLiteral("skillforge-test-skill-parts")));
    }

    void diffView_alignsRowsAndCounts()
    {
        DiffView view;
        view.setTexts(QStringLiteral("a\nb\nc\nd\n"), QStringLiteral("a\nB\nc\nd\ne\n"), QStringLiteral("old"),
                      QStringLiteral("new"));
        QCOMPARE(view.rows().size(), 5);
        QCOMPARE(view.rows()[1].kind, DiffRow::Kind::Changed);
        QCOMPARE(view.leftLine(1), QStringLiteral("b"));
        QCOMPARE(view.rightLine(1), QStringLiteral("B"));
        QCOMPARE(view.rows()[4].kind, DiffRow::Kind::Added);
        QCOMPARE(view.leftLine(4), QString());
        QCOMPARE(view.addedLines(), 2);
        QCOMPARE(view.removedLines(), 1);
        // Both sides have one block per row, so they scroll in step.
        QCOMPARE(view.leftEdit()->document()->blockCount(), 5);
        QCOMPARE(view.rightEdit()->document()->blockCount(), 5);
        QVERIFY(view.rightEdit()->document()->findBlockByNumber(4).text().endsWith(u'e'));
        QVERIFY(view.leftEdit()->document()->findBlockByNumber(4).text().isEmpty());
        view.setTexts(QStringLiteral("same\n"), QStringLiteral("same\n"), {}, {});
        QCOMPARE(view.summary(), QStringLiteral("No differences"));
    }
};

SF_TEST_MAIN(TestSkillEditorParts)
#include "test_skill_editor_parts.moc"
