#pragma once

#include "ScriptedHttpServer.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace sf::test {

/// What the scripted model does next in a conversation.
enum class AgentMove
{
    LoadSkill,     ///< Claude Code: a `Skill` tool call; Codex: a command that prints the skill's SKILL.md
    ReadSkillFile, ///< Claude Code: a `Read` tool call; Codex: a command that prints the file
    WriteFile,     ///< Claude Code: a `Write` tool call; Codex: a command that writes the file
    Answer,        ///< the final text, with the marker of its arm
    SideReply,     ///< a request outside the agent loop (no tools offered): a short text
};

/// What the scripted model reads from one request, in either API's words.
struct AgentRequestView
{
    bool mainConversation = false; ///< tools are offered: the CLI's agent loop, not a side request
    bool canLoadSkill = false;     ///< Claude Code: its Skill tool is offered; Codex: a shell tool is
    bool canWriteFiles = false;    ///< Claude Code: its Write tool is offered; Codex: a shell tool is
    QStringList listedSkills;      ///< the names in the CLI's listing of skills, in its order
    QString skillFile;             ///< Codex: where its listing says the policy's skill's SKILL.md is
    QString skillDir;              ///< the loaded skill's folder, as the CLI stated it (Claude Code's "Base directory")
    QString prompt;                ///< the user's task: the first user text that is not the CLI's own
    QString workspace;             ///< the CLI's working directory, as the request states it
    bool skillLoaded = false;      ///< the conversation already loaded the policy's skill and got its content back
    bool fileWritten = false;      ///< the conversation already wrote the policy's file
    QStringList skillFilesRead;    ///< which of the policy's skillFilesToRead the conversation already read
};

/**
 * The standard scripted model for whole items: when the CLI's listing offers the skill and the prompt asks for it
 * (by its name or a keyword), it loads the skill; after the skill's content came back it reads the skill's other
 * files it is told to, one call each, and writes a file in the workspace (when one is set); then it answers with a
 * marker that says whether the skill was loaded.
 */
struct AgentPolicy
{
    QString skillName;
    QStringList keywords;         ///< words in the prompt that ask for the skill besides its name (any case)
    QStringList skillFilesToRead; ///< files of the skill's folder (relative to it) to read after loading it
    QString writeFile;            ///< relative to the workspace; empty: the model writes nothing
    QString writeContent;
    bool writeWithoutSkill = false; ///< write the file in the baseline too
    QString answerWithSkill = QStringLiteral("ANSWER-WITH-SKILL");
    QString answerBaseline = QStringLiteral("ANSWER-BASELINE");
    /// > 0: every reply says it read this many input tokens (cache shares as usual) instead of the body's bytes / 4,
    /// so a test can make requests as long as real ones (a long-context tier) without sending megabytes.
    qint64 inputTokensPerRequest = 0;

    bool promptAsksForSkill(const QString &prompt) const;
    AgentMove next(const AgentRequestView &view) const;
};

/// One request the endpoints answered, and how.
struct AgentExchange
{
    QByteArray path; ///< "/v1/messages" or "/v1/responses"
    AgentRequestView view;
    bool skillListed = false; ///< the listing offered the policy's skill
    AgentMove move = AgentMove::SideReply;
    qint64 inputTokens = 0;      ///< all input the reply said it used, cached included: the request body's bytes / 4
    qint64 cacheReadTokens = 0;  ///< of which read from the cache: half of it
    qint64 cacheWriteTokens = 0; ///< Anthropic: of which written to the (5-minute) cache: a quarter of it
    qint64 outputTokens = 0;     ///< always kOutputTokens
};

/**
 * Anthropic Messages (`POST /v1/messages`, streamed as the Anthropic API streams it, or one JSON message) and OpenAI
 * Responses (`POST /v1/responses`, streamed as Codex requires) answered by an AgentPolicy, well enough to drive the
 * real Claude Code and Codex CLIs through whole items. Usage in replies is deterministic, so tests can check the
 * CLIs' totals: input is the request body's bytes / 4, half of it read from the cache and (Anthropic) a quarter
 * written to it; output is kOutputTokens. Every exchange is kept.
 */
class ScriptedAgentEndpoints final
{
public:
    static constexpr qint64 kOutputTokens = 7;

    explicit ScriptedAgentEndpoints(AgentPolicy policy);

    /// Answers POST /v1/messages, /v1/messages/count_tokens and /v1/responses on @p server from now on.
    void install(ScriptedHttpServer &server);

    ScriptedResponse answerMessages(const RecordedRequest &request);
    ScriptedResponse answerResponses(const RecordedRequest &request);

    const AgentPolicy &policy() const { return m_policy; }
    QList<AgentExchange> exchanges() const { return m_exchanges; }
    /// The exchanges of the run in @p workspace (every one when empty).
    QList<AgentExchange> exchangesIn(const QString &workspace) const;
    /// Main-conversation requests of the run in @p workspace whose listing offered the policy's skill.
    int requestsOfferingSkill(const QString &workspace = {}) const;
    int mainRequests(const QString &workspace = {}) const;
    /// Tokens the replies of the run in @p workspace reported, added up (in AgentExchange's token fields).
    AgentExchange tokens(const QString &workspace = {}) const;

private:
    AgentExchange record(const QByteArray &path, const RecordedRequest &request, const AgentRequestView &view);

    AgentPolicy m_policy;
    QList<AgentExchange> m_exchanges;
    int m_nextId = 1;
};

/// Anthropic Messages: what the scripted model reads from a request body.
AgentRequestView readMessagesRequest(const QByteArray &body, const AgentPolicy &policy);
/// OpenAI Responses: what the scripted model reads from a request body.
AgentRequestView readResponsesRequest(const QByteArray &body, const AgentPolicy &policy);

} // namespace sf::test
