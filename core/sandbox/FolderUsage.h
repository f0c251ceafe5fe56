#pragma once

#include <QString>

namespace sf {

/// The disk space a folder's files take, counted in allocated blocks (a sparse file counts what it really
/// holds), without following symbolic links; 0 for a folder that does not exist.
qint64 folderDiskBytes(const QString &path);

} // namespace sf
