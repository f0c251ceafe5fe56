#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"
#include "TriggerStudent.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/ProviderRegistry.h"
#include "project/AppSettings.h"
#include "project/Project.h"
#include "skill/DiffView.h"
#include "trigger/TriggerLabDialog.h"
#include "trigger/TriggerQueryModel.h"
#include "trigger/TriggerResultsModel.h"

#include <QAbstractItemModelTester>
#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sf;
using namespace sf::test;

namespace {

const QByteArray kSkill = "---\nname: cuda-kernels\ndescription: Write and optimise CUDA kernels for GPU tensor "
                          "operations, such as softmax and layernorm.\n---\n# CUDA kernels\n";
const QString kBetter = u"CUDA kernels: speed up a slow softmax or layernorm on the GPU."_s;

} // namespace

/// The Trigger Lab dialog against a scripted student that chooses by the descriptions' words and a scripted teacher.
class TestTriggerLabDialog : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_folder;
    std::optional<Project> m_project;
    std::unique_ptr<ScriptedHttpServer> m_server;
    std::unique_ptr<HttpEngine> m_engine;
    std::unique_ptr<ProviderRegistry> m_providers;
    std::unique_ptr<ChatClient> m_client;
    QStringList m_teacherReplies; ///< what the teacher answers first, in turn; then the better description as JSON

    QString skillMd() const { return m_project->skillsPath() + u"/cuda-kernels/SKILL.md"_s; }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        AppSettings().setLastStudentModels({});
        AppSettings().setLastTeacherModel({});
        m_server = std::make_unique<ScriptedHttpServer>();
        QVERIFY(m_server->listen());
        m_server->routeHandler("POST", "/v1/chat/completions", [this](const RecordedRequest &request) {
            if (!request.body.contains("response_format"))
                return TriggerStudent{}(request);
            if (!m_teacherReplies.isEmpty())
                return scriptedReply(m_teacherReplies.takeFirst());
            return scriptedReply(u"{\"description\": \"%1\"}"_s.arg(kBetter));
        });
        qputenv("OPENAI_BASE_URL", m_server->baseUrl().toEncoded() + "/v1");
        qputenv("OPENAI_API_KEY", "sk-test-0000");
        m_engine = std::make_unique<HttpEngine>();
        m_providers = std::make_unique<ProviderRegistry>();
        m_client = std::make_unique<ChatClient>(*m_engine, *m_providers, nullptr);
        auto created = Project::create(m_folder.filePath(u"project"_s), u"Demo"_s);
        QVERIFY(std::holds_alternative<Project>(created));
        m_project = std::get<Project>(created);
        QVERIFY(QDir().mkpath(m_project->skillsPath() + u"/cuda-kernels/evals"_s));
        QFile skill(skillMd());
        QVERIFY(skill.open(QIODevice::WriteOnly));
        skill.write(kSkill);
        skill.close();
        QFile queries(m_project->skillsPath() + u"/cuda-kernels/evals/trigger_evals.json"_s);
        QVERIFY(queries.open(QIODevice::WriteOnly));
        queries.write(R"([
          {"query": "Write a CUDA kernel for softmax", "should_trigger": true},
          {"query": "My layernorm is slow, speed it up", "should_trigger": true},
          {"query": "Write operations notes about our tensor library", "should_trigger": false},
          {"query": "Extract the tables from this PDF file", "should_trigger": false},
          {"query": "What is the capital of France?", "should_trigger": false}])");
    }

    void queryModel_addEditRemove_followsTheTable()
    {
        TriggerQueryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const int row = model.addQuery(true);
        QVERIFY(model.setData(model.index(row, TriggerQueryModel::Query), u"make it fast"_s));
        QVERIFY(model.setData(model.index(row, TriggerQueryModel::ShouldTrigger), Qt::Unchecked, Qt::CheckStateRole));
        QCOMPARE(model.queries().first().query, u"make it fast"_s);
        QVERIFY(!model.queries().first().shouldTrigger);
        QVERIFY(model.isModified());
        model.addQuery(false);
        model.removeQueries({0});
        QCOMPARE(model.rowCount(), 1);
        QVERIFY(model.queries().first().query.isEmpty());
    }

    void open_loadsTheSkillsQuerySet_andExportRoundTrips()
    {
        TriggerLabDialog dialog(*m_client, *m_project);
        QVERIFY(dialog.setSkill(u"cuda-kernels"_s));
        QCOMPARE(dialog.queryModel()->rowCount(), 5);
        const QString out = m_folder.filePath(u"exported.json"_s);
        QVERIFY(dialog.exportQueries(out));
        dialog.queryModel()->removeQueries({0, 1});
        QVERIFY(dialog.importQueries(out));
        QCOMPARE(dialog.queryModel()->rowCount(), 5);
        dialog.setStudents({u"openai:student"_s});
        QVERIFY2(dialog.estimateText().contains(u"15 trials"_s), qPrintable(dialog.estimateText()));
    }

    void measure_fillsThePerQueryTableAndTheChart()
    {
        TriggerLabDialog dialog(*m_client, *m_project);
        QAbstractItemModelTester tester(dialog.resultsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(dialog.setSkill(u"cuda-kernels"_s));
        dialog.setStudents({u"openai:student"_s});
        dialog.setRuns(2);
        QSignalSpy finished(&dialog, &TriggerLabDialog::finished);
        dialog.show();
        dialog.measure();
        QVERIFY(finished.wait(30000));
        QVERIFY2(dialog.statusText().contains(u"recall 50%"_s), qPrintable(dialog.statusText()));
        QVERIFY2(dialog.statusText().contains(u"false positives 33%"_s), qPrintable(dialog.statusText()));
        QCOMPARE(dialog.resultsModel()->rowCount(), 5);
        QCOMPARE(dialog.resultsModel()->index(1, TriggerResultsModel::Verdict).data().toString(), u"wrong"_s);
        QCOMPARE(dialog.resultsModel()->index(3, TriggerResultsModel::Instead).data().toString(), u"pdf ×2"_s);
        QCOMPARE(dialog.chart()->series().size(), 2); // recall and false positives of the one student
        QCOMPARE(static_cast<QLineSeries *>(dialog.chart()->series().first())->count(), 1);
    }

    // Issue 35, item 15: a reply in prose with the description under a label is read; one with none gives a short
    // message, Show Reply with the whole reply, and Retry.
    void optimize_teacherReplyShapes_readOrShownWithRetry()
    {
        QFile skill(skillMd());
        QVERIFY(skill.open(QIODevice::WriteOnly | QIODevice::Truncate));
        skill.write(kSkill);
        skill.close();
        const QString rambling = u"I studied the failures closely.\n\nSome queries are ambiguous.\n\n"_s +
                                 QString(400, u'z') + u" the end."_s;
        m_teacherReplies = {rambling};
        TriggerLabDialog dialog(*m_client, *m_project);
        QVERIFY(dialog.selectSkillDir(m_project->skillsPath() + u"/cuda-kernels"_s));
        dialog.setStudents({u"openai:student"_s});
        dialog.setTeacher(u"openai:teacher"_s);
        dialog.setRuns(1);
        dialog.setIterations(2);
        dialog.setHoldout(0);
        QSignalSpy finished(&dialog, &TriggerLabDialog::finished);
        dialog.show();
        dialog.optimize();
        QVERIFY(finished.wait(30000));
        QVERIFY2(dialog.statusText().startsWith(u"The teacher's proposal failed"_s), qPrintable(dialog.statusText()));
        QVERIFY2(!dialog.statusText().contains(u"zzz"_s) && dialog.statusText().size() < 300,
                 qPrintable(dialog.statusText()));
        QVERIFY(dialog.retryButton()->isVisible());
        QVERIFY(dialog.showReplyButton()->isVisible());
        QCOMPARE(dialog.failedReply(), rambling); // the whole reply, not cut mid-word
        QVERIFY(!dialog.isRunning());

        m_teacherReplies = {
            u"I rewrote it to name the tasks.\n\n**Description:** %1\n\nThat should help."_s.arg(kBetter)};
        dialog.retryButton()->click();
        QVERIFY(finished.wait(30000));
        QVERIFY2(dialog.statusText().contains(u"Best: proposal 1"_s), qPrintable(dialog.statusText()));
        QVERIFY(!dialog.retryButton()->isVisible());
        QCOMPARE(dialog.proposalList()->count(), 2);

        // The next Trigger Lab starts with the teacher and students used here (issue 35, item 13).
        TriggerLabDialog next(*m_client, *m_project);
        auto *teacher = next.findChild<QComboBox *>(u"teacherModel"_s);
        auto *students = next.findChild<QLineEdit *>(u"studentModels"_s);
        QVERIFY(teacher && students);
        QCOMPARE(teacher->currentText(), u"openai:teacher"_s);
        QCOMPARE(students->text(), u"openai:student"_s);
    }

    void optimize_showsEachProposalAsADiff_andAcceptRestoresIt()
    {
        TriggerLabDialog dialog(*m_client, *m_project);
        QVERIFY(dialog.setSkill(u"cuda-kernels"_s));
        dialog.setStudents({u"openai:student"_s});
        dialog.setTeacher(u"openai:teacher"_s);
        dialog.setRuns(1);
        dialog.setIterations(3);
        dialog.setHoldout(0); // five queries: all of them train, so the original's two failures reach the teacher
        QSignalSpy finished(&dialog, &TriggerLabDialog::finished);
        QSignalSpy changed(&dialog, &TriggerLabDialog::skillChanged);
        dialog.show();
        dialog.optimize();
        QVERIFY(finished.wait(30000));
        QVERIFY2(dialog.statusText().contains(u"Best: proposal 1"_s), qPrintable(dialog.statusText()));
        QCOMPARE(dialog.proposalList()->count(), 2);
        QCOMPARE(static_cast<QLineSeries *>(dialog.chart()->series().first())->count(), 2);
        QVERIFY(dialog.proposalDiff()->rightEdit()->toPlainText().contains(kBetter));
        QFile before(skillMd());
        QVERIFY(before.open(QIODevice::ReadOnly));
        QCOMPARE(before.readAll(), kSkill); // nothing changes until a proposal is accepted
        before.close();
        QVERIFY(dialog.acceptProposal(1));
        QCOMPARE(changed.count(), 1);
        QFile after(skillMd());
        QVERIFY(after.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(after.readAll()).contains(kBetter));
    }
};

SF_TEST_MAIN(TestTriggerLabDialog)
#include "test_trigger_lab_dialog.moc"
