#pragma once

#include <QLocale>
#include <QString>

namespace sf {

/// "1 step" or "3 steps": @p one for exactly one, else @p many with "%n" replaced by the count in the user's locale.
/// Either may hold further %1, %2... for .arg(). Qt's tr("%n step(s)") only drops the "(s)" through a translation
/// catalogue, which an English build does not ship.
inline QString plural(qint64 n, const QString &one, const QString &many)
{
    return n == 1 ? one : QString(many).replace(QStringLiteral("%n"), QLocale().toString(n));
}

} // namespace sf
