#include "CliTriggerTrial.h"

#include "agents/AgentCli.h"
#include "agents/Harness.h"
#include "agents/SkillActivation.h"
#include "common/AtomicFile.h"
#include "llm/ModelName.h"
#include "skill/SkillDocument.h"
#include "skill/SkillPackage.h"
#include "trace/Trace.h"
#include "trace/TraceImport.h"
#include "usage/Pricing.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTimer>
#include <QUuid>
#include <algorithm>
#include <limits>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

const QString kSkillFile = u"SKILL.md"_s;

/// The SKILL.md of a staged skill, which its source may have written in lower case.
QString skillMdIn(const QString &folder)
{
    const QDir dir(folder);
    if (!QFileInfo::exists(dir.filePath(kSkillFile)) && QFileInfo::exists(dir.filePath(u"skill.md"_s)))
        QDir().rename(dir.filePath(u"skill.md"_s), dir.filePath(kSkillFile));
    return dir.filePath(kSkillFile);
}

/// @p text with the front matter's name and description set to the catalogue's, other lines untouched.
QString withListing(QString text, const CatalogueEntry &entry)
{
    if (SkillDocument::parse(text).name() != entry.name)
        text = SkillDocument::parse(text).withScalar(u"name"_s, entry.name);
    if (SkillDocument::parse(text).description().trimmed() != entry.description)
        text = SkillDocument::parse(text).withScalar(u"description"_s, entry.description);
    return text;
}

/// The last lines the CLI wrote to stderr, for a trial's error.
QString stderrTail(const QByteArray &stdErr, int lines = 4)
{
    QStringList all = QString::fromUtf8(stdErr).trimmed().split(u'\n', Qt::SkipEmptyParts);
    if (all.size() > lines)
        all = all.mid(all.size() - lines);
    return all.join(u"; "_s);
}

/// Where in the session @p name is first named by a tool call (its Skill input, or its folder in a path): the order
/// of calls made in one turn.
qsizetype firstCallNaming(const Trace &trace, const QString &name)
{
    qsizetype index = 0;
    for (const TraceThread &thread : trace.threads) {
        for (const TraceStep &step : thread.steps) {
            if (step.kind != StepKind::ToolCall)
                continue;
            const QString input = step.input.toString();
            if (input.contains(u'"' + name + u'"') || input.contains(u'/' + name + u'/'))
                return index;
            ++index;
        }
    }
    return std::numeric_limits<qsizetype>::max();
}

} // namespace

QString stageCatalogueSkills(const SkillCatalogue &catalogue, const QString &dir)
{
    const QDir root(dir);
    // Each folder is copied in here first, under its own folder name, then moved to the name it is listed by.
    const QString incoming = root.filePath(u".incoming"_s);
    for (const CatalogueEntry &entry : catalogue.entries()) {
        if (entry.name.isEmpty() || entry.name.startsWith(u'.') || entry.name.contains(u'/') ||
            entry.name.contains(u'\\'))
            return u"\"%1\" cannot be a skill's folder name, so no CLI could list it"_s.arg(entry.name);
        const QString target = root.filePath(entry.name);
        QString text;
        if (!entry.dir.isEmpty()) {
            QString installed;
            if (const QString error = installSkill(entry.dir, incoming, true, &installed); !error.isEmpty())
                return u"cannot copy the skill %1: %2"_s.arg(entry.name, error);
            if (!QDir().rename(installed, target))
                return u"cannot put the skill %1 at %2"_s.arg(entry.name, target);
            QFile file(skillMdIn(target));
            if (!file.open(QIODevice::ReadOnly))
                return u"cannot read %1"_s.arg(file.fileName());
            text = withListing(QString::fromUtf8(file.readAll()), entry);
        } else {
            if (!QDir().mkpath(target))
                return u"cannot create %1"_s.arg(target);
            text = u"---\nname: %1\ndescription: %2\n---\n\n# %1\n\n%3\n"_s.arg(
                entry.name, SkillDocument::yamlScalar(entry.description), entry.description);
        }
        if (const QString error = writeFileAtomically(QDir(target).filePath(kSkillFile), text.toUtf8());
            !error.isEmpty())
            return error;
    }
    QDir(incoming).removeRecursively();
    return {};
}

QString firstLoadedSkill(const Trace &trace, const QString &harness, const QStringList &names)
{
    QString first;
    int firstTurn = std::numeric_limits<int>::max();
    for (const QString &name : names) {
        const SkillActivation activation = detectSkillActivation(trace, harness, name);
        if (!activation.loaded)
            continue;
        // A load at an unknown turn (0) comes after every known one.
        const int turn = activation.atTurn > 0 ? activation.atTurn : std::numeric_limits<int>::max() - 1;
        if (first.isEmpty() || turn < firstTurn ||
            (turn == firstTurn && firstCallNaming(trace, name) < firstCallNaming(trace, first))) {
            first = name;
            firstTurn = turn;
        }
    }
    return first;
}

CliTriggerTrial::CliTriggerTrial(const CliTrialSetup &setup, TriggerTrial trial, QString query, QString folder,
                                 QObject *parent)
    : QObject(parent)
    , m_setup(setup)
    , m_trial(std::move(trial))
    , m_query(std::move(query))
    , m_folder(std::move(folder))
{
}

CliTriggerTrial::~CliTriggerTrial()
{
    delete m_run.data();
    QDir(m_folder).removeRecursively();
}

void CliTriggerTrial::start()
{
    m_clock.start();
    std::unique_ptr<AgentCli> cli = AgentCli::forHarness(m_setup.binary.harness);
    CliItemSpec spec;
    spec.binary = m_setup.binary;
    spec.model = m_trial.model;
    spec.prompt = m_query;
    spec.workspace = QDir(m_folder).filePath(u"workspace"_s);
    spec.home = QDir(m_folder).filePath(u"home"_s);
    spec.sessionId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    spec.requestTimeoutMs = m_setup.timeoutMs;
    if (!QDir().mkpath(spec.workspace)) {
        m_trial.error = u"cannot create the trial's workspace %1"_s.arg(spec.workspace);
        finish();
        return;
    }
    // Every skill of the catalogue, the candidate among them, in the one place the CLI finds project skills; none is
    // CliItemRun's own (its skillDir stays empty), so all are installed alike.
    for (const QString &name : m_setup.skillNames) {
        const QString skills = QFileInfo(QDir(spec.workspace).filePath(cli->projectSkillFolder(name))).path();
        if (const QString error = installSkill(QDir(m_setup.stagedSkills).filePath(name), skills); !error.isEmpty()) {
            m_trial.error = u"cannot install the skill %1 in the trial's workspace: %2"_s.arg(name, error);
            finish();
            return;
        }
    }
    DoorLimits limits;
    // One request: the first answer spends the budget, and the door refuses the CLI's next request, so the trial
    // ends once the model has acted (loaded a skill, called another tool, or answered).
    limits.maxTotalTokens = 1;
    limits.maxOutputTokens = m_setup.maxOutputTokens;
    limits.requestTimeoutMs = m_setup.timeoutMs;
    m_run = new CliItemRun(m_setup.services, std::move(cli), spec, limits, m_setup.timeoutMs, this);
    connect(m_run, &CliItemRun::finished, this, &CliTriggerTrial::onCliFinished);
    m_run->start();
}

void CliTriggerTrial::cancel()
{
    m_cancelled = true;
    if (m_run)
        m_run->cancel();
}

void CliTriggerTrial::onCliFinished(const CliItemOutcome &outcome)
{
    m_trial.usage = outcome.doorUsage;
    m_trial.costUsd = costOfRequests(outcome.requests, m_trial.model).total();
    if (const QString why = whyNoAnswer(outcome); !why.isEmpty()) {
        m_trial.error = why;
        finish();
        return;
    }
    if (outcome.sessionFile.isEmpty())
        m_trial.error =
            u"%1 left no session file (%2)"_s.arg(Harness::label(m_setup.binary.harness), outcome.process.summary());
    else
        readSession(outcome.sessionFile);
    finish();
}

QString CliTriggerTrial::whyNoAnswer(const CliItemOutcome &outcome) const
{
    const QString cli = Harness::label(m_setup.binary.harness);
    if (!outcome.error.isEmpty())
        return u"%1 could not run: %2"_s.arg(cli, outcome.error);
    const SandboxResult &process = outcome.process;
    if (m_cancelled || process.cancelled)
        return u"cancelled"_s;
    if (process.timedOut) {
        QString why = u"%1 timed out after %2 s (%3 model requests)"_s.arg(cli)
                          .arg(m_setup.timeoutMs / 1000)
                          .arg(outcome.requests.size());
        if (const QString tail = stderrTail(process.stdErr); !tail.isEmpty())
            why += u": "_s + tail;
        return why;
    }
    const bool answered = std::any_of(outcome.requests.cbegin(), outcome.requests.cend(), [](const auto &record) {
        return record.status >= 200 && record.status < 300 && record.error.isEmpty();
    });
    if (answered)
        return {};
    // The model never answered: what the door saw, else what the CLI said.
    for (const DoorRequestRecord &record : outcome.requests) {
        if (!record.error.isEmpty())
            return u"%1's request failed: %2"_s.arg(cli, record.error);
    }
    QString why = u"%1 got no answer from the model (%2)"_s.arg(cli, process.summary());
    if (const QString tail = stderrTail(process.stdErr); !tail.isEmpty())
        why += u": "_s + tail;
    return why;
}

void CliTriggerTrial::readSession(const QString &sessionFile)
{
    const Result<Trace> trace = importTrace(sessionFile);
    if (!trace) {
        m_trial.error = u"cannot read the session of %1: %2"_s.arg(Harness::label(m_setup.binary.harness), trace.error);
        return;
    }
    // The door lets one request through: when that was one of the CLI's side requests, the conversation itself got
    // no answer (Claude Code writes its refusal as a "<synthetic>" assistant message), and nothing was measured.
    const Trace &session = *trace.value;
    const bool answered = !session.threads.empty() &&
                          std::any_of(session.threads.front().turns.cbegin(), session.threads.front().turns.cend(),
                                      [](const TraceTurn &turn) {
                                          return turn.role == "assistant"_L1 && turn.model != "<synthetic>"_L1;
                                      });
    if (!answered) {
        m_trial.error = u"the model never answered %1's conversation"_s.arg(Harness::label(m_setup.binary.harness));
        return;
    }
    m_trial.loaded = firstLoadedSkill(session, m_setup.binary.harness, m_setup.skillNames);
}

void CliTriggerTrial::finish()
{
    m_trial.latencyMs = m_clock.elapsed();
    // Never from within start(): the runner that started it is still launching others.
    QTimer::singleShot(0, this, [this] { Q_EMIT finished(m_trial); });
}

} // namespace sf
