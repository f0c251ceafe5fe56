#include "TriggerOptimizer.h"

#include "DescriptionReply.h"
#include "TriggerRunner.h"
#include "common/AtomicFile.h"
#include "common/TokenEstimate.h"
#include "generate/PromptTemplate.h"
#include "generate/StructuredReply.h"
#include "llm/ChatCall.h"
#include "llm/ChatClient.h"
#include "skill/SkillDocument.h"
#include "skill/SkillVersionStore.h"
#include "usage/Pricing.h"

#include <QDir>
#include <QFile>
#include <QTimer>
#include <algorithm>
#include <random>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

constexpr int kMaxDescriptionChars = 1024; // the Agent Skills limit

/// A description as long as the limit allows, in short words: what a proposal's measurement is bounded with.
QString longestDescription()
{
    QString text;
    while (text.size() + 6 <= kMaxDescriptionChars)
        text += u"word, "_s;
    return text;
}

QString skillMdPath(const QString &skillDir)
{
    return QDir(skillDir).filePath(u"SKILL.md"_s);
}

ReplySchema descriptionSchema()
{
    return {u"skill_description"_s,
            QByteArrayLiteral(R"({"type":"object","properties":{"description":{"type":"string","maxLength":1024}},)"
                              R"("required":["description"],"additionalProperties":false})")};
}

} // namespace

QList<bool> stratifiedHoldout(const QList<TriggerQuery> &queries, double fraction, quint32 seed)
{
    QList<bool> heldOut(queries.size(), false);
    std::mt19937 random(seed);
    for (const bool cls : {true, false}) {
        QList<int> free;
        for (int i = 0; i < queries.size(); ++i) {
            if (queries.at(i).shouldTrigger != cls)
                continue;
            if (!queries.at(i).split.isEmpty())
                heldOut[i] = queries.at(i).split == u"heldout"_s;
            else
                free.append(i);
        }
        if (fraction <= 0 || free.isEmpty())
            continue;
        int take = int(std::lround(fraction * double(free.size())));
        if (free.size() >= 2)
            take = std::clamp(take, 1, int(free.size()) - 1);
        else
            take = 0;
        std::shuffle(free.begin(), free.end(), random);
        for (int k = 0; k < take; ++k)
            heldOut[free.at(k)] = true;
    }
    return heldOut;
}

TriggerOptimizeEstimate estimateOptimize(const TriggerOptimizeRequest &request, const SkillCatalogue &catalogue)
{
    TriggerOptimizeEstimate estimate;
    estimate.evaluations = request.maxIterations + 1;
    // Proposals may be as long as the limit allows: bound each evaluation with a description of that length.
    const SkillCatalogue longest = catalogue.withCandidateDescription(longestDescription());
    const TriggerEstimate one = estimateTrigger(longest, request.queries, request.config);
    estimate.trials = one.trials * estimate.evaluations;
    estimate.unpriced = one.unpriced;
    TokenUsage teacher;
    teacher.uncachedInput = estimateTokens(longest.systemPrompt()) + 200 * request.queries.size() + 1500;
    teacher.output = request.teacherMaxTokens;
    const auto teacherCost = Pricing::costFor(request.teacherModel, teacher);
    if (!teacherCost)
        estimate.unpriced.append(request.teacherModel);
    if (one.usd && teacherCost)
        estimate.usd = *one.usd * estimate.evaluations + *teacherCost * request.maxIterations;
    return estimate;
}

TriggerOptimizer::TriggerOptimizer(ChatClient &chat, QObject *parent)
    : QObject(parent)
    , m_chat(chat)
{
}

TriggerOptimizer::~TriggerOptimizer()
{
    delete m_teacherCall.data();
    delete m_runner.data();
}

void TriggerOptimizer::start(const TriggerOptimizeRequest &request)
{
    m_request = request;
    m_iterations.clear();
    m_spend = {};
    m_running = true;
    m_proposalFailed = false;
    m_failedReply.clear();
    QFile file(skillMdPath(request.skillDir));
    if (!file.open(QIODevice::ReadOnly))
        return fail(u"cannot read %1"_s.arg(file.fileName()));
    m_originalSkillMd = QString::fromUtf8(file.readAll());
    const SkillDocument doc = SkillDocument::parse(m_originalSkillMd);
    const QString name = doc.name().isEmpty() ? QFileInfo(request.skillDir).fileName() : doc.name();
    m_catalogue = SkillCatalogue({name, doc.description().trimmed(), request.skillDir}, request.others);
    m_heldOut = stratifiedHoldout(request.queries, request.holdout, request.seed);
    if (request.maxCostUsd) {
        const TriggerOptimizeEstimate estimate = estimateOptimize(request, m_catalogue);
        if (!estimate.unpriced.isEmpty())
            return fail(u"a budget needs priced models; no price for %1 (add it to pricing.json)"_s.arg(
                estimate.unpriced.join(", "_L1)));
    }
    const auto kept = SkillVersionStore(request.skillDir).snapshot(u"user"_s, u"before trigger optimize"_s);
    if (const QString *e = std::get_if<QString>(&kept))
        return fail(u"cannot keep the skill as it is: %1"_s.arg(*e));
    TriggerIteration original;
    original.description = m_catalogue.candidate().description;
    original.versionId = std::get<SkillVersion>(kept).id;
    m_iterations.append(original);
    QTimer::singleShot(0, this, [this] { evaluate(m_iterations.last().description); });
}

void TriggerOptimizer::cancel()
{
    if (!m_running)
        return;
    if (m_runner)
        m_runner->cancel();
    delete m_teacherCall.data();
    finish(u"cancelled"_s);
}

const TriggerIteration *TriggerOptimizer::best() const
{
    const TriggerIteration *winner = nullptr;
    const bool byHeldOut = m_heldOut.contains(true);
    for (const TriggerIteration &it : m_iterations) {
        if (!it.trainTotal && !it.heldOutTotal)
            continue; // not evaluated
        if (!winner)
            winner = &it;
        else if (byHeldOut ? std::pair(it.heldOutPassed, it.trainPassed) >
                                 std::pair(winner->heldOutPassed, winner->trainPassed)
                           : it.trainPassed > winner->trainPassed)
            winner = &it;
    }
    return winner;
}

bool TriggerOptimizer::fits(double cost) const
{
    return !m_request.maxCostUsd || m_spend.pricedUsd + cost <= *m_request.maxCostUsd;
}

double TriggerOptimizer::evaluationBound(const QString &description) const
{
    return estimateTrigger(m_catalogue.withCandidateDescription(description), m_request.queries, m_request.config)
        .usd.value_or(0);
}

std::optional<double> TriggerOptimizer::teacherBound(const QString &system, const QString &user) const
{
    TokenUsage usage;
    usage.uncachedInput = estimateTokens(system) + estimateTokens(user) + 64;
    usage.output = m_request.teacherMaxTokens;
    return Pricing::costFor(m_request.teacherModel, usage);
}

void TriggerOptimizer::evaluate(const QString &description)
{
    if (!m_running)
        return;
    const double bound = evaluationBound(description);
    if (!fits(bound))
        return finish(u"budget"_s);
    Q_EMIT stage(m_iterations.size() == 1 ? u"Measuring the original description"_s
                                          : u"Measuring proposal %1"_s.arg(m_iterations.size() - 1));
    TriggerConfig config = m_request.config;
    if (m_request.maxCostUsd)
        config.maxCostUsd = *m_request.maxCostUsd - m_spend.pricedUsd;
    else
        config.maxCostUsd.reset();
    m_evaluating = description;
    m_runner =
        new TriggerRunner(m_chat, m_catalogue.withCandidateDescription(description), m_request.queries, config, this);
    connect(m_runner, &TriggerRunner::finished, this, &TriggerOptimizer::onEvaluated);
    connect(m_runner, &TriggerRunner::failed, this, &TriggerOptimizer::fail);
    m_runner->start();
}

void TriggerOptimizer::onEvaluated()
{
    TriggerRunner *runner = m_runner;
    runner->deleteLater();
    m_spend += runner->spend();
    if (!m_running)
        return;
    if (runner->stopReason() != u"complete"_s)
        return finish(runner->stopReason()); // a partial measurement compares with nothing: it is not kept
    TriggerIteration &it = m_iterations.last();
    it.measurement =
        measureTrigger(m_request.queries, m_catalogue.candidate().name, m_request.config.models, runner->trials());
    for (const QueryOutcome &o : std::as_const(it.measurement.outcomes)) {
        if (!o.trials)
            continue;
        const bool pass = o.passes(m_request.queries.at(o.queryIndex).shouldTrigger);
        if (m_heldOut.at(o.queryIndex)) {
            ++it.heldOutTotal;
            it.heldOutPassed += pass;
        } else {
            ++it.trainTotal;
            it.trainPassed += pass;
        }
    }
    Q_EMIT iterationEvaluated(it);
    // Every training query right leaves the teacher no failure to learn from (the held-out ones it must never see).
    if (it.trainTotal && it.trainPassed == it.trainTotal)
        return finish(it.heldOutPassed == it.heldOutTotal ? u"perfect"_s : u"train-perfect"_s);
    if (m_iterations.size() > m_request.maxIterations)
        return finish(u"iterations"_s);
    propose();
}

QString TriggerOptimizer::teacherPrompt(QString *system) const
{
    const auto systemTemplate = PromptTemplate::load(u"optimize-description.system"_s);
    const auto userTemplate = PromptTemplate::load(u"optimize-description.user"_s);
    if (!systemTemplate || !userTemplate)
        return {};
    const TriggerIteration &current = m_iterations.last();
    QString others;
    for (const CatalogueEntry &e : m_catalogue.entries()) {
        if (e.name != m_catalogue.candidate().name)
            others += u"- %1: %2\n"_s.arg(e.name, e.description);
    }
    // Only training queries are shown: the held-out ones judge the proposals and must stay unseen.
    QString failures;
    for (const QueryOutcome &o : current.measurement.outcomes) {
        const TriggerQuery &q = m_request.queries.at(o.queryIndex);
        if (m_heldOut.at(o.queryIndex) || !o.trials || o.passes(q.shouldTrigger))
            continue;
        QStringList instead;
        for (auto i = o.others.cbegin(); i != o.others.cend(); ++i)
            instead.append(u"%1 %2x"_s.arg(i.key().isEmpty() ? u"no skill"_s : i.key()).arg(i.value()));
        failures += u"- [%1] \"%2\" (%3: loaded in %4 of %5 trials; instead: %6)\n"_s
                        .arg(q.shouldTrigger ? u"should load"_s : u"should NOT load"_s, q.query, o.model)
                        .arg(o.candidateLoads)
                        .arg(o.trials)
                        .arg(instead.isEmpty() ? u"-"_s : instead.join(u", "_s));
    }
    QString history;
    for (const TriggerIteration &it : m_iterations) {
        if (&it != &current && it.trainTotal)
            history += u"- (%1/%2) %3\n"_s.arg(it.trainPassed).arg(it.trainTotal).arg(it.description);
    }
    const auto user = userTemplate.value->render({{u"name"_s, m_catalogue.candidate().name},
                                                  {u"description"_s, current.description},
                                                  {u"others"_s, others},
                                                  {u"failures"_s, failures},
                                                  {u"history"_s, history}});
    if (!user)
        return {};
    *system = systemTemplate.value->text();
    return *user.value;
}

void TriggerOptimizer::propose()
{
    QString system;
    const QString user = teacherPrompt(&system);
    if (user.isEmpty())
        return fail(u"the optimize-description prompt templates do not render"_s);
    if (m_request.maxCostUsd) {
        const double teacher = teacherBound(system, user).value_or(0);
        // The whole iteration must fit: the proposal and its measurement, at the longest a description may be.
        if (!fits(teacher + evaluationBound(longestDescription())))
            return finish(u"budget"_s);
    }
    Q_EMIT stage(u"Asking the teacher for proposal %1"_s.arg(m_iterations.size()));
    ChatRequest request;
    request.system = system;
    request.messages = {{u"user"_s, user}};
    request.maxTokens = m_request.teacherMaxTokens;
    request.replySchema = descriptionSchema();
    m_teacherCall = m_chat.chat(m_request.teacherModel, request);
    m_teacherCall->setParent(this);
    connect(m_teacherCall, &ChatCall::finished, this, &TriggerOptimizer::onProposal);
    connect(m_teacherCall, &ChatCall::failed, this, [this](const QString &message) {
        m_proposalFailed = true;
        fail(u"the teacher failed: %1"_s.arg(message));
    });
}

void TriggerOptimizer::retry()
{
    if (!canRetry() || m_iterations.isEmpty())
        return;
    m_proposalFailed = false;
    m_failedReply.clear();
    m_running = true;
    propose();
}

void TriggerOptimizer::onProposal(const ChatResponse &response)
{
    m_teacherCall->deleteLater();
    m_spend.add(m_request.teacherModel, response.costUsd);
    const QString description = descriptionFromReply(response.text);
    if (description.isEmpty()) {
        // A short message; the whole reply is kept for whoever wants to read it (the dialog's Show Reply).
        m_proposalFailed = true;
        m_failedReply = response.text;
        if (response.text.trimmed().isEmpty())
            return fail(u"the teacher sent an empty reply"_s);
        if (replyWasCutOff(response))
            return fail(u"the teacher's reply was cut off at its %1-token limit before the description"_s.arg(
                m_request.teacherMaxTokens));
        return fail(u"the teacher's reply (%1 characters) holds no description Skillforge could read"_s.arg(
            response.text.size()));
    }
    if (description.size() > kMaxDescriptionChars) {
        m_proposalFailed = true;
        m_failedReply = response.text;
        return fail(u"the teacher's description has %1 characters, over the limit of %2"_s.arg(description.size())
                        .arg(kMaxDescriptionChars));
    }
    TriggerIteration next;
    next.number = int(m_iterations.size());
    next.description = description;
    if (const QString error = saveVersion(next.number, description, &next.versionId); !error.isEmpty())
        return fail(error);
    m_iterations.append(next);
    evaluate(description);
}

QString TriggerOptimizer::saveVersion(int number, const QString &description, QString *versionId)
{
    // The proposal becomes a version of its own, then SKILL.md is put back: accepting it is restoring that version.
    const QString path = skillMdPath(m_request.skillDir);
    const QString proposed = SkillDocument::parse(m_originalSkillMd).withScalar(u"description"_s, description);
    if (QString e = writeFileAtomically(path, proposed.toUtf8()); !e.isEmpty())
        return e;
    const auto version =
        SkillVersionStore(m_request.skillDir)
            .snapshot(u"trigger:%1"_s.arg(number),
                      u"description proposed by %1 from the training failures"_s.arg(m_request.teacherModel));
    const QString restored = writeFileAtomically(path, m_originalSkillMd.toUtf8());
    if (const QString *e = std::get_if<QString>(&version))
        return *e;
    *versionId = std::get<SkillVersion>(version).id;
    return restored;
}

void TriggerOptimizer::finish(const QString &reason)
{
    if (!m_running)
        return;
    m_running = false;
    if (m_request.apply && reason != u"cancelled"_s) {
        if (const TriggerIteration *winner = best(); winner && winner->number > 0) {
            const QString text =
                SkillDocument::parse(m_originalSkillMd).withScalar(u"description"_s, winner->description);
            if (const QString e = writeFileAtomically(skillMdPath(m_request.skillDir), text.toUtf8()); !e.isEmpty())
                return fail(e);
        }
    }
    QMetaObject::invokeMethod(
        this, [this, reason] { Q_EMIT finished(reason); }, Qt::QueuedConnection);
}

void TriggerOptimizer::fail(const QString &message)
{
    m_running = false;
    if (m_runner)
        m_runner->cancel();
    QMetaObject::invokeMethod(
        this, [this, message] { Q_EMIT failed(message); }, Qt::QueuedConnection);
}

} // namespace sf
