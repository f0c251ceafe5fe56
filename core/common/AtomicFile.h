#pragma once

#include <QByteArray>
#include <QString>

class QSaveFile;

namespace sf {

/// Writes @p data to @p path all-or-nothing (QSaveFile: a temporary file renamed into place), creating
/// missing parent folders. Returns an empty string on success, else a message naming the file.
QString writeFileAtomically(const QString &path, const QByteArray &data);

/// QSaveFile::commit() that keeps the old file when the last write of QSaveFile's own buffer fails
/// (disk full, file size limit). Qt 6.4 commits the truncated file in that case and reports success.
bool commitSaveFile(QSaveFile &file);

} // namespace sf
