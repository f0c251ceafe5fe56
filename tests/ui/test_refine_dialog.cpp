// The Refine Skill dialog as a user drives it: two iterations against a scripted teacher and
// student, one proposal rejected and one accepted, the table and the lift chart filled in.
#include "ChatReplies.h"
#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"
#include "generate/RefineDialog.h"
#include "generate/RefineIterationsModel.h"
#include "jobs/Job.h"
#include "jobs/JobListModel.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/LocalRuntime.h"
#include "llm/ProviderRegistry.h"
#include "project/AppSettings.h"
#include "project/Project.h"
#include "skill/DiffView.h"
#include "skill/SkillVersionStore.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QLineSeries>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <memory>

using namespace sf;
using namespace sf::test;
using namespace Qt::StringLiterals;

namespace {

QByteArray skillText(const char *marker)
{
    return QByteArray("---\nname: demo\ndescription: The demo task. Use when asked for it.\n---\nAlways say ") +
           marker + ".\n";
}

} // namespace

class TestRefineDialog final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ScriptedHttpServer> m_server;
    std::unique_ptr<HttpEngine> m_engine;
    std::unique_ptr<ProviderRegistry> m_providers;
    std::unique_ptr<ChatClient> m_client;
    QTemporaryDir m_folder;
    std::optional<Project> m_project;
    JobListModel m_jobs;
    int m_teacherCalls = 0;
    bool m_teacherRefuses = false;     ///< the teacher answers with prose instead of a skill
    QList<QByteArray> m_teacherWrites; ///< when set: the markers the teacher writes, one per request, in order
    int m_teacherDelayMs = 0;          ///< how long the teacher thinks before answering

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        AppSettings().setLastStudentModels({});
        AppSettings().setLastTeacherModel({});
        m_server = std::make_unique<ScriptedHttpServer>();
        QVERIFY(m_server->listen());
        // The student passes only with the improved skill (MAGIC-V2); the teacher always writes it.
        m_server->routeHandler("POST", "/v1/chat/completions", [this](const RecordedRequest &request) {
            if (QJsonDocument::fromJson(request.body).object().value(u"model"_s).toString() == u"teacher"_s) {
                ++m_teacherCalls;
                if (m_teacherRefuses)
                    return scriptedReply(u"Sorry, I would rather not rewrite this skill today."_s);
                const QByteArray marker =
                    m_teacherWrites.isEmpty() ? QByteArray("MAGIC-V2") : m_teacherWrites.takeFirst();
                ReplyShape shape;
                shape.delayMs = m_teacherDelayMs;
                return scriptedReply(u"=== FILE: SKILL.md ===\n"_s + QString::fromUtf8(skillText(marker.constData())),
                                     shape);
            }
            return scriptedReply(request.body.contains("MAGIC-V2") ? u"PASS-TOKEN"_s : u"no idea"_s);
        });
        qputenv("OPENAI_BASE_URL", m_server->baseUrl().toEncoded() + "/v1");
        qputenv("OPENAI_API_KEY", "sk-test-0000");
        m_engine = std::make_unique<HttpEngine>();
        m_providers = std::make_unique<ProviderRegistry>();
        m_client = std::make_unique<ChatClient>(*m_engine, *m_providers, nullptr);

        auto created = Project::create(m_folder.filePath(u"project"_s), u"Demo"_s);
        QVERIFY(std::holds_alternative<Project>(created));
        m_project = std::get<Project>(created);
        QVERIFY(QDir().mkpath(m_project->skillsPath() + u"/demo"_s));
        QFile skill(m_project->skillsPath() + u"/demo/SKILL.md"_s);
        QVERIFY(skill.open(QIODevice::WriteOnly));
        skill.write(skillText("MAGIC-V1"));
        skill.close();
        QFile suite(m_project->testsPath() + u"/demo.json"_s);
        QVERIFY(suite.open(QIODevice::WriteOnly));
        suite.write(R"([{"id": "a", "input": "go", "expected": {"contains": ["PASS-TOKEN"]}},
                        {"id": "b", "input": "again", "expected": {"contains": ["PASS-TOKEN"]}},
                        {"id": "c", "input": "held", "expected": {"contains": ["PASS-TOKEN"]}, "split": "heldout"}])");
        suite.close();
    }

    void twoIterations_rejectThenAccept_fillTheTableAndTheChart()
    {
        RefineDialog dialog(*m_client, m_jobs, *m_project, refusingCommandRunner(u"none"_s));
        QAbstractItemModelTester tester(dialog.iterationsModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy changed(&dialog, &RefineDialog::skillChanged);
        dialog.show();
        QVERIFY(dialog.setSkill(u"demo"_s));
        QVERIFY(dialog.setSuite(u"demo.json"_s));
        dialog.setTeacher(u"openai:teacher"_s);
        dialog.setStudents({u"openai:student"_s});
        dialog.setTargetLift(1.0);
        dialog.setIterations(3);
        dialog.start();

        // First proposal: shown as a diff, then rejected; the teacher is asked again.
        QTRY_VERIFY_WITH_TIMEOUT(dialog.statusText().contains(u"proposes"_s), 30000);
        QCOMPARE(dialog.iterationsModel()->rowCount(), 1);
        QVERIFY(dialog.proposalDiff()->rightEdit()->toPlainText().contains(u"MAGIC-V2"_s));
        QVERIFY(dialog.proposalDiff()->leftEdit()->toPlainText().contains(u"MAGIC-V1"_s));
        dialog.rejectProposal();
        QTRY_COMPARE_WITH_TIMEOUT(m_teacherCalls, 2, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(dialog.statusText().contains(u"proposes"_s), 30000);

        // Second proposal accepted: evaluated, and the target lift stops the loop.
        dialog.acceptProposal();
        QTRY_VERIFY_WITH_TIMEOUT(dialog.statusText().startsWith(u"Stopped: target lift reached"_s), 30000);
        // Lifts in percentage points, as everywhere else (issue 35, item 25).
        QVERIFY2(dialog.statusText().startsWith(u"Stopped: target lift reached: +100.0 pp (target +100.0 pp)"_s),
                 qPrintable(dialog.statusText()));
        QVERIFY2(
            dialog.statusText().contains(u"Kept iteration 2 (+100.0 pp on the held-out cases): the best measured"_s),
            qPrintable(dialog.statusText()));
        RefineIterationsModel *model = dialog.iterationsModel();
        QCOMPARE(model->rowCount(), 2);
        QCOMPARE(model->index(0, RefineIterationsModel::Lift).data().toString(), u"0.0 pp"_s);
        QCOMPARE(model->index(1, RefineIterationsModel::Lift).data().toString(), u"+100.0 pp"_s);
        QCOMPARE(model->index(1, RefineIterationsModel::HeldOutLift).data().toString(), u"+100.0 pp"_s);
        QCOMPARE(model->kept(), 2);
        QCOMPARE(model->index(1, RefineIterationsModel::WithSkill).data().toString(), u"100%"_s);
        QCOMPARE(model->index(0, RefineIterationsModel::Decision).data().toString(), u"proposal accepted"_s);
        QCOMPARE(dialog.liftSeries()->count(), 2);
        QCOMPARE(dialog.liftSeries()->at(1).y(), 100.0); // the chart's axis is in points too
        QCOMPARE(changed.count(), 1);
        QCOMPARE(m_jobs.jobAt(0)->state(), Job::State::Finished);
        // The chart has room for its legend and ticks at the dialog's size (issue 24.10: it was squeezed to 120 px).
        auto *chart = dialog.findChild<QWidget *>(u"liftChart"_s);
        QVERIFY(chart);
        QVERIFY2(chart->width() >= 380 && chart->height() >= 240,
                 qPrintable(u"%1x%2"_s.arg(chart->width()).arg(chart->height())));

        // The next Refine starts with the teacher and students of this one (issue 24.21).
        RefineDialog next(*m_client, m_jobs, *m_project, refusingCommandRunner(u"none"_s));
        auto *teacher = next.findChild<QComboBox *>(u"teacherModel"_s);
        auto *students = next.findChild<QLineEdit *>(u"studentModels"_s);
        QVERIFY(teacher && students);
        QCOMPARE(teacher->currentText(), u"openai:teacher"_s);
        QCOMPARE(students->text(), u"openai:student"_s);
    }

    void oneImprovement_teacherFails_showsItsReply_andRetryAsksAgain()
    {
        m_teacherCalls = 0;
        m_teacherRefuses = true;
        QFile skill(m_project->skillsPath() + u"/demo/SKILL.md"_s);
        QVERIFY(skill.open(QIODevice::WriteOnly | QIODevice::Truncate));
        skill.write(skillText("MAGIC-V1"));
        skill.close();
        RefineDialog dialog(*m_client, m_jobs, *m_project, refusingCommandRunner(u"none"_s));
        dialog.show();
        QVERIFY(dialog.setSkill(u"demo"_s));
        QVERIFY(dialog.setSuite(u"demo.json"_s));
        dialog.setTeacher(u"openai:teacher"_s);
        dialog.setStudents({u"openai:student"_s});
        dialog.setAttended(false);
        dialog.setIterations(1); // one improvement: the teacher is asked
        dialog.start();

        QTRY_VERIFY_WITH_TIMEOUT(dialog.retryButton()->isVisible(), 30000);
        QCOMPARE(m_teacherCalls, 2); // the draft, then the repair request
        QVERIFY2(dialog.failedReplyView()->isVisible() &&
                     dialog.failedReplyView()->toPlainText().contains(u"rather not rewrite"_s),
                 qPrintable(dialog.failedReplyView()->toPlainText()));
        QVERIFY2(dialog.statusText().contains(u"Retry"_s) && dialog.statusText().contains(u"front matter"_s),
                 qPrintable(dialog.statusText()));
        QVERIFY(!dialog.statusText().contains(u"FILE: PATH"_s));
        QCOMPARE(dialog.iterationsModel()->rowCount(), 1); // the first evaluation stands

        m_teacherRefuses = false;
        dialog.retryButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(dialog.statusText().startsWith(u"Stopped: iteration limit reached"_s), 30000);
        QVERIFY(!dialog.retryButton()->isVisible());
        QCOMPARE(m_teacherCalls, 3);
        QCOMPARE(dialog.iterationsModel()->rowCount(), 2);
        QCOMPARE(dialog.iterationsModel()->index(1, RefineIterationsModel::WithSkill).data().toString(), u"100%"_s);
    }

    // Issue 35, item 12: the Teacher combo offered only anthropic:claude-opus-4-5 (no key set). The pickers offer the
    // embedded model and the models used recently, the callable ones first, and mark the ones without a key.
    void pickers_offerRecentAndEmbeddedModels_markTheKeyless_startOnOneThatAnswers()
    {
        qunsetenv("ANTHROPIC_API_KEY");
        QTemporaryDir folder;
        QFile file(folder.filePath(u"skillforge.json"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"format_version": 1, "name": "p", "defaults": {"teacher": "anthropic:claude-opus-4-5",
                       "students": ["anthropic:claude-haiku-4-5"]}})");
        file.close();
        auto opened = Project::open(folder.path());
        QVERIFY(std::holds_alternative<Project>(opened));
        const Project project = std::get<Project>(opened);
        AppSettings().setLastTeacherModel({});
        AppSettings().setLastStudentModels({});
        AppSettings().addRecentModels({u"openai:gpt-4.1-mini"_s});

        RefineDialog dialog(*m_client, m_jobs, project, refusingCommandRunner(u"none"_s));
        auto *teacher = dialog.findChild<QComboBox *>(u"teacherModel"_s);
        QVERIFY(teacher);
        QStringList listed;
        for (int i = 0; i < teacher->count(); ++i)
            listed << teacher->itemText(i);
        QVERIFY2(listed.first() == u"openai:gpt-4.1-mini"_s, qPrintable(listed.join(u" | "_s)));
        QVERIFY2(listed.contains(u"anthropic:claude-opus-4-5 (no key)"_s), qPrintable(listed.join(u" | "_s)));
        QVERIFY2(listed.indexOf(u"anthropic:claude-opus-4-5 (no key)"_s) > listed.indexOf(u"openai:gpt-4.1-mini"_s),
                 qPrintable(listed.join(u" | "_s)));
        QVERIFY(std::any_of(listed.cbegin(), listed.cend(),
                            [](const QString &text) { return text.startsWith(LocalRuntime::qualifiedModelName()); }));
        // A new user starts on a model that answers, not on the project's keyless teacher.
        QCOMPARE(teacher->currentText(), u"openai:gpt-4.1-mini"_s);
        // Picking a keyless one puts its bare name in the field, as it is sent; any other name can be typed.
        teacher->setCurrentIndex(teacher->findText(u"anthropic:claude-opus-4-5 (no key)"_s));
        QCOMPARE(teacher->currentText(), u"anthropic:claude-opus-4-5"_s);
        QCOMPARE(dialog.request().teacherModel, u"anthropic:claude-opus-4-5"_s);
        dialog.setTeacher(u"ollama:llama3.1"_s);
        QCOMPARE(dialog.request().teacherModel, u"ollama:llama3.1"_s);
        // The students' "+" adds from the same list.
        auto *add = dialog.findChild<QToolButton *>(u"addModel"_s);
        QVERIFY(add && add->menu());
        dialog.setStudents({u"openai:student"_s});
        for (QAction *action : add->menu()->actions()) {
            if (action->text() == u"openai:gpt-4.1-mini"_s)
                action->trigger();
        }
        QCOMPARE(dialog.request().config.models, (QStringList{u"openai:student"_s, u"openai:gpt-4.1-mini"_s}));
    }

    // Issue 35, item 2: the teacher's second version measures worse than its first; the loop ends on the better one,
    // says which it kept and why, and offers the others.
    void laterVersionWorse_keepsTheBest_saysWhich_andRestoresAnother()
    {
        m_teacherRefuses = false;
        m_teacherWrites = {"MAGIC-V2", "MAGIC-V3"};
        const QString skillPath = m_project->skillsPath() + u"/demo/SKILL.md"_s;
        QFile skill(skillPath);
        QVERIFY(skill.open(QIODevice::WriteOnly | QIODevice::Truncate));
        skill.write(skillText("MAGIC-V1"));
        skill.close();
        RefineDialog dialog(*m_client, m_jobs, *m_project, refusingCommandRunner(u"none"_s));
        QSignalSpy changed(&dialog, &RefineDialog::skillChanged);
        dialog.show();
        QVERIFY(dialog.selectSkillDir(m_project->skillsPath() + u"/demo"_s));
        QVERIFY(dialog.setSuite(u"demo.json"_s));
        dialog.setTeacher(u"openai:teacher"_s);
        dialog.setStudents({u"openai:student"_s});
        dialog.setAttended(false);
        dialog.setIterations(2);
        dialog.start();

        QTRY_VERIFY_WITH_TIMEOUT(dialog.statusText().startsWith(u"Stopped: iteration limit reached"_s), 60000);
        QCOMPARE(dialog.iterationsModel()->rowCount(), 3);
        // The last line says which version the skill holds and why, and that the others stay.
        const QStringList lines = dialog.statusText().split(u'\n');
        QVERIFY2(lines.size() == 2 &&
                     lines.last().startsWith(
                         u"Kept iteration 2 (+100.0 pp on the held-out cases): the best measured of 3. The other "
                         "versions stay"_s),
                 qPrintable(dialog.statusText()));
        const auto onDisk = [&skillPath] {
            QFile file(skillPath);
            return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        };
        QCOMPARE(onDisk(), skillText("MAGIC-V2"));
        QCOMPARE(dialog.iterationsModel()->index(1, RefineIterationsModel::Decision).data().toString(),
                 u"proposal accepted; kept in the skill"_s);

        // The others are offered: select iteration 3 and put it back.
        auto *table = dialog.findChild<QTableView *>();
        QVERIFY(table);
        table->selectRow(1);
        QVERIFY(!dialog.restoreButton()->isEnabled()); // the one the skill holds already
        table->selectRow(2);
        QVERIFY(dialog.restoreButton()->isEnabled());
        dialog.restoreButton()->click();
        QCOMPARE(onDisk(), skillText("MAGIC-V3"));
        QCOMPARE(dialog.iterationsModel()->kept(), 3);
        QVERIFY2(dialog.statusText().startsWith(u"The skill holds iteration 3's version again"_s),
                 qPrintable(dialog.statusText()));
        QVERIFY(changed.count() >= 2);
    }

    // Cancel in the Jobs panel while the teacher writes: the job ends Cancelled, and its version is never stored.
    void cancelWhileTheTeacherWrites_jobCancelled_noNewVersion_skillUnchanged()
    {
        m_teacherCalls = 0;
        m_teacherRefuses = false;
        m_teacherWrites.clear();
        m_teacherDelayMs = 120000; // longer than the test: the teacher answers only if nobody cancels
        const QString skillDir = m_project->skillsPath() + u"/demo"_s;
        const QString skillPath = skillDir + u"/SKILL.md"_s;
        QFile skill(skillPath);
        QVERIFY(skill.open(QIODevice::WriteOnly | QIODevice::Truncate));
        skill.write(skillText("MAGIC-V1"));
        skill.close();
        RefineDialog dialog(*m_client, m_jobs, *m_project, refusingCommandRunner(u"none"_s));
        dialog.show();
        QVERIFY(dialog.setSkill(u"demo"_s));
        QVERIFY(dialog.setSuite(u"demo.json"_s));
        dialog.setTeacher(u"openai:teacher"_s);
        dialog.setStudents({u"openai:student"_s});
        dialog.setAttended(false);
        dialog.setIterations(1);
        dialog.start();
        Job *job = m_jobs.jobAt(0);
        QVERIFY(job);
        QCOMPARE(job->title(), u"Refine demo"_s);

        // The skill as it was is evaluated and stored; then the teacher is asked and takes its time.
        QTRY_COMPARE_WITH_TIMEOUT(m_teacherCalls, 1, 30000);
        QCOMPARE(job->state(), Job::State::Running);
        QVERIFY(job->isCancellable());
        const qsizetype versionsBefore = SkillVersionStore(skillDir).versions().size();
        QVERIFY(versionsBefore >= 1);

        job->requestCancel();
        QTRY_COMPARE_WITH_TIMEOUT(job->state(), Job::State::Cancelled, 10000);
        QVERIFY2(dialog.statusText().startsWith(u"Stopped: cancelled."_s), qPrintable(dialog.statusText()));
        QCOMPARE(SkillVersionStore(skillDir).versions().size(), versionsBefore);
        QFile onDisk(skillPath);
        QVERIFY(onDisk.open(QIODevice::ReadOnly));
        QCOMPARE(onDisk.readAll(), skillText("MAGIC-V1"));
        QCOMPARE(m_teacherCalls, 1);
        QCOMPARE(dialog.iterationsModel()->rowCount(), 1); // the evaluation of the skill as it was stands
        m_teacherDelayMs = 0;
    }
};

SF_TEST_MAIN(TestRefineDialog)
#include "test_refine_dialog.moc"
