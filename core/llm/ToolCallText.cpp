#include "ToolCallText.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

/** The index one past the '}' that closes the object opening at `open`, or -1 (strings and escapes skipped). */
qsizetype objectEnd(const QString &text, qsizetype open)
{
    int depth = 0;
    bool inString = false;
    for (qsizetype i = open; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (inString) {
            if (c == u'\\') {
                ++i;
            } else if (c == u'"') {
                inString = false;
            }
        } else if (c == u'"') {
            inString = true;
        } else if (c == u'{') {
            ++depth;
        } else if (c == u'}' && --depth == 0) {
            return i + 1;
        }
    }
    return -1;
}

/** The call an object describes, when it names an offered tool and its arguments are an object. */
std::optional<ToolCall> callFrom(QJsonObject object, const QList<ToolDefinition> &tools)
{
    if (object.value("function"_L1).isObject()) {
        object = object.value("function"_L1).toObject();
    }
    const QString name = object.value("name"_L1).toString();
    const bool offered =
        std::any_of(tools.cbegin(), tools.cend(), [&name](const ToolDefinition &tool) { return tool.name == name; });
    if (!offered) {
        return std::nullopt;
    }
    QJsonValue arguments = object.value("arguments"_L1);
    if (arguments.isUndefined()) {
        arguments = object.value("parameters"_L1);
    }
    if (arguments.isString()) {
        arguments = QJsonDocument::fromJson(arguments.toString().toUtf8()).object();
    }
    if (arguments.isUndefined() || arguments.isNull()) {
        arguments = QJsonObject();
    }
    if (!arguments.isObject()) {
        return std::nullopt;
    }
    ToolCall call;
    call.name = name;
    call.arguments = QJsonDocument(arguments.toObject()).toJson(QJsonDocument::Compact);
    return call;
}

} // namespace

TextToolCalls toolCallsInText(const QString &text, const QList<ToolDefinition> &tools, int firstId)
{
    TextToolCalls found;
    if (tools.isEmpty()) {
        found.remainingText = text;
        return found;
    }
    // Only objects that open with a "name" or "function" key are candidates; everything else is prose or code.
    static const QRegularExpression opening(uR"re(\{\s*"(name|function)"\s*:)re"_s);
    QString remaining;
    qsizetype copiedUpTo = 0;
    qsizetype from = 0;
    QRegularExpressionMatch match;
    while ((match = opening.match(text, from)).hasMatch()) {
        const qsizetype open = match.capturedStart();
        const qsizetype end = objectEnd(text, open);
        if (end < 0) {
            break;
        }
        QJsonParseError error{};
        const QJsonDocument document = QJsonDocument::fromJson(text.mid(open, end - open).toUtf8(), &error);
        std::optional<ToolCall> call;
        if (error.error == QJsonParseError::NoError && document.isObject()) {
            call = callFrom(document.object(), tools);
        }
        if (!call) {
            from = open + 1;
            continue;
        }
        call->id = u"text_call_%1"_s.arg(firstId + found.calls.size());
        found.calls.append(*call);
        remaining += QStringView(text).mid(copiedUpTo, open - copiedUpTo);
        copiedUpTo = end;
        from = end;
    }
    remaining += QStringView(text).mid(copiedUpTo);
    if (!found.calls.isEmpty()) {
        // What wrapped the calls is empty now: the template's tags, fences around nothing, a list of nothing.
        static const QRegularExpression emptyWrappers(uR"re(</?tool_call>|```[A-Za-z]*\s*```|\[\s*(,\s*)*\])re"_s);
        remaining.remove(emptyWrappers);
    }
    found.remainingText = remaining.trimmed();
    return found;
}

} // namespace sf
