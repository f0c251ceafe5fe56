#pragma once

#include "AgentCliInstall.h"

#include <QJsonObject>
#include <QString>

namespace sf {

class ProviderRegistry;

/**
 * Why @p model cannot be a student in @p harness, or "": Claude Code speaks Anthropic's Messages API, so its
 * models are anthropic:, local: (the embedded server serves /v1/messages) or any provider of that wire format;
 * Codex speaks OpenAI's Responses API: openai:, generic:, local: or any OpenAI-compatible provider.
 */
QString whyModelUnfitForHarness(const QString &harness, const QString &model, const ProviderRegistry &providers);

/// What run.json records of the harness: its name, the CLI's version, where the binary came from and its path.
QJsonObject harnessJson(const AgentCliBinary &binary);

} // namespace sf
