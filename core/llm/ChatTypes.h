#pragma once

#include "usage/TokenUsage.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <optional>

namespace sf {

/** A tool the model may call. `inputSchema` is a JSON Schema object, as compact JSON text. */
struct ToolDefinition
{
    QString name;
    QString description;
    QByteArray inputSchema;
};

/**
 * A JSON Schema the whole reply must match, for models too small to follow a written format. OpenAI-compatible
 * servers (llama.cpp, Ollama, vLLM, OpenAI) take it as `response_format`; for Anthropic it becomes a tool the
 * model is made to call. Either way the reply's `text` is the JSON. `schema` is compact JSON text.
 */
struct ReplySchema
{
    QString name; ///< letters, digits, '_' and '-': providers use it as an identifier
    QByteArray schema;
};

/** One tool call the model made; `arguments` is the JSON object text, complete once the reply is. */
struct ToolCall
{
    QString id; // the provider's id (tool_use id / tool_calls[].id); tool results answer it
    QString name;
    QByteArray arguments;
};

/** An image in a user message: its media type ("image/png", "image/jpeg"...) and its bytes. */
struct ChatImage
{
    QString mediaType;
    QByteArray data;
};

/**
 * One message of a conversation (the system prompt is separate). `role` is "user", "assistant" or
 * "tool"; a "tool" message is the result of the call `toolCallId`, which each format places where
 * it belongs (Anthropic: a tool_result block in a user message; OpenAI: a message with role "tool").
 */
struct ChatMessage
{
    QString role;
    QString content;
    // The braces let callers write {role, content} without -Wmissing-field-initializers.
    QList<ToolCall> toolCalls{}; // assistant: the calls it made, in order
    QString toolCallId{};        // tool: which call this answers
    bool isError = false;        // tool: the tool failed and `content` says why
    QList<ChatImage> images{};   // user: images shown with the text
    // assistant: the reasoning it returned, sent back as it came (Anthropic requires the thinking
    // block, with its signature, before tool_use blocks when a conversation continues after tools).
    QString thinking{};
    QString thinkingSignature{};
};

/** A provider-neutral chat request. */
struct ChatRequest
{
    QString model; // the provider's own model id, without the PROVIDER: prefix
    QString system;
    QList<ChatMessage> messages;
    int maxTokens = 1024;
    std::optional<double> temperature;
    std::optional<double> topP;
    std::optional<qint64> seed;
    QList<ToolDefinition> tools; // offered to the model; empty means none
    bool stream = false;         // deltas arrive as ChatCall signals while the reply is written
    std::optional<ReplySchema> replySchema{}; // the reply is JSON matching this schema
};

/** One try at a request, kept so the user can see what happened when a provider misbehaved. */
struct ChatAttempt
{
    int status = 0;    // HTTP status; 0 when no response came
    qint64 waitMs = 0; // backoff (or rate-limit) wait before this attempt started
    qint64 durationMs = 0;
    QString error{}; // empty for the attempt that succeeded
};

/** The answer to a ChatRequest, with usage and timing. */
struct ChatResponse
{
    QString text;
    QString thinking;          // reasoning the provider returned as text, if any
    QString thinkingSignature; // Anthropic: the signature of that thinking, to send it back
    QList<ToolCall> toolCalls; // non-empty when the model stopped to call tools
    QString finishReason;      // the provider's own word: "stop", "end_turn", "tool_use", "tool_calls", "length"...
    QString model;
    TokenUsage usage;
    qint64 latencyMs = 0;
    qint64 firstByteMs = 0;
    std::optional<double> serverTokensPerSecond; // llama.cpp's own timings.predicted_per_second
    QList<ChatAttempt> attempts;                 // every try, the successful one last
    std::optional<double> costUsd;               // empty when the model has no price (never priced at 0)
};

} // namespace sf

Q_DECLARE_METATYPE(sf::ChatResponse)
