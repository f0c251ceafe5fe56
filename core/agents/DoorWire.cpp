#include "DoorWire.h"

#include "DoorHttp.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <nlohmann/json.hpp>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

// Anthropic's smallest thinking budget; a budget must also stay below max_tokens.
constexpr qint64 minThinkingBudget = 1024;

QString anthropicErrorType(int status)
{
    switch (status) {
    case 400:
        return u"invalid_request_error"_s;
    case 401:
        return u"authentication_error"_s;
    case 403:
        return u"permission_error"_s;
    case 404:
        return u"not_found_error"_s;
    case 413:
        return u"request_too_large"_s;
    case 429:
        return u"rate_limit_error"_s;
    case 504:
        return u"timeout_error"_s;
    case 529:
        return u"overloaded_error"_s;
    default:
        return status < 500 ? u"invalid_request_error"_s : u"api_error"_s;
    }
}

QString openAiErrorType(int status)
{
    if (status == 429) {
        return u"rate_limit_exceeded"_s;
    }
    return status < 500 ? u"invalid_request_error"_s : u"server_error"_s;
}

/** The string at `key`, or an empty one when there is none or it is not a string. */
std::string stringAt(const nlohmann::ordered_json &object, const char *key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/** A thinking budget that no longer fits below the capped max_tokens is lowered, or thinking is dropped. */
void fitThinkingBudget(nlohmann::ordered_json &body)
{
    const auto thinking = body.find("thinking");
    if (thinking == body.end() || !thinking->is_object() || stringAt(*thinking, "type") != "enabled") {
        return;
    }
    const auto budget = thinking->find("budget_tokens");
    if (budget == thinking->end() || !budget->is_number()) {
        return;
    }
    const auto maxTokens = static_cast<qint64>(body["max_tokens"].get<double>());
    if (budget->get<double>() < double(maxTokens)) {
        return;
    }
    if (maxTokens > minThinkingBudget) {
        *budget = maxTokens - 1;
        return;
    }
    // Too few tokens to think at all: the request goes without thinking, and without the context edits that
    // clear thinking blocks, which Anthropic refuses when thinking is off.
    body.erase(thinking);
    const auto management = body.find("context_management");
    if (management == body.end() || !management->is_object() || !management->contains("edits") ||
        !(*management)["edits"].is_array()) {
        return;
    }
    nlohmann::ordered_json &edits = (*management)["edits"];
    nlohmann::ordered_json kept = nlohmann::ordered_json::array();
    for (const auto &edit : edits) {
        if (!edit.is_object() || !stringAt(edit, "type").starts_with("clear_thinking")) {
            kept.push_back(edit);
        }
    }
    edits = kept;
    if (edits.empty()) {
        body.erase(management);
    }
}

void capOutputTokens(nlohmann::ordered_json &body, const char *field, int limit)
{
    const auto requested = body.find(field);
    if (requested == body.end() || !requested->is_number() || requested->get<double>() > double(limit)) {
        body[field] = limit;
    }
}

} // namespace

DoorRoute doorRouteOf(const QByteArray &method, const QByteArray &path)
{
    if (method == "POST") {
        if (path == "/v1/messages") {
            return DoorRoute::Messages;
        }
        if (path == "/v1/messages/count_tokens") {
            return DoorRoute::CountTokens;
        }
        if (path == "/v1/responses") {
            return DoorRoute::Responses;
        }
    } else if (method == "GET" && (path == "/v1/models" || path.startsWith("/v1/models/"))) {
        return DoorRoute::Models;
    }
    return DoorRoute::Unknown;
}

DoorWire doorWireOf(DoorRoute route, WireFormat providerFormat)
{
    switch (route) {
    case DoorRoute::Messages:
    case DoorRoute::CountTokens:
        return DoorWire::AnthropicMessages;
    case DoorRoute::Responses:
        return DoorWire::OpenAiResponses;
    case DoorRoute::Models:
    case DoorRoute::Unknown:
        break;
    }
    return providerFormat == WireFormat::AnthropicMessages ? DoorWire::AnthropicMessages : DoorWire::OpenAiResponses;
}

QByteArray doorErrorBody(DoorWire wire, int status, const QString &message)
{
    QJsonObject body;
    if (wire == DoorWire::AnthropicMessages) {
        body = {{"type"_L1, "error"_L1},
                {"error"_L1, QJsonObject{{"type"_L1, anthropicErrorType(status)}, {"message"_L1, message}}}};
    } else {
        body = {{"error"_L1, QJsonObject{{"message"_L1, message},
                                         {"type"_L1, openAiErrorType(status)},
                                         {"param"_L1, QJsonValue::Null},
                                         {"code"_L1, QJsonValue::Null}}}};
    }
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

QUrl doorUpstreamUrl(const QUrl &base, const QByteArray &path, const QByteArray &query)
{
    QString basePath = base.path();
    while (basePath.endsWith(u'/')) {
        basePath.chop(1);
    }
    QString rest = QString::fromUtf8(path);
    if (basePath.endsWith("/v1"_L1) && rest.startsWith("/v1/"_L1)) {
        rest.remove(0, 3);
    }
    QUrl url = endpointUrl(base, rest);
    if (!query.isEmpty()) {
        url.setQuery(QString::fromUtf8(query));
    }
    return url;
}

HttpHeaders doorUpstreamHeaders(const HttpHeaders &fromCli, const ProviderConfig &provider, const QString &apiKey)
{
    static const QByteArrayList dropped{
        "host",          "content-length", "expect", "accept-encoding", "content-encoding",
        "authorization", "x-api-key",      "cookie"};
    static const QByteArrayList cliWins{"content-type", "accept", "anthropic-version", "anthropic-beta"};
    QByteArrayList connectionScoped; // named by the CLI's Connection header: for its hop only
    for (const auto &[name, value] : fromCli) {
        if (name.compare("connection", Qt::CaseInsensitive) == 0) {
            for (const QByteArray &token : value.split(',')) {
                connectionScoped.append(token.trimmed().toLower());
            }
        }
    }
    HttpHeaders headers = providerHeaders(provider, apiKey);
    const qsizetype fromProvider = headers.size();
    const auto providerIndexOf = [&headers, fromProvider](const QByteArray &lowerName) -> qsizetype {
        for (qsizetype i = 0; i < fromProvider; ++i) {
            if (headers.at(i).first.toLower() == lowerName) {
                return i;
            }
        }
        return -1;
    };
    for (const auto &[name, value] : fromCli) {
        const QByteArray lower = name.toLower();
        if (isHopByHopHeader(lower) || dropped.contains(lower) || connectionScoped.contains(lower)) {
            continue;
        }
        const qsizetype existing = providerIndexOf(lower);
        if (existing < 0) {
            headers.emplaceBack(name, value);
        } else if (cliWins.contains(lower)) {
            headers[existing].second = value;
        }
    }
    return headers;
}

namespace {

/// Removes the system text blocks that are Claude Code's billing line ("x-anthropic-billing-header: ...").
void dropBillingLine(nlohmann::ordered_json &json)
{
    const auto system = json.find("system");
    if (system == json.end() || !system->is_array())
        return;
    auto &blocks = *system;
    for (auto it = blocks.begin(); it != blocks.end();) {
        const auto text = it->is_object() ? it->find("text") : it->end();
        const bool billing = it->is_object() && text != it->end() && text->is_string() &&
                             text->get<std::string>().rfind("x-anthropic-billing-header:", 0) == 0;
        it = billing ? blocks.erase(it) : it + 1;
    }
}

} // namespace

Result<DoorBodyRewrite> rewriteDoorRequestBody(DoorRoute route, const QByteArray &body, const QString &model,
                                               int maxOutputTokens, bool forPromptCache)
{
    // nlohmann's ordered_json, not QJsonObject: the body goes on with its fields in the CLI's order and its numbers
    // untouched, so the door changes nothing but what it means to change.
    nlohmann::ordered_json json = nlohmann::ordered_json::parse(body.cbegin(), body.cend(), nullptr, false);
    if (json.is_discarded() || !json.is_object()) {
        return Result<DoorBodyRewrite>::failure(u"The request body is not a JSON object"_s);
    }
    DoorBodyRewrite rewrite;
    if (const auto requested = json.find("model"); requested != json.end() && requested->is_string()) {
        rewrite.requestedModel = QString::fromStdString(requested->get<std::string>());
    }
    const auto stream = json.find("stream");
    rewrite.stream = stream != json.end() && stream->is_boolean() && stream->get<bool>();
    json["model"] = model.toStdString();
    if (maxOutputTokens > 0) {
        if (route == DoorRoute::Messages) {
            capOutputTokens(json, "max_tokens", maxOutputTokens);
            fitThinkingBudget(json);
        } else if (route == DoorRoute::Responses) {
            capOutputTokens(json, "max_output_tokens", maxOutputTokens);
        }
    }
    if (forPromptCache && route == DoorRoute::Messages)
        dropBillingLine(json);
    const std::string text = json.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    rewrite.body = QByteArray(text.data(), qsizetype(text.size()));
    return Result<DoorBodyRewrite>::success(std::move(rewrite));
}

} // namespace sf
