#include "ProviderSettings.h"

#include "ProviderRegistry.h"

#include <QRegularExpression>
#include <QSettings>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace sf::ProviderSettings {

namespace {

const QStringList &builtinNames()
{
    static const QStringList names = [] {
        QStringList result;
        for (const ProviderConfig &provider : ProviderRegistry::builtinsFromEnvironment()) {
            result.append(provider.name);
        }
        return result;
    }();
    return names;
}

} // namespace

QString validate(const ProviderConfig &provider)
{
    static const QRegularExpression namePattern(u"^[a-z0-9][a-z0-9_-]*$"_s);
    if (!namePattern.match(provider.name).hasMatch()) {
        return u"A provider name uses lowercase letters, digits, '-' and '_' (it becomes the PROVIDER in PROVIDER:MODEL)"_s;
    }
    if (builtinNames().contains(provider.name)) {
        return u"'%1' is a built-in provider; choose another name"_s.arg(provider.name);
    }
    const QString scheme = provider.baseUrl.scheme();
    if (!provider.baseUrl.isValid() || provider.baseUrl.host().isEmpty() || (scheme != "http"_L1 && scheme != "https"_L1)) {
        return u"The base URL must be an http:// or https:// address, e.g. https://api.example.com/v1"_s;
    }
    if (provider.maxConcurrent < 0 || provider.requestsPerMinute < 0) {
        return u"Limits cannot be negative (0 means unlimited)"_s;
    }
    if (provider.connectTimeoutMs <= 0 || provider.firstByteTimeoutMs <= 0 || provider.idleTimeoutMs <= 0) {
        return u"Timeouts must be positive"_s;
    }
    return {};
}

Result<HttpHeaders> parseHeaderLines(const QString &text)
{
    HttpHeaders headers;
    static const QRegularExpression token(u"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"_s);
    const QStringList lines = text.split(u'\n');
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = lines.at(i).trimmed();
        if (line.isEmpty()) {
            continue;
        }
        const qsizetype colon = line.indexOf(u':');
        const QString name = colon > 0 ? line.left(colon).trimmed() : QString();
        if (!token.match(name).hasMatch()) {
            return Result<HttpHeaders>::failure(u"Header line %1 is not 'Name: value': %2"_s.arg(i + 1).arg(line));
        }
        headers.emplaceBack(name.toLatin1(), line.mid(colon + 1).trimmed().toUtf8());
    }
    return Result<HttpHeaders>::success(headers);
}

QString headerLines(const HttpHeaders &headers)
{
    QStringList lines;
    for (const auto &[name, value] : headers) {
        lines.append(QString::fromLatin1(name) + u": "_s + QString::fromUtf8(value));
    }
    return lines.join(u'\n');
}

QList<ProviderConfig> load(QSettings &settings)
{
    QList<ProviderConfig> providers;
    const int count = settings.beginReadArray(u"llm/providers"_s);
    for (int i = 0; i < count; ++i) {
        settings.setArrayIndex(i);
        ProviderConfig provider;
        provider.name = settings.value(u"name"_s).toString();
        provider.format = settings.value(u"format"_s).toString() == "anthropic"_L1 ? WireFormat::AnthropicMessages
                                                                                   : WireFormat::OpenAiChat;
        provider.baseUrl = QUrl(settings.value(u"baseUrl"_s).toString());
        provider.apiKeyRequired = false; // a self-hosted server may need none; a provider that does says so
        provider.limitsSetByUser = true;
        provider.maxConcurrent = settings.value(u"maxConcurrent"_s, 8).toInt();
        provider.requestsPerMinute = settings.value(u"requestsPerMinute"_s, 0).toInt();
        provider.connectTimeoutMs = settings.value(u"connectTimeoutMs"_s, provider.connectTimeoutMs).toInt();
        provider.firstByteTimeoutMs = settings.value(u"firstByteTimeoutMs"_s, provider.firstByteTimeoutMs).toInt();
        provider.idleTimeoutMs = settings.value(u"idleTimeoutMs"_s, provider.idleTimeoutMs).toInt();
        const Result<HttpHeaders> headers = parseHeaderLines(settings.value(u"headers"_s).toString());
        provider.extraHeaders = headers ? *headers.value : HttpHeaders();
        if (validate(provider).isEmpty()) {
            providers.append(provider);
        }
    }
    settings.endArray();
    return providers;
}

void save(QSettings &settings, const QList<ProviderConfig> &providers)
{
    settings.remove(u"llm/providers"_s);
    settings.beginWriteArray(u"llm/providers"_s, int(providers.size()));
    for (int i = 0; i < providers.size(); ++i) {
        const ProviderConfig &provider = providers.at(i);
        settings.setArrayIndex(i);
        settings.setValue(u"name"_s, provider.name);
        settings.setValue(u"format"_s,
                          provider.format == WireFormat::AnthropicMessages ? u"anthropic"_s : u"openai"_s);
        settings.setValue(u"baseUrl"_s, provider.baseUrl.toString());
        settings.setValue(u"headers"_s, headerLines(provider.extraHeaders));
        settings.setValue(u"maxConcurrent"_s, provider.maxConcurrent);
        settings.setValue(u"requestsPerMinute"_s, provider.requestsPerMinute);
        settings.setValue(u"connectTimeoutMs"_s, provider.connectTimeoutMs);
        settings.setValue(u"firstByteTimeoutMs"_s, provider.firstByteTimeoutMs);
        settings.setValue(u"idleTimeoutMs"_s, provider.idleTimeoutMs);
    }
    settings.endArray();
    settings.sync();
}

void applyTo(ProviderRegistry &registry, QSettings &settings)
{
    for (const ProviderConfig &provider : load(settings)) {
        registry.add(provider);
    }
    for (const QString &name : builtinNames()) {
        const std::optional<Limits> limits = builtinLimits(settings, name);
        const ProviderConfig *builtin = registry.find(name);
        if (!limits || !builtin) {
            continue;
        }
        ProviderConfig changed = *builtin;
        changed.maxConcurrent = limits->maxConcurrent;
        changed.requestsPerMinute = limits->requestsPerMinute;
        changed.limitsSetByUser = true;
        registry.add(changed);
    }
}

namespace {

QString limitsGroup(const QString &provider)
{
    return u"llm/builtinLimits/"_s + provider;
}

} // namespace

void saveBuiltinLimits(QSettings &settings, const QString &provider, const std::optional<Limits> &limits)
{
    settings.remove(limitsGroup(provider));
    if (limits) {
        settings.setValue(limitsGroup(provider) + u"/maxConcurrent"_s, std::max(0, limits->maxConcurrent));
        settings.setValue(limitsGroup(provider) + u"/requestsPerMinute"_s, std::max(0, limits->requestsPerMinute));
    }
    settings.sync();
}

std::optional<Limits> builtinLimits(QSettings &settings, const QString &provider)
{
    const QString key = limitsGroup(provider) + u"/maxConcurrent"_s;
    if (!settings.contains(key)) {
        return std::nullopt;
    }
    return Limits{std::max(0, settings.value(key).toInt()),
                  std::max(0, settings.value(limitsGroup(provider) + u"/requestsPerMinute"_s).toInt())};
}

} // namespace sf::ProviderSettings
