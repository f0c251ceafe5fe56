#pragma once

#include "StructuredReply.h"
#include "llm/ChatTypes.h"
#include "skill/SkillValidator.h"
#include "usage/CostTally.h"

#include <QList>
#include <QMap>
#include <QMetaType>
#include <QObject>
#include <QPointer>
#include <QString>
#include <optional>

namespace sf {

class ChatCall;
class ChatClient;

/** One trace, already condensed to what the teacher should read, with a label naming its source. */
struct TraceExcerpt
{
    QString label; ///< e.g. the file name
    QString text;
};

/** What the teacher is asked to write a skill from. */
struct SkillGenerationRequest
{
    QString task;
    QList<TraceExcerpt> traces;
    QString existingSkillDir; ///< improve this skill (written in place) instead of making a new one
    QString instructions;     ///< the user's own words, which take precedence
    QString feedback;         ///< how the current skill did in an evaluation (the refine loop writes it)
    QString origin;           ///< the version's origin; "" means "teacher:<model>"
    QString teacherModel;     ///< PROVIDER:MODEL
    ValidationProfile profile = ValidationProfile::AgentSkills;
    QString skillsFolder; ///< a new skill goes to skillsFolder/<name>/
    int maxTokens = 16000;
    std::optional<double> temperature;
    bool stream = false; ///< deliver the teacher's reply as it is written (replyDelta)
    ReplyFormat replyFormat = ReplyFormat::Auto;
};

/** What came of it: where the skill is, what the validator still finds, and what it cost. */
struct SkillGenerationResult
{
    QString skillDir;
    QString name;
    QString versionId;            ///< the version that holds this content and the prompt that made it
    QString promptPath;           ///< .versions/<id>/prompt.json: the exact messages sent
    QString replyPath;            ///< .versions/<id>/reply.md: the teacher's last reply, as it came
    QList<SkillProblem> problems; ///< remaining after the repair round (warnings, or errors it could not fix)
    QStringList draftNotes;       ///< what was wrong with the teacher's reply format
    bool repaired = false;        ///< a second round was asked for
    ReplyFormat replyFormat = ReplyFormat::Files; ///< the format the teacher replied in (Auto resolved)
    int teacherCalls = 0;
    TokenUsage usage; ///< summed over all calls
    CostTally cost;   ///< each call priced on its own
    qint64 latencyMs = 0;
};

/**
 * Asks a teacher model to write (or improve) a skill, checks the reply against the chosen profile,
 * asks once more with the problems listed when there are errors, and installs the result: a new
 * skill folder is created whole and then renamed into place; an existing one is snapshotted as a
 * version before anything is replaced, so nothing the user had is lost. The prompts come from
 * resources/prompts and the exact messages sent are stored with the version produced
 * (.versions/<id>/prompt.json), with the teacher's last reply beside them (reply.md). Emits exactly one of finished()
 * or failed(), after start() returns.
 */
class SkillGenerator final : public QObject
{
    Q_OBJECT

public:
    explicit SkillGenerator(ChatClient &client, QObject *parent = nullptr);
    ~SkillGenerator() override;

    void start(const SkillGenerationRequest &request);
    void cancel();
    /** The teacher's last complete reply, so that a failure can show what it wrote. */
    QString lastReply() const { return m_lastReply; }
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    void stage(const QString &what); ///< "Asking the teacher", "Repairing: 2 errors", ...
    /** With `stream`: the next piece of the teacher's reply, as it is written. */
    void replyDelta(const QString &text);
    /** A new reply begins (a repair round, or a retry after a broken stream): drop what came so far. */
    void replyRestarted();
    void finished(const sf::SkillGenerationResult &result);
    void failed(const QString &message);

private:
    void ask();
    void onReply(const ChatResponse &response);
    void install(const QMap<QString, QByteArray> &files);
    void fail(const QString &message);

    ChatClient &m_client;
    SkillGenerationRequest m_request;
    ChatRequest m_chat;
    QPointer<ChatCall> m_call;
    SkillGenerationResult m_result;
    QMap<QString, QByteArray> m_firstDraft; ///< kept in case the repair reply is unusable
    QString m_lastReply;
    bool m_running = false;
};

/** The profile's rules in words, for the teacher's prompt. */
QString profileRulesForPrompt(ValidationProfile profile);

} // namespace sf

Q_DECLARE_METATYPE(sf::SkillGenerationResult)
