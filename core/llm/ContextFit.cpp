#include "ContextFit.h"

#include "common/TokenEstimate.h"

#include <QLocale>
#include <algorithm>
#include <limits>

using namespace Qt::StringLiterals;

namespace sf::ContextFit {

int estimatePromptTokens(const ChatRequest &request)
{
    qint64 tokens = estimateTokens(request.system) + perMessageOverheadTokens;
    for (const ChatMessage &message : request.messages) {
        tokens += estimateTokens(message.content) + estimateTokens(message.thinking) + perMessageOverheadTokens;
        for (const ToolCall &call : message.toolCalls) {
            tokens += estimateTokens(call.name) + estimateTokens(QString::fromUtf8(call.arguments));
        }
    }
    for (const ToolDefinition &tool : request.tools) {
        tokens += estimateTokens(tool.name) + estimateTokens(tool.description) +
                  estimateTokens(QString::fromUtf8(tool.inputSchema)) + perMessageOverheadTokens;
    }
    return int(std::min<qint64>(tokens, std::numeric_limits<int>::max()));
}

bool saysContextExceeded(const QString &message)
{
    static const QLatin1StringView phrases[] = {
        "exceeds the available context size"_L1,
        "context size has been exceeded"_L1,
        "larger than the max context size"_L1,
        "context_length_exceeded"_L1,
        "maximum context length"_L1,
        "prompt is too long"_L1,
        "context window"_L1,
    };
    for (const QLatin1StringView phrase : phrases) {
        if (message.contains(phrase, Qt::CaseInsensitive)) {
            return true;
        }
    }
    return false;
}

QString fitToContext(ChatRequest &request, int contextTokens, const QString &model)
{
    if (contextTokens <= 0) {
        return {};
    }
    const int prompt = estimatePromptTokens(request);
    const qint64 room = qint64(contextTokens) - qint64(prompt) - prompt * 15 / 100;
    if (room < minimumReplyTokens) {
        const QLocale english(QLocale::English);
        return u"The request does not fit the context window: its prompt is about %1 tokens, and %2 holds %3 tokens "
               u"for prompt and reply together (at least %4 of them for the reply)"_s.arg(
                   english.toString(prompt), model, english.toString(contextTokens),
                   english.toString(minimumReplyTokens));
    }
    request.maxTokens = int(std::min<qint64>(request.maxTokens, room));
    return {};
}

} // namespace sf::ContextFit
