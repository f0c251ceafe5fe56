#include "CommandRegistry.h"
#include "LlmServices.h"
#include "generate/TestCaseGenerator.h"
#include "project/Project.h"
#include "trigger/TriggerQueryGenerator.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace sf::cli {

namespace {

// The project folder holding @p skillDir (skills/<name>/ inside it), or "" when it is not in one.
QString projectOf(const QString &skillDir)
{
    QDir dir(QFileInfo(skillDir).absoluteFilePath());
    while (dir.cdUp()) {
        if (dir.exists(Project::FileName)) {
            return dir.absolutePath();
        }
    }
    return {};
}

// tests/<name>.json in the project, or tests/<name>-2.json and so on when that exists: never an existing file.
QString freeSuitePath(const QString &testsDir, const QString &name)
{
    QString path = QDir(testsDir).filePath(name + QStringLiteral(".json"));
    for (int n = 2; QFileInfo::exists(path); ++n) {
        path = QDir(testsDir).filePath(QStringLiteral("%1-%2.json").arg(name).arg(n));
    }
    return path;
}

// `tests generate --trigger`: a trigger query set instead of a suite, by default the skill's evals/trigger_evals.json.
int runTriggerQueriesGenerate(const QCommandLineParser &parser, const QString &skillDir, const QString &model)
{
    TriggerQueryRequest request;
    request.skillDir = skillDir;
    request.model = model;
    bool ok = true;
    request.count = parser.isSet(QStringLiteral("count")) ? parser.value(QStringLiteral("count")).toInt(&ok) : 20;
    if (!ok || request.count < 2 || request.count > 200) {
        err(QStringLiteral("skillforge tests generate: --count must be a number from 2 to 200 (see --help)\n"));
        return BadUsage;
    }
    if (parser.isSet(QStringLiteral("out"))) {
        request.outputPath = QFileInfo(parser.value(QStringLiteral("out"))).absoluteFilePath();
    } else {
        const QString evals = QDir(skillDir).filePath(QStringLiteral("evals"));
        request.outputPath = QDir(evals).filePath(QStringLiteral("trigger_evals.json"));
        for (int n = 2; QFileInfo::exists(request.outputPath); ++n)
            request.outputPath = QDir(evals).filePath(QStringLiteral("trigger_evals-%1.json").arg(n));
    }
    if (QFileInfo::exists(request.outputPath)) {
        err(QStringLiteral("skillforge tests generate: %1 already exists; choose another --out\n")
                .arg(request.outputPath));
        return BadUsage;
    }
    LlmServices services;
    TriggerQueryGenerator generator(services.chat());
    int exitCode = CheckFailed;
    QObject::connect(&generator, &TriggerQueryGenerator::finished, qApp,
                     [&](const QString &path, const QList<TriggerQuery> &queries) {
                         const auto should = std::count_if(queries.cbegin(), queries.cend(),
                                                           [](const TriggerQuery &q) { return q.shouldTrigger; });
                         out(QStringLiteral("Wrote %1: %2 trigger queries, %3 should load the skill, %4 should not\n")
                                 .arg(QDir::toNativeSeparators(path))
                                 .arg(queries.size())
                                 .arg(should)
                                 .arg(queries.size() - should));
                         exitCode = Success;
                         QCoreApplication::quit();
                     });
    QObject::connect(&generator, &TriggerQueryGenerator::failed, qApp, [&](const QString &message) {
        err(QStringLiteral("skillforge tests generate: %1\n").arg(message));
        QCoreApplication::quit();
    });
    err(QStringLiteral("Asking %1 for %2 trigger queries...\n").arg(model).arg(request.count));
    QMetaObject::invokeMethod(
        qApp, [&] { generator.start(request); }, Qt::QueuedConnection);
    QCoreApplication::exec();
    return exitCode;
}

int runTestsGenerate(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("skill-dir"), QString());
    parser.addOption({QStringLiteral("model"), QString(), QStringLiteral("M")});
    parser.addOption({QStringLiteral("count"), QString(), QStringLiteral("N"), QStringLiteral("6")});
    parser.addOption({QStringLiteral("heldout"), QString(), QStringLiteral("F"), QStringLiteral("1/3")});
    parser.addOption({QStringLiteral("task"), QString(), QStringLiteral("TEXT")});
    parser.addOption({QStringLiteral("out"), QString(), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("max-tokens"), QString(), QStringLiteral("N"), QStringLiteral("12000")});
    parser.addOption({QStringLiteral("reply-format"), QString(), QStringLiteral("F"), QStringLiteral("auto")});
    parser.addOption(QCommandLineOption(QStringLiteral("trigger")));
    if (!parseArguments(parser, QStringLiteral("tests generate"), arguments)) {
        return BadUsage;
    }
    auto usage = [](const QString &why) {
        err(QStringLiteral("skillforge tests generate: %1 (see --help)\n").arg(why));
        return BadUsage;
    };
    if (parser.positionalArguments().size() != 1) {
        return usage(QStringLiteral("needs exactly one SKILL_DIR"));
    }
    TestGenerationRequest request;
    request.skillDir = QFileInfo(parser.positionalArguments().first()).absoluteFilePath();
    request.model = parser.value(QStringLiteral("model"));
    request.task = parser.value(QStringLiteral("task"));
    if (request.model.isEmpty()) {
        return usage(QStringLiteral("needs --model PROVIDER:MODEL"));
    }
    if (!QFileInfo(QDir(request.skillDir).filePath(QStringLiteral("SKILL.md"))).isFile()) {
        return usage(QStringLiteral("%1 is not a skill folder (it has no SKILL.md)").arg(request.skillDir));
    }
    if (parser.isSet(QStringLiteral("trigger"))) {
        return runTriggerQueriesGenerate(parser, request.skillDir, request.model);
    }
    bool ok = false;
    request.maxTokens = parser.value(QStringLiteral("max-tokens")).toInt(&ok);
    if (!ok || request.maxTokens <= 0) {
        return usage(QStringLiteral("--max-tokens must be a positive number"));
    }
    const auto replyFormat = replyFormatFromName(parser.value(QStringLiteral("reply-format")));
    if (!replyFormat) {
        return usage(QStringLiteral("--reply-format must be auto, files or json"));
    }
    request.replyFormat = *replyFormat;
    request.count = parser.value(QStringLiteral("count")).toInt(&ok);
    if (!ok || request.count < 1 || request.count > 200) {
        return usage(QStringLiteral("--count must be a number from 1 to 200"));
    }
    // A fraction as a decimal (0.25) or a ratio (1/3).
    const QStringList ratio = parser.value(QStringLiteral("heldout")).split(u'/');
    request.heldOutFraction = ratio.first().toDouble(&ok);
    if (ok && ratio.size() == 2) {
        const double denominator = ratio.last().toDouble(&ok);
        ok = ok && denominator > 0;
        request.heldOutFraction = ok ? request.heldOutFraction / denominator : 0;
    }
    if (!ok || ratio.size() > 2 || request.heldOutFraction < 0 || request.heldOutFraction > 1) {
        return usage(QStringLiteral("--heldout must be a fraction from 0 to 1"));
    }
    if (parser.isSet(QStringLiteral("out"))) {
        request.outputPath = QFileInfo(parser.value(QStringLiteral("out"))).absoluteFilePath();
        if (QFileInfo::exists(request.outputPath)) {
            return usage(QStringLiteral("%1 already exists; choose another --out").arg(request.outputPath));
        }
    } else {
        const QString project = projectOf(request.skillDir);
        if (project.isEmpty()) {
            return usage(
                QStringLiteral("the skill is not inside a project (no skillforge.json above it): pass --out FILE"));
        }
        const QString testsDir = QDir(project).filePath(QStringLiteral("tests"));
        QDir().mkpath(testsDir);
        request.outputPath = freeSuitePath(testsDir, QFileInfo(request.skillDir).fileName());
    }

    LlmServices services;
    TestCaseGenerator generator(services.chat());
    int exitCode = CheckFailed;
    QObject::connect(&generator, &TestCaseGenerator::stage, qApp,
                     [](const QString &what) { err(what + QStringLiteral("...\n")); });
    QObject::connect(&generator, &TestCaseGenerator::finished, qApp, [&](const TestGenerationResult &result) {
        for (const QString &left : result.dropped) {
            err(QStringLiteral("left out: %1\n").arg(left));
        }
        out(QStringLiteral("Wrote %1: %2 cases, %3 held out\n")
                .arg(QDir::toNativeSeparators(result.path))
                .arg(result.suite.cases.size())
                .arg(result.suite.heldOutCount()));
        err(QStringLiteral("[%1] %2 call(s), %3 input + %4 output tokens, %5, %6 ms\n")
                .arg(request.model)
                .arg(result.modelCalls)
                .arg(result.usage.totalInput())
                .arg(result.usage.output)
                .arg(result.cost.text())
                .arg(result.latencyMs));
        exitCode = Success;
        QCoreApplication::quit();
    });
    QObject::connect(&generator, &TestCaseGenerator::failed, qApp, [&](const QString &message) {
        err(QStringLiteral("skillforge tests generate: %1\n").arg(message));
        QCoreApplication::quit();
    });
    generator.start(request);
    QCoreApplication::exec();
    return exitCode;
}

} // namespace

Command testsGenerateCommand()
{
    Command command;
    command.words = {QStringLiteral("tests"), QStringLiteral("generate")};
    command.summary = QStringLiteral("have a model write test cases for a skill");
    command.help = QStringLiteral(
        "Usage: skillforge tests generate SKILL_DIR --model PROVIDER:MODEL [--count N] [--heldout F]\n"
        "                                 [--task TEXT] [--out FILE] [--max-tokens N] [--reply-format F]\n"
        "       skillforge tests generate SKILL_DIR --trigger --model PROVIDER:MODEL [--count N] [--out FILE]\n\n"
        "Asks the model for N test cases (default 6) with verifiers of the kinds the evaluation runs\n"
        "(regex, file checks, commands, llm_judge rubrics, cuda_kernel), reads them with the suite reader\n"
        "(asking once more if the reply cannot be read) and marks the share F (default one third) held\n"
        "out, spread evenly (F as 0.25 or 1/3). The suite goes to the project's tests/<skill>.json "
        "(tests/<skill>-2.json\n"
        "and so on if that exists), or to FILE; an existing file is never replaced. The task defaults\n"
        "to the one in the skill's skill_meta.json. A second reply that still cannot be read whole keeps\n"
        "the cases and verifiers it can read and lists what it left out.\n\n"
        "  --max-tokens N     the longest reply the model may write (default 12000)\n"
        "  --reply-format F   json holds the reply to a JSON Schema (for small models), files asks for it\n"
        "                     in words; auto (default): json for the local and ollama providers\n"
        "  --trigger          write a trigger query set instead (skill-creator's [{query, should_trigger}],\n"
        "                     N default 20, about half near-miss negatives) for `skillforge trigger`; it goes\n"
        "                     to the skill's evals/trigger_evals.json (or -2, -3...) or to FILE\n\n"
        "Exit codes: 0 the suite was written, 1 the model failed or its reply could not be read,\n"
        "2 bad usage.\n");
    command.run = runTestsGenerate;
    return command;
}

} // namespace sf::cli
