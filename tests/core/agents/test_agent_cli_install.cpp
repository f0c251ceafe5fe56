// Finding the agent CLI a run uses: the pinned ones scripts/setup-agent-clis installed (found through the variables
// setup prints, or in the cache), the user's own on PATH, or a chosen file; each error says what is missing and how
// to fix it. The user's own CLI is a tiny fake script here, in a temporary folder that PATH points at.
#include "SkippedChecks.h"
#include "agents/AgentCliInstall.h"
#include "agents/Harness.h"
#include "llm/LocalRuntime.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sf;

namespace {

/// Writes an executable /bin/sh script (no external commands: PATH may hold only its own folder).
QString writeScript(const QString &path, const QByteArray &body)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return QString();
    }
    file.write("#!/bin/sh\n" + body);
    file.close();
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

int lineCount(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? int(file.readAll().count('\n')) : 0;
}

} // namespace

class TestAgentCliInstall final : public QObject
{
    Q_OBJECT

private:
    QByteArray m_path;
    QByteArray m_claudeVariable;
    QByteArray m_codexVariable;
    QByteArray m_cacheDir;
    QTemporaryDir m_dir;

    void checkPinned(const QString &harness, const char *variable, const QString &package,
                     const QString &expectedVersion)
    {
        const QString inCache =
            LocalRuntime::cacheDir() + "/agent-clis/"_L1 + package + u'-' + pinnedAgentCliVersion(harness);
        if (qEnvironmentVariableIsEmpty(variable) && !QFileInfo::exists(inCache)) {
            SF_SKIP_BECAUSE(
                QByteArray(QByteArray(variable) + " is unset and " + inCache.toUtf8() +
                           " does not exist: run scripts/setup (or scripts/setup-agent-clis) to install the pinned "
                           "CLIs"));
        }
        const Result<AgentCliBinary> found = findAgentCli(harness, QString());
        QVERIFY2(found.ok(), qPrintable(found.error));
        QCOMPARE(found.value->harness, harness);
        QCOMPARE(found.value->version, expectedVersion);
        QCOMPARE(found.value->source, u"pinned by setup: PyPI %1 %2"_s.arg(package, pinnedAgentCliVersion(harness)));
        QVERIFY(QFileInfo(found.value->path).isExecutable());
        if (!qEnvironmentVariableIsEmpty(variable)) {
            QCOMPARE(found.value->path, qEnvironmentVariable(variable));
        }
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_path = qgetenv("PATH");
        m_claudeVariable = qgetenv("SKILLFORGE_CLAUDE_CODE_CLI");
        m_codexVariable = qgetenv("SKILLFORGE_CODEX_CLI");
        m_cacheDir = qgetenv("SKILLFORGE_CACHE_DIR");
    }

    void cleanup()
    {
        qputenv("PATH", m_path);
        const auto restore = [](const char *name, const QByteArray &value) {
            if (value.isEmpty()) {
                qunsetenv(name);
            } else {
                qputenv(name, value);
            }
        };
        restore("SKILLFORGE_CLAUDE_CODE_CLI", m_claudeVariable);
        restore("SKILLFORGE_CODEX_CLI", m_codexVariable);
        restore("SKILLFORGE_CACHE_DIR", m_cacheDir);
    }

    void pinnedVersions_areTheOnesSetupInstalls()
    {
        QCOMPARE(pinnedAgentCliVersion(Harness::ClaudeCode), u"0.2.189"_s);
        QCOMPARE(pinnedAgentCliVersion(Harness::Codex), u"0.163.0"_s);
        QVERIFY(pinnedAgentCliVersion(Harness::Builtin).isEmpty());
    }

    void pinnedClaudeCode_isFound_withItsVersion()
    {
        checkPinned(Harness::ClaudeCode, "SKILLFORGE_CLAUDE_CODE_CLI", u"claude-agent-sdk"_s, u"2.1.332"_s);
    }

    void pinnedCodex_isFound_withItsVersion()
    {
        checkPinned(Harness::Codex, "SKILLFORGE_CODEX_CLI", u"openai-codex-cli-bin"_s, u"0.163.0"_s);
    }

    void pinned_variableNamingAMissingFile_saysHowToFix()
    {
        const QString missing = m_dir.filePath(u"nowhere/claude"_s);
        qputenv("SKILLFORGE_CLAUDE_CODE_CLI", missing.toUtf8());
        const Result<AgentCliBinary> found = findAgentCli(Harness::ClaudeCode, QString());
        QVERIFY(!found.ok());
        QVERIFY2(found.error.contains("SKILLFORGE_CLAUDE_CODE_CLI"_L1), qPrintable(found.error));
        QVERIFY2(found.error.contains(missing), qPrintable(found.error));
        QVERIFY2(found.error.contains("Run scripts/setup"_L1), qPrintable(found.error));
    }

    void pinned_variableNamingAnotherBuild_isNotCalledPinned()
    {
        QTemporaryDir dir;
        const QString fake = writeScript(dir.filePath(u"claude"_s), "echo '1.0.0 (Claude Code)'\n");
        qputenv("SKILLFORGE_CLAUDE_CODE_CLI", fake.toUtf8());
        const Result<AgentCliBinary> found = findAgentCli(Harness::ClaudeCode, QString());
        QVERIFY2(found.ok(), qPrintable(found.error));
        QCOMPARE(found.value->version, u"1.0.0"_s);
        QCOMPARE(found.value->source, u"set by SKILLFORGE_CLAUDE_CODE_CLI: %1"_s.arg(fake));
    }

    void pinned_notInstalled_saysToRunSetup()
    {
        qunsetenv("SKILLFORGE_CODEX_CLI");
        qputenv("SKILLFORGE_CACHE_DIR", m_dir.filePath(u"empty-cache"_s).toUtf8());
        const Result<AgentCliBinary> found = findAgentCli(Harness::Codex, QString());
        QVERIFY(!found.ok());
        QVERIFY2(found.error.startsWith("Codex is not installed (no "_L1), qPrintable(found.error));
        QVERIFY2(found.error.contains(m_dir.filePath(u"empty-cache/agent-clis/openai-codex-cli-bin-0.163.0"_s)),
                 qPrintable(found.error));
        QVERIFY2(found.error.endsWith("run scripts/setup from the Skillforge sources (it installs the pinned version), "
                                      "or choose your own with --harness-cli path"_L1),
                 qPrintable(found.error));
    }

    void userOwnOnPath_isFound_withItsVersionAndPathAsSource()
    {
        QTemporaryDir bin;
        const QString fake = writeScript(bin.filePath(u"claude"_s), "echo '9.9.9 (Claude Code)'\n");
        qputenv("PATH", bin.path().toUtf8());
        const Result<AgentCliBinary> found = findAgentCli(Harness::ClaudeCode, u"path"_s);
        QVERIFY2(found.ok(), qPrintable(found.error));
        QCOMPARE(found.value->harness, Harness::ClaudeCode);
        QCOMPARE(found.value->path, fake);
        QCOMPARE(found.value->version, u"9.9.9"_s);
        QCOMPARE(found.value->source, u"the user's own: %1 (PATH)"_s.arg(fake));
    }

    void userOwnOnPath_absent_saysWhatIsMissing()
    {
        QTemporaryDir bin;
        qputenv("PATH", bin.path().toUtf8());
        const Result<AgentCliBinary> found = findAgentCli(Harness::Codex, u"path"_s);
        QVERIFY(!found.ok());
        QVERIFY2(found.error.contains("Codex was not found on PATH (no `codex` there)"_L1), qPrintable(found.error));
        QVERIFY2(found.error.contains("scripts/setup"_L1), qPrintable(found.error));
    }

    void chosenFile_notExecutable_saysSo()
    {
        const QString path = m_dir.filePath(u"plain-claude"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("echo '9.9.9 (Claude Code)'\n");
        file.close();
        QVERIFY(file.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
        const Result<AgentCliBinary> found = findAgentCli(Harness::ClaudeCode, path);
        QVERIFY(!found.ok());
        QVERIFY2(found.error.startsWith(u"The chosen Claude Code CLI %1 is not an executable file"_s.arg(path)),
                 qPrintable(found.error));
        QVERIFY2(found.error.contains("chmod +x"_L1), qPrintable(found.error));
    }

    void chosenFile_missing_saysSo()
    {
        const QString path = m_dir.filePath(u"no-such-codex"_s);
        const Result<AgentCliBinary> found = findAgentCli(Harness::Codex, path);
        QVERIFY(!found.ok());
        QVERIFY2(found.error.startsWith(u"The chosen Codex CLI %1 does not exist"_s.arg(path)),
                 qPrintable(found.error));
    }

    void chosenFile_isFound_withItsVersion()
    {
        const QString fake = writeScript(m_dir.filePath(u"my-codex"_s), "echo 'codex-cli 0.200.1-alpha.2'\n");
        const Result<AgentCliBinary> found = findAgentCli(Harness::Codex, fake);
        QVERIFY2(found.ok(), qPrintable(found.error));
        QCOMPARE(found.value->version, u"0.200.1-alpha.2"_s);
        QCOMPARE(found.value->source, u"chosen file: %1"_s.arg(fake));
    }

    void chosenFile_ofTheOtherCli_isRefused()
    {
        const QString fake = writeScript(m_dir.filePath(u"codex-as-claude"_s), "echo 'codex-cli 0.163.0'\n");
        const Result<AgentCliBinary> found = findAgentCli(Harness::ClaudeCode, fake);
        QVERIFY(!found.ok());
        QVERIFY2(
            found.error.startsWith(u"%1 is not Claude Code: its `--version` printed \"codex-cli 0.163.0\""_s.arg(fake)),
            qPrintable(found.error));
    }

    void chosenFile_failingOnVersion_reportsItsExitCodeAndErrors()
    {
        const QString fake = writeScript(m_dir.filePath(u"broken-claude"_s), "echo 'no licence file' >&2\nexit 3\n");
        const Result<AgentCliBinary> found = findAgentCli(Harness::ClaudeCode, fake);
        QVERIFY(!found.ok());
        QVERIFY2(found.error.contains("exit code 3"_L1), qPrintable(found.error));
        QVERIFY2(found.error.contains("no licence file"_L1), qPrintable(found.error));
    }

    void versionCheck_runsWithAFreshHome_andTheUpdaterOff()
    {
        const QString seen = m_dir.filePath(u"seen-environment"_s);
        const QString fake =
            writeScript(m_dir.filePath(u"env-claude"_s),
                        "echo \"$HOME|$DISABLE_AUTOUPDATER|$CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC\" > " +
                            QFile::encodeName(seen) + "\necho '2.0.0 (Claude Code)'\n");
        const Result<AgentCliBinary> found = findAgentCli(Harness::ClaudeCode, fake);
        QVERIFY2(found.ok(), qPrintable(found.error));
        QFile file(seen);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList fields = QString::fromUtf8(file.readAll()).trimmed().split(u'|');
        QCOMPARE(fields.size(), 3);
        QVERIFY(!fields[0].isEmpty());
        QVERIFY(fields[0] != QDir::homePath());
        QVERIFY2(!QFileInfo::exists(fields[0]), "the temporary home is removed afterwards");
        QCOMPARE(fields[1], u"1"_s);
        QCOMPARE(fields[2], u"1"_s);
    }

    void version_isAskedOncePerPathAndModificationTime()
    {
        const QString runs = m_dir.filePath(u"runs"_s);
        const QString fake = writeScript(m_dir.filePath(u"counted-claude"_s),
                                         "echo run >> " + QFile::encodeName(runs) + "\necho '3.1.4 (Claude Code)'\n");
        QVERIFY(findAgentCli(Harness::ClaudeCode, fake).ok());
        QVERIFY(findAgentCli(Harness::ClaudeCode, fake).ok());
        QCOMPARE(lineCount(runs), 1);

        QFile file(fake);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.setFileTime(QFileInfo(fake).lastModified().addSecs(60), QFileDevice::FileModificationTime));
        file.close();
        QVERIFY(findAgentCli(Harness::ClaudeCode, fake).ok());
        QCOMPARE(lineCount(runs), 2);
    }

    void unknownHarness_isAnError()
    {
        for (const QString &harness : {Harness::Builtin, u"opencode"_s, QString()}) {
            const Result<AgentCliBinary> found = findAgentCli(harness, QString());
            QVERIFY(!found.ok());
            QVERIFY2(found.error.contains("claude-code and codex"_L1), qPrintable(found.error));
        }
    }
};

SF_TEST_GUILESS_MAIN(TestAgentCliInstall)
#include "test_agent_cli_install.moc"
