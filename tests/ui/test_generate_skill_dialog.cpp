// The Generate Skill dialog as a user drives it, with a scripted teacher over real HTTP.
#include "ChatReplies.h"
#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"
#include "generate/GenerateSkillDialog.h"
#include "generate/SkillGenerator.h"
#include "jobs/Job.h"
#include "jobs/JobListModel.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/ProviderRegistry.h"
#include "project/Project.h"
#include "skill/LiveDraftPage.h"
#include "skill/NoticeBar.h"
#include "skill/SkillEditor.h"
#include "skill/SkillView.h"
#include "trace/TraceImport.h"
#include "trace/TraceSelection.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
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

const QString kSkill = u"=== FILE: SKILL.md ===\n---\nname: softmax-kernels\ndescription: Writes numerically stable "
                       "softmax CUDA kernels. Use when a model needs a fused softmax.\n---\n# Softmax\nSubtract the "
                       "row max before exponentiating.\n"_s;

// The teacher's reply as an OpenAI-compatible event stream, a few characters per event.
ScriptedResponse teacherReply(int delayMs = 0)
{
    return openAiStreamedReply(kSkill, 40, delayMs);
}

} // namespace

class TestGenerateSkillDialog final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ScriptedHttpServer> m_server;
    std::unique_ptr<HttpEngine> m_engine;
    std::unique_ptr<ProviderRegistry> m_providers;
    std::unique_ptr<ChatClient> m_client;
    std::unique_ptr<QTemporaryDir> m_folder;
    std::optional<Project> m_project;
    JobListModel m_jobs;

    // As the window wires them: once the teacher is asked, the dialog steps aside and the Skill view streams.
    static void handOverToTheEditor(GenerateSkillDialog &dialog, SkillView &view)
    {
        connect(&dialog, &GenerateSkillDialog::generationStarted, &view,
                [&](SkillGenerator *generator, const QString &teacher) {
                    view.showLiveDraft(generator, teacher);
                    dialog.hide();
                });
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        m_server = std::make_unique<ScriptedHttpServer>();
        QVERIFY(m_server->listen());
        qputenv("OPENAI_BASE_URL", m_server->baseUrl().toEncoded() + "/v1");
        qputenv("OPENAI_API_KEY", "sk-test-0000");
        m_engine = std::make_unique<HttpEngine>();
        m_providers = std::make_unique<ProviderRegistry>();
        m_client = std::make_unique<ChatClient>(*m_engine, *m_providers, nullptr);
        m_folder = std::make_unique<QTemporaryDir>();
        auto created = Project::create(m_folder->filePath(u"project"_s), u"Demo"_s);
        QVERIFY(std::holds_alternative<Project>(created));
        m_project = std::get<Project>(created);
    }

    void cleanup()
    {
        m_client.reset();
        m_providers.reset();
        m_engine.reset();
        m_server.reset();
        m_project.reset();
        m_folder.reset();
    }

    void generate_writesTheSkillReportsItAndFinishesTheJob()
    {
        m_server->route("POST", "/v1/chat/completions", teacherReply());
        GenerateSkillDialog dialog(*m_client, m_jobs, *m_project);
        QSignalSpy generated(&dialog, &GenerateSkillDialog::skillGenerated);
        dialog.show();
        dialog.setTask(u"Write a fused softmax kernel"_s);
        dialog.setTeacher(u"openai:teacher"_s);
        auto *button = dialog.findChild<QPushButton *>(u"generate"_s);
        QTest::mouseClick(button, Qt::LeftButton);
        QVERIFY(!button->isEnabled()); // no second request while one runs
        QTRY_COMPARE_WITH_TIMEOUT(generated.count(), 1, 10000);

        const QString skillDir = generated.first().first().toString();
        QCOMPARE(skillDir, QDir(m_project->skillsPath()).filePath(u"softmax-kernels"_s));
        QVERIFY(QFile::exists(skillDir + u"/SKILL.md"_s));
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(dialog.replyText(), kSkill); // streamed into the dialog as it was written
        QVERIFY(m_server->requests().first().body.contains("\"stream\":true"));
        Job *job = m_jobs.jobAt(0); // the newest job is listed first
        QCOMPARE(job->state(), Job::State::Finished);
        QVERIFY(job->detail().contains(u"softmax-kernels"_s));
    }

    void generate_streamsIntoTheSkillEditor_thenOpensTheSkill()
    {
        m_server->route("POST", "/v1/chat/completions", openAiStreamedReply(kSkill, 12, 150));
        SkillView view;
        view.setProject(&*m_project);
        view.show();
        GenerateSkillDialog dialog(*m_client, m_jobs, *m_project);
        handOverToTheEditor(dialog, view);
        QSignalSpy generated(&dialog, &GenerateSkillDialog::skillGenerated);
        dialog.show();
        dialog.setTask(u"Write a fused softmax kernel"_s);
        dialog.setTeacher(u"openai:teacher"_s);
        dialog.generate();
        QVERIFY(!dialog.isVisible());
        LiveDraftPage *live = view.liveDraftPage();
        QVERIFY(live->isVisible());
        // Part of the reply is on screen before the whole of it has arrived.
        QTRY_VERIFY_WITH_TIMEOUT(!live->draftText().isEmpty(), 10000);
        QVERIFY(generated.isEmpty());
        QVERIFY(kSkill.startsWith(live->draftText()));
        QTRY_COMPARE_WITH_TIMEOUT(generated.count(), 1, 20000);
        QCOMPARE(live->draftText(), kSkill);
        // Done: the editor holds the skill as written to disk.
        QTRY_VERIFY_WITH_TIMEOUT(view.editor()->isVisible(), 5000);
        QCOMPARE(view.currentFile(), generated.first().first().toString() + u"/SKILL.md"_s);
        QVERIFY(view.editor()->toPlainText().contains(u"Subtract the row max"_s));

        // The streamed reply is gone from the screen, but the view says where it is kept and shows it again.
        auto *notice = view.findChild<NoticeBar *>();
        QVERIFY(notice && !notice->isHidden());
        QVERIFY2(notice->text().contains(u".versions/"_s) && notice->text().contains(u"reply.md"_s),
                 qPrintable(notice->text()));
        auto *showReply = view.findChild<QPushButton *>(u"showReply"_s);
        QVERIFY(showReply);
        showReply->click();
        QDialog *stored = nullptr;
        QTRY_VERIFY((stored = view.findChild<QDialog *>(u"storedTextDialog"_s)) != nullptr);
        QCOMPARE(stored->findChild<QPlainTextEdit *>()->toPlainText(), kSkill);
        stored->close();
    }

    void generate_failingWhileHidden_bringsTheDialogBackWithTheReason()
    {
        m_server->route("POST", "/v1/chat/completions",
                        ScriptedResponse::json(400, "{\"error\":{\"message\":\"model not found: teacher\"}}"));
        SkillView view;
        view.setProject(&*m_project);
        view.show();
        GenerateSkillDialog dialog(*m_client, m_jobs, *m_project);
        handOverToTheEditor(dialog, view);
        dialog.show();
        dialog.setTask(u"t"_s);
        dialog.setTeacher(u"openai:teacher"_s);
        dialog.generate();
        QTRY_VERIFY_WITH_TIMEOUT(dialog.isVisible(), 10000);
        QVERIFY(dialog.statusText().contains(u"model not found: teacher"_s));
        LiveDraftPage *live = view.liveDraftPage();
        QVERIFY(live->stageText().contains(u"model not found: teacher"_s));
        // The page stays until the user closes it, then the view goes back to what it showed.
        QTest::mouseClick(live->findChild<QPushButton *>(u"liveDraftCancel"_s), Qt::LeftButton);
        QVERIFY(!live->isVisible());
    }

    void generate_withATraceTicked_sendsTheCondensedSession()
    {
        const QString trace = m_project->tracesPath() + u"/flux-session.jsonl"_s;
        QVERIFY(QFile::copy(QStringLiteral(SKILLFORGE_SOURCE_DIR) +
                                u"/resources/sample-project/traces/rmsnorm-flux-session.jsonl"_s,
                            trace));
        m_server->route("POST", "/v1/chat/completions", teacherReply());
        GenerateSkillDialog dialog(*m_client, m_jobs, *m_project);
        QSignalSpy generated(&dialog, &GenerateSkillDialog::skillGenerated);
        dialog.setTask(u"Fuse RMSNorm for Flux"_s);
        dialog.setTeacher(u"openai:teacher"_s);
        QVERIFY(dialog.setTraceUsed(u"flux-session.jsonl"_s));
        dialog.generate();
        QTRY_COMPARE_WITH_TIMEOUT(generated.count(), 1, 20000);
        const QString sent = QString::fromUtf8(m_server->requests().last().body);
        QVERIFY(sent.contains(u"### flux-session.jsonl"_s));
        QVERIFY(sent.contains(u"USER: I want a fused RMSNorm CUDA kernel"_s));
    }

    void generate_withKeptSteps_sendsOnlyThem_andTheWholeTraceWhenAsked()
    {
        const QString trace = m_project->tracesPath() + u"/flux-session.jsonl"_s;
        QVERIFY(QFile::copy(QStringLiteral(SKILLFORGE_SOURCE_DIR) +
                                u"/resources/sample-project/traces/rmsnorm-flux-session.jsonl"_s,
                            trace));
        // Two steps kept in the Trace view ("Use for skill generation"); the rest of the trace is dropped.
        const Result<Trace> imported = importTrace(trace);
        QVERIFY(imported);
        const auto stepWith = [&](const QString &text) {
            const auto &steps = imported.value->threads.at(0).steps;
            for (size_t i = 0; i < steps.size(); ++i) {
                if (steps[i].text.toString().contains(text))
                    return std::make_pair(0, int(i));
            }
            return std::make_pair(0, -1);
        };
        const auto prompt = stepWith(u"I want a fused RMSNorm CUDA kernel"_s);
        const auto kept = stepWith(u"check the toolchain and read your notes first"_s);
        QVERIFY(prompt.second >= 0 && kept.second >= 0);
        QVERIFY(stepWith(u"Flux has 152 RMSNorm modules"_s).second >= 0); // in the trace, not kept
        QCOMPARE(TraceSelection::fromSteps(*imported.value, {prompt, kept}).save(m_project->rootPath()), QString());

        GenerateSkillDialog dialog(*m_client, m_jobs, *m_project);
        QVERIFY(dialog.setTraceUsed(trace)); // by path, as the window ticks the trace open in the Trace view
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isReadingTraces(), 10000);
        QVERIFY2(dialog.traceScopeText().contains(u"flux-session.jsonl: 2 of 79 steps kept ("_s),
                 qPrintable(dialog.traceScopeText()));
        QVERIFY(dialog.traceScopeText().contains(u"the teacher reads only these"_s));
        auto *whole = dialog.findChild<QCheckBox *>(u"wholeTrace"_s);
        QVERIFY(whole && !whole->isHidden() && !whole->isChecked());

        m_server->route("POST", "/v1/chat/completions", teacherReply());
        dialog.setTask(u"Fuse RMSNorm for Flux"_s);
        dialog.setTeacher(u"openai:teacher"_s);
        QSignalSpy generated(&dialog, &GenerateSkillDialog::skillGenerated);
        dialog.generate();
        QTRY_COMPARE_WITH_TIMEOUT(generated.count(), 1, 20000);
        QString sent = QString::fromUtf8(m_server->requests().last().body);
        QVERIFY(sent.contains(u"check the toolchain and read your notes first"_s));
        QVERIFY(sent.contains(u"USER: I want a fused RMSNorm CUDA kernel"_s));
        QVERIFY(!sent.contains(u"Flux has 152 RMSNorm modules"_s));
        QVERIFY(sent.contains(u"steps omitted"_s)); // the teacher is told there was more

        // Asked for, the whole trace goes (within the budget), the kept steps first.
        GenerateSkillDialog again(*m_client, m_jobs, *m_project);
        QVERIFY(again.setTraceUsed(u"flux-session.jsonl"_s));
        again.setWholeTraceSent(true);
        QTRY_VERIFY_WITH_TIMEOUT(!again.isReadingTraces(), 10000);
        QVERIFY2(again.traceScopeText().contains(u"the whole trace, 79 steps, the 2 kept first"_s),
                 qPrintable(again.traceScopeText()));
        again.setTask(u"Fuse RMSNorm for Flux"_s);
        again.setTeacher(u"openai:teacher"_s);
        QVERIFY(QDir(m_project->skillsPath() + u"/softmax-kernels"_s).removeRecursively());
        QSignalSpy generatedAgain(&again, &GenerateSkillDialog::skillGenerated);
        again.generate();
        QTRY_COMPARE_WITH_TIMEOUT(generatedAgain.count(), 1, 20000);
        sent = QString::fromUtf8(m_server->requests().last().body);
        QVERIFY(sent.contains(u"Flux has 152 RMSNorm modules"_s));
        QVERIFY(sent.contains(u"check the toolchain and read your notes first"_s));
    }

    void generate_withoutTask_asksForOneAndSendsNothing()
    {
        GenerateSkillDialog dialog(*m_client, m_jobs, *m_project);
        dialog.setTeacher(u"openai:teacher"_s);
        const int jobsBefore = m_jobs.rowCount();
        dialog.generate();
        QVERIFY(dialog.statusText().contains(u"task"_s));
        QCOMPARE(m_jobs.rowCount(), jobsBefore);
        QCOMPARE(m_server->requests().size(), 0);
    }

    void improve_listsTheProjectsSkills()
    {
        QVERIFY(QDir().mkpath(QDir(m_project->skillsPath()).filePath(u"softmax-kernels"_s)));
        QFile skill(QDir(m_project->skillsPath()).filePath(u"softmax-kernels/SKILL.md"_s));
        QVERIFY(skill.open(QIODevice::WriteOnly));
        skill.write("---\nname: softmax-kernels\ndescription: Old. Use when asked.\n---\nOld body.\n");
        skill.close();
        m_server->route("POST", "/v1/chat/completions", teacherReply());

        GenerateSkillDialog dialog(*m_client, m_jobs, *m_project);
        QVERIFY(dialog.setSkillToImprove(u"softmax-kernels"_s));
        dialog.setTeacher(u"openai:teacher"_s);
        QSignalSpy generated(&dialog, &GenerateSkillDialog::skillGenerated);
        dialog.generate(); // no task needed to improve a skill
        QTRY_COMPARE_WITH_TIMEOUT(generated.count(), 1, 10000);
        const QString sent = QString::fromUtf8(m_server->requests().first().body);
        QVERIFY(sent.contains(u"Old body."_s));
    }

    void cancel_endsTheJobAsCancelledAndKeepsTheDialogOpen()
    {
        ScriptedResponse slow = teacherReply();
        slow.delayMs = 5000;
        m_server->route("POST", "/v1/chat/completions", slow);
        GenerateSkillDialog dialog(*m_client, m_jobs, *m_project);
        dialog.show();
        dialog.setTask(u"t"_s);
        dialog.setTeacher(u"openai:teacher"_s);
        dialog.generate();
        Job *job = m_jobs.jobAt(0); // the newest job is listed first
        QTRY_COMPARE_WITH_TIMEOUT(m_server->requests().size(), 1, 5000);
        job->requestCancel(); // from the Jobs panel
        QTRY_COMPARE_WITH_TIMEOUT(job->state(), Job::State::Cancelled, 3000);
        QVERIFY(dialog.isVisible());
        QCOMPARE(dialog.statusText(), u"Cancelled."_s);
        QVERIFY(dialog.findChild<QPushButton *>(u"generate"_s)->isEnabled());
        QVERIFY(QDir(m_project->skillsPath()).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden));
    }
};

SF_TEST_MAIN(TestGenerateSkillDialog)
#include "test_generate_skill_dialog.moc"
