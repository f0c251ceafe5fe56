#pragma once

#include "common/Result.h"

#include <QByteArray>
#include <QString>

namespace sf {

/** What an installed price table holds, for the message that confirms it. */
struct PriceTableSummary
{
    int providers = 0;
    int models = 0;
    QString path; // where it was kept
};

/** Where a newer genai-prices table is fetched from when the user names none (its `data.json` on GitHub). */
QString defaultPriceTableUrl();

/**
 * Installs @p bytes, read from @p source (a file or URL, for the messages and `prices show`), as the maintained
 * price table `Pricing` uses from now on, after checking that it reads as a genai-prices table and prices both
 * Anthropic and OpenAI models. A table that does not read is refused with the reason and the one in use is kept;
 * the write is atomic, so a failure part-way leaves the old table whole.
 */
Result<PriceTableSummary> installPriceTable(const QByteArray &bytes, const QString &source);

} // namespace sf
