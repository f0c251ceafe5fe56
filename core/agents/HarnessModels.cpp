#include "HarnessModels.h"

#include "Harness.h"
#include "llm/ModelName.h"
#include "llm/ProviderRegistry.h"

namespace sf {

QString whyModelUnfitForHarness(const QString &harness, const QString &model, const ProviderRegistry &providers)
{
    const Result<ModelName> name = ModelName::parse(model);
    if (!name)
        return name.error;
    const QString provider = name.value->provider;
    if (provider == QLatin1String("local"))
        return {};
    const ProviderConfig *config = providers.find(provider);
    if (!config)
        return QStringLiteral("unknown provider \"%1\" in %2").arg(provider, model);
    if (harness == Harness::ClaudeCode && config->format != WireFormat::AnthropicMessages)
        return QStringLiteral("Claude Code speaks Anthropic's Messages API, and %1 is not an Anthropic-compatible "
                              "provider: choose an anthropic: model (ANTHROPIC_BASE_URL reaches any "
                              "Anthropic-compatible endpoint) or local:")
            .arg(model);
    if (harness == Harness::Codex && config->format != WireFormat::OpenAiChat)
        return QStringLiteral("Codex speaks OpenAI's Responses API, and %1 is not an OpenAI-compatible provider: "
                              "choose an openai:, generic: or local: model")
            .arg(model);
    return {};
}

QJsonObject harnessJson(const AgentCliBinary &binary)
{
    return {{QStringLiteral("name"), binary.harness},
            {QStringLiteral("version"), binary.version},
            {QStringLiteral("source"), binary.source},
            {QStringLiteral("path"), binary.path}};
}

} // namespace sf
