#include "EffectiveConcurrency.h"

#include "llm/ChatClient.h"
#include "llm/ModelName.h"

#include <QStringList>

namespace sf {

QString effectiveConcurrencyText(const ChatClient &chat, const EvalConfig &config)
{
    QStringList providers;
    for (const QString &model : config.models) {
        const auto name = ModelName::parse(model);
        if (name.value && !providers.contains(name.value->provider))
            providers.append(name.value->provider);
    }
    QStringList parts;
    for (const QString &provider : std::as_const(providers)) {
        const ChatClient::ConcurrencyLimit limit = chat.concurrencyFor(provider, config.concurrency);
        parts.append(QStringLiteral("%1 %2 (%3)")
                         .arg(provider, limit.limit > 0 ? QString::number(limit.limit) : QStringLiteral("unlimited"),
                              limit.reason));
    }
    return QStringLiteral("concurrency %1: %2").arg(config.concurrency).arg(parts.join(QStringLiteral("; ")));
}

} // namespace sf
