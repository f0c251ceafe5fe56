#pragma once

#include "SkillDraft.h"
#include "llm/ChatTypes.h"

#include <QStringList>
#include <optional>

namespace sf {

/**
 * How a teacher writes its reply. `Files` is the written format of resources/prompts ("=== FILE: PATH ==="
 * sections; plain JSON for test suites), which large models follow and which streams readably. `Json` sends a
 * JSON Schema the reply must match (ReplySchema): the local llama.cpp server and Ollama turn it into a grammar,
 * so even a small model that cannot follow a written format produces a reply that parses.
 */
enum class ReplyFormat
{
    Auto, ///< Json for the local server and Ollama, whose small models need it; Files for everyone else
    Files,
    Json
};

/** The provider stopped the reply at the token limit ("length" for OpenAI, "max_tokens" for Anthropic). */
bool replyWasCutOff(const ChatResponse &response);

std::optional<ReplyFormat> replyFormatFromName(const QString &name); ///< "auto", "files" or "json"
/** What Auto means for @p model (PROVIDER:MODEL); Files and Json stay as they are. */
ReplyFormat resolveReplyFormat(ReplyFormat format, const QString &model);

/**
 * The shape of a skill as JSON: name and description (front matter the schema keeps well-formed), the body,
 * and optional files under references/ or scripts/. String lengths are bounded from @p maxTokens (a small
 * model under a grammar may spend a token per character, more on escapes) so that a model which fills every
 * string to its limit still closes the JSON before the token limit.
 */
ReplySchema skillReplySchema(int maxTokens);
/** The files of a skill from a reply matching skillReplySchema(); problems name what did not parse. */
SkillDraft skillDraftFromJson(const QString &reply);

/**
 * The shape of a test suite as JSON: exactly @p count cases, each with an id, an input and one to three (fewer on a small budget)
 * verifiers of the kinds the suite reader knows; `cuda_kernel` verifiers may name only @p kernelTasks.
 */
ReplySchema testSuiteReplySchema(int count, const QStringList &kernelTasks, int maxTokens);

} // namespace sf
