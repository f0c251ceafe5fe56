#include "common/StatusMessages.h"

namespace sf {

StatusMessages &StatusMessages::instance()
{
    static StatusMessages messages;
    return messages;
}

void StatusMessages::show(const QString &message)
{
    Q_EMIT instance().message(message);
}

} // namespace sf
