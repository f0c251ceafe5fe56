#pragma once

#include "common/Result.h"

#include <QString>

namespace sf {

/**
 * A model named as `PROVIDER:MODEL`. The split is at the first colon only, because model ids
 * themselves may contain colons (`hf:moonshotai/Kimi-K2-Thinking:groq` routes to Groq).
 */
struct ModelName
{
    QString provider;
    QString model;

    static Result<ModelName> parse(const QString &text);
    QString toString() const;

    friend bool operator==(const ModelName &, const ModelName &) = default;
};

} // namespace sf
