#include "TestCaseGenerator.h"

#include "PromptTemplate.h"
#include "SkillDraft.h"
#include "llm/ChatCall.h"
#include "llm/ChatClient.h"
#include "skill/SkillMeta.h"
#include "skill/SkillVersionStore.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <cmath>

namespace sf {

TestCaseGenerator::TestCaseGenerator(ChatClient &client, QObject *parent)
    : QObject(parent)
    , m_client(client)
{
}

TestCaseGenerator::~TestCaseGenerator()
{
    delete m_call; // cancels a request still in flight
}

void TestCaseGenerator::assignSplits(QList<TestCase> &cases, double heldOutFraction)
{
    // Case i is held out when the running quota floor((i+1)*f) steps up at it: for f = 1/3 and six
    // cases, the third and the sixth. The small tolerance lets a typed 0.333333 count as a third.
    const double f = std::clamp(heldOutFraction, 0.0, 1.0);
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const bool heldOut = std::floor(double(i + 1) * f + 1e-6) > std::floor(double(i) * f + 1e-6);
        cases[i].split = heldOut ? QStringLiteral("heldout") : QStringLiteral("train");
    }
}

QByteArray TestCaseGenerator::jsonOf(const QString &reply)
{
    static const QRegularExpression fence(QStringLiteral(R"(```(?:json)?[ \t]*\n(.*?)\n```)"),
                                          QRegularExpression::DotMatchesEverythingOption);
    const QRegularExpressionMatch match = fence.match(reply);
    return (match.hasMatch() ? match.captured(1) : reply).trimmed().toUtf8();
}

void TestCaseGenerator::start(const TestGenerationRequest &request)
{
    Q_ASSERT(!m_running);
    m_request = request;
    m_result = {};
    m_running = true;
    if (request.model.isEmpty()) {
        return fail(QStringLiteral("no model was given"));
    }
    if (request.count < 1) {
        return fail(QStringLiteral("the number of cases must be at least 1"));
    }
    if (!QFileInfo::exists(request.skillDir + QStringLiteral("/SKILL.md"))) {
        return fail(QStringLiteral("%1 is not a skill folder (it has no SKILL.md)").arg(request.skillDir));
    }
    if (QFileInfo::exists(request.outputPath)) {
        return fail(QStringLiteral("%1 already exists; it is not replaced").arg(request.outputPath));
    }
    QString task = request.task;
    if (task.trimmed().isEmpty()) {
        const auto meta = readSkillMeta(request.skillDir);
        if (const SkillMeta *skillMeta = std::get_if<SkillMeta>(&meta)) {
            task = skillMeta->sourceTask;
        }
    }
    QMap<QString, QByteArray> files = SkillVersionStore(request.skillDir).currentFiles();
    files.remove(QStringLiteral("skill_meta.json"));
    const QHash<QString, QString> values{
        {QStringLiteral("count"), QString::number(request.count)},
        {QStringLiteral("task"), task.trimmed()},
        {QStringLiteral("skill"), SkillDraft::format(files)},
        {QStringLiteral("kernel_tasks"), request.kernelTasks.join(QStringLiteral(", "))}};
    const auto system = PromptTemplate::load(QStringLiteral("generate-tests.system"));
    const auto user = PromptTemplate::load(QStringLiteral("generate-tests.user"));
    if (!system || !user) {
        return fail(system ? user.error : system.error);
    }
    const auto systemText = system.value->render(values);
    const auto userText = user.value->render(values);
    if (!systemText || !userText) {
        return fail(systemText ? userText.error : systemText.error);
    }
    m_chat = {};
    m_chat.system = *systemText.value;
    m_chat.messages.append({QStringLiteral("user"), *userText.value});
    m_chat.maxTokens = request.maxTokens;
    if (resolveReplyFormat(request.replyFormat, request.model) == ReplyFormat::Json) {
        m_chat.replySchema = testSuiteReplySchema(request.count, request.kernelTasks, request.maxTokens);
    }
    ask();
}

void TestCaseGenerator::cancel()
{
    if (m_running) {
        fail(QStringLiteral("cancelled"));
    }
}

void TestCaseGenerator::ask()
{
    ++m_result.modelCalls;
    Q_EMIT stage(m_result.repaired
                     ? QStringLiteral("Asking %1 to fix the suite").arg(m_request.model)
                     : QStringLiteral("Asking %1 for %2 test cases").arg(m_request.model).arg(m_request.count));
    m_call = m_client.chat(m_request.model, m_chat);
    connect(m_call, &ChatCall::finished, this, &TestCaseGenerator::onReply);
    connect(m_call, &ChatCall::failed, this,
            [this](const QString &message) { fail(QStringLiteral("%1 failed: %2").arg(m_request.model, message)); });
}

void TestCaseGenerator::onReply(const ChatResponse &response)
{
    m_call->deleteLater();
    m_result.usage += response.usage;
    m_result.cost.add(m_request.model, response.costUsd);
    m_result.latencyMs += response.latencyMs;

    auto parsed = parseTestSuite(jsonOf(response.text), QStringLiteral("reply"));
    QString problem;
    if (const LoadError *error = std::get_if<LoadError>(&parsed)) {
        problem = error->toString();
    } else if (std::get<TestSuite>(parsed).cases.isEmpty()) {
        problem = QStringLiteral("the suite has no cases");
    }
    if (!problem.isEmpty() && replyWasCutOff(response)) {
        problem += QStringLiteral(" (the reply was cut off at the token limit of %1 tokens)").arg(m_chat.maxTokens);
    }
    if (!problem.isEmpty() && m_result.repaired) {
        std::optional<TestSuite> kept = salvage(jsonOf(response.text), &m_result.dropped);
        if (!kept) {
            return fail(QStringLiteral("the reply is still not a readable test suite: %1").arg(problem));
        }
        parsed = std::move(*kept);
        problem.clear();
    }
    if (!problem.isEmpty()) {
        m_result.repaired = true;
        const auto repair = PromptTemplate::load(QStringLiteral("repair-tests.user"));
        const auto repairText = repair ? repair.value->render({{QStringLiteral("problem"), problem}})
                                       : Result<QString>::failure(repair.error);
        if (!repairText) {
            return fail(repairText.error);
        }
        m_chat.messages.append({QStringLiteral("assistant"), response.text});
        m_chat.messages.append({QStringLiteral("user"), *repairText.value});
        ask();
        return;
    }

    TestSuite suite = std::get<TestSuite>(std::move(parsed));
    suite.path = m_request.outputPath;
    assignSplits(suite.cases, m_request.heldOutFraction);
    if (QFileInfo::exists(m_request.outputPath)) {
        return fail(
            QStringLiteral("%1 appeared while the model was writing; it is not replaced").arg(m_request.outputPath));
    }
    if (const QString error = writeTestSuite(m_request.outputPath, suite); !error.isEmpty()) {
        return fail(error);
    }
    m_result.path = m_request.outputPath;
    m_result.suite = suite;
    m_running = false;
    Q_EMIT finished(m_result);
}

std::optional<TestSuite> TestCaseGenerator::salvage(const QByteArray &json, QStringList *dropped)
{
    const QJsonDocument document = QJsonDocument::fromJson(json);
    const QJsonArray cases = document.isArray() ? document.array()
                                                : document.object().value(QStringLiteral("cases")).toArray();
    auto readable = [](const QJsonObject &testCase) {
        return std::holds_alternative<TestSuite>(parseTestSuite(
            QJsonDocument(QJsonObject{{QStringLiteral("cases"), QJsonArray{testCase}}}).toJson(), QStringLiteral("reply")));
    };
    QJsonArray kept;
    QSet<QString> ids;
    for (qsizetype i = 0; i < cases.size(); ++i) {
        QJsonObject testCase = cases[i].toObject();
        const QString label = QStringLiteral("case %1 (%2)")
                                  .arg(i + 1)
                                  .arg(testCase.value(QStringLiteral("id")).toString(QStringLiteral("no id")));
        QJsonArray verifiers;
        for (const QJsonValue &verifier : testCase.value(QStringLiteral("verifiers")).toArray()) {
            QJsonObject alone = testCase;
            alone.insert(QStringLiteral("verifiers"), QJsonArray{verifier});
            if (readable(alone)) {
                verifiers.append(verifier);
            } else {
                dropped->append(QStringLiteral("%1: an unreadable %2 verifier")
                                    .arg(label, verifier.toObject().value(QStringLiteral("type")).toString()));
            }
        }
        testCase.insert(QStringLiteral("verifiers"), verifiers);
        if (verifiers.isEmpty() || !readable(testCase)) {
            dropped->append(label + QStringLiteral(": left out, it could not be read"));
            continue;
        }
        if (const QString id = testCase.value(QStringLiteral("id")).toString(); !id.isEmpty()) {
            if (ids.contains(id)) {
                dropped->append(label + QStringLiteral(": left out, its id is taken by an earlier case"));
                continue;
            }
            ids.insert(id);
        }
        kept.append(testCase);
    }
    auto suite = parseTestSuite(QJsonDocument(QJsonObject{{QStringLiteral("cases"), kept}}).toJson(),
                                QStringLiteral("reply"));
    if (kept.isEmpty() || !std::holds_alternative<TestSuite>(suite)) {
        return std::nullopt;
    }
    return std::get<TestSuite>(std::move(suite));
}

void TestCaseGenerator::fail(const QString &message)
{
    if (m_call) {
        m_call->disconnect(this);
        m_call->deleteLater();
        m_call = nullptr;
    }
    m_running = false;
    QMetaObject::invokeMethod(
        this, [this, message] { Q_EMIT failed(message); }, Qt::QueuedConnection);
}

} // namespace sf
