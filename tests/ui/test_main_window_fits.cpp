// The main window fits the smallest screen Skillforge supports (1280×800) whatever the project holds: names of
// ~150 characters for runs, skills, suites, traces, models and kernel tasks elide instead of widening the window,
// in every view, in both themes, and a saved geometry larger than the screen is brought back onto it.
#include "MainWindow.h"
#include "OffscreenScreen.h"
#include "SkippedChecks.h"
#include "TestFiles.h"
#include "common/Theme.h"
#include "compare/CompareView.h"
#include "jobs/Job.h"
#include "jobs/JobListModel.h"
#include "project/AppSettings.h"
#include "project/SampleProject.h"

#include <QApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScreen>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <functional>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

constexpr QSize kSmallest{1280, 800};
/// What such a screen leaves a window's contents: a title bar, borders and a desktop panel take their share.
constexpr QSize kRoom{1264, 720};

/// A name of @p length characters that starts with @p stem, the way generated or imported names grow.
QString longName(const QString &stem, int length = 150)
{
    QString name = stem;
    while (name.size() < length)
        name += u"-and-its-long-qualifier"_s;
    return name.left(length);
}

bool rewrite(const QString &path, const std::function<QByteArray(QByteArray)> &change)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = change(file.readAll());
    file.close();
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(text) == text.size();
}

/// The shown widgets that cannot be made small (over 500 px wide or 400 px tall): where to look when the window is
/// too large.
QString widestParts(const QWidget *window)
{
    QStringList parts;
    for (const QWidget *widget : window->findChildren<QWidget *>()) {
        if (!widget->isVisibleTo(window))
            continue;
        const QSize least = widget->minimumSizeHint().expandedTo(widget->minimumSize());
        if (least.width() > 500 || least.height() > 400)
            parts.append(
                u"%1 '%2' %3x%4"_s.arg(QString::fromLatin1(widget->metaObject()->className()), widget->objectName())
                    .arg(least.width())
                    .arg(least.height()));
    }
    return parts.join(u"; "_s);
}

} // namespace

class TestMainWindowFits : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_project;
    QStringList m_runs; ///< newest first

    /// A copy of the fixture run @p fixture as runs/@p id with a long skill name and long model names.
    bool addRun(const QString &fixture, const QString &id, const QString &skill, const QString &started)
    {
        const QString dir = m_project + u"/runs/"_s + id;
        if (!test::copyTree(QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/runs/") + fixture, dir))
            return false;
        const std::function<QByteArray(QByteArray)> longModels = [](QByteArray text) -> QByteArray {
            const QByteArray haiku = "anthropic:" + longName(u"haiku"_s).toUtf8();
            const QByteArray gemma = "local:" + longName(u"gemma-3-270m"_s).toUtf8();
            return text.replace("anthropic:claude-haiku-4-5", haiku).replace("local:gemma-3-270m", gemma);
        };
        m_runs.prepend(dir);
        return rewrite(dir + u"/results.jsonl"_s, longModels) && rewrite(dir + u"/run.json"_s, [&](QByteArray text) {
                   QJsonObject run = QJsonDocument::fromJson(longModels(text)).object();
                   run[u"run_id"] = id;
                   run[u"started_at"] = started;
                   QJsonObject skillObject = run.value(u"skill").toObject();
                   skillObject[u"name"] = skill;
                   run[u"skill"] = skillObject;
                   QJsonObject suite = run.value(u"suite").toObject();
                   suite[u"path"] = QString(u"tests/"_s + longName(u"suite"_s) + u".json"_s);
                   run[u"suite"] = suite;
                   return QJsonDocument(run).toJson();
               });
    }

    /// Opens @p view on its first item (Compare: the newest run beside the one before it) and waits until it is read.
    static void openView(MainWindow &window, MainWindow::View view, const QStringList &runs)
    {
        window.showView(view);
        window.openFirstItemFor(view);
        if (view == MainWindow::View::Compare)
            static_cast<CompareView *>(window.page(view))->showRuns(runs.value(0), runs.value(1));
        QTRY_VERIFY_WITH_TIMEOUT(!window.page(view)->isBusy(), 20000);
        QTest::qWait(0);
        QCoreApplication::processEvents();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(u"skillforge-test-window-fits"_s);
        AppSettings().setWindowGeometry({});
        AppSettings().setWindowState({});
        m_project = m_dir.filePath(u"sample"_s);
        QCOMPARE(SampleProject::ensureInstalled(m_project), QString());
        const QString skill = longName(u"diffusers-cuda-rmsnorm"_s);
        QVERIFY(addRun(u"skill-v1"_s, u"20261121T100001Z-000001"_s, skill, u"2026-11-21T10:00:01Z"_s));
        QVERIFY(addRun(u"skill-v2"_s, u"20261122T100002Z-000002"_s, skill, u"2026-11-22T10:00:02Z"_s));
        QVERIFY(addRun(u"skill-v2"_s, u"20261123T100003Z-000003"_s, longName(u"another-skill"_s),
                       u"2026-11-23T10:00:03Z"_s));
        // Skills, suites, traces and kernel tasks with long names beside the sample's own.
        const QString sampleSkill = m_project + u"/skills/diffusers-cuda-rmsnorm"_s;
        QVERIFY(test::copyTree(sampleSkill, m_project + u"/skills/"_s + longName(u"a-skill"_s)));
        QVERIFY(QFile::copy(m_project + u"/tests/rmsnorm-cpu-checks.json"_s,
                            m_project + u"/tests/"_s + longName(u"a-suite"_s) + u".json"_s));
        QVERIFY(QFile::copy(m_project + u"/traces/rmsnorm-flux-session.jsonl"_s,
                            m_project + u"/traces/"_s + longName(u"a-trace"_s) + u".jsonl"_s));
        QVERIFY(test::copyTree(QStringLiteral(SKILLFORGE_SOURCE_DIR "/resources/kernels/rmsnorm"),
                               m_project + u"/kernels/"_s + longName(u"a-kernel-task"_s)));
    }

    void everyView_longNames_fitsTheSmallestScreen_data()
    {
        QTest::addColumn<Theme::Mode>("theme");
        QTest::addColumn<MainWindow::View>("view");
        for (const Theme::Mode theme : {Theme::Mode::Light, Theme::Mode::Dark}) {
            for (const MainWindow::View view : MainWindow::AllViews)
                QTest::addRow("%s %s", qPrintable(Theme::nameOf(theme)), qPrintable(MainWindow::viewName(view)))
                    << theme << view;
        }
    }

    void everyView_longNames_fitsTheSmallestScreen()
    {
        QFETCH(Theme::Mode, theme);
        QFETCH(MainWindow::View, view);
        JobListModel jobs;
        MainWindow window(&jobs);
        QCOMPARE(window.openProject(m_project, true), QString());
        window.resize(kSmallest);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // The theme changed while the window is open, as Preferences does, and a job with a long title is listed.
        Theme::apply(theme);
        jobs.add(new Job(u"Evaluate "_s + longName(u"diffusers-cuda-rmsnorm"_s)));
        openView(window, view, m_runs);

        const QSize least = window.minimumSizeHint().expandedTo(window.minimumSize());
        qInfo("%s: the window's minimum size is %dx%d", QTest::currentDataTag(), least.width(), least.height());
        QVERIFY2(
            least.width() <= kRoom.width() && least.height() <= kRoom.height(),
            qPrintable(
                u"%1x%2; too wide or tall: %3"_s.arg(least.width()).arg(least.height()).arg(widestParts(&window))));
        window.resize(kSmallest);
        QTRY_COMPARE(window.size(), kSmallest);
        Theme::apply(Theme::Mode::Light);
    }

    void savedGeometryLargerThanTheScreen_isBroughtOntoIt()
    {
        const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
        {
            JobListModel jobs;
            MainWindow window(&jobs);
            window.resize(available.size() + QSize(900, 600));
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.close(); // saves the oversized geometry
        }
        JobListModel jobs;
        MainWindow again(&jobs);
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QVERIFY2(again.frameGeometry().width() <= available.width() &&
                     again.frameGeometry().height() <= available.height(),
                 qPrintable(u"%1x%2 on a %3x%4 screen"_s.arg(again.frameGeometry().width())
                                .arg(again.frameGeometry().height())
                                .arg(available.width())
                                .arg(available.height())));
        QVERIFY(available.contains(again.frameGeometry().topLeft()));
        AppSettings().setWindowGeometry({});
        AppSettings().setWindowState({});
    }
};

int main(int argc, char **argv)
{
    // One screen of the smallest size supported, so that a restored geometry has a real screen to come back onto.
    QTemporaryDir screens;
    if (!test::useOffscreenScreen(kSmallest, screens.filePath(u"screens.json"_s)))
        return 2;
    QApplication app(argc, argv);
    TestMainWindowFits test;
    QTEST_SET_MAIN_SOURCE_PATH
    return sf::test::execCountingSkips(&test, argc, argv);
}

#include "test_main_window_fits.moc"
