// `skillforge generate` and `skillforge tests generate` with the real llama-server and Gemma model installed by
// scripts/setup-local-model as the teacher. The model is far too small to write a good skill; what is asserted is
// that the flows complete, write files, and that the validity report printed matches the files written.
#include "SkippedChecks.h"
#include "common/ChildProcess.h"
#include "eval/TestSuite.h"
#include "llm/LocalRuntime.h"
#include "skill/SkillDocument.h"
#include "skill/SkillValidator.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <cstdio>

class TestGenerateLocalModel final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_skillDir;

    struct Outcome
    {
        int exitCode = -1;
        QByteArray out;
        QString err;
    };

    static Outcome skillforge(const QStringList &arguments)
    {
        QProcess process;
        sf::endWithParent(&process); // killed by QtTest's watchdog, the test takes skillforge (and its server) along
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SKILLFORGE_LLAMA_SERVER"), sf::LocalRuntime::llamaServerPath());
        env.insert(QStringLiteral("SKILLFORGE_LOCAL_MODEL"), sf::LocalRuntime::modelPath());
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(SKILLFORGE_EXECUTABLE), arguments);
        if (!process.waitForFinished(420000))
            process.kill();
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1, process.readAllStandardOutput(),
                QString::fromUtf8(process.readAllStandardError())};
    }

private Q_SLOTS:
    void generate_withTheLocalTeacher_writesASkillAndReportsItsValidity()
    {
        const QString skills = m_dir.filePath(QStringLiteral("skills"));
        QVERIFY(QDir().mkpath(skills));
        const Outcome run = skillforge(
            {QStringLiteral("generate"), QStringLiteral("--task"),
             QStringLiteral("Write a CUDA kernel that adds two float vectors, and check it against the CPU."),
             QStringLiteral("--teacher"), sf::LocalRuntime::qualifiedModelName(), QStringLiteral("--out"), skills,
             QStringLiteral("--max-tokens"), QStringLiteral("1500"), QStringLiteral("--json")});
        // 0: valid; 1: written with the errors listed (or the flow failed: then there is no JSON).
        QVERIFY2(run.exitCode == 0 || run.exitCode == 1, qPrintable(run.err));
        const QJsonObject result = QJsonDocument::fromJson(run.out).object();
        QVERIFY2(!result.isEmpty(), qPrintable(run.err));
        QCOMPARE(result.value(QStringLiteral("reply_format")).toString(), QStringLiteral("json"));
        m_skillDir = result.value(QStringLiteral("skill_dir")).toString();
        QVERIFY2(QFile::exists(m_skillDir + QStringLiteral("/SKILL.md")), qPrintable(run.err));

        // The schema kept the front matter well-formed whatever the model wrote in it.
        QFile skillFile(m_skillDir + QStringLiteral("/SKILL.md"));
        QVERIFY(skillFile.open(QIODevice::ReadOnly));
        const sf::SkillDocument document = sf::SkillDocument::parse(QString::fromUtf8(skillFile.readAll()));
        QCOMPARE(document.name(), result.value(QStringLiteral("name")).toString());
        QVERIFY(!document.description().isEmpty());

        // The report printed is the validator's verdict on the files written.
        const QList<sf::SkillProblem> problems = sf::validateSkill(m_skillDir, sf::ValidationProfile::AgentSkills);
        QCOMPARE(result.value(QStringLiteral("valid")).toBool(), !sf::hasErrors(problems));
        QCOMPARE(result.value(QStringLiteral("problems")).toArray().size(), problems.size());
        QCOMPARE(run.exitCode, sf::hasErrors(problems) ? 1 : 0);

        const QString version = result.value(QStringLiteral("version")).toString();
        QFile prompt(QStringLiteral("%1/.versions/%2/prompt.json").arg(m_skillDir, version));
        QVERIFY(prompt.open(QIODevice::ReadOnly));
        QVERIFY(QJsonDocument::fromJson(prompt.readAll()).object().contains(QStringLiteral("reply_schema")));
    }

    void testsGenerate_withTheLocalModel_writesASuiteTheEvaluationReads()
    {
        if (m_skillDir.isEmpty())
            QSKIP("generation failed above; nothing to write tests for");
        const QString suitePath = m_dir.filePath(QStringLiteral("suite.json"));
        const Outcome run =
            skillforge({QStringLiteral("tests"), QStringLiteral("generate"), m_skillDir, QStringLiteral("--model"),
                        sf::LocalRuntime::qualifiedModelName(), QStringLiteral("--count"), QStringLiteral("2"),
                        QStringLiteral("--max-tokens"), QStringLiteral("1500"), QStringLiteral("--out"), suitePath});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto suite = sf::readTestSuite(suitePath);
        QVERIFY2(std::holds_alternative<sf::TestSuite>(suite), qPrintable(run.err));
        const QList<sf::TestCase> cases = std::get<sf::TestSuite>(suite).cases;
        // The schema asks for exactly two; a case it could not read would be listed as left out.
        QCOMPARE(cases.size() + run.err.count(QStringLiteral(": left out")), 2);
        for (const sf::TestCase &testCase : cases)
            QVERIFY(!testCase.verifiers.isEmpty());
    }
};

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (!sf::LocalRuntime::isInstalled()) {
        return sf::test::skipAll(sf::LocalRuntime::missingReason());
    }
    TestGenerateLocalModel test;
    return sf::test::execCountingSkips(&test, argc, argv);
}

#include "test_generate_local_model.moc"
