#pragma once

#include "common/Result.h"
#include "llm/ProviderConfig.h"

#include <QByteArray>
#include <QString>
#include <QUrl>

namespace sf {

/** What a request to the door asks for, by its method and path. */
enum class DoorRoute
{
    Messages,    // POST /v1/messages (Claude Code's turns)
    CountTokens, // POST /v1/messages/count_tokens
    Responses,   // POST /v1/responses (Codex's turns)
    Models,      // GET /v1/models and /v1/models/ID
    Unknown,     // anything else: answered 404 by the door itself, never forwarded
};

DoorRoute doorRouteOf(const QByteArray &method, const QByteArray &path);

/** The wire a request speaks, which decides the shape of its error bodies and where its usage is. */
enum class DoorWire
{
    AnthropicMessages,
    OpenAiResponses,
};

/** The route's own wire; for Models and Unknown, the one the provider speaks. */
DoorWire doorWireOf(DoorRoute route, WireFormat providerFormat);

/**
 * An error body in the wire's own shape, so the CLI shows `message` as it would a provider's:
 * `{"type":"error","error":{"type":...,"message":...}}` for Messages,
 * `{"error":{"message":...,"type":...,"param":null,"code":...}}` for Responses; the type follows the status.
 */
QByteArray doorErrorBody(DoorWire wire, int status, const QString &message);

/**
 * Where the upstream answers `path`: the provider's base URL joined with the path, one `/v1` dropped when
 * the base already ends in it (OpenAI-style bases do, `https://api.openai.com/v1`; Anthropic's does not),
 * and the CLI's query kept (`?beta=true`).
 */
QUrl doorUpstreamUrl(const QUrl &base, const QByteArray &path, const QByteArray &query);

/**
 * The headers the upstream gets: the provider's (its authentication with the real key, its extra headers),
 * and those the CLI sent that describe the request (`anthropic-version`, `anthropic-beta`, content type,
 * accept, its own identification), the CLI's win for those four. The CLI's credentials
 * (`authorization`, `x-api-key`), hop-by-hop headers and framing (host, length, encodings) are dropped.
 */
HttpHeaders doorUpstreamHeaders(const HttpHeaders &fromCli, const ProviderConfig &provider, const QString &apiKey);

/** A request body as the upstream gets it, and what the CLI had asked for. */
struct DoorBodyRewrite
{
    QByteArray body;
    bool stream = false;    // the CLI asked for server-sent events
    QString requestedModel; // the model the CLI named, before the rewrite
};

/**
 * Rewrites a JSON request body for the upstream: `model` becomes `model` (CLIs name their own models, e.g.
 * a small one for side requests), and on Messages and Responses requests the output tokens (`max_tokens`,
 * `max_output_tokens`) are capped at `maxOutputTokens`, or set to it when absent (`maxOutputTokens` <= 0:
 * left as asked). A Messages thinking budget is kept below the capped `max_tokens`, as Anthropic requires.
 * Every other field keeps its place and value. Fails on a body that is not a JSON object.
 *
 * @p forPromptCache (the embedded llama.cpp server): Claude Code opens its system prompt with a billing line whose
 * hash changes with each conversation's first message; a llama.cpp server reuses its cache only for a byte-identical
 * prefix, so that line, which only Anthropic reads, is left out, and items share the CLI's long prefix.
 */
Result<DoorBodyRewrite> rewriteDoorRequestBody(DoorRoute route, const QByteArray &body, const QString &model,
                                               int maxOutputTokens, bool forPromptCache = false);

} // namespace sf
