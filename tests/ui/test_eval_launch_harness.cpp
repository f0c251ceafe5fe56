// New Evaluation's "Student harness": Skillforge's loop or a real agent CLI (Claude Code, Codex), the CLI looked for
// off the UI thread (installed by setup, or the user's own on PATH), what each harness measures, models that do not
// fit it, and the choice remembered. The CLIs are small scripts answering `--version` as the real ones do.
#include "FakeSlurmTools.h"
#include "HarnessChoiceTesting.h"
#include "SkippedChecks.h"
#include "agents/AgentCliInstall.h"
#include "agents/Harness.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/ProviderRegistry.h"
#include "project/AppSettings.h"
#include "project/Project.h"
#include "runs/EvalLaunchDialog.h"
#include "sandbox/Sandbox.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace sf;
using namespace sf::test;

namespace {

void write(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(content);
}

/// Sets an environment variable for one scope.
class ScopedVariable
{
public:
    ScopedVariable(const char *name, const QString &value)
        : m_name(name)
        , m_had(qEnvironmentVariableIsSet(name))
        , m_saved(qgetenv(name))
    {
        if (value.isNull())
            qunsetenv(name);
        else
            qputenv(name, value.toUtf8());
    }
    ~ScopedVariable()
    {
        if (m_had)
            qputenv(m_name, m_saved);
        else
            qunsetenv(m_name);
    }
    ScopedVariable(const ScopedVariable &) = delete;
    ScopedVariable &operator=(const ScopedVariable &) = delete;

private:
    const char *m_name;
    bool m_had;
    QByteArray m_saved;
};

QPushButton *runButton(const EvalLaunchDialog &dialog)
{
    return dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
}

void screenshot(QWidget &widget, const QString &name)
{
    if (const QByteArray dir = qgetenv("SKILLFORGE_SCREENSHOT_DIR"); !dir.isEmpty())
        QVERIFY(widget.grab().save(QString::fromUtf8(dir) + u'/' + name));
}

} // namespace

class TestEvalLaunchHarness final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::optional<Project> m_project;
    std::unique_ptr<HttpEngine> m_engine;
    std::unique_ptr<ProviderRegistry> m_providers;
    std::unique_ptr<ChatClient> m_chat;

    QString fakeClaude() const
    {
        return fakeAgentCli(m_dir.filePath(QStringLiteral("pinned/claude")), "2.1.332 (Claude Code)");
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        AppSettings().setLastHarness(Harness::Builtin);
        AppSettings().setLastHarnessCli({});
        AppSettings().setLastStudentModels({QStringLiteral("anthropic:claude-haiku-4-5")});
        auto created = Project::create(m_dir.filePath(QStringLiteral("project")), QStringLiteral("Harness test"));
        QVERIFY(std::holds_alternative<Project>(created));
        m_project.emplace(std::get<Project>(created));
        write(m_project->skillsPath() + QStringLiteral("/rmsnorm/SKILL.md"),
              "---\nname: rmsnorm\ndescription: RMSNorm kernels.\n---\nAnswer with MAGIC-EPS.\n");
        write(m_project->testsPath() + QStringLiteral("/basic.json"),
              R"([{"id": "a", "input": "first", "expected": {"contains": "MAGIC-EPS"}}])");
        m_engine = std::make_unique<HttpEngine>();
        m_providers = std::make_unique<ProviderRegistry>();
        m_chat = std::make_unique<ChatClient>(*m_engine, *m_providers, nullptr);
    }

    void cleanupTestCase()
    {
        AppSettings().setLastHarness(Harness::Builtin);
        AppSettings().setLastHarnessCli({});
        AppSettings().setLastStudentModels({});
        AppSettings().setLastEvalSuite({});
        AppSettings().setLastEvalRepeats(0);
        AppSettings().setLastEvalConcurrency(0);
        m_chat.reset();
        m_providers.reset();
        m_engine.reset();
    }

    void loop_isTheDefault_withItsDeliveryAndTools_andSaysWhatItMeasures()
    {
        EvalLaunchDialog dialog(*m_project, m_chat.get());
        QVERIFY(harnessBox(dialog) && cliBox(dialog));
        QCOMPARE(harnessBox(dialog)->count(), 3);
        QCOMPARE(harnessBox(dialog)->itemText(0), QStringLiteral("Skillforge's loop"));
        QCOMPARE(harnessBox(dialog)->itemText(1), QStringLiteral("Claude Code (real CLI)"));
        QCOMPARE(harnessBox(dialog)->itemText(2), QStringLiteral("Codex (real CLI)"));
        QCOMPARE(dialog.plan().config.harness, Harness::Builtin);
        QCOMPARE(dialog.plan().config.harnessCli, QString());
        QVERIFY(cliBox(dialog)->isHidden()); // the CLI row only for a CLI
        QVERIFY(!dialog.isLookingForCli());
        for (QComboBox *box : dialog.findChildren<QComboBox *>()) {
            if (box->findData(QStringLiteral("agentic")) >= 0)
                QVERIFY(box->isEnabled());
        }
        QVERIFY2(dialog.summaryText().contains(QStringLiteral("puts the skill's body in the system prompt")),
                 qPrintable(dialog.summaryText()));
    }

    void claudeCode_installedCli_isFoundOffTheUiThread_andNamedWithItsVersion()
    {
        ScopedVariable pinned("SKILLFORGE_CLAUDE_CODE_CLI", fakeClaude());
        ScopedVariable key("ANTHROPIC_API_KEY", QStringLiteral("test-key")); // reachable: the summary is the harness's
        EvalLaunchDialog dialog(*m_project, m_chat.get());
        choose(harnessBox(dialog), Harness::ClaudeCode);
        // Asked on a worker thread: until it answers, Run waits and the summary says so.
        QVERIFY(dialog.isLookingForCli());
        QVERIFY(!runButton(dialog)->isEnabled());
        QVERIFY2(dialog.summaryText().contains(QStringLiteral("Looking for Claude Code…")),
                 qPrintable(dialog.summaryText()));
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isLookingForCli(), 30000);
        const QString summary = dialog.summaryText();
        QVERIFY2(summary.contains(QStringLiteral("Claude Code 2.1.332, pinned by setup: PyPI claude-agent-sdk")),
                 qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("measures the skill as users deploy it")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral(".claude/skills/")), qPrintable(summary));
        QVERIFY2(!summary.contains(QStringLiteral("--")), qPrintable(summary)); // GUI words, not flags
        QVERIFY(!cliBox(dialog)->isHidden());
        QCOMPARE(cliBox(dialog)->itemText(0), QStringLiteral("The one setup installed (pinned): Claude Code 2.1.332"));
        // The CLI discovers the skill and brings its own tools: the loop's settings for them are off, and say why.
        for (QComboBox *box : dialog.findChildren<QComboBox *>()) {
            if (box->findData(QStringLiteral("agentic")) >= 0) {
                QVERIFY(!box->isEnabled());
                QVERIFY2(box->toolTip().contains(QStringLiteral("discovers the skill itself")),
                         qPrintable(box->toolTip()));
            }
        }
        for (QCheckBox *box : dialog.findChildren<QCheckBox *>()) {
            if (box->text().contains(QStringLiteral("file and shell tools")))
                QVERIFY(!box->isEnabled());
        }
        // Run: whenever the sandbox the CLI needs is here.
        QString noSandbox;
        const bool sandbox = sandboxAvailable(&noSandbox);
        QCOMPARE(runButton(dialog)->isEnabled(), sandbox);
        if (!sandbox)
            QVERIFY(summary.contains(QStringLiteral("runs only in the sandbox")));
        const EvalPlan plan = dialog.plan();
        QCOMPARE(plan.config.harness, Harness::ClaudeCode);
        QCOMPARE(plan.config.harnessCli, QString());
    }

    void claudeCode_missingCli_saysHowToFixIt_inTheDialog_andRunIsOff()
    {
        ScopedVariable pinned("SKILLFORGE_CLAUDE_CODE_CLI", m_dir.filePath(QStringLiteral("nowhere/claude")));
        EvalLaunchDialog dialog(*m_project, m_chat.get());
        choose(harnessBox(dialog), Harness::ClaudeCode);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isLookingForCli(), 30000);
        const QString summary = dialog.summaryText();
        QVERIFY2(summary.contains(QStringLiteral("Claude Code cannot be used")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("scripts/setup")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("\"My own on PATH\" under CLI")), qPrintable(summary));
        QVERIFY2(!summary.contains(QStringLiteral("--harness-cli")), qPrintable(summary));
        QCOMPARE(cliBox(dialog)->itemText(0), QStringLiteral("The one setup installed (pinned): not found"));
        QVERIFY(!runButton(dialog)->isEnabled());
    }

    void modelsThatDoNotFitTheHarness_areNamed_andRunIsOff()
    {
        ScopedVariable claude("SKILLFORGE_CLAUDE_CODE_CLI", fakeClaude());
        ScopedVariable codex("SKILLFORGE_CODEX_CLI",
                             fakeAgentCli(m_dir.filePath(QStringLiteral("pinned/codex")), "codex-cli 0.163.0"));
        EvalLaunchDialog dialog(*m_project, m_chat.get());
        dialog.findChild<QPlainTextEdit *>(QStringLiteral("studentModels"))
            ->setPlainText(QStringLiteral("generic:s\nanthropic:claude-haiku-4-5"));
        choose(harnessBox(dialog), Harness::ClaudeCode);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isLookingForCli(), 30000);
        QString summary = dialog.summaryText();
        QVERIFY2(summary.contains(QStringLiteral("Claude Code speaks Anthropic's Messages API, and generic:s")),
                 qPrintable(summary));
        QVERIFY(!summary.contains(QStringLiteral("and anthropic:claude-haiku-4-5 is not")));
        QVERIFY(!runButton(dialog)->isEnabled());
        // Codex speaks the other wire format: now the Anthropic model is the one that does not fit.
        choose(harnessBox(dialog), Harness::Codex);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isLookingForCli(), 30000);
        summary = dialog.summaryText();
        QVERIFY2(
            summary.contains(QStringLiteral("Codex speaks OpenAI's Responses API, and anthropic:claude-haiku-4-5")),
            qPrintable(summary));
        QVERIFY(!summary.contains(QStringLiteral("and generic:s is not")));
        QVERIFY2(summary.contains(QStringLiteral(".agents/skills/")), qPrintable(summary));
        QVERIFY(!runButton(dialog)->isEnabled());
        // The loop takes any model.
        choose(harnessBox(dialog), Harness::Builtin);
        QVERIFY(!dialog.summaryText().contains(QStringLiteral("speaks")));
    }

    void ownCliOnPath_isLookedFor_andTheChoiceIsRemembered()
    {
        QTemporaryDir bin;
        fakeAgentCli(bin.filePath(QStringLiteral("claude")), "2.1.40 (Claude Code)");
        ScopedPath path(bin.path() + QStringLiteral(":/usr/bin:/bin"));
        {
            EvalLaunchDialog dialog(*m_project, m_chat.get());
            choose(harnessBox(dialog), Harness::ClaudeCode);
            choose(cliBox(dialog), QStringLiteral("path"));
            QTRY_VERIFY_WITH_TIMEOUT(!dialog.isLookingForCli(), 30000);
            QCOMPARE(cliBox(dialog)->itemText(1), QStringLiteral("My own on PATH: Claude Code 2.1.40"));
            QVERIFY2(dialog.summaryText().contains(QStringLiteral("Claude Code 2.1.40, the user's own: ") +
                                                   bin.filePath(QStringLiteral("claude"))),
                     qPrintable(dialog.summaryText()));
            QCOMPARE(dialog.plan().config.harnessCli, QStringLiteral("path"));
            dialog.accept();
        }
        EvalLaunchDialog next(*m_project, m_chat.get());
        QCOMPARE(next.plan().config.harness, Harness::ClaudeCode);
        QCOMPARE(next.plan().config.harnessCli, QStringLiteral("path"));
        QVERIFY(!cliBox(next)->isHidden());
        QTRY_VERIFY_WITH_TIMEOUT(!next.isLookingForCli(), 30000);
        AppSettings().setLastHarness(Harness::Builtin);
        AppSettings().setLastHarnessCli({});
    }

    // Issue 35, item 13: New Evaluation forgot Repeats and Concurrency and started on the first skill and suite
    // alphabetically. It starts on the open skill and the settings of the last run.
    void newEvaluation_startsOnTheOpenSkill_andTheLastSuiteRepeatsAndConcurrency()
    {
        write(m_project->skillsPath() + QStringLiteral("/alpha/SKILL.md"),
              "---\nname: alpha\ndescription: Alpha.\n---\nA.\n");
        write(m_project->testsPath() + QStringLiteral("/second.json"),
              R"([{"id": "b", "input": "second", "expected": {"contains": "MAGIC-EPS"}}])");
        const QString rmsnorm = m_project->skillsPath() + QStringLiteral("/rmsnorm");
        {
            EvalLaunchDialog first(*m_project, m_chat.get());
            QCOMPARE(first.plan().skillDir, m_project->skillsPath() + QStringLiteral("/alpha")); // none open
            QVERIFY(first.selectSkillDir(rmsnorm));
            auto *suite = first.findChild<QComboBox *>(QStringLiteral("suiteChoice"));
            suite->setCurrentIndex(suite->findText(QStringLiteral("second.json")));
            first.findChild<QSpinBox *>(QStringLiteral("repeats"))->setValue(5);
            first.findChild<QSpinBox *>(QStringLiteral("concurrency"))->setValue(7);
            first.accept();
        }
        EvalLaunchDialog next(*m_project, m_chat.get());
        QVERIFY(next.selectSkillDir(rmsnorm + u'/')); // as the Skill view may name it
        QCOMPARE(next.plan().skillDir, rmsnorm);
        QCOMPARE(next.plan().suitePath, m_project->testsPath() + QStringLiteral("/second.json"));
        QCOMPARE(next.plan().config.runs, 5);
        QCOMPARE(next.plan().config.concurrency, 7);
        // No run yet: the time is a first guess, and says so (issue 35, item 18).
        QVERIFY2(next.summaryText().contains(QStringLiteral("a first guess")), qPrintable(next.summaryText()));
        QDir(m_project->skillsPath() + QStringLiteral("/alpha")).removeRecursively();
        QFile::remove(m_project->testsPath() + QStringLiteral("/second.json"));
    }

    void withClaudeCode_theDialogFitsA1280x800Screen()
    {
        // The CLI setup installed where there is one (the screenshot shows what users see), else a stand-in.
        const bool installed = findAgentCli(Harness::ClaudeCode, {}).ok();
        ScopedVariable pinned("SKILLFORGE_CLAUDE_CODE_CLI", installed ? QString() : fakeClaude());
        EvalLaunchDialog dialog(*m_project, m_chat.get());
        choose(harnessBox(dialog), Harness::ClaudeCode);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isLookingForCli(), 30000);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        dialog.adjustSize();
        QVERIFY2(dialog.width() <= 1280 && dialog.height() <= 800,
                 qPrintable(QStringLiteral("%1x%2").arg(dialog.width()).arg(dialog.height())));
        QVERIFY(dialog.sizeHint().height() <= 800);
        screenshot(dialog, QStringLiteral("eval-launch-claude-code.png"));
    }
};

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    TestEvalLaunchHarness test;
    return sf::test::execCountingSkips(&test, argc, argv);
}

#include "test_eval_launch_harness.moc"
