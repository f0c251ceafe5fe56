#include "FolderUsage.h"

#include <QDirIterator>
#include <sys/stat.h>

namespace sf {

qint64 folderDiskBytes(const QString &path)
{
    qint64 total = 0;
    QDirIterator it(path, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        struct stat st = {};
        if (::lstat(QFile::encodeName(it.next()).constData(), &st) == 0)
            total += qint64(st.st_blocks) * 512; // st_blocks counts 512-byte units whatever the block size
    }
    return total;
}

} // namespace sf
