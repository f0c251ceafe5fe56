#pragma once

#include <QString>

namespace sf {

/**
 * The bundled sample project (an RMSNorm CUDA-kernel trace, the skill derived from it and a test
 * suite) is compiled into the program. It is copied to a writable folder before it is opened, so the
 * user can edit it freely and the original stays intact.
 */
class SampleProject final
{
public:
    /// Where the sample is copied: <app data>/sample-project.
    static QString defaultInstallPath();

    /// Copies the sample to @p folder unless it is there already. Returns an empty string on success,
    /// else the reason. The copy is made in a temporary sibling folder and renamed into place.
    static QString ensureInstalled(const QString &folder);
};

} // namespace sf
