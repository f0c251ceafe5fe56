#include "EvalTestsFirst.h"

#include "CommandRegistry.h"
#include "LlmServices.h"
#include "generate/TestCaseGenerator.h"

#include <QCoreApplication>
#include <QDir>

using namespace Qt::StringLiterals;

namespace sf::cli {

std::optional<QString> writeTestsFirst(LlmServices &services, const QString &skillDir, const QString &teacher,
                                       int count)
{
    TestGenerationRequest request;
    request.skillDir = QDir(skillDir).absolutePath();
    request.model = teacher;
    request.count = count;
    // Kept with the skill, where `eval` and skill-creator look for them, so the next run measures the same cases.
    request.outputPath = QDir(request.skillDir).filePath(u"evals/evals.json"_s);
    if (!QDir().mkpath(QDir(request.skillDir).filePath(u"evals"_s))) {
        err(u"skillforge eval: %1: cannot make the evals folder for the tests\n"_s.arg(request.skillDir));
        return std::nullopt;
    }
    err(u"The skill carries no tests: asking %1 to write %2 test cases into %3 first...\n"_s.arg(
        teacher, QString::number(count), QDir::toNativeSeparators(request.outputPath)));
    TestCaseGenerator generator(services.chat());
    std::optional<QString> written;
    QObject::connect(&generator, &TestCaseGenerator::stage, qApp,
                     [](const QString &what) { err(u"  "_s + what + u"...\n"_s); });
    QObject::connect(&generator, &TestCaseGenerator::finished, qApp, [&](const TestGenerationResult &result) {
        for (const QString &left : result.dropped)
            err(u"  left out: %1\n"_s.arg(left));
        err(u"Wrote %1: %2 cases, %3 held out (%4 input + %5 output tokens); evaluating with them\n"_s.arg(
            QDir::toNativeSeparators(result.path), QString::number(result.suite.cases.size()),
            QString::number(result.suite.heldOutCount()), QString::number(result.usage.totalInput()),
            QString::number(result.usage.output)));
        written = result.path;
        QCoreApplication::quit();
    });
    QObject::connect(&generator, &TestCaseGenerator::failed, qApp, [&](const QString &message) {
        err(u"skillforge eval: the teacher could not write the tests: %1\n"_s.arg(message));
        QCoreApplication::quit();
    });
    generator.start(request);
    QCoreApplication::exec();
    return written;
}

} // namespace sf::cli
