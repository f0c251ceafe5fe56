#include "RefineLoop.h"

#include "SkillGenerator.h"
#include "TraceCondenser.h"
#include "eval/EvalSession.h"
#include "eval/RunSummary.h"
#include "skill/SkillMeta.h"
#include "skill/SkillVersionStore.h"
#include "usage/Pricing.h"

#include <QHash>

namespace sf {

namespace {

constexpr int kCharsPerToken = 4; // the usual rough size of a token in English text and code
constexpr int kAnswerExcerptChars = 800;

QString percent(double rate)
{
    return QString::number(qRound(rate * 100)) + u'%';
}

} // namespace

const RefineIteration *bestRefineIteration(const QList<RefineIteration> &iterations)
{
    const RefineIteration *best = nullptr;
    for (const RefineIteration &iteration : iterations) {
        // Strictly better only: on a tie the earlier version stays, the one with fewer of the teacher's changes.
        if (!best ||
            std::pair(iteration.rankingLift(), iteration.trainLift) > std::pair(best->rankingLift(), best->trainLift))
            best = &iteration;
    }
    return best;
}

RefineLoop::RefineLoop(ChatClient &client, CommandRunner commandRunner, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_commandRunner(std::move(commandRunner))
{
}

RefineLoop::~RefineLoop() = default;

void RefineLoop::start(const RefineRequest &request)
{
    Q_ASSERT(!m_running);
    m_request = request;
    m_iterations.clear();
    m_proposalFailed = false;
    m_failedReply.clear();
    m_kept = 0;
    m_keptText.clear();
    m_running = true;
    if (request.teacherModel.isEmpty() || request.config.models.isEmpty()) {
        return fail(QStringLiteral("refining needs a teacher and at least one student model"));
    }
    if (request.criteria.maxIterations < 1) {
        return fail(QStringLiteral("the iteration limit must be at least 1"));
    }
    if (const QStringList unpriced =
            Pricing::current()->unpricedOf(request.config.models + QStringList{request.teacherModel});
        request.criteria.maxCostUsd && !unpriced.isEmpty()) {
        return fail(QStringLiteral("a cost budget needs a price for the teacher and every student, and %1")
                        .arg(priceUnknownHint(unpriced)));
    }
    // The skill as it is now becomes a version, so every iteration can be compared and restored.
    const auto snapshot =
        SkillVersionStore(request.skillDir).snapshot(QStringLiteral("user"), QStringLiteral("before refining"));
    if (const QString *error = std::get_if<QString>(&snapshot)) {
        return fail(QStringLiteral("cannot store the current version of %1: %2").arg(request.skillDir, *error));
    }
    evaluate();
}

void RefineLoop::cancel()
{
    if (!m_running) {
        return;
    }
    if (m_session) {
        m_session->cancel(); // the runner ends with finished(true), which ends the loop
        return;
    }
    if (m_generator) {
        m_generator->disconnect(this);
        m_generator->cancel();
        m_generator->deleteLater();
    }
    finish(QStringLiteral("cancelled"));
}

void RefineLoop::evaluate()
{
    m_awaitingDecision = false;
    EvalPlan plan;
    plan.skillDir = m_request.skillDir;
    plan.suitePath = m_request.suitePath;
    plan.config = m_request.config;
    plan.runsDir = m_request.runsDir;
    if (m_request.criteria.maxCostUsd)
        plan.maxCostUsd = std::max(0.0, *m_request.criteria.maxCostUsd - spentUsd().value_or(0));
    auto prepared = EvalSession::prepare(m_client, plan, m_commandRunner);
    if (const QString *error = std::get_if<QString>(&prepared)) {
        return fail(*error);
    }
    m_session = std::move(std::get<std::unique_ptr<EvalSession>>(prepared));
    connect(&m_session->runner(), &EvalRunner::finished, this, &RefineLoop::onEvaluated);
    Q_EMIT stage(QStringLiteral("Evaluating iteration %1 with %2")
                     .arg(m_iterations.size() + 1)
                     .arg(m_request.config.models.join(QStringLiteral(", "))));
    m_session->start();
}

void RefineLoop::onEvaluated(bool cancelled)
{
    // This runs inside the session's own signal, so the session is deleted only once it has returned.
    EvalSession *session = m_session.release();
    session->deleteLater();
    if (cancelled) {
        return finish(QStringLiteral("cancelled"));
    }
    if (session->runner().capReached()) {
        // A part of an evaluation says too little to rank the version by: it is left out, and its run can be
        // finished with eval --resume.
        return finish(QStringLiteral("cost budget reached: %1 (the evaluation in %2 stopped before its end; finish it "
                                     "with skillforge eval --resume)")
                          .arg(session->runner().stopReason(), session->store().dir()));
    }

    const QList<ItemResult> &results = session->store().results();
    const RunSummary summary = summarizeRun(results);
    const bool hasHeldOut = std::any_of(results.begin(), results.end(),
                                        [](const ItemResult &item) { return item.split == QLatin1String("heldout"); });
    const QString trainSplit = hasHeldOut ? QStringLiteral("train") : QStringLiteral("all");

    RefineIteration iteration;
    iteration.number = int(m_iterations.size()) + 1;
    iteration.versionId = session->store().manifest().skillVersion;
    iteration.runDir = session->store().dir();
    const QStringList &models = m_request.config.models;
    double heldOutLift = 0;
    double heldOutPass = 0;
    for (const QString &model : models) {
        if (const ArmComparison *comparison = summary.comparison(model, trainSplit)) {
            iteration.trainLift += comparison->lift / double(models.size());
        }
        if (const ArmSummary *arm = summary.arm(model, kWithSkillArm, trainSplit)) {
            iteration.trainPassRate += arm->passRate.rate / double(models.size());
            iteration.meanTokens += arm->tokens.mean / double(models.size());
        }
        if (const ArmSummary *arm = summary.arm(model, kBaselineArm, trainSplit)) {
            iteration.baselinePassRate += arm->passRate.rate / double(models.size());
        }
        if (hasHeldOut) {
            if (const ArmComparison *comparison = summary.comparison(model, QStringLiteral("heldout"))) {
                heldOutLift += comparison->lift / double(models.size());
            }
            if (const ArmSummary *arm = summary.arm(model, kWithSkillArm, QStringLiteral("heldout"))) {
                heldOutPass += arm->passRate.rate / double(models.size());
            }
        }
    }
    if (hasHeldOut) {
        iteration.heldOutLift = heldOutLift;
        iteration.heldOutPassRate = heldOutPass;
    }
    CostTally cost;
    for (const ItemResult &item : results) {
        cost.add(item.key.model, item.costUsd);
    }
    iteration.costUsd = cost.total();
    m_iterations.append(iteration);
    Q_EMIT iterationEvaluated(iteration);

    if (const QString reason = stopReasonAfter(iteration); !reason.isEmpty()) {
        return finish(reason);
    }
    propose();
}

QString RefineLoop::stopReasonAfter(const RefineIteration &latest) const
{
    const RefineCriteria &criteria = m_request.criteria;
    if (criteria.targetLift && latest.trainLift >= *criteria.targetLift) {
        return QStringLiteral("target lift reached: %1 (target %2)")
            .arg(liftInPoints(latest.trainLift), liftInPoints(*criteria.targetLift));
    }
    if (criteria.targetPassRate && latest.trainPassRate >= *criteria.targetPassRate) {
        return QStringLiteral("target pass rate reached: %1 (target %2)")
            .arg(percent(latest.trainPassRate), percent(*criteria.targetPassRate));
    }
    if (criteria.maxCostUsd) {
        const std::optional<double> spent = spentUsd();
        if (!spent) {
            return QStringLiteral("the cost budget cannot be checked: an item of evaluation %1 made a request without "
                                  "a price")
                .arg(latest.number);
        }
        // The next iteration is the teacher's proposal and its evaluation: expected to cost what the last ones did.
        const double next = latest.costUsd.value_or(0) + lastTeacherCostUsd();
        if (*spent + next > *criteria.maxCostUsd) {
            return QStringLiteral("cost budget reached: %1 spent of %2, and the next iteration is expected to cost %3")
                .arg(formatUsd(*spent), formatUsd(*criteria.maxCostUsd), formatUsd(next));
        }
    }
    const int k = criteria.plateauIterations;
    if (k > 0 && m_iterations.size() > k) {
        bool flat = true;
        for (qsizetype i = m_iterations.size() - k; i < m_iterations.size(); ++i) {
            flat = flat &&
                   std::abs(m_iterations.at(i).trainLift - m_iterations.at(i - 1).trainLift) < criteria.plateauDelta;
        }
        if (flat) {
            return QStringLiteral("plateau: the lift changed by less than %1 for %2")
                .arg(QString::number(criteria.plateauDelta * 100, 'f', 1) + QStringLiteral(" pp"))
                .arg(k == 1 ? QStringLiteral("1 iteration") : QStringLiteral("%1 iterations").arg(k));
        }
    }
    // Iteration 1 measures the skill as it is; each later one measures one of the teacher's improvements.
    if (latest.number > criteria.maxIterations) {
        return criteria.maxIterations == 1
                   ? QStringLiteral("iteration limit reached (1 improvement tried)")
                   : QStringLiteral("iteration limit reached (%1 improvements tried)").arg(criteria.maxIterations);
    }
    return {};
}

QString RefineLoop::feedbackFor(const QList<RefineIteration> &history, const QString &runDir, int budgetTokens)
{
    QString text = QStringLiteral("Lift so far (pass rate with the skill minus without it, on the training cases):\n");
    for (const RefineIteration &iteration : history) {
        text += QStringLiteral("- iteration %1: lift %2 (with the skill %3, without %4)\n")
                    .arg(iteration.number)
                    .arg(liftInPoints(iteration.trainLift), percent(iteration.trainPassRate),
                         percent(iteration.baselinePassRate));
    }

    auto opened = RunStore::open(runDir, RunStore::Access::ReadOnly);
    if (!std::holds_alternative<RunStore>(opened)) {
        return text;
    }
    const RunStore &store = std::get<RunStore>(opened);
    QHash<QString, QString> inputs;
    if (const auto suite = readTestSuite(store.manifest().suitePath); std::holds_alternative<TestSuite>(suite)) {
        for (const TestCase &testCase : std::get<TestSuite>(suite).cases) {
            inputs.insert(testCase.id, testCase.input);
        }
    }
    // Train failures with the skill, one block per case (the first failure shown, the others counted);
    // held-out cases never reach the teacher, and errors are the provider's fault, not the skill's.
    QStringList order;
    QHash<QString, QList<const ItemResult *>> failuresByCase;
    for (const ItemResult &item : store.results()) {
        if (item.key.arm != kWithSkillArm || item.split != QLatin1String("train") || item.passed || item.isError()) {
            continue;
        }
        if (!failuresByCase.contains(item.key.caseId)) {
            order.append(item.key.caseId);
        }
        failuresByCase[item.key.caseId].append(&item);
    }
    if (order.isEmpty()) {
        return text + QStringLiteral("\nEvery training case passed with the skill.\n");
    }
    text += QStringLiteral("\nTraining cases the students failed with the skill:\n");
    const qsizetype budgetChars = qsizetype(budgetTokens) * kCharsPerToken;
    int shown = 0;
    for (const QString &caseId : std::as_const(order)) {
        const QList<const ItemResult *> &failures = failuresByCase.value(caseId);
        const ItemResult &first = *failures.first();
        QString block =
            QStringLiteral("\n### Case %1 (failed %2; first by %3)\n")
                .arg(caseId)
                .arg(failures.size() == 1 ? QStringLiteral("once") : QStringLiteral("%1 times").arg(failures.size()))
                .arg(first.key.model);
        block += QStringLiteral("Task given to the student:\n%1\n")
                     .arg(shortenMiddle(inputs.value(caseId), kAnswerExcerptChars));
        for (const VerifierOutcome &verifier : first.verifiers) {
            if (!verifier.passed) {
                block += QStringLiteral("- %1 check failed: %2\n")
                             .arg(verifier.name.isEmpty() ? verifier.type : verifier.name, verifier.evidence);
                if (!verifier.reasoning.isEmpty()) {
                    block += QStringLiteral("  judge: %1\n").arg(verifier.reasoning);
                }
            }
        }
        block += QStringLiteral("The student's answer (stopped: %1):\n%2\n")
                     .arg(first.stopReason, shortenMiddle(first.answer, kAnswerExcerptChars));
        if (text.size() + block.size() > budgetChars && shown > 0) {
            text += QStringLiteral("\n(%1 more failing case(s) not shown, to stay within the budget.)\n")
                        .arg(order.size() - shown);
            break;
        }
        text += block;
        ++shown;
    }
    return text;
}

void RefineLoop::propose()
{
    const RefineIteration &latest = m_iterations.last();
    SkillGenerationRequest generation;
    const auto meta = readSkillMeta(m_request.skillDir);
    if (const SkillMeta *skillMeta = std::get_if<SkillMeta>(&meta)) {
        generation.task = skillMeta->sourceTask;
    }
    generation.existingSkillDir = m_request.skillDir;
    generation.teacherModel = m_request.teacherModel;
    generation.profile = m_request.profile;
    generation.feedback = feedbackFor(m_iterations, latest.runDir, m_request.feedbackBudgetTokens);
    generation.origin = QStringLiteral("refine:%1").arg(latest.number);
    m_generator = new SkillGenerator(m_client, this);
    connect(m_generator, &SkillGenerator::stage, this, &RefineLoop::stage);
    connect(m_generator, &SkillGenerator::finished, this, &RefineLoop::onProposal);
    connect(m_generator, &SkillGenerator::failed, this, [this](const QString &message) {
        m_generator->deleteLater();
        if (message == u"cancelled")
            return finish(message);
        m_proposalFailed = true;
        m_failedReply = m_generator->lastReply();
        fail(message);
    });
    m_generator->start(generation);
}

std::optional<double> RefineLoop::spentUsd() const
{
    CostTally spent;
    for (const RefineIteration &iteration : m_iterations) {
        spent.add(QString(), iteration.costUsd);
        if (iteration.teacherCostUsd || !iteration.proposedVersionId.isEmpty())
            spent.add(m_request.teacherModel, iteration.teacherCostUsd);
    }
    return spent.total();
}

double RefineLoop::lastTeacherCostUsd() const
{
    for (auto it = m_iterations.crbegin(); it != m_iterations.crend(); ++it)
        if (it->teacherCostUsd)
            return *it->teacherCostUsd;
    return 0;
}

void RefineLoop::onProposal(const SkillGenerationResult &result)
{
    m_generator->deleteLater();
    m_iterations.last().proposedVersionId = result.versionId;
    m_iterations.last().teacherCostUsd = result.cost.total();
    if (m_request.attended) {
        m_awaitingDecision = true;
        Q_EMIT proposalReady(m_iterations.last());
        return;
    }
    accept();
}

void RefineLoop::accept()
{
    if (!m_running || (m_request.attended && !m_awaitingDecision)) {
        return;
    }
    m_iterations.last().accepted = true;
    evaluate();
}

void RefineLoop::reject()
{
    if (!m_running || !m_awaitingDecision) {
        return;
    }
    m_awaitingDecision = false;
    const QString error = SkillVersionStore(m_request.skillDir).restore(m_iterations.last().versionId);
    if (!error.isEmpty()) {
        return fail(QStringLiteral("cannot restore version %1: %2").arg(m_iterations.last().versionId, error));
    }
    Q_EMIT stage(QStringLiteral("Proposal rejected; asking the teacher again"));
    propose();
}

void RefineLoop::retry()
{
    if (!canRetry() || m_iterations.isEmpty()) {
        return;
    }
    m_proposalFailed = false;
    m_failedReply.clear();
    m_running = true;
    Q_EMIT stage(QStringLiteral("Asking the teacher again"));
    propose();
}

QString RefineLoop::keepBest()
{
    const RefineIteration *best = bestRefineIteration(m_iterations);
    if (!best) {
        m_kept = 0;
        m_keptText =
            m_iterations.isEmpty() ? QStringLiteral("Nothing was evaluated; the skill is as it was.") : QString();
        return {};
    }
    const bool heldOut = best->heldOutLift.has_value();
    const QString measure =
        QStringLiteral("%1 on the %2 cases")
            .arg(liftInPoints(best->rankingLift()), heldOut ? QStringLiteral("held-out") : QStringLiteral("training"));
    const QString why = m_iterations.size() == 1 ? QStringLiteral("the only version measured")
                                                 : QStringLiteral("the best measured of %1").arg(m_iterations.size());
    SkillVersionStore store(m_request.skillDir);
    QString hash;
    for (const SkillVersion &version : store.versions()) {
        if (version.id == best->versionId)
            hash = version.contentHash;
    }
    if (best->versionId.isEmpty() || hash.isEmpty()) {
        m_kept = 0;
        m_keptText = QStringLiteral("Iteration %1 measured best (%2), but its version was not stored; the skill "
                                    "folder holds what was last written.")
                         .arg(best->number)
                         .arg(measure);
        return QStringLiteral("iteration %1's version was not stored").arg(best->number);
    }
    if (SkillVersionStore::contentHash(store.currentFiles()) != hash) {
        // restore() stores the folder as it is first: the version replaced stays one click away.
        if (const QString error = store.restore(best->versionId); !error.isEmpty()) {
            m_kept = 0;
            m_keptText = QStringLiteral("Iteration %1 measured best (%2), but it could not be put back: %3")
                             .arg(best->number)
                             .arg(measure, error);
            return error;
        }
    }
    m_kept = best->number;
    m_keptText = QStringLiteral("Kept iteration %1 (%2): %3.").arg(best->number).arg(measure, why);
    return {};
}

void RefineLoop::fail(const QString &message)
{
    m_running = false;
    if (!m_proposalFailed) {
        // An evaluation that could not start may leave an unmeasured proposal in the folder; a failed proposal
        // leaves the last evaluated version there for retry().
        keepBest();
    }
    QMetaObject::invokeMethod(
        this, [this, message] { Q_EMIT failed(message); }, Qt::QueuedConnection);
}

void RefineLoop::finish(const QString &reason)
{
    m_running = false;
    keepBest();
    QMetaObject::invokeMethod(
        this, [this, reason] { Q_EMIT finished(reason); }, Qt::QueuedConnection);
}

} // namespace sf
