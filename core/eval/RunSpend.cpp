#include "RunSpend.h"

#include "common/Plural.h"
#include "usage/Pricing.h"

namespace sf {

void RunSpend::add(const ItemResult &result)
{
    if (!result.costUsd) {
        m_spentUsd += result.pricedPartUsd;
        ++m_unpricedItems;
        return;
    }
    m_spentUsd += *result.costUsd;
    if (result.isError())
        return; // a fault's cost says little of what an answered item costs
    for (const QString &of : QStringList{result.key.model + u'|' + result.key.arm, result.key.model}) {
        auto most = m_mostByModelAndArm.find(of);
        if (most == m_mostByModelAndArm.end())
            m_mostByModelAndArm.insert(of, *result.costUsd);
        else
            *most = std::max(*most, *result.costUsd);
    }
}

std::optional<double> RunSpend::mayCostUsd(const ItemKey &key, std::optional<double> firstGuess) const
{
    for (const QString &of : QStringList{key.model + u'|' + key.arm, key.model})
        if (const auto most = m_mostByModelAndArm.constFind(of); most != m_mostByModelAndArm.cend())
            return *most;
    return firstGuess;
}

QString RunSpend::describe(std::optional<double> capUsd) const
{
    const QString unpriced = plural(m_unpricedItems, QStringLiteral("1 item"), QStringLiteral("%n items"));
    QString text;
    if (m_unpricedItems > 0 && m_spentUsd == 0)
        text = QStringLiteral("spend unknown (%1 unpriced)").arg(unpriced);
    else if (m_unpricedItems > 0)
        text = QStringLiteral("%1 spent and %2 unpriced").arg(formatUsd(m_spentUsd), unpriced);
    else
        text = QStringLiteral("%1 spent").arg(formatUsd(m_spentUsd));
    if (capUsd)
        text += QStringLiteral(" of a %1 cap").arg(formatUsd(*capUsd));
    return text;
}

std::optional<double> firstItemGuessUsd(const QString &model, qint64 promptTokens, int maxOutputTokens)
{
    TokenUsage usage;
    usage.uncachedInput = promptTokens;
    usage.output = maxOutputTokens;
    return Pricing::costFor(model, usage);
}

} // namespace sf
