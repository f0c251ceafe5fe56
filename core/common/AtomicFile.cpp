#include "common/AtomicFile.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

namespace sf {

QString writeFileAtomically(const QString &path, const QByteArray &data)
{
    const QFileInfo info(path);
    if (!QDir().mkpath(info.absolutePath()))
        return QStringLiteral("%1: cannot create the folder %2").arg(path, info.absolutePath());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("%1: cannot open for writing: %2").arg(path, file.errorString());
    if (file.write(data) != data.size() || !commitSaveFile(file))
        return QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
    return {};
}

bool commitSaveFile(QSaveFile &file)
{
    // flush() reports the buffer's failed write; commit() alone would not look. Without commit() the
    // temporary file is removed when the QSaveFile goes, and errorString() keeps the system's reason.
    return file.flush() && file.commit();
}

} // namespace sf
