#pragma once

#include <QString>
#include <QStringList>

namespace sf {

/// Where the user's guide is on this machine, for Help → Documentation.
namespace documentation {

/// The folder a package installs it to, relative to the executable's folder (share/doc/skillforge beside bin/).
inline const QString InstalledFolder = QStringLiteral("../share/doc/skillforge");

/// The places README.md is looked for, first found wins: beside an installed executable (a .deb, an AppImage),
/// then in the source tree a development build runs from.
QStringList candidates(const QString &applicationDir);
/// The guide's README.md (it links the pages in docs/), or "" when none of candidates() holds it.
QString readme(const QString &applicationDir);
/// readme() for this executable.
QString readme();

} // namespace documentation

} // namespace sf
