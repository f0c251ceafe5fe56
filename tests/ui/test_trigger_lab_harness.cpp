// The Trigger Lab's "Student harness": trials in Skillforge's loop (one request listing the catalogue) or in the real
// CLI (Claude Code, Codex) with every catalogue skill installed, what a trial costs there, models the CLI cannot speak
// to named and Measure refused, the choice handed to the trigger runner and remembered. The CLIs are small scripts
// answering `--version` as the real ones do; no trial runs.
#include "HarnessChoiceTesting.h"
#include "SkippedChecks.h"
#include "agents/Harness.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/ProviderRegistry.h"
#include "project/AppSettings.h"
#include "project/Project.h"
#include "sandbox/Sandbox.h"
#include "trigger/TriggerLabDialog.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
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

QPushButton *button(const QWidget &dialog, const QString &name)
{
    return dialog.findChild<QPushButton *>(name);
}

/// The "at most $X" of Measure in the estimate line; -1 when it names none.
double measureBound(const QString &estimate)
{
    static const QRegularExpression bound(u"^Measure: \\d+ trials, at most \\$([0-9]+\\.[0-9]+)"_s);
    const QRegularExpressionMatch match = bound.match(estimate);
    return match.hasMatch() ? match.captured(1).toDouble() : -1;
}

void screenshot(QWidget &widget, const QString &name)
{
    if (const QByteArray dir = qgetenv("SKILLFORGE_SCREENSHOT_DIR"); !dir.isEmpty())
        QVERIFY(widget.grab().save(QString::fromUtf8(dir) + u'/' + name));
}

} // namespace

class TestTriggerLabHarness final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::optional<Project> m_project;
    std::unique_ptr<HttpEngine> m_engine;
    std::unique_ptr<ProviderRegistry> m_providers;
    std::unique_ptr<ChatClient> m_chat;
    QString m_claude;

    std::unique_ptr<TriggerLabDialog> dialog(const QStringList &students)
    {
        auto dialog = std::make_unique<TriggerLabDialog>(*m_chat, *m_project);
        [&] { QVERIFY(dialog->setSkill(u"cuda-kernels"_s)); }();
        dialog->setStudents(students);
        dialog->setTeacher(u"anthropic:claude-sonnet-4-5"_s);
        dialog->setRuns(1);
        return dialog;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        AppSettings().setLastHarness(Harness::Builtin);
        AppSettings().setLastHarnessCli({});
        m_claude = fakeAgentCli(m_dir.filePath(u"pinned/claude"_s), "2.1.332 (Claude Code)");
        QVERIFY(!m_claude.isEmpty());
        QVERIFY(!fakeAgentCli(m_dir.filePath(u"pinned/codex"_s), "codex-cli 0.163.0").isEmpty());
        qputenv("SKILLFORGE_CLAUDE_CODE_CLI", m_claude.toUtf8());
        qputenv("SKILLFORGE_CODEX_CLI", m_dir.filePath(u"pinned/codex"_s).toUtf8());
        auto created = Project::create(m_dir.filePath(u"project"_s), u"Harness"_s);
        QVERIFY(std::holds_alternative<Project>(created));
        m_project.emplace(std::get<Project>(created));
        const QString skill = m_project->skillsPath() + u"/cuda-kernels"_s;
        write(skill + u"/SKILL.md"_s, "---\nname: cuda-kernels\ndescription: Write and optimise CUDA kernels for GPU "
                                      "tensor operations, such as softmax and layernorm.\n---\n# CUDA kernels\n");
        write(skill + u"/evals/trigger_evals.json"_s, R"([
          {"query": "Write a CUDA kernel for softmax", "should_trigger": true},
          {"query": "What is the capital of France?", "should_trigger": false}])");
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

    void loop_isTheDefault_oneRequestPerTrial()
    {
        const auto lab = dialog({u"anthropic:claude-haiku-4-5"_s});
        QVERIFY(harnessBox(*lab) && cliBox(*lab) && button(*lab, u"measure"_s) && button(*lab, u"optimize"_s));
        QCOMPARE(lab->config().harness, Harness::Builtin);
        QCOMPARE(lab->config().harnessCli, QString());
        QVERIFY(cliBox(*lab)->isHidden());
        QVERIFY2(lab->harnessText().contains(u"one request"_s), qPrintable(lab->harnessText()));
        QVERIFY(button(*lab, u"measure"_s)->isEnabled());
    }

    void claudeCode_goesIntoTheConfig_andATrialCostsTheCliWholePrompt()
    {
        const auto lab = dialog({u"anthropic:claude-haiku-4-5"_s});
        const double loopBound = measureBound(lab->estimateText());
        QVERIFY2(loopBound > 0, qPrintable(lab->estimateText()));
        choose(harnessBox(*lab), Harness::ClaudeCode);
        // Looked for on a worker thread: until it answers, Measure and Optimize wait and the dialog says so.
        QVERIFY(!cliBox(*lab)->isHidden());
        QVERIFY2(lab->harnessText().contains(u"Looking for Claude Code…"_s), qPrintable(lab->harnessText()));
        QVERIFY(!button(*lab, u"measure"_s)->isEnabled());
        QVERIFY(!button(*lab, u"optimize"_s)->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(!lab->harnessText().contains(u"Looking for"_s), 30000);
        const QString text = lab->harnessText();
        QVERIFY2(text.contains(QRegularExpression(u"each trial runs the real CLI once, in the sandbox, with all \\d+ "
                                                  "catalogue skills installed in \\.claude/skills/"_s)),
                 qPrintable(text));
        QVERIFY2(text.contains(u"a trial costs Claude Code's whole prompt"_s), qPrintable(text));
        QVERIFY2(text.contains(u"Claude Code 2.1.332, pinned by setup: PyPI claude-agent-sdk"_s), qPrintable(text));
        QCOMPARE(lab->config().harness, Harness::ClaudeCode);
        QCOMPARE(lab->config().harnessCli, QString());
        // The estimate follows: a trial's bound is the CLI's own prompt, far above one short request.
        const double cliBound = measureBound(lab->estimateText());
        QVERIFY2(cliBound > loopBound, qPrintable(lab->estimateText()));
        QCOMPARE(button(*lab, u"measure"_s)->isEnabled(), sandboxAvailable());
        QCOMPARE(button(*lab, u"optimize"_s)->isEnabled(), sandboxAvailable());
        // The user's own CLI is a choice of its own.
        choose(cliBox(*lab), u"path"_s);
        QCOMPARE(lab->config().harnessCli, u"path"_s);
        QTRY_VERIFY_WITH_TIMEOUT(!lab->harnessText().contains(u"Looking for"_s), 30000);
    }

    void modelThatDoesNotFitTheCli_isNamed_andMeasureIsRefused()
    {
        const auto lab = dialog({u"openai:gpt-4.1-mini"_s, u"anthropic:claude-haiku-4-5"_s});
        choose(harnessBox(*lab), Harness::ClaudeCode);
        QTRY_VERIFY_WITH_TIMEOUT(!lab->harnessText().contains(u"Looking for"_s), 30000);
        const QString text = lab->harnessText();
        QVERIFY2(text.contains(u"Claude Code speaks Anthropic's Messages API, and openai:gpt-4.1-mini"_s),
                 qPrintable(text));
        QVERIFY(!text.contains(u"and anthropic:claude-haiku-4-5 is not"_s));
        QVERIFY(!button(*lab, u"measure"_s)->isEnabled());
        QVERIFY(!button(*lab, u"optimize"_s)->isEnabled());
        // Measure or Optimize asked for anyway: each says why, and nothing runs.
        lab->measure();
        QVERIFY(!lab->isRunning());
        QVERIFY2(lab->statusText().contains(u"openai:gpt-4.1-mini"_s), qPrintable(lab->statusText()));
        lab->optimize();
        QVERIFY(!lab->isRunning());
        QVERIFY2(lab->statusText().contains(u"openai:gpt-4.1-mini"_s), qPrintable(lab->statusText()));
        // The student that does not fit left out: Measure is on (where the sandbox is).
        lab->setStudents({u"anthropic:claude-haiku-4-5"_s});
        QVERIFY(!lab->harnessText().contains(u"speaks"_s));
        QCOMPARE(button(*lab, u"measure"_s)->isEnabled(), sandboxAvailable());
    }

    void measure_handsTheHarnessToTheRunner_andTheChoiceIsRemembered()
    {
        if (!sandboxAvailable())
            QSKIP("no sandbox here: a CLI harness cannot start, so Measure stays off");
        {
            const auto lab = dialog({u"anthropic:claude-haiku-4-5"_s});
            choose(harnessBox(*lab), Harness::ClaudeCode);
            QTRY_VERIFY_WITH_TIMEOUT(button(*lab, u"measure"_s)->isEnabled(), 30000);
            // The CLI is gone by the time the runner looks for it: the runner's own words say that it was asked to
            // run Claude Code, and no trial runs.
            qputenv("SKILLFORGE_CLAUDE_CODE_CLI", m_dir.filePath(u"gone/claude"_s).toUtf8());
            QSignalSpy finished(lab.get(), &TriggerLabDialog::finished);
            lab->measure();
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
            qputenv("SKILLFORGE_CLAUDE_CODE_CLI", m_claude.toUtf8());
            QVERIFY2(lab->statusText().contains(u"Claude Code is not installed where"_s),
                     qPrintable(lab->statusText()));
            QVERIFY2(lab->statusText().contains(m_dir.filePath(u"gone/claude"_s)), qPrintable(lab->statusText()));
        }
        const auto next = dialog({u"anthropic:claude-haiku-4-5"_s});
        QCOMPARE(next->config().harness, Harness::ClaudeCode);
        QVERIFY(!cliBox(*next)->isHidden());
        QTRY_VERIFY_WITH_TIMEOUT(button(*next, u"measure"_s)->isEnabled(), 30000);
        AppSettings().setLastHarness(Harness::Builtin);
    }

    void withClaudeCode_theDialogFitsA1280x800Screen()
    {
        const auto lab = dialog({u"openai:gpt-4.1-mini"_s, u"anthropic:claude-haiku-4-5"_s});
        choose(harnessBox(*lab), Harness::ClaudeCode);
        QTRY_VERIFY_WITH_TIMEOUT(!lab->harnessText().contains(u"Looking for"_s), 30000);
        lab->show();
        QVERIFY(QTest::qWaitForWindowExposed(lab.get()));
        QVERIFY2(lab->width() <= 1280 && lab->height() <= 800,
                 qPrintable(u"%1x%2"_s.arg(lab->width()).arg(lab->height())));
        const QSize least = lab->minimumSizeHint();
        QVERIFY2(least.width() <= 1280 && least.height() <= 800,
                 qPrintable(u"%1x%2"_s.arg(least.width()).arg(least.height())));
        auto *summary = lab->findChild<QLabel *>(u"harnessSummary"_s);
        QVERIFY(summary && summary->isVisible());
        QVERIFY(summary->height() >= summary->heightForWidth(summary->width()));
        screenshot(*lab, u"trigger-lab-claude-code.png"_s);
    }
};

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    TestTriggerLabHarness test;
    return sf::test::execCountingSkips(&test, argc, argv);
}

#include "test_trigger_lab_harness.moc"
