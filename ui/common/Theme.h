#pragma once

#include <QColor>
#include <QString>

class QApplication;

namespace sf {

/// The application's look: the system palette by default, or an explicit light or dark one.
class Theme final
{
public:
    enum class Mode { System, Light, Dark };

    static Mode modeFromName(const QString &name);
    static QString nameOf(Mode mode);
    static void apply(Mode mode);
    /// True when the current palette has light text on a dark window.
    static bool isDark();

    /// Status colours that keep their meaning on light and dark palettes and for colour-blind users
    /// (blue/orange rather than green/red).
    static QColor success();
    static QColor failure();
    static QColor muted();
    /// A table cell's background for a pass share in [0, 1]: from failure to success, mixed into the base colour
    /// so the text on it stays readable. The Runs grid and Compare's case matrix both use it.
    static QColor passShareBackground(double share);
    /// A cell that ended in an error rather than a verdict.
    static QColor errorBackground();
};

} // namespace sf
