#pragma once

#include <QByteArray>
#include <QString>

namespace sf {

/// Writes @p data to @p path all-or-nothing (QSaveFile: a temporary file renamed into place), creating
/// missing parent folders. Returns an empty string on success, else a message naming the file.
QString writeFileAtomically(const QString &path, const QByteArray &data);

} // namespace sf
