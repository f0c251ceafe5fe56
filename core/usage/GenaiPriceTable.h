#pragma once

#include "PriceRates.h"
#include "common/Result.h"

#include <QDateTime>
#include <QString>
#include <memory>

namespace sf {

/**
 * pydantic's genai-prices table (MIT; its v2 `data.json`, the file Pydantic AI and Logfire price with): a list of
 * providers, each with its models, the rules that match a model id to them, and their prices per million tokens,
 * dated where a price changed and tiered where a long prompt costs more. Read as the file is, and looked up the way
 * genai-prices itself looks up: the first model of the provider whose rule matches the lower-cased id.
 */
class GenaiPriceTable final
{
public:
    GenaiPriceTable();

    /** Parses a table; errors name the file, the line where it can be told, and the problem. */
    static Result<GenaiPriceTable> fromJson(const QByteArray &json, const QString &fileName);

    /** The price of @p modelId at provider @p providerId in force at @p at (UTC); empty when the table has none. */
    std::optional<ModelRates> ratesFor(const QString &providerId, const QString &modelId, const QDateTime &at) const;
    bool hasProvider(const QString &providerId) const;

    int providerCount() const;
    int modelCount() const;

private:
    struct Provider;
    std::shared_ptr<const QList<Provider>> m_providers; // immutable once read: copies share it
};

} // namespace sf
