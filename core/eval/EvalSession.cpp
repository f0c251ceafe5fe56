#include "EvalSession.h"

#include "AgentCliExecutor.h"
#include "CudaKernelVerifier.h"
#include "agents/Harness.h"
#include "agents/HarnessModels.h"
#include "common/TokenEstimate.h"
#include "llm/ChatClient.h"
#include "llm/LocalModelServer.h"
#include "llm/ModelName.h"
#include "sandbox/Sandbox.h"
#include "usage/Pricing.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QHostInfo>
#include <QSysInfo>
#include <algorithm>

namespace sf {

std::variant<std::unique_ptr<EvalSession>, QString> EvalSession::prepare(ChatClient &chat, const EvalPlan &plan,
                                                                         CommandRunner runCommand)
{
    std::unique_ptr<EvalSession> session(new EvalSession);
    QString skillDir = plan.skillDir;
    QString suitePath = plan.suitePath;
    session->m_config = plan.config;
    // A resumed run takes everything from its run.json: the same skill, suite and settings, or it refuses.
    if (!plan.resumeDir.isEmpty()) {
        auto opened = RunStore::open(plan.resumeDir);
        if (const LoadError *e = std::get_if<LoadError>(&opened))
            return e->toString();
        session->m_store.emplace(std::move(std::get<RunStore>(opened)));
        session->m_config = EvalConfig::fromJson(session->m_store->manifest().parameters);
        if (skillDir.isEmpty())
            skillDir = session->m_store->manifest().skillDir;
        if (suitePath.isEmpty())
            suitePath = session->m_store->manifest().suitePath;
    }
    const EvalConfig &config = session->m_config;
    if (skillDir.isEmpty() || config.models.isEmpty())
        return QStringLiteral("needs a skill folder and at least one model");
    for (const QString &model :
         config.models + (config.judgeModel.isEmpty() ? QStringList() : QStringList{config.judgeModel})) {
        if (const Result<ModelName> name = ModelName::parse(model); !name)
            return name.error;
    }
    std::optional<AgentCliBinary> cli;
    if (Harness::isAgentCli(config.harness)) {
        for (const QString &model : config.models) {
            if (const QString why = whyModelUnfitForHarness(config.harness, model, chat.providers()); !why.isEmpty())
                return why;
        }
        QString noSandbox;
        if (!sandboxAvailable(&noSandbox))
            return QStringLiteral("%1 runs only in the sandbox, and there is none here: %2")
                .arg(Harness::label(config.harness), noSandbox);
        const Result<AgentCliBinary> found = findAgentCli(config.harness, config.harnessCli);
        if (!found)
            return found.error;
        cli = *found.value;
    } else if (config.harness != Harness::Builtin) {
        return QStringLiteral("unknown harness \"%1\" (choose %2)").arg(config.harness, Harness::all().join(u", "));
    }
    auto skill = loadSkillUnderTest(skillDir);
    if (const QString *e = std::get_if<QString>(&skill))
        return *e;
    auto suite = suitePath.isEmpty() ? readSkillTestSuite(skillDir) : readTestSuite(suitePath);
    if (const LoadError *e = std::get_if<LoadError>(&suite))
        return e->toString();
    session->m_suite = std::get<TestSuite>(suite);
    AgentSetup setup;
    setup.skill = std::get<SkillUnderTest>(skill);
    const int skillTokens = estimateTokens(setup.skill.body);
    if (const QStringList unpriced = Pricing::current()->unpricedOf(config.models);
        plan.maxCostUsd && !unpriced.isEmpty())
        return QStringLiteral("a spending cap needs a price for every student, and %1").arg(priceUnknownHint(unpriced));
    setup.config = config;
    setup.runCommand = std::move(runCommand);
    // cuda_kernel verifiers: a project's own kernel tasks join the bundled ones.
    const QString kernelsFolder = projectKernelsFolderOf(skillDir);
    if (plan.kernelChecker)
        session->m_kernels = plan.kernelChecker(kernelsFolder);
    else
        session->m_kernels = std::make_unique<CudaKernelVerifier>(kernelsFolder);
    setup.verifierCommand = plan.verifierCommand;
    setup.kernels = session->m_kernels.get();

    if (session->m_store) {
        const RunManifest &m = session->m_store->manifest();
        if (m.skillHash != setup.skill.contentHash || m.suiteHash != session->m_suite.hash)
            return QStringLiteral(
                       "the skill or the suite changed since %1 started (run.json records %2 and %3); start a "
                       "new run instead of resuming")
                .arg(session->m_store->dir(), m.skillHash, m.suiteHash);
        if (!plan.executor.isEmpty())
            session->m_store->manifest().executor = plan.executor; // saved when this session ends
        const QJsonObject recorded = session->m_store->manifest().harness;
        if (cli && !recorded.isEmpty() && recorded.value(QStringLiteral("version")).toString() != cli->version)
            return QStringLiteral("%1 is %2 now, and %3 was made with %4; both arms of every case must meet the same "
                                  "CLI: start a new run, or choose that version with --harness-cli")
                .arg(Harness::label(config.harness), cli->version, session->m_store->dir(),
                     recorded.value(QStringLiteral("version")).toString());
        if (cli)
            session->m_store->manifest().harness = harnessJson(*cli);
    } else {
        RunManifest manifest;
        manifest.skillName = setup.skill.name;
        manifest.skillDir = setup.skill.dir;
        manifest.skillHash = setup.skill.contentHash;
        manifest.skillVersion = setup.skill.version;
        manifest.suitePath = suitePath.isEmpty() ? QString() : QFileInfo(session->m_suite.path).absoluteFilePath();
        manifest.suiteHash = session->m_suite.hash;
        for (const QString &model : config.models)
            manifest.models.append({model, ModelName::parse(model).value->provider, {}});
        manifest.parameters = config.toJson();
        manifest.executor = plan.executor;
        if (cli)
            manifest.harness = harnessJson(*cli);
        manifest.appVersion = QCoreApplication::applicationVersion();
        manifest.host =
            QStringLiteral("%1 (%2, %3)")
                .arg(QHostInfo::localHostName(), QSysInfo::prettyProductName(), QSysInfo::currentCpuArchitecture());
        manifest.startedAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
        auto created = RunStore::create(plan.runsDir, manifest);
        if (const QString *e = std::get_if<QString>(&created))
            return *e;
        session->m_store.emplace(std::move(std::get<RunStore>(created)));
    }
    if (cli) {
        const DoorServices services{&chat.engine(), &chat.providers(), chat.localServer()};
        session->m_executor =
            std::make_unique<AgentCliExecutor>(chat, services, std::move(setup), *cli, session->m_store->dir());
    } else {
        session->m_executor = std::make_unique<LocalExecutor>(chat, std::move(setup));
    }
    session->m_runner = std::make_unique<EvalRunner>(*session->m_executor, *session->m_store, session->m_suite, config);
    if (plan.maxCostUsd)
        session->m_runner->setSpendingCap(*plan.maxCostUsd, skillTokens);
    // The server restarts itself after a crash or a hang; once it gives up, every further item would end in the
    // same error, and starting it again per item would only repeat the failure: the run stops, resumable.
    const QStringList models = config.models + QStringList{config.judgeModel};
    const bool usesLocalModel = std::any_of(models.cbegin(), models.cend(), [](const QString &model) {
        const Result<ModelName> name = ModelName::parse(model);
        return name && name.value->provider == QLatin1String("local");
    });
    if (LocalModelServer *local = chat.localServer(); local && usesLocalModel) {
        EvalRunner *runner = session->m_runner.get();
        QObject::connect(local, &LocalModelServer::failed, runner,
                         [runner](const QString &message) { runner->stop(message); });
    }
    return session;
}

EvalSession::~EvalSession()
{
    // The runner listens to the executor: it goes first.
    m_runner.reset();
    m_executor.reset();
}

void EvalSession::start()
{
    m_runner->start();
}

void EvalSession::cancel()
{
    m_runner->cancel();
}

} // namespace sf
