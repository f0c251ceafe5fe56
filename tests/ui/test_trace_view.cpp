#include "SkippedChecks.h"
#include "common/StatusMessages.h"
#include "common/Theme.h"
#include "jobs/JobListModel.h"
#include "project/Project.h"
#include "project/SampleProject.h"
#include "trace/ContextChart.h"
#include "trace/StepDelegate.h"
#include "trace/StepDetailView.h"
#include "trace/TraceFilterModel.h"
#include "trace/TraceSelection.h"
#include "trace/TraceTimelineModel.h"
#include "trace/TraceView.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QFile>
#include <QGuiApplication>
#include <QPlainTextEdit>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

using namespace sf;
using namespace Qt::StringLiterals;

/// The Trace view as a user drives it: open the sample session, find, filter, select and keep steps.
class TestTraceView : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_projectRoot;
    QString m_tracePath;

    void openSample(TraceView &view, JobListModel *jobs = nullptr)
    {
        view.setJobs(jobs);
        QSignalSpy loaded(&view, &TraceView::loaded);
        view.openPath(m_tracePath);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_projectRoot = m_dir.filePath(u"sample"_s);
        QCOMPARE(SampleProject::ensureInstalled(m_projectRoot), QString());
        m_tracePath = m_projectRoot + u"/traces/rmsnorm-flux-session.jsonl"_s;
        QVERIFY(QFile::exists(m_tracePath));
    }

    void openSample_showsTimelineTotalsAndChart()
    {
        JobListModel jobs;
        TraceView view;
        view.resize(1000, 700);
        view.show();
        openSample(view, &jobs);
        QCOMPARE(view.timeline()->model()->rowCount(), 79);
        QVERIFY(view.statusText().contains(u"claude-code"_s));
        QVERIFY2(view.statusText().contains(u"cache read 718"_s), qPrintable(view.statusText()));
        // The trace's total cost by the pricing table, the figure `skillforge trace stats` gives ($1.09112075).
        QVERIFY2(view.statusText().contains(u"cost $1.09 by the pricing table"_s), qPrintable(view.statusText()));
        QCOMPARE(view.contextChart()->pointCount(), 25);
        QCOMPARE(jobs.rowCount(), 1);
        QVERIFY(!view.textEditor()->toPlainText().isEmpty());
    }

    void find_movesThroughMatchesAndUnfoldsThinking()
    {
        TraceView view;
        openSample(view);
        QVERIFY(view.findNext(u"rsqrt"_s));
        const QModelIndex first = view.timeline()->currentIndex();
        QVERIFY(first.isValid());
        QVERIFY(view.detail()->primaryEditor()->textCursor().hasSelection());
        QVERIFY(view.findNext(u"rsqrt"_s));
        const QModelIndex second = view.timeline()->currentIndex();
        QVERIFY(second.row() > first.row());
        QVERIFY(view.findNext(u"rsqrt"_s, true));
        QCOMPARE(view.timeline()->currentIndex().row(), first.row());
        // The counter counts matches, not steps; Previous from the first wraps to the last, Next from there to the
        // first.
        const QString status = view.findStatus();
        QVERIFY2(status.startsWith(u"Match 1 of "_s), qPrintable(status));
        const int total = status.section(u' ', 3).remove(u',').toInt();
        QVERIFY(total >= 2);
        QVERIFY(view.findNext(u"rsqrt"_s, true));
        QCOMPARE(view.findStatus(), u"Match %1 of %1"_s.arg(total));
        const int last = view.timeline()->currentIndex().row();
        QVERIFY(last > second.row() || total == 2);
        QVERIFY(view.findNext(u"rsqrt"_s, true));
        QCOMPARE(view.findStatus(), u"Match %1 of %2"_s.arg(total - 1).arg(total)); // the one before, not a wrap
        QVERIFY(view.timeline()->currentIndex().row() < last);
        QVERIFY(view.findNext(u"rsqrt"_s));
        QVERIFY(view.findNext(u"rsqrt"_s));
        QCOMPARE(view.findStatus(), u"Match 1 of %1"_s.arg(total));
        QCOMPARE(view.timeline()->currentIndex().row(), first.row());
        // Moving by hand: the next find starts from the row the user is on.
        view.timeline()->setCurrentIndex(second);
        QVERIFY(view.findNext(u"rsqrt"_s, true));
        QCOMPARE(view.timeline()->currentIndex().row(), first.row());
        QVERIFY(!view.findNext(u"no such text anywhere 42"_s));
        QCOMPARE(view.findStatus(), u"Not found"_s);

        // Thinking is folded in the timeline, yet find reaches into it and shows it whole.
        const Trace *trace = view.trace();
        QString thought;
        for (const TraceStep &step : trace->threads[0].steps)
            if (step.kind == StepKind::Thinking && step.text.toString().size() > 40) {
                thought = step.text.toString().mid(10, 25);
                break;
            }
        QVERIFY(!thought.isEmpty());
        QVERIFY(view.findNext(thought));
        QCOMPARE(view.timeline()->currentIndex().data(TraceTimelineModel::KindRole).toInt(), int(StepKind::Thinking));
        QVERIFY(view.detail()->primaryEditor()->toPlainText().contains(thought));
    }

    void filters_sayTheyAreOn_dropAHiddenStep_andShowAllUndoes()
    {
        TraceView view;
        openSample(view);
        QCOMPARE(view.filterStatus(), QString());
        // The first user message is current and shown in full.
        view.timeline()->setCurrentIndex(view.timeline()->model()->index(0, 0));
        QCOMPARE(view.timeline()->currentIndex().data(TraceTimelineModel::KindRole).toInt(), int(StepKind::UserText));
        const QString userText = view.timeline()->currentIndex().data(TraceTimelineModel::FullTextRole).toString();
        QVERIFY(view.detail()->primaryEditor()->toPlainText().contains(userText.left(30)));
        view.setKindVisible(StepKind::UserText, false);
        QVERIFY2(view.filterStatus().startsWith(u"Showing "_s), qPrintable(view.filterStatus()));
        QVERIFY(!view.detail()->primaryEditor()->toPlainText().contains(userText.left(30)));
        bool kindsSaysSo = false;
        for (QToolButton *button : view.findChildren<QToolButton *>())
            kindsSaysSo = kindsSaysSo || button->text() == u"Kinds (6 of 7)"_s;
        QVERIFY(kindsSaysSo);
        view.clearFilters();
        QCOMPARE(view.filterStatus(), QString());
        QCOMPARE(view.filterModel()->isKindVisible(StepKind::UserText), true);
    }

    void contextChart_followsTheDarkTheme()
    {
        Theme::apply(Theme::Mode::Dark);
        ContextChart chart;
        const QColor darkBase = QApplication::palette().color(QPalette::Base);
        QVERIFY(darkBase.lightness() < 100);
        QCOMPARE(chart.findChild<QChartView *>()->chart()->backgroundBrush().color(), darkBase);
        // Every kind's badge stays readable on the dark base (the result brown was nearly black there).
        for (int kind = 0; kind < StepKindCount; ++kind)
            QVERIFY2(StepDelegate::kindColor(kind).lightness() - darkBase.lightness() > 60,
                     qPrintable(StepDelegate::kindLabel(kind)));
        // A theme changed while the chart is open restyles it too.
        Theme::apply(Theme::Mode::Light);
        QCoreApplication::processEvents();
        const QColor lightBase = QApplication::palette().color(QPalette::Base);
        QVERIFY(lightBase.lightness() > 150);
        QCOMPARE(chart.findChild<QChartView *>()->chart()->backgroundBrush().color(), lightBase);
        Theme::apply(Theme::Mode::System);
    }

    void showThinking_keepsTheSelection()
    {
        TraceView view;
        openSample(view);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.selectSteps({{0, 1}, {0, 2}});
        QToolButton *thinking = nullptr;
        for (QToolButton *button : view.findChildren<QToolButton *>())
            if (button->text() == u"Show thinking"_s)
                thinking = button;
        QVERIFY(thinking);
        thinking->click();
        QCOMPARE(view.selectedSteps().size(), size_t(2));
        thinking->click();
        QCOMPARE(view.selectedSteps().size(), size_t(2));
    }

    void filters_byKindAndTool()
    {
        TraceView view;
        openSample(view);
        for (StepKind kind : {StepKind::UserText, StepKind::AssistantText, StepKind::Thinking, StepKind::System,
                              StepKind::ToolResult, StepKind::Image})
            view.setKindVisible(kind, false);
        QCOMPARE(view.timeline()->model()->rowCount(), 26);
        view.setKindVisible(StepKind::ToolResult, true);
        view.setToolFilter(u"Bash"_s);
        QCOMPARE(view.timeline()->model()->rowCount(), 26); // 13 calls and their 13 results
        // The toolbar says a filter is on and how much it shows (issue 24.12).
        const int total = int(view.timelineModel()->displayOrder().size());
        QCOMPARE(view.filterStatus(), u"Showing 26 of %1 steps"_s.arg(total));
        // Find skips what the filter hides.
        QVERIFY(!view.findNext(u"TodoWrite"_s));
        view.setToolFilter(QString());
        QCOMPARE(view.timeline()->model()->rowCount(), 52);
    }

    void selection_keptWithTheProjectAndCopiedAsMarkdown()
    {
        auto opened = Project::open(m_projectRoot);
        QVERIFY(std::holds_alternative<Project>(opened));
        const Project &project = std::get<Project>(opened);
        TraceView view;
        view.setProject(&project);
        openSample(view);
        view.selectSteps({{0, 1}, {0, 3}, {0, 2}});
        const auto selected = view.selectedSteps();
        QCOMPARE(selected.size(), size_t(3));
        QCOMPARE(selected[1], std::make_pair(0, 2));
        const QString markdown = view.selectionAsMarkdown();
        QVERIFY(markdown.startsWith(u"### "_s));
        QSignalSpy messages(&StatusMessages::instance(), &StatusMessages::message);
        auto *copy = view.findChild<QToolButton *>(u"copySelection"_s);
        QVERIFY(copy && copy->isEnabled());
        copy->click();
        QCOMPARE(QGuiApplication::clipboard()->text(), markdown);
        QCOMPARE(messages.value(0).value(0).toString(), u"Copied 3 steps as Markdown"_s);
        QCOMPARE(view.useSelectionForGeneration(), QString());
        // Kept steps are marked in the timeline.
        QVERIFY(view.timelineModel()->isKept(0, 2));
        QVERIFY(!view.timelineModel()->isKept(0, 0));
        QVERIFY(view.timelineModel()->indexFor(0, 3).data(TraceTimelineModel::KeptRole).toBool());
        const QString file = TraceSelection::selectionPathFor(m_projectRoot, m_tracePath);
        QVERIFY(file.contains(u"/traces/.selections/"_s));
        const Result<TraceSelection> saved = TraceSelection::load(file);
        QVERIFY(saved);
        QCOMPARE(saved.value->steps.size(), size_t(3));
        QCOMPARE(saved.value->tracePath, u"traces/rmsnorm-flux-session.jsonl"_s);
        QCOMPARE(saved.value->format, u"claude-code"_s);

        // Opening the trace again brings the selection back.
        TraceView again;
        again.setProject(&project);
        openSample(again);
        QCOMPARE(again.selectedSteps().size(), size_t(3));
    }

    void rows_asTallAsTheFontNeeds_inBothThemes()
    {
        // Descenders and underscores were cut: "file_path" read "file path", "your" read "vour".
        for (const Theme::Mode mode : {Theme::Mode::Light, Theme::Mode::Dark}) {
            Theme::apply(mode);
            TraceView view;
            view.resize(1000, 700);
            view.show();
            openSample(view);
            QTreeView *tree = view.timeline();
            QFont bold = tree->font();
            bold.setBold(true);
            const int needed = std::max(QFontMetrics(tree->font()).height(), QFontMetrics(bold).height()) +
                               2 * StepDelegate::VerticalPadding;
            QCOMPARE(StepDelegate::rowHeight(tree->font()), needed);
            for (int row : {0, 1, 40}) {
                const QModelIndex index = tree->model()->index(row, TraceTimelineModel::StepColumn);
                QVERIFY2(tree->visualRect(index).height() >= needed,
                         qPrintable(u"%1 < %2"_s.arg(tree->visualRect(index).height()).arg(needed)));
            }
        }
        Theme::apply(Theme::Mode::System);
    }

    void contextChart_axisLabelsNeverRepeat()
    {
        const auto labels = [](double max) {
            const ContextChart::NiceAxis axis = ContextChart::niceAxis(max, 2);
            QStringList out;
            for (int i = 0; i < axis.ticks; ++i)
                out << QString::number(i * axis.top / (axis.ticks - 1), 'f', axis.decimals);
            return out;
        };
        QCOMPARE(labels(1.6), QStringList({u"0"_s, u"1"_s, u"2"_s})); // was "0k, 1k, 1k"
        QCOMPARE(labels(0.9), QStringList({u"0.0"_s, u"0.5"_s, u"1.0"_s}));
        QCOMPARE(labels(2.0), QStringList({u"0"_s, u"1"_s, u"2"_s}));
        QCOMPARE(labels(37), QStringList({u"0"_s, u"20"_s, u"40"_s}));
        QCOMPARE(labels(0.012), QStringList({u"0.00"_s, u"0.01"_s, u"0.02"_s}));
        for (const double max : {0.3, 1.05, 1.6, 7.7, 15.0, 99.0, 123.4, 5000.0}) {
            const QStringList shown = labels(max);
            QVERIFY2(QSet<QString>(shown.cbegin(), shown.cend()).size() == shown.size(), qPrintable(shown.join(u", ")));
            QVERIFY(ContextChart::niceAxis(max, 2).top >= max);
        }
        // The sample's chart as drawn.
        TraceView view;
        openSample(view);
        const QStringList drawn = view.contextChart()->verticalLabels();
        QVERIFY(drawn.size() >= 2);
        QCOMPARE(QSet<QString>(drawn.cbegin(), drawn.cend()).size(), drawn.size());
    }

    void failedImport_keepsTheOpenTrace_andSaysWhy()
    {
        TraceView view;
        openSample(view);
        QSignalSpy failed(&view, &TraceView::loadFailed);
        view.openPath(QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/trace/nasty/binary-garbage.dat"));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 10000);
        QCOMPARE(view.timeline()->model()->rowCount(), 79); // the trace that was open is still there
        QCOMPARE(view.currentPath(), m_tracePath);
        QVERIFY(view.statusText().contains(u"Could not import binary-garbage.dat"_s));
        QVERIFY(view.statusText().contains(u"claude-code"_s)); // and its header below the error
    }

    void importFile_copiesTheTraceIntoTheProject_once_andNotAFileThatIsNoTrace()
    {
        QTemporaryDir folder;
        auto created = Project::create(folder.filePath(u"p"_s), u"P"_s);
        QVERIFY(std::holds_alternative<Project>(created));
        const Project &project = std::get<Project>(created);
        TraceView view;
        view.setProject(&project);
        QSignalSpy added(&view, &TraceView::traceAdded);
        QSignalSpy messages(&StatusMessages::instance(), &StatusMessages::message);
        const QString outside =
            QStringLiteral(SKILLFORGE_SOURCE_DIR) + u"/resources/sample-project/traces/rmsnorm-flux-session.jsonl"_s;
        view.importFile(outside);
        QTRY_COMPARE_WITH_TIMEOUT(added.count(), 1, 10000);
        const QString copy = project.tracesPath() + u"/rmsnorm-flux-session.jsonl"_s;
        QCOMPARE(added.first().first().toString(), copy);
        QCOMPARE(view.currentPath(), copy);
        QVERIFY(messages.last().first().toString().contains(u"Added rmsnorm-flux-session.jsonl to the project"_s));
        QCOMPARE(project.items(ProjectItem::Kind::Trace).size(), 1);

        // The same file again: no second copy.
        TraceView other;
        other.setProject(&project);
        QSignalSpy loaded(&other, &TraceView::loaded);
        other.importFile(outside);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        QCOMPARE(other.currentPath(), copy);
        QCOMPARE(project.items(ProjectItem::Kind::Trace).size(), 1);

        // What does not read as a trace is not left in the project, and the open trace stays.
        QSignalSpy failed(&view, &TraceView::loadFailed);
        view.importFile(QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/trace/nasty/binary-garbage.dat"));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 10000);
        QCOMPARE(project.items(ProjectItem::Kind::Trace).size(), 1);
        QVERIFY(!QFile::exists(project.tracesPath() + u"/binary-garbage.dat"_s));
        QCOMPARE(view.currentPath(), copy);
        QCOMPARE(added.count(), 1);
    }

    void notATrace_showsTheImportError()
    {
        TraceView view;
        QSignalSpy failed(&view, &TraceView::loadFailed);
        view.openPath(QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/trace/nasty/binary-garbage.dat"));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 10000);
        QVERIFY(view.statusText().contains(u"tried: claude-code"_s));
        QCOMPARE(view.timeline()->model()->rowCount(), 0);
    }
};

SF_TEST_MAIN(TestTraceView)
#include "test_trace_view.moc"
