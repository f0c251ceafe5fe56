// What each agent CLI is given for one item: its command line, its environment, where it finds project skills, and
// the fingerprint that shows both arms gave it the same settings.
#include "SkippedChecks.h"
#include "agents/AgentCli.h"
#include "agents/Harness.h"

#include <QTemporaryDir>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

CliItemSpec specIn(const QString &root, const QString &item)
{
    CliItemSpec spec;
    spec.binary = {Harness::ClaudeCode, u"/opt/cli/claude"_s, u"2.1.332"_s, u"pinned"_s};
    spec.model = u"anthropic:claude-sonnet-4-5"_s;
    spec.prompt = u"Tidy data.csv"_s;
    spec.workspace = root + u"/artifacts/"_s + item + u"/workspace"_s;
    spec.home = root + u"/artifacts/"_s + item + u"/cli-home"_s;
    spec.skillName = u"csv-tidy"_s;
    spec.sessionId = u"11111111-2222-3333-4444-"_s + item.right(12).rightJustified(12, u'0');
    return spec;
}

} // namespace

class TestAgentCliArgs final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void claudeCode_projectSkillsAndCommandLine()
    {
        const auto cli = AgentCli::forHarness(Harness::ClaudeCode);
        QVERIFY(cli);
        QCOMPARE(cli->projectSkillFolder(u"csv-tidy"_s), u".claude/skills/csv-tidy"_s);
        CliItemSpec spec = specIn(u"/runs/r1"_s, u"baseline"_s);
        spec.mcpConfig = u"/project/mcp.json"_s;
        spec.allowedTools = {u"Bash(git:*)"_s, u"mcp__db"_s};
        const QStringList args = cli->arguments(spec, doorUrlInSandbox());
        QVERIFY(args.contains(u"-p"_s));
        QCOMPARE(args.at(args.indexOf(u"--model"_s) + 1), u"claude-sonnet-4-5"_s);
        QCOMPARE(args.at(args.indexOf(u"--session-id"_s) + 1), spec.sessionId);
        QCOMPARE(args.at(args.indexOf(u"--mcp-config"_s) + 1), spec.mcpConfig);
        QVERIFY(args.contains(u"--strict-mcp-config"_s));
        QCOMPARE(args.at(args.indexOf(u"--allowed-tools"_s) + 1), u"Bash(git:*) mcp__db"_s);
        QCOMPARE(args.at(args.indexOf(u"--disallowed-tools"_s) + 1), u"WebSearch,WebFetch"_s);
        const QProcessEnvironment env = cli->environment(spec, doorUrlInSandbox());
        QCOMPARE(env.value(u"ANTHROPIC_BASE_URL"_s), u"http://127.0.0.1:8089"_s);
        QCOMPARE(env.value(u"ANTHROPIC_API_KEY"_s), kDoorPlaceholderKey);
        QCOMPARE(env.value(u"HOME"_s), spec.home);
        QCOMPARE(env.value(u"CLAUDE_CONFIG_DIR"_s), spec.home + u"/.claude"_s);
        QCOMPARE(env.value(u"ANTHROPIC_SMALL_FAST_MODEL"_s), u"claude-sonnet-4-5"_s);
        QCOMPARE(env.value(u"API_TIMEOUT_MS"_s), u"600000"_s);
        // Nothing of the user's environment: only what the CLI is given.
        QVERIFY(!env.contains(u"USER"_s));
        QVERIFY(!env.contains(u"ANTHROPIC_AUTH_TOKEN"_s));
    }

    void codex_projectSkillsProviderAndMcpServersFromTheClaudeStyleFile()
    {
        const auto cli = AgentCli::forHarness(Harness::Codex);
        QVERIFY(cli);
        QCOMPARE(cli->projectSkillFolder(u"csv-tidy"_s), u".agents/skills/csv-tidy"_s);
        QTemporaryDir dir;
        QFile mcp(dir.filePath(u"mcp.json"_s));
        QVERIFY(mcp.open(QIODevice::WriteOnly));
        mcp.write(
            "{\"mcpServers\": {\"db\": {\"command\": \"/usr/bin/db-mcp\", \"args\": [\"--read-only\", "
            "\"a \\\"q\\\"\"], \"env\": {\"DB\": \"x.sqlite\"}}, \"docs\": {\"url\": \"http://127.0.0.1:9/mcp\"}}}");
        mcp.close();
        CliItemSpec spec = specIn(u"/runs/r1"_s, u"baseline"_s);
        spec.model = u"openai:gpt-5.4"_s;
        spec.mcpConfig = mcp.fileName();
        const QStringList args = cli->arguments(spec, doorUrlInSandbox());
        QCOMPARE(args.first(), u"exec"_s);
        QCOMPARE(args.last(), u"-"_s);
        QCOMPARE(args.at(args.indexOf(u"-m"_s) + 1), u"gpt-5.4"_s);
        QVERIFY(args.contains(u"--dangerously-bypass-approvals-and-sandbox"_s));
        QVERIFY(args.contains(u"web_search=\"disabled\""_s));
        const QString provider = args.filter(u"model_providers.skillforge="_s).value(0);
        QVERIFY2(provider.contains(u"base_url=\"http://127.0.0.1:8089/v1\""_s), qPrintable(provider));
        QVERIFY2(provider.contains(u"wire_api=\"responses\""_s), qPrintable(provider));
        QVERIFY2(provider.contains(u"stream_idle_timeout_ms=600000"_s), qPrintable(provider));
        QCOMPARE(args.filter(u"mcp_servers."_s),
                 (QStringList{u"mcp_servers.\"db\"={command=\"/usr/bin/db-mcp\", args=[\"--read-only\", "
                              u"\"a \\\"q\\\"\"], env={\"DB\"=\"x.sqlite\"}}"_s,
                              u"mcp_servers.\"docs\"={url=\"http://127.0.0.1:9/mcp\"}"_s}));
        const QProcessEnvironment env = cli->environment(spec, doorUrlInSandbox());
        QCOMPARE(env.value(u"CODEX_HOME"_s), spec.home + u"/.codex"_s);
        QCOMPARE(env.value(u"SKILLFORGE_DOOR_KEY"_s), kDoorPlaceholderKey);
    }

    void fingerprint_sameInBothArms_differsWhenTheSettingsDo()
    {
        for (const QString &harness : {Harness::ClaudeCode, Harness::Codex}) {
            const auto cli = AgentCli::forHarness(harness);
            const CliItemSpec baseline = specIn(u"/runs/r1"_s, u"baseline__case__r1"_s);
            CliItemSpec withSkill = specIn(u"/runs/r1"_s, u"with_skill__case__r1"_s);
            withSkill.skillDir = u"/project/skills/csv-tidy"_s;
            QCOMPARE(cliSettingsFingerprint(*cli, withSkill), cliSettingsFingerprint(*cli, baseline));
            CliItemSpec otherTools = baseline;
            otherTools.allowedTools = {u"Bash"_s};
            CliItemSpec otherVersion = baseline;
            otherVersion.binary.version = u"9.9.9"_s;
            QVERIFY(cliSettingsFingerprint(*cli, otherVersion) != cliSettingsFingerprint(*cli, baseline));
            if (harness == Harness::ClaudeCode)
                QVERIFY(cliSettingsFingerprint(*cli, otherTools) != cliSettingsFingerprint(*cli, baseline));
        }
        QVERIFY(!AgentCli::forHarness(Harness::Builtin));
    }
};

SF_TEST_GUILESS_MAIN(TestAgentCliArgs)
#include "test_agent_cli_args.moc"
