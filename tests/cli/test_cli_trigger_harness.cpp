// `skillforge trigger --harness claude-code|codex` as a user runs it: the real executable running the real CLI per
// trial against a scripted model that loads the skill when the query names a kernel. Skipped (77) unless
// SKILLFORGE_CLAUDE_CODE_CLI / SKILLFORGE_CODEX_CLI name the CLIs.
#include "ScriptedAgentEndpoints.h"
#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sf::test;

namespace {

struct Result
{
    int exitCode = -1;
    QString out;
    QString err;
};

void writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(content);
}

const QByteArray kSkill = "---\nname: cuda-kernels\ndescription: Write and optimise CUDA kernels for GPU tensor "
                          "operations, such as softmax and layernorm.\n---\n# CUDA kernels\n\nUse shared memory.\n";
/// The scripted model loads the skill for the first query only: the one that names a kernel.
const QByteArray kQueries = R"([
  {"query": "Write a CUDA kernel for softmax", "should_trigger": true},
  {"query": "My layernorm is slow, speed it up", "should_trigger": true},
  {"query": "Write operations notes about our tensor library", "should_trigger": false},
  {"query": "Extract the tables from this PDF file", "should_trigger": false},
  {"query": "What is the capital of France?", "should_trigger": false}
])";

AgentPolicy kernelPolicy()
{
    AgentPolicy policy;
    policy.skillName = u"cuda-kernels"_s;
    policy.keywords = {u"kernel"_s};
    return policy;
}

} // namespace

class TestCliTriggerHarness : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    ScriptedHttpServer m_server;
    ScriptedAgentEndpoints m_model{kernelPolicy()};
    QString m_skill;
    QString m_queries;

    /// The executable with nothing of the user's keys; the scripted model is reached as anthropic: and openai:.
    Result run(const QStringList &arguments)
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"HOME"_s, m_dir.filePath(u"home"_s));
        env.insert(u"XDG_CONFIG_HOME"_s, m_dir.filePath(u"home/config"_s));
        env.insert(u"ANTHROPIC_BASE_URL"_s, m_server.baseUrl().toString());
        env.insert(u"ANTHROPIC_API_KEY"_s, u"sk-ant-test-0000"_s);
        env.insert(u"OPENAI_BASE_URL"_s, m_server.baseUrl().toString() + u"/v1"_s);
        env.insert(u"OPENAI_API_KEY"_s, u"sk-test-0000"_s);
        process.setProcessEnvironment(env);
        QSignalSpy finished(&process, &QProcess::finished);
        process.start(QStringLiteral(SKILLFORGE_EXECUTABLE), arguments);
        if (!finished.wait(240000)) {
            process.kill();
            process.waitForFinished();
        }
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
    }

    /// `trigger --harness HARNESS --json` with @p model: the JSON names the CLI and its version, and the rates are
    /// the scripted model's.
    void checkJson(const QString &harness, const char *cliVariable, const QString &model, const QString &label)
    {
        const QString cli = qEnvironmentVariable(cliVariable);
        if (cli.isEmpty())
            SF_SKIP_BECAUSE(QByteArray(QByteArray(cliVariable) +
                                       " is not set: run scripts/setup-agent-clis and export what it prints"));
        const Result r = run({u"trigger"_s, m_skill, u"--queries"_s, m_queries, u"--model"_s, model, u"--runs"_s,
                              u"1"_s, u"--harness"_s, harness, u"--harness-cli"_s, cli, u"--json"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o["harness"_L1]["name"_L1].toString(), harness);
        const QString version = o["harness"_L1]["version"_L1].toString();
        QVERIFY(!version.isEmpty());
        QCOMPARE(o["harness"_L1]["path"_L1].toString(), QFileInfo(cli).absoluteFilePath());
        QVERIFY2(r.err.contains(u"harness: %1 %2"_s.arg(label, version)), qPrintable(r.err));
        const QJsonObject rates = o["models"_L1].toArray().first().toObject();
        QCOMPARE(rates["recall"_L1]["k"_L1].toInt(), 1);
        QCOMPARE(rates["recall"_L1]["n"_L1].toInt(), 2);
        QCOMPARE(rates["false_positive_rate"_L1]["k"_L1].toInt(), 0);
        QCOMPARE(rates["false_positive_rate"_L1]["n"_L1].toInt(), 3);
        QVERIFY(rates["cost_usd"_L1].toDouble() > 0);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_model.install(m_server);
        QVERIFY(m_server.listen());
        m_skill = m_dir.filePath(u"project/skills/cuda-kernels"_s);
        writeFile(m_skill + u"/SKILL.md"_s, kSkill);
        m_queries = m_dir.filePath(u"eval_set.json"_s);
        writeFile(m_queries, kQueries);
    }

    void trigger_claudeCode_json_namesTheCliAndMeasuresItsDiscovery()
    {
        checkJson(u"claude-code"_s, "SKILLFORGE_CLAUDE_CODE_CLI", u"anthropic:claude-sonnet-4-5"_s, u"Claude Code"_s);
    }

    void trigger_codex_json_namesTheCliAndMeasuresItsDiscovery()
    {
        checkJson(u"codex"_s, "SKILLFORGE_CODEX_CLI", u"openai:gpt-5"_s, u"Codex"_s);
    }
};

SF_TEST_GUILESS_MAIN(TestCliTriggerHarness)
#include "test_cli_trigger_harness.moc"
