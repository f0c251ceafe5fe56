// Refine Skill's "Student harness": the students of every evaluation in Skillforge's loop or in their real CLI (Claude
// Code, Codex), the CLI looked for off the UI thread, models the CLI cannot speak to named and Start refused, the
// choice handed to the refine loop and remembered. The CLIs are small scripts answering `--version` as the real ones
// do; no evaluation runs.
#include "HarnessChoiceTesting.h"
#include "SkippedChecks.h"
#include "agents/Harness.h"
#include "generate/RefineDialog.h"
#include "jobs/JobListModel.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/ProviderRegistry.h"
#include "project/AppSettings.h"
#include "project/Project.h"
#include "sandbox/Sandbox.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace sf;
using namespace sf::test;
using namespace Qt::StringLiterals;

namespace {

void write(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(content);
}

QPushButton *startButton(const QWidget &dialog)
{
    return dialog.findChild<QPushButton *>(u"startRefine"_s);
}

void screenshot(QWidget &widget, const QString &name)
{
    if (const QByteArray dir = qgetenv("SKILLFORGE_SCREENSHOT_DIR"); !dir.isEmpty())
        QVERIFY(widget.grab().save(QString::fromUtf8(dir) + u'/' + name));
}

} // namespace

class TestRefineHarness final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::optional<Project> m_project;
    std::unique_ptr<HttpEngine> m_engine;
    std::unique_ptr<ProviderRegistry> m_providers;
    std::unique_ptr<ChatClient> m_chat;
    JobListModel m_jobs;
    QString m_claude;

    std::unique_ptr<RefineDialog> dialog(const QStringList &students)
    {
        auto dialog = std::make_unique<RefineDialog>(*m_chat, m_jobs, *m_project, refusingCommandRunner(u"none"_s));
        [&] {
            QVERIFY(dialog->setSkill(u"demo"_s));
            QVERIFY(dialog->setSuite(u"demo.json"_s));
        }();
        dialog->setTeacher(u"anthropic:claude-sonnet-4-5"_s);
        dialog->setStudents(students);
        return dialog;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        AppSettings().setLastHarness(Harness::Builtin);
        AppSettings().setLastHarnessCli({});
        AppSettings().setLastStudentModels({});
        AppSettings().setLastTeacherModel({});
        m_claude = fakeAgentCli(m_dir.filePath(u"pinned/claude"_s), "2.1.332 (Claude Code)");
        QVERIFY(!m_claude.isEmpty());
        QVERIFY(!fakeAgentCli(m_dir.filePath(u"pinned/codex"_s), "codex-cli 0.163.0").isEmpty());
        qputenv("SKILLFORGE_CLAUDE_CODE_CLI", m_claude.toUtf8());
        qputenv("SKILLFORGE_CODEX_CLI", m_dir.filePath(u"pinned/codex"_s).toUtf8());
        auto created = Project::create(m_dir.filePath(u"project"_s), u"Harness"_s);
        QVERIFY(std::holds_alternative<Project>(created));
        m_project.emplace(std::get<Project>(created));
        write(m_project->skillsPath() + u"/demo/SKILL.md"_s,
              "---\nname: demo\ndescription: The demo task. Use when asked for it.\n---\nAlways say MAGIC.\n");
        write(m_project->testsPath() + u"/demo.json"_s,
              R"([{"id": "a", "input": "go", "expected": {"contains": ["MAGIC"]}}])");
        m_engine = std::make_unique<HttpEngine>();
        m_providers = std::make_unique<ProviderRegistry>();
        m_chat = std::make_unique<ChatClient>(*m_engine, *m_providers, nullptr);
    }

    void cleanupTestCase()
    {
        AppSettings().setLastHarness(Harness::Builtin);
        AppSettings().setLastHarnessCli({});
        m_chat.reset();
        m_providers.reset();
        m_engine.reset();
    }

    void loop_isTheDefault_andSaysNothingMore()
    {
        const auto refine = dialog({u"anthropic:claude-haiku-4-5"_s});
        QVERIFY(harnessBox(*refine) && cliBox(*refine) && startButton(*refine));
        QCOMPARE(harnessBox(*refine)->count(), 3);
        QCOMPARE(refine->request().config.harness, Harness::Builtin);
        QCOMPARE(refine->request().config.harnessCli, QString());
        QVERIFY(cliBox(*refine)->isHidden());
        QCOMPARE(refine->harnessText(), QString());
        QVERIFY(startButton(*refine)->isEnabled());
    }

    void claudeCode_isPutIntoTheRequest_onceFound_andSaysWhatAnEvaluationRuns()
    {
        const auto refine = dialog({u"anthropic:claude-haiku-4-5"_s});
        choose(harnessBox(*refine), Harness::ClaudeCode);
        // Looked for on a worker thread: until it answers, Start waits and the dialog says so.
        QVERIFY(!cliBox(*refine)->isHidden());
        QVERIFY2(refine->harnessText().contains(u"Looking for Claude Code…"_s), qPrintable(refine->harnessText()));
        QVERIFY(!startButton(*refine)->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(!refine->harnessText().contains(u"Looking for"_s), 30000);
        const QString text = refine->harnessText();
        QVERIFY2(text.contains(u"Claude Code 2.1.332, pinned by setup: PyPI claude-agent-sdk"_s), qPrintable(text));
        QVERIFY2(text.contains(u"Each evaluation runs Claude Code once per item in the sandbox"_s), qPrintable(text));
        QVERIFY2(text.contains(u".claude/skills/"_s), qPrintable(text));
        QVERIFY2(text.contains(u"skill delivery does not apply"_s), qPrintable(text));
        QCOMPARE(cliBox(*refine)->itemText(0), u"The one setup installed (pinned): Claude Code 2.1.332"_s);
        QCOMPARE(startButton(*refine)->isEnabled(), sandboxAvailable());
        const RefineRequest request = refine->request();
        QCOMPARE(request.config.harness, Harness::ClaudeCode);
        QCOMPARE(request.config.harnessCli, QString());
        QCOMPARE(request.config.models, QStringList{u"anthropic:claude-haiku-4-5"_s});
    }

    void modelThatDoesNotFitTheCli_isNamed_andStartIsRefused()
    {
        const auto refine = dialog({u"openai:gpt-4.1-mini"_s, u"anthropic:claude-haiku-4-5"_s});
        choose(harnessBox(*refine), Harness::ClaudeCode);
        QTRY_VERIFY_WITH_TIMEOUT(!refine->harnessText().contains(u"Looking for"_s), 30000);
        QString text = refine->harnessText();
        QVERIFY2(text.contains(u"Claude Code speaks Anthropic's Messages API, and openai:gpt-4.1-mini"_s),
                 qPrintable(text));
        QVERIFY(!text.contains(u"and anthropic:claude-haiku-4-5 is not"_s));
        QVERIFY(!startButton(*refine)->isEnabled());
        // Start pressed anyway (a caller, a shortcut): it says why and starts nothing.
        const int jobs = m_jobs.rowCount();
        refine->start();
        QVERIFY2(refine->statusText().contains(u"openai:gpt-4.1-mini"_s), qPrintable(refine->statusText()));
        QCOMPARE(m_jobs.rowCount(), jobs);
        // Codex speaks the other wire format: now the Anthropic model is the one named.
        choose(harnessBox(*refine), Harness::Codex);
        QTRY_VERIFY_WITH_TIMEOUT(!refine->harnessText().contains(u"Looking for"_s), 30000);
        text = refine->harnessText();
        QVERIFY2(text.contains(u"Codex speaks OpenAI's Responses API, and anthropic:claude-haiku-4-5"_s),
                 qPrintable(text));
        QVERIFY2(text.contains(u".agents/skills/"_s), qPrintable(text));
        QVERIFY(!startButton(*refine)->isEnabled());
        // Only models that fit: Start is on (where the sandbox is).
        refine->setStudents({u"openai:gpt-4.1-mini"_s});
        QVERIFY(!refine->harnessText().contains(u"speaks"_s));
        QCOMPARE(startButton(*refine)->isEnabled(), sandboxAvailable());
    }

    void start_handsTheHarnessToTheLoop_andTheChoiceIsRemembered()
    {
        if (!sandboxAvailable())
            QSKIP("no sandbox here: a CLI harness cannot start, so Start stays off");
        {
            const auto refine = dialog({u"anthropic:claude-haiku-4-5"_s});
            choose(harnessBox(*refine), Harness::ClaudeCode);
            QTRY_VERIFY_WITH_TIMEOUT(startButton(*refine)->isEnabled(), 30000);
            // The CLI is gone by the time the loop's first evaluation looks for it: the loop's own words say that it
            // was asked to run Claude Code, and nothing runs.
            qputenv("SKILLFORGE_CLAUDE_CODE_CLI", m_dir.filePath(u"gone/claude"_s).toUtf8());
            refine->start();
            QTRY_VERIFY_WITH_TIMEOUT(refine->statusText().contains(u"Claude Code is not installed where"_s), 30000);
            QVERIFY2(refine->statusText().contains(m_dir.filePath(u"gone/claude"_s)), qPrintable(refine->statusText()));
            qputenv("SKILLFORGE_CLAUDE_CODE_CLI", m_claude.toUtf8());
        }
        const auto next = dialog({u"anthropic:claude-haiku-4-5"_s});
        QCOMPARE(next->request().config.harness, Harness::ClaudeCode);
        QVERIFY(!cliBox(*next)->isHidden());
        QTRY_VERIFY_WITH_TIMEOUT(startButton(*next)->isEnabled(), 30000);
        AppSettings().setLastHarness(Harness::Builtin);
    }

    void withClaudeCode_theDialogFitsA1280x800Screen()
    {
        const auto refine = dialog({u"openai:gpt-4.1-mini"_s, u"anthropic:claude-haiku-4-5"_s});
        choose(harnessBox(*refine), Harness::ClaudeCode);
        QTRY_VERIFY_WITH_TIMEOUT(!refine->harnessText().contains(u"Looking for"_s), 30000);
        refine->show();
        QVERIFY(QTest::qWaitForWindowExposed(refine.get()));
        QVERIFY2(refine->width() <= 1280 && refine->height() <= 800,
                 qPrintable(u"%1x%2"_s.arg(refine->width()).arg(refine->height())));
        const QSize least = refine->minimumSizeHint();
        QVERIFY2(least.width() <= 1280 && least.height() <= 800,
                 qPrintable(u"%1x%2"_s.arg(least.width()).arg(least.height())));
        // The summary is read whole: wrapped within the dialog, not cut.
        auto *summary = refine->findChild<QLabel *>(u"harnessSummary"_s);
        QVERIFY(summary && summary->isVisible());
        QVERIFY(summary->height() >= summary->heightForWidth(summary->width()));
        screenshot(*refine, u"refine-claude-code.png"_s);
    }
};

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    TestRefineHarness test;
    return sf::test::execCountingSkips(&test, argc, argv);
}

#include "test_refine_harness.moc"
