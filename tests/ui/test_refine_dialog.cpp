// The Refine Skill dialog as a user drives it: two iterations against a scripted teacher and
// student, one proposal rejected and one accepted, the table and the lift chart filled in.
#include "ChatReplies.h"
#include "ScriptedHttpServer.h"
#include "generate/RefineDialog.h"
#include "generate/RefineIterationsModel.h"
#include "jobs/Job.h"
#include "jobs/JobListModel.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/ProviderRegistry.h"
#include "project/AppSettings.h"
#include "project/Project.h"
#include "skill/DiffView.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QLineSeries>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
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
    bool m_teacherRefuses = false; ///< the teacher answers with prose instead of a skill

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
                return scriptedReply(u"=== FILE: SKILL.md ===\n"_s + QString::fromUtf8(skillText("MAGIC-V2")));
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
        RefineIterationsModel *model = dialog.iterationsModel();
        QCOMPARE(model->rowCount(), 2);
        QCOMPARE(model->index(0, RefineIterationsModel::Lift).data().toString(), u"+0.00"_s);
        QCOMPARE(model->index(1, RefineIterationsModel::Lift).data().toString(), u"+1.00"_s);
        QCOMPARE(model->index(1, RefineIterationsModel::WithSkill).data().toString(), u"100%"_s);
        QCOMPARE(model->index(0, RefineIterationsModel::Decision).data().toString(), u"proposal accepted"_s);
        QCOMPARE(dialog.liftSeries()->count(), 2);
        QCOMPARE(dialog.liftSeries()->at(1).y(), 1.0);
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
};

QTEST_MAIN(TestRefineDialog)
#include "test_refine_dialog.moc"
